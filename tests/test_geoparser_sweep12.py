"""Classes of error found by session 12's sweep of real text (docs/geoparser.md, "Session 12"): lists of US
addresses one a line, a county's meeting calendar, a YAML dump of market stalls, JSON records. Each test is a
class of writing, with members written for the test, not lines of the swept text, and negatives that must keep
their reading."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a US state and ZIP are no German place and postcode written first --------------------------------------------

@pytest.mark.parametrize("text", [
    # a meeting calendar: the venue's address, then the next meeting's date
    "Board Room\n210 Oak Ave, Fresno, CA 93721\nMay 12, 2025 6:00 PM\nAgenda",
    # an event's place, then its date and time
    "Austin, TX 78701\nJun 3, 2025 9:00 AM",
    # the ZIP and the next line's highway in a table's cells
    "<table><tr><td>Reno, NV 89501</td></tr><tr><td>Highway 50, Fallon</td></tr></table>",
])
def test_us_state_and_zip_are_no_german_place_first(oldenburg, text):
    assert _found(oldenburg, text) == []


@pytest.mark.parametrize("text, expected", [
    # a place written before its postcode, the street on the next line: still read
    ("Bremen 28195\nAm Wall 120", [("Am Wall", None, "120", "28195", "Bremen", False)]),
    ("Oldenburg, 26122, Lange Straße 14", [("Lange Straße", None, "14", "26122", "Oldenburg", True)]),
])
def test_a_place_named_before_its_postcode_is_still_read(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


# -- the ZIP ending one line is no house number of a street on the next -------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # one address a line, the second without house number: only the first is an address
    ("118 Cedar Lane, Macon, GA 31201\nCotton Avenue, Eastman, GA 31023",
     [("Cedar Lane", None, "118", "31201", "Macon", False)]),
    # a route in the second line
    ("12 Lake Road, Duluth, MN 55802\nState Route 61 North, Two Harbors, MN 55616",
     [("Lake Road", None, "12", "55802", "Duluth", False)]),
    ("9 Elm Street, Salem, OR 97301\nOcean Highway, Lincoln City, OR 97367",
     [("Elm Street", None, "9", "97301", "Salem", False)]),
])
def test_zip_ending_a_line_is_no_house_number(us, text, expected):
    assert _found(us, text) == expected


def test_a_house_number_wrapped_before_its_street_is_still_joined(us):
    """Prose hard-wrapped in a page's source: the number at a line's end is the street's, no ZIP before it."""
    found = _found(us, "Our office is at the Tower Center, 2200\nRoss Avenue, Dallas, TX 75201.")
    assert [(s, n, z) for s, _u, n, z, _c, _r in found] == [("Ross Avenue", "2200", "75201")]


# -- letters escaped in data files, and YAML's folded strings -----------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a YAML dump written ASCII-only: the place's umlaut escaped, no postcode
    ('  owner:\n    name: "Anna Beck, Keramik Beck, Uferweg 12,  K\\xF6ln"\n    phone: 0221 123456\n',
     [("Uferweg", None, "12", None, "Köln", False)]),
    # the escape of JSON ("\u00fc"), a postcode before the place
    ('{"text": "Atelier Nord, Brunnenstra\\u00dfe 3, 80331 M\\u00fcnchen"}',
     [("Brunnenstraße", None, "3", "80331", "München", False)]),
    # a YAML string folded inside the place's name, the escape before the fold
    ('    description: "Hof Sommer, Grüner Weg 7, 48155 M\\xFC\\\n      nster, Tel. 0251 1234"\n',
     [("Grüner Weg", None, "7", "48155", "Münster", False)]),
    # folded after the place, YAML's escaped space starting the next line
    ('    description: "Laden am Markt, Marktstraße 2, 26122 Oldenburg,\\\n      \\ Tel. 0441 1234"\n',
     [("Marktstraße", None, "2", "26122", "Oldenburg", True)]),
    # folded after the comma, the place's line starting with YAML's escaped space
    ('    name: "Tee und Mehr, Lindenweg 9, \\\n      \\ M\\xFCnster"\n',
     [("Lindenweg", None, "9", None, "Münster", False)]),
    # an escaped no-break space after the postcode of a keyed record
    ('"streetAddress": "Rathausplatz 4",\n"postalCode": "50667\\u00a0",\n"addressLocality": "Köln"',
     [("Rathausplatz", None, "4", "50667", "Köln", False)]),
])
def test_escaped_letters_and_folds_of_data_strings(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


def test_escaped_no_break_space_before_a_zip(us):
    found = _found(us, '"location": "City Hall,\\u00a0200 E Main St.,\\u00a0Columbus, OH,\\u00a043215"')
    assert [(s, n, z, c) for s, _u, n, z, c, _r in found] == [("E Main St.", "200", "43215", "Columbus")]


@pytest.mark.parametrize("text, expected", [
    # a Markdown hard break: the next line at the margin is a line of its own
    ("Wann: 18 Uhr\\\nOrt: Lange Straße 14, 26122 Oldenburg",
     [("Lange Straße", None, "14", "26122", "Oldenburg", True)]),
])
def test_a_markdown_hard_break_is_no_fold(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


# -- a form's fields as PDF libraries give them: key and value in brackets inside the quotes -----------------------

@pytest.mark.parametrize("text, expected", [
    ('{"(Street)": "(400 Elm Avenue)", "(City)": "(Denver)", "(State)": "(CO)", "(ZIP)": "(80203)"}',
     [("Elm Avenue", None, "400", "80203", "Denver", True)]),
    # one field a line, in a test's expected values, with fields of no address around
    ('fields = {\n    "(Name)": "(Jane Roe)",\n    "(Address)": "(77 Pine St)",\n    "(City)": "(Seattle)",\n'
     '    "(State)": "(WA)",\n    "(Zip)": "(98101)",\n    "(Date)": "(01/02/2024)",\n}',
     [("Pine St", None, "77", "98101", "Seattle", True)]),
])
def test_pdf_form_fields_in_brackets(us, text, expected):
    assert _found(us, text) == expected


def test_a_value_that_only_starts_with_a_bracket_keeps_it(us):
    """A phone number's area code in brackets is no bracketed literal: the record reads as before."""
    text = '{"street": "400 Elm Avenue", "city": "Denver", "state": "CO", "zip": "80203", "phone": "(303) 555-0100"}'
    assert [(s, n, z) for s, _u, n, z, _c, _r in _found(us, text)] == [("Elm Avenue", "400", "80203")]


# -- sample streets make no address, whichever reader finds them --------------------------------------------------

@pytest.mark.parametrize("text", [
    "Defendant\n123 EXAMPLE STREET\nSPRINGFIELD, IL 62701\nPlaintiff",                 # a court record's placeholder
    '{"street": "1234 Any Street", "city": "Boise", "state": "ID", "zip": "83702"}',    # a keyed record
    "Ship to: 500 Test Ave., Tulsa, OK 74103",                                         # a test's made-up street
    "Name,Street,City,State,Zip\nJane Roe,42 Sample Road,Austin,TX,78701",             # a CSV row
])
def test_sample_streets_are_no_addresses(us, text):
    assert _found(us, text) == []


@pytest.mark.parametrize("text, expected", [
    # words that only contain a sample word's letters
    ("400 Testa Road, Denver, CO 80203", [("Testa Road", None, "400", "80203", "Denver", True)]),
    ("75 Anystone Lane, Boise, ID 83702", [("Anystone Lane", None, "75", "83702", "Boise", True)]),
])
def test_streets_like_sample_words_stay(us, text, expected):
    assert _found(us, text) == expected


# -- the label of the next field on the place's line is no word of the place --------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Wo: Werkstatt, Lindenallee 3, 39104 Magdeburg Wer: alle ab 12 Jahren",
     [("Lindenallee", None, "3", "39104", "Magdeburg", False)]),
    ("Ort: Gartenweg 8, 37073 Göttingen Eintritt: frei", [("Gartenweg", None, "8", "37073", "Göttingen", False)]),
    # a place of two words, then a colon: the place stays whole
    ("Ort: Louisenstraße 12, 61348 Bad Homburg: Einlass ab 18 Uhr",
     [("Louisenstraße", None, "12", "61348", "Bad Homburg", False)]),
])
def test_label_after_the_place_is_no_part_of_it(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


# -- the city written first in prose, the street after it joined by a preposition or in brackets ------------------

@pytest.mark.parametrize("text, expected", [
    ("Wir treffen uns jeden Mittwoch in Oldenburg in der Haarenstraße 20.",
     [("Haarenstraße", None, "20", None, "Oldenburg", True)]),
    ("Die Ausstellung ist ab Sonntag in Oldenburg (Kleine Straße 9) zu sehen.",
     [("Kleine Straße", None, "9", None, "Oldenburg", True)]),
    ("Das nächste Treffen ist um 18 Uhr in Bremen in der Sielwallstraße 12 (im Hinterhof).",
     [("Sielwallstraße", None, "12", None, "Bremen", False)]),
])
def test_city_first_in_prose_then_the_street(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    "Wir wohnen seit 2010 in Oldenburg in der Nähe 5 Minuten vom Bahnhof.",   # no street word
    "Hotels in Berlin in der Friedrichstraße 100 Meter vom Bahnhof",           # the number starts a measure
    "In Oldenburg im Jahr 2020 wurden 500 Bäume gepflanzt.",
])
def test_prose_after_a_city_is_no_street(oldenburg, text):
    assert _found(oldenburg, text) == []


# -- quoted keys of words, a spreadsheet's columns as JSON keys ----------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('{"Street Address": "410 Pine Street", "City": "Tulsa", "State": "OK", "Zip Code": "74103"}',
     [("Pine Street", None, "410", "74103", "Tulsa", True)]),
    ('{"(Mailing Address)": "(88 Oak Lane)", "(City)": "(Boise)", "(State)": "(ID)", "(Postal Code)": "(83702)"}',
     [("Oak Lane", None, "88", "83702", "Boise", True)]),
])
def test_quoted_keys_of_words(us, text, expected):
    assert _found(us, text) == expected


def test_quoted_keys_of_words_that_name_no_part(oldenburg):
    assert _found(oldenburg, '{"Display Name": "Bar 12", "Max Number": "12345", "Item Code": "26122"}') == []


# -- Google's postal address keys (addressLines, locality, administrativeArea) -------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('{"address": {"regionCode": "US", "administrativeArea": "TX", "locality": "Austin", "postalCode": "78701", '
     '"addressLines": "500 Congress Ave"}}', [("Congress Ave", None, "500", "78701", "Austin", True)]),
    ('{"administrativeArea": "CO", "locality": "Denver", "addressLines": "1437 Bannock St"}',
     [("Bannock St", None, "1437", None, "Denver", True)]),
])
def test_google_postal_address_keys(us, text, expected):
    assert _found(us, text) == expected


# -- fields of a line separated by dashes: the place is the last one -----------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Clerk's Office - 77 Pine St. - Bend, OR 97701", [("Pine St.", None, "77", "97701", "Bend", False)]),
    ("Sheriff - 12 Oak St. - County Annex - St. Helens, OR 97051",
     [("Oak St.", None, "12", "97051", "St. Helens", False)]),
])
def test_dashes_between_fields_keep_the_place_alone(us, text, expected):
    assert _found(us, text) == expected


# -- a phone number above a place line is no house number and street ----------------------------------------------

@pytest.mark.parametrize("text", [
    "Defendant\n971 555-0147(H)\nSALEM, OR 97301\nDOB: 1980",
    "Plaintiff\n503 555-0199(W)\nPORTLAND, OR 97213",   # in the region, in capitals
])
def test_phone_number_above_a_place_is_no_street(us, text):
    assert _found(us, text) == []


def test_a_queens_house_number_with_a_dash_stays(us):
    found = _found(us, "Office: 123-45 Queens Blvd, New York, NY 11375")
    assert [(s, n, z) for s, _u, n, z, _c, _r in found] == [("Queens Blvd", "123-45", "11375")]


# -- a height in feet and inches is no house number zero ----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Height/Weight\n5' 0\", 120 lbs\nhome street\nSeattle, WA 98101",
    "5' 0\"\n140 lbs street\nDenver, CO 80203",
])
def test_height_is_no_house_number_zero(us, text):
    assert _found(us, text) == []
