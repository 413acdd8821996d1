"""Property-based tests: no input crashes the parser; time grows linearly."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geofocus.geoparser import GeoParser
from geofocus.geoparser.digits import FIVE_DIGITS, FiveDigits
from geofocus.geoparser.text import html_to_text
from geofocus.regions import load_region

OLDENBURG = GeoParser(load_region("oldenburg"))
US = GeoParser(load_region("us-top100"))

# Fragments that exercise every code path: tags, entities, structured data
# markers, postcodes, city names, street suffixes, numbers, separators.
FRAGMENTS = [
    "<", ">", "</", "<br>", "<td>", "<p>", "<script>", "</script>", "<!--", "-->", "<style>", "&amp;", "&#",
    "&szlig;", "\n", " ", ",", "·", "-", "–", "/", "D-", "26122", "23758", "12345", "0441", " Oldenburg",
    "Oldenburg (Oldb)", " in Holstein", "Landkreis ", "Schloßplatz", "straße", "Str.", " Am ", " An den ",
    "12a", "30-32", "5/7", "Musterstraße", "Tel.", '<script type="application/ld+json">', '{"address":',
    '"streetAddress":"', "itemprop", 'itemtype="PostalAddress"', "vcard", 'class="adr"', "geo.position",
    "1600 Main St", ", Austin, TX 78701", " NY ", "Ste 200", "İ", "\x00", "\u202f", "ß", "\ud7ff",
]
markup = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=20)), max_size=60).map("".join)


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(markup)
def test_no_input_crashes_the_parser(page):
    for parser in (OLDENBURG, US):
        result = parser.parse(page)
        assert result.relevant == bool(result.addresses)
        for address in result.all_addresses:
            assert address.street and address.house_number
            address.to_dict(with_region=True)


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(alphabet="0123456789 ,\n-a\u0661\u00b2", max_size=60), st.integers(0, 20))
def test_the_shared_five_digit_record_answers_as_a_search_of_the_text(text, stop):
    # The row reader searches the postcode reader's record of the page text (geoparser.digits), which
    # may have stopped early (the page's budget): each answer must be the regex search's.
    digits = FiveDigits(text)
    for seen, _start in enumerate(digits.scan()):
        if seen >= stop:
            break
    for pos in range(len(text) + 2):
        match = FIVE_DIGITS.search(text, pos)
        assert digits.search(pos) == (match.start() if match is not None else None), (text, pos)


@settings(max_examples=200, deadline=None, database=None)
@given(st.text(max_size=400))
def test_text_extraction_never_grows_the_text_much(text):
    assert len(html_to_text(text)) <= len(text) + 16


ADVERSARIAL = [
    "Schloßplatz 1 " * 3,  # street + number runs without postcode
    "<script " * 5,  # unclosed scripts
    "<" * 10,
    "26122 " * 5,  # postcodes without place
    "Oldenburg 1, " * 4,  # city mentions with numbers
    "Oldenburg, Am Markt " * 3,  # city-first forms without numbers
    "Am An den In der Zum " * 2,  # prepositions
    "aaaaaaaaaaStraßeStraßeStraße " * 2,
    "12-12-12-12/12/12 " * 3,
    "1600 Main St Ste " * 3 + "TX ",
    '<div itemscope itemtype="x"><span itemprop="streetAddress">' * 2,
    ": " * 8,  # colons: each could start a YAML value
    "address: " + "x" * 200 + "\n",  # YAML values longer than a value can be
    "city: Austin\nstreet: 1 Main St\nzip: 78701\n",  # YAML records without end
]


def _time_parse(parser: GeoParser, page: str) -> float:
    t0 = time.process_time()
    parser.parse(page)
    return time.process_time() - t0


@pytest.mark.parametrize("unit", ADVERSARIAL)
def test_adversarial_input_scales_linearly(unit):
    small = unit * (250_000 // len(unit))
    large = unit * (1_000_000 // len(unit))
    for parser in (OLDENBURG, US):
        t_small = max(_time_parse(parser, small), 0.005)
        t_large = _time_parse(parser, large)
        # 4x the input: a linear parser takes ~4x; quadratic would take ~16x.
        assert t_large < 8 * t_small + 0.05, (unit, t_small, t_large)


def test_five_megabytes_of_adversarial_text_finish_in_seconds():
    page = "".join(ADVERSARIAL) * (5_000_000 // len("".join(ADVERSARIAL)))
    assert len(page) >= 4_900_000
    assert _time_parse(OLDENBURG, page) < 20
