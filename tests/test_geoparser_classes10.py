"""Classes of writing left open by session 9 (issue 10), each a rule with members written for the test, not
snippets of the corpus (the real snippets that showed them are in tests/data/realtext)."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.house_number, a.street, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- 1. a US mail stop is the unit (usaddress labels "msc 24" as the occupancy, like a suite) -----------------

@pytest.mark.parametrize("text, expected", [
    ("2020 Harbor Drive, MS 27\nSan Diego, CA 92101",
     ("2020", "Harbor Drive", "MS 27", "92101", "San Diego", True)),
    ("4100 Ocean Blvd, M/S 12, Long Beach, CA 90802",
     ("4100", "Ocean Blvd", "M/S 12", "90802", "Long Beach", True)),
    ("<p>9485 Aero Drive<br>Mail Stop 7A<br>San Diego, CA 92123</p>",
     ("9485", "Aero Drive", "Mail Stop 7A", "92123", "San Diego", True)),
    ("Board Office, One Civic Plaza, MS: 40-2-1, Los Angeles, CA 90012",
     ("One", "Civic Plaza", "MS: 40-2-1", "90012", "Los Angeles", True)),
    ("Records, 301 Oak Ave, Mail Code 1234, Phoenix, AZ 85004",
     ("301", "Oak Ave", "Mail Code 1234", "85004", "Phoenix", True)),
    ("301 Oak Ave MS 1234\nPhoenix, AZ 85004",
     ("301", "Oak Ave", "MS 1234", "85004", "Phoenix", True)),
    ("12 Main St, Mailstop C-3, Denver, CO 80202",
     ("12", "Main St", "Mailstop C-3", "80202", "Denver", True)),
    ("Planning, 12 Elm St., M.S. B-7, Austin, TX 78701",
     ("12", "Elm St.", "M.S. B-7", "78701", "Austin", True)),
    ("700 Main Ave, MSC 3, Houston TX 77002",
     ("700", "Main Ave", "MSC 3", "77002", "Houston", True)),
    ("2020 Harbor Drive, Mail Stop #27, San Diego, CA 92101",
     ("2020", "Harbor Drive", "Mail Stop #27", "92101", "San Diego", True)),
    ('{"address1": "2020 Harbor Drive", "address2": "Mail Stop 27", "city": "San Diego", "state": "CA", '
     '"zip": "92101"}', ("2020", "Harbor Drive", "Mail Stop 27", "92101", "San Diego", True)),
])
def test_mail_stop_is_the_unit(us, text, expected):
    assert expected in _found(us, text)


def test_suite_and_mail_stop_keep_the_suite(us):
    # One unit field: the suite written first stays, the mail stop after it is not glued to it.
    assert [f[2] for f in _found(us, "12 Main St, Suite 4, MS 3, Denver, CO 80202")] == ["Suite 4"]


def test_state_ms_is_no_mail_stop(us):
    # "MS" before a ZIP is Mississippi, not a mail stop.
    found = _found(us, "400 High St., Jackson, MS 39201")
    assert [(f[1], f[2], f[4]) for f in found] == [("High St.", None, "Jackson")]


def test_mail_stop_needs_a_digit(us):
    # "MS Office" has no number: no unit.
    found = _found(us, "12 College Rd, MS Office, Seattle, WA 98101")
    assert all(f[2] is None for f in found)


# -- 2. a room, suite, building, floor or mail stop written before the house number is the unit ---------------

@pytest.mark.parametrize("text, expected", [
    ("Where: Municipal Building Room-310, 200 Holliday Street Baltimore, MD 21202",
     ("200", "Holliday Street", "Room-310", "21202", "Baltimore", True)),
    ("Suite 200, 123 Main St, Houston, TX 77002",
     ("123", "Main St", "Suite 200", "77002", "Houston", True)),
    ("Building 4, 500 Harbor Blvd, Oakland, CA 94607",
     ("500", "Harbor Blvd", "Building 4", "94607", "Oakland", True)),
    ("Bldg. 7\n500 Oak Ave\nAustin, TX 78701",
     ("500", "Oak Ave", "Bldg. 7", "78701", "Austin", True)),
    ("Floor 3, 77 Pine Rd, Denver, CO 80202",
     ("77", "Pine Rd", "Floor 3", "80202", "Denver", True)),
    ("#300, 500 Oak Ave, Austin, TX 78701",
     ("500", "Oak Ave", "#300", "78701", "Austin", True)),
    ("Mail Stop 12, 1 Civic Center Plaza, Santa Ana, CA 92701",
     ("1", "Civic Center Plaza", "Mail Stop 12", "92701", "Santa Ana", True)),
    ("SUITE 300, 500 OAK AVE, AUSTIN, TX 78701",
     ("500", "OAK AVE", "SUITE 300", "78701", "Austin", True)),
])
def test_unit_before_the_house_number(us, text, expected):
    assert expected in _found(us, text)


@pytest.mark.parametrize("text", [
    "Call 512-555-0100 #2, 500 Oak Ave, Austin, TX 78701",   # a phone extension
    "Ticket #45, 500 Oak Ave, Austin, TX 78701",            # a number after a word
    "Annex, Building 3 1200 Main St., Houston, TX 77002",   # the building's number is part of its name
    "Invoice: #123\n500 Oak Ave\nAustin, TX 78701",          # a "#" number after a label
    "500 Oak Ave, Austin, TX 78701, #4",                    # a "#" after the ZIP: a list's number, not a unit
    "Biloxi, MS 39530, 500 Oak Ave, Austin, TX 78701",      # a state and ZIP before, no mail stop
])
def test_no_unit_before_the_house_number(us, text):
    found = _found(us, text)
    assert found and all(f[2] is None for f in found)


# -- 3. markup escaped inside a data string separates the address's lines -------------------------------------

@pytest.mark.parametrize("text", [
    r'{"venue": "Civic Center\u003cbr/\u003e1 Dr Carlton B Goodlett Pl\u003cbr/\u003eSan Francisco, CA 94102"}',
    r'{"venue": "Civic Center\u003Cbr\u003E1 Dr Carlton B Goodlett Pl\u003Cbr\u003ESan Francisco, CA 94102"}',
    '<td>{"venue": "Civic Center&lt;br&gt;1 Dr Carlton B Goodlett Pl&lt;br&gt;San Francisco, CA 94102"}</td>',
    '<p>Civic Center&lt;br /&gt;1 Dr Carlton B Goodlett Pl&lt;br /&gt;San Francisco, CA 94102</p>',
    r'"{\"venue\": \"Civic Center\\n1 Dr Carlton B Goodlett Pl\\nSan Francisco, CA 94102\"}"',
    r'{"venue": "\u003cp\u003eCivic Center\u003c/p\u003e\u003cp\u003e1 Dr Carlton B Goodlett Pl\u003c/p\u003e'
    r'\u003cp\u003eSan Francisco, CA 94102\u003c/p\u003e"}',
])
def test_escaped_markup_between_lines(us, text):
    found = _found(us, text)
    assert [(f[0], f[1], f[3], f[4], f[5]) for f in found] == [
        ("1", "Dr Carlton B Goodlett Pl", "94102", "San Francisco", True)]


def test_escaped_markup_without_zip(us):
    # An address without ZIP after an escaped break (the state anchors it), with the room before the number.
    found = _found(us, r'"Description": "City Hall, Room #12\u003cbr/\u003e1221 SW 4th Avenue, Portland, OR ",')
    assert [(f[0], f[1], f[2], f[3], f[4]) for f in found] == [("1221", "SW 4th Avenue", "Room #12", None, "Portland")]


def test_escaped_inline_tag_is_a_space(us):
    found = _found(us, r'{"venue": "\u003cb\u003e600 Main St\u003c/b\u003e, Dallas, TX 75202"}')
    assert [(f[0], f[1], f[3]) for f in found] == [("600", "Main St", "75202")]


# -- 4. a place (the metro area) or the country between the state and the ZIP: the ZIP is the address's, the city
# the one before the state; nothing is invented (no ZIP, no state) ---------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("12131 113th Ave NE\nKirkland, WA, Seattle 98034-6944",
     ("12131", "113th Ave NE", None, "98034", "Kirkland", False)),
    ("<p>500 Bellevue Way NE<br/> Bellevue, WA, Seattle 98004</p>",
     ("500", "Bellevue Way NE", None, "98004", "Bellevue", False)),
    ("2000 Ross Ave, Dallas, TX, Dallas 75201",
     ("2000", "Ross Ave", None, "75201", "Dallas", True)),
    ("900 Congress Ave, Austin, TX, USA 78701",
     ("900", "Congress Ave", None, "78701", "Austin", True)),
    ("1 Infinite Loop, Cupertino, CA, Silicon Valley 95014",
     ("1", "Infinite Loop", None, "95014", "Cupertino", False)),
])
def test_place_between_state_and_zip(us, text, expected):
    assert _found(us, text) == [expected]


def test_zip_on_the_next_line_after_a_place_is_not_taken(us):
    # The ZIP must stand on the same line as the place after the state: no ZIP taken from a later line.
    found = _found(us, "500 Pine St, Bellevue, WA, Seattle\n98004 is our ZIP")
    assert all(f[3] != "98004" for f in found)


# -- 5. German: small letters, the place and postcode before the street, the postcode line first; a number line is
# no house number -----------------------------------------------------------------------------------------------

def _de(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.in_region) for a in parser.parse(text).all_addresses]


@pytest.mark.parametrize("text, expected", [
    ("schloßplatz 1, 26122 oldenburg", ("Schloßplatz", "1", "26122", "Oldenburg", True)),
    ("<p>heiligengeiststraße 6<br>26121 oldenburg</p>", ("Heiligengeiststraße", "6", "26121", "Oldenburg", True)),
    ("26135 oldenburg, bremer straße 12", ("Bremer Straße", "12", "26135", "Oldenburg", True)),
    ("anschrift: theodor-heuss-straße 12, 26129 oldenburg (oldb)",
     ("Theodor-Heuss-Straße", "12", "26129", "Oldenburg", True)),
    ("königstraße 10, 70173 stuttgart", ("Königstraße", "10", "70173", "Stuttgart", False)),
    ("kontakt\nam markt 1\n28195 bremen", ("Am Markt", "1", "28195", "Bremen", False)),
])
def test_german_address_in_small_letters(oldenburg, text, expected):
    assert _de(oldenburg, text) == [expected]


def test_small_letters_elsewhere_stay(oldenburg):
    # A postcode-like number followed by small words without a street: nothing is read.
    assert _de(oldenburg, "we have 26122 users and 5 servers") == []


@pytest.mark.parametrize("text, expected", [
    ("Oldenburg, 26121, Heiligengeiststraße 6", ("Heiligengeiststraße", "6", "26121", "Oldenburg", True)),
    ("Standort: Bremen, 28195, Am Markt 1", ("Am Markt", "1", "28195", "Bremen", False)),
    ("Oldenburg; 26122; Schloßplatz 1", ("Schloßplatz", "1", "26122", "Oldenburg", True)),
    ("<td>Essen, 45127, Freiheit 5</td>", ("Freiheit", "5", "45127", "Essen", False)),
])
def test_place_and_postcode_before_the_street(oldenburg, text, expected):
    assert _de(oldenburg, text) == [expected]


@pytest.mark.parametrize("text, expected", [
    ("45127 Essen\nFreiheit 5", ("Freiheit", "5", "45127", "Essen", False)),
    ("<p>50667 Köln<br>Domkloster 4</p>", ("Domkloster", "4", "50667", "Köln", False)),
    ("26122 Oldenburg\nLappan 1", ("Lappan", "1", "26122", "Oldenburg", True)),
    ("26121 Oldenburg\nHeiligengeiststraße 6", ("Heiligengeiststraße", "6", "26121", "Oldenburg", True)),
])
def test_postcode_line_before_the_street_line(oldenburg, text, expected):
    assert _de(oldenburg, text) == [expected]


@pytest.mark.parametrize("text", [
    "26122 Oldenburg\nStand 2024",          # a year
    "26122 Oldenburg\nSeite 2",             # a word that counts
    "Registergericht: 26122 Oldenburg\nHRB 4711",
])
def test_postcode_line_then_no_street(oldenburg, text):
    assert _de(oldenburg, text) == []


@pytest.mark.parametrize("text", [
    "Kapazität 400\n26122\nLange Straße 5",
    "Leistung 250\n26121\nHeiligengeiststraße 6",
    "Fläche 80\n28195\nAm Markt 1",
])
def test_number_line_above_a_postcode_line_is_no_house_number(oldenburg, text):
    # The line after the postcode is a street with its number, no place: the line above is no address.
    assert all(found[0] != text.split(" ", 1)[0] for found in _de(oldenburg, text))
    assert all(found[1] not in ("400", "250", "80") for found in _de(oldenburg, text))
