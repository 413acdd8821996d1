"""Ways of writing German addresses probed after held-out 16 (session 10: Deutsche Bahn station rows, BO4E JSON, a
JOSS paper; the part itself had no error). Shapes named by issue 10 that the part did not hold were then written
around its addresses and read: each test is a class of writing that failed, with members written for the test,
not snippets of the corpus."""

from __future__ import annotations

import time

import pytest

from geofocus.geoparser.reshape import reshape


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.in_region) for a in parser.parse(text).all_addresses]


# -- LaTeX: "\\" (and \newline, \par, \\[2mm]) between the lines of an address ------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a KOMA-Script letterhead
    (r"\setkomavar{fromaddress}{Bahnhofsplatz 12d\\26122 Oldenburg}",
     ("Bahnhofsplatz", "12d", "26122", "Oldenburg", True)),
    # a title page: spaces around the breaks, a bold name first, the country last
    (r"\textbf{Institut f\"ur Informatik} \\ Escherweg 2 \\ 26121 Oldenburg \\ Germany",
     ("Escherweg", "2", "26121", "Oldenburg", True)),
    # umlauts and sharp s as macros, an en dash in the range of numbers, the break with a length
    (r"Ammerl\"ander Heerstra\ss e 114--118\\[2mm] D-26129 Oldenburg",
     ("Ammerländer Heerstraße", "114-118", "26129", "Oldenburg", True)),
    (r"Ammerl{\"a}nder Heerstra{\ss}e 114--118 \\* 26129 Oldenburg (Oldb)",
     ("Ammerländer Heerstraße", "114-118", "26129", "Oldenburg", True)),
    # the break at a line's end, inside a tabular
    ("\\begin{tabular}{l}\nSchloßplatz 1 \\\\\n26122 Oldenburg \\\\\n\\end{tabular}",
     ("Schloßplatz", "1", "26122", "Oldenburg", True)),
    # \newline and \par as the break; an address of another city
    (r"Hauptstra\ss e 5\newline 10115 Berlin", ("Hauptstraße", "5", "10115", "Berlin", False)),
    (r"\address{Am Wall 140 \par 28195 Bremen}", ("Am Wall", "140", "28195", "Bremen", False)),
])
def test_latex_line_breaks(oldenburg, text, expected):
    assert expected in _found(oldenburg, text)


def test_latex_breaks_leave_escaped_json_alone(oldenburg):
    # Two backslashes before "n", a quote or "u" are the escapes of JSON inside JSON, not a LaTeX break: the
    # address in them is read as before, and a quoted name keeps its first letter (no "Ö" from \"O).
    text = r'{"a": "{\"name\": \"Oldenburg\", \"adr\": \"Bahnhofsplatz 12d\\n26122 Oldenburg\"}", "p": "C:\\tmp"}'
    assert ("Bahnhofsplatz", "12d", "26122", "Oldenburg", True) in _found(oldenburg, text)
    assert "Ö" not in (reshape(r'"C:\\data", \"Oldenburg\" \"Amt\"') or "")


def test_latex_without_address_finds_nothing(oldenburg):
    assert _found(oldenburg, r"\section{Oldenburg}\\ Die Stadt hat 170\,000 Einwohner\\ \textbf{26} Stadtteile") == []


def test_latex_breaks_linear_time():
    # a long run of "\\" and of backslashes with letters: one pass each, no backtracking
    for text in ("\\\\" * 200_000, "\\\\u" * 100_000 + "x", "\\ss" * 100_000, "{\\\"a}" * 100_000):
        start = time.process_time()
        reshape(text)
        assert time.process_time() - start < 2.0


# -- letters escaped in string literals: "Stra\u00dfe" (JSON, JavaScript), "Stra\xdfe" (a Python 2 repr) ------------

@pytest.mark.parametrize("text, expected", [
    # JSON written with ensure_ascii, keys naming the parts, outside any script element
    ('{"streetAddress": "Ammerl\\u00e4nder Heerstra\\u00dfe 114", "postalCode": "26129",'
     ' "addressLocality": "Oldenburg"}',
     ("Ammerländer Heerstraße", "114", "26129", "Oldenburg", True)),
    # one string in a JavaScript object, a "\n" escape between the lines too
    ('const office = {adresse: "K\\u00fcpkersweg 70\\n26129 Oldenburg", lat: 53.15};',
     ("Küpkersweg", "70", "26129", "Oldenburg", True)),
    # escaped twice (JSON inside JSON), upper-case hex digits
    ('{"payload": "{\\"address\\": \\"Schlo\\\\u00DFplatz 1, 26122 Oldenburg\\"}"}',
     ("Schloßplatz", "1", "26122", "Oldenburg", True)),
    # a Python 2 repr of a dict: "\xfc", "\xdf"
    ("{u'strasse': u'D\\xfcsseldorfer Stra\\xdfe', u'hausnr': u'12', u'plz': u'10719', u'ort': u'Berlin'}",
     ("Düsseldorfer Straße", "12", "10719", "Berlin", False)),
    # an emoji as a surrogate pair before the address stays as written
    ('"\\ud83c\\udfe0 Gottorpstra\\u00dfe 8, 26122 Oldenburg"', ("Gottorpstraße", "8", "26122", "Oldenburg", True)),
])
def test_escaped_letters_in_string_literals(oldenburg, text, expected):
    assert expected in _found(oldenburg, text)


def test_control_escapes_stay():
    # "\x1b" (an ANSI colour) and lone surrogates are no letters: left as written
    out = reshape('"\\x1b[0m", "\\ud83c", "Stra\\u00dfe"') or ""
    assert "\\x1b" in out and "\\ud83c" in out and "Straße" in out


def test_escapes_linear_time():
    for text in ("\\" * 1_000_000, "\\\\u" * 300_000 + "x", "\\x" * 500_000, "\\u00e4" * 300_000):
        start = time.process_time()
        reshape(text)
        assert time.process_time() - start < 2.0


# -- string literals with a prefix: u'...' (a Python 2 repr, old fixtures), b'...', r'...' ------------------------

@pytest.mark.parametrize("text, expected", [
    ("{u'strasse': u'Bahnhofsplatz', u'hausnummer': u'12d', u'plz': u'26122', u'ort': u'Oldenburg (Oldb)'}",
     ("Bahnhofsplatz", "12d", "26122", "Oldenburg", True)),
    # positional arguments of a fixture loader, the street after the place
    ("loader.save(create_address(7, u'DE', u'26121', u'Oldenburg', u'Escherweg', u'2', True))",
     ("Escherweg", "2", "26121", "Oldenburg", True)),
    # bytes in a test, a street and place of another city
    ("assert parse(b'Am Wall 140', b'28195 Bremen') == expected", ("Am Wall", "140", "28195", "Bremen", False)),
])
def test_prefixed_string_literals(oldenburg, text, expected):
    assert expected in _found(oldenburg, text)


def test_prefix_letters_in_prose_stay():
    # an apostrophe after a word ("Peter's", "for 'x'") is no string prefix
    assert reshape("Peter's Laden liegt nicht weit von hier, sagt er") is None


# -- Open Graph business tags in the head: the page's own address, never in its visible text ----------------------

_OG_PAGE = """<html><head><title>Theater am Wall</title>
<meta property="og:type" content="business.business">
<meta property="business:contact_data:street_address" content="{street}">
<meta property="business:contact_data:locality" content="{city}">
<meta property="business:contact_data:postal_code" content="{postcode}">
<meta property="business:contact_data:country_name" content="{country}">
</head><body><h1>Spielplan</h1><p>Heute: Faust.</p></body></html>"""


@pytest.mark.parametrize("fields, expected", [
    (dict(street="Theaterwall 28", city="Oldenburg", postcode="26122", country="Germany"),
     ("Theaterwall", "28", "26122", "Oldenburg", True)),
    (dict(street="Ammerl&auml;nder Heerstra&szlig;e 114-118", city="Oldenburg (Oldb)", postcode="26129",
          country="Deutschland"), ("Ammerländer Heerstraße", "114-118", "26129", "Oldenburg", True)),
    (dict(street="Am Wall 140", city="Bremen", postcode="28195", country="DE"),
     ("Am Wall", "140", "28195", "Bremen", False)),
])
def test_opengraph_business_tags(oldenburg, fields, expected):
    assert _found(oldenburg, _OG_PAGE.format(**fields)) == [expected]


def test_opengraph_older_tags_any_attribute_order(oldenburg):
    page = ('<meta content="Escherweg 2" property="og:street-address"/>'
            "<meta content='26121' property='og:postal-code'/><meta name=\"og:locality\" content=\"Oldenburg\"/>"
            "<p>OFFIS</p>")
    assert _found(oldenburg, page) == [("Escherweg", "2", "26121", "Oldenburg", True)]


def test_opengraph_us_tags(us):
    country = '<meta property="business:contact_data:country_name"'
    page = _OG_PAGE.format(street="1600 Main St", city="Houston", postcode="77002", country="USA").replace(
        country, '<meta property="business:contact_data:region" content="TX">' + country)
    assert [(a.house_number, a.street, a.postcode, a.city, a.in_region) for a in us.parse(page).all_addresses] == [
        ("1600", "Main St", "77002", "Houston", True)]


def test_opengraph_without_street_or_other_country(oldenburg):
    # a locality alone or a street alone is no address; another country's business is not read as a German one
    assert _found(oldenburg, '<meta property="business:contact_data:locality" content="Oldenburg"><p>x</p>') == []
    assert _found(oldenburg, '<meta property="og:street-address" content="Theaterwall 28"><p>x</p>') == []
    assert _found(oldenburg, _OG_PAGE.format(street="Rotenturmstraße 4", city="Wien", postcode="1010",
                                             country="Austria")) == []


def test_opengraph_tags_linear_time(oldenburg):
    page = '<meta property="business:contact_data:street_address" ' * 20_000 + "<p>x</p>"
    start = time.process_time()
    oldenburg.parse(page)
    assert time.process_time() - start < 2.0


@pytest.mark.parametrize("text", [
    "Stra\\u00dfe " * 3000 + "K\\u00fcpkersweg",                    # a new escape after the first thousand
    "Stra\\u00dfe \\\\u00e4 \\\\\\u00f6",                             # escapes of escaped text
    "\\ud83c\\udfe0 Schlo\\u00dfplatz \\x1b[0m Stra\\xdfe",           # a surrogate pair, a control escape
    "".join(f"\\u00{c:02x}" for c in range(0xc0, 0x100)) * 3,          # many distinct escapes
])
def test_escape_decoding_shortcut_matches_the_general_way(text):
    from geofocus.geoparser.reshape import _U_ESCAPE, _unescape_u, unescape_letters
    assert unescape_letters(text) == _U_ESCAPE.sub(_unescape_u, text)
