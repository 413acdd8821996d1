"""Ways of writing addresses met in real text (session 11, held-out 22: fixtures and pages of civic-tech apps,
government open source, a hack-night map, a voter guide): each test is a class of writing, with members written
for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- line breaks escaped in a string literal, "\r\n" or "\n", also with a unit line before the street ------------

@pytest.mark.parametrize("text, expected", [
    # Windows breaks in a JSON fixture: the "\r" is no letter of the street or the city
    (r'{"text": "710 Elm St\r\nDallas, TX\r\n75202", "hours": "9-5"}',
     [("Elm St", None, "710", "75202", "Dallas", True)]),
    # the floor after a comma, the ZIP on its own line
    (r'{"address": "88 Pine Ave, 4th Floor\r\nSeattle, WA\r\n98101"}',
     [("Pine Ave", "4th Floor", "88", "98101", "Seattle", True)]),
    # a room line before the street, Unix breaks
    (r'{"address": "Hall of Records\nRoom 210\n301 W Jefferson St\nPhoenix, AZ 85003"}',
     [("W Jefferson St", "Room 210", "301", "85003", "Phoenix", True)]),
    # the same with Windows breaks, outside the region
    (r'"location": "County Building\r\nSuite 4A\r\n12 Court St\r\nPlymouth, MA 02360",',
     [("Court St", "Suite 4A", "12", "02360", "Plymouth", False)]),
])
def test_escaped_line_breaks_in_a_string(us, text, expected):
    assert _found(us, text) == expected


# -- a unit word in capitals on the line before the street ("RM G35", "APT 4B") ----------------------------------

@pytest.mark.parametrize("text, unit, street, number, zip_code, in_region", [
    ("Clerk of Court\nRM 114\n600 Commerce St\nDallas, TX 75202", "RM 114", "Commerce St", "600", "75202", True),
    ("Courthouse RM G35\n221 S Mooney Blvd\nVisalia, CA 93291", "RM G35", "S Mooney Blvd", "221", "93291", False),
    ("J. SMITH\nAPT 4B\n1200 N FEDERAL HWY\nBoca Raton, FL 33432", "APT 4B", "N FEDERAL HWY", "1200", "33432",
     False),
])
def test_unit_word_in_capitals_on_the_line_before(us, text, unit, street, number, zip_code, in_region):
    assert [(s, u, n, z, r) for s, u, n, z, _c, r in _found(us, text)] == [
        (street, unit, number, zip_code, in_region)]


# -- a street named with a letter in quotes (also escaped in a JSON string) -----------------------------------

@pytest.mark.parametrize("text, street, unit, number, zip_code", [
    ('Mail to: 1010 "C" Street, Suite 200, San Diego, CA 92101', "C Street", "Suite 200", "1010", "92101"),
    ("Office at 45 'D' St, Sacramento, CA 95814", "D St", None, "45", "95814"),
    (r'{"office": "Legal Aid\r\n300 \"E\" Street NW\r\nWashington, DC 20001"}', "E Street NW", None, "300", "20001"),
    (r'{"a": "Clinic\n1200 \"J\" Street, Suite 3\nSacramento, CA 95814"}', "J Street", "Suite 3", "1200", "95814"),
])
def test_street_named_with_a_quoted_letter(us, text, street, unit, number, zip_code):
    assert [(s, u, n, z, r) for s, u, n, z, _c, r in _found(us, text)] == [(street, unit, number, zip_code, True)]


@pytest.mark.parametrize("text, street", [
    # a quoted word is no letter: the street after it is the address
    ('He said "A" Street was closed, 400 Main St, Austin, TX 78701', "Main St"),
    # an apostrophe inside a name stays
    ("12 O'Farrell St, San Francisco, CA 94108", "O'Farrell St"),
])
def test_quotes_that_name_no_letter_street(us, text, street):
    assert [s for s, *_rest in _found(us, text)] == [street]


# -- a note on its own line between the street's line and the place's line ------------------------------------

@pytest.mark.parametrize("text, street, unit, number, zip_code, in_region", [
    ("Food Bank<br/>2100 Market Street<br/>Open Mondays only<br/>Denver, CO 80205<br/>", "Market Street", None,
     "2100", "80205", True),
    ("Tax Help Center<br/>400 Elm Ave<br/>Walk-ins welcome<br/>Dallas, TX 75201", "Elm Ave", None, "400", "75201",
     True),
    ("Community Center\n812 Pine Street\nBy appointment only\nSeattle, WA 98101", "Pine Street", None, "812", "98101",
     True),
    # a unit on its own line before the note
    ("Clinic\n18 Harbor Blvd\n#7\nClosed on federal holidays\nPacifica, CA 94044", "Harbor Blvd", "#7", "18",
     "94044", False),
])
def test_note_line_between_street_and_place(us, text, street, unit, number, zip_code, in_region):
    assert [(s, u, n, z, r) for s, u, n, z, _c, r in _found(us, text)] == [
        (street, unit, number, zip_code, in_region)]


@pytest.mark.parametrize("text", [
    # no street line before the words: nothing to read
    "Call 555 1212 Today\nOpen daily\nSeattle, WA 98101",
    "<p>Since 1999 we serve\nthe whole county\nSeattle, WA 98101</p>",
])
def test_words_before_a_place_without_a_street_line(us, text):
    assert _found(us, text) == []


def test_a_lettered_part_of_the_building_stays_the_unit(us):
    assert [(s, u) for s, u, *_rest in _found(us, "Fairgrounds\n4500 Fair Ave\nGate C\nTulsa, OK 74114")] == [
        ("Fair Ave", "Gate C")]


# -- a keyed record whose place line is one value under a key naming city, state and ZIP together ---------------

@pytest.mark.parametrize("text, street, number, zip_code, city", [
    ('{\n  "formatted_city_state_zip": "DENVER, CO, 80202-1234",\n  "name": "DOWNTOWN",\n'
     '  "street_address": "951 20TH ST"\n}', "20TH ST", "951", "80202", "Denver"),
    ('{"city_state": "Austin, TX 78701", "street": "500 Congress Ave"}', "Congress Ave", "500", "78701", "Austin"),
    ('{"csz": "Spokane, WA 99201", "address1": "906 W Main Ave"}', "W Main Ave", "906", "99201", "Spokane"),
    ("lastLine: Denver CO 80202\nstreet: 1701 Wynkoop St\n", "Wynkoop St", "1701", "80202", "Denver"),
])
def test_place_line_under_a_city_state_zip_key(us, text, street, number, zip_code, city):
    assert [(s, n, z, c, r) for s, _u, n, z, c, r in _found(us, text)] == [(street, number, zip_code, city, True)]


def test_house_number_key_repeating_the_streets_number(us):
    # the number written in the street's value and again in a component's key: one number
    text = ('{"delivery_line_1": "1 Main St", "last_line": "Houston TX 77002", '
            '"components": {"primary_number": "1", "street_name": "Main", "street_suffix": "St"}}')
    assert [(s, n, z) for s, _u, n, z, _c, _r in _found(us, text)] == [("Main St", "1", "77002")]


# -- a neighbourhood of the city as the place, with a ZIP the USPS also names otherwise (no town of its own) -------

@pytest.mark.parametrize("text, place", [
    ("100-02 Queens Blvd, Forest Hills, NY 11375", "Forest Hills"),   # the USPS also calls 11375 "Flushing"
    ("61-15 Booth St, Rego Park, NY 11374", "Rego Park"),             # 11374: "Flushing" too
    ("35-20 Steinway St, Astoria, NY 11101", "Astoria"),              # 11101: "Long Is City"
])
def test_neighbourhood_with_a_zip_of_several_postal_names(us, text, place):
    assert [(c, r) for *_rest, c, r in _found(us, text)] == [(place, True)]


@pytest.mark.parametrize("text", [
    "1 Main St, Millwood, WA 99206",      # a town of its own with a Spokane ZIP (the pack's zip_towns)
    "250 Broadway, Newburgh, NY 12550",   # a ZIP of no region city
])
def test_town_of_its_own_or_other_zip_stays_outside(us, text):
    assert [r for *_rest, r in _found(us, text)] == [False]


# -- the ZIP between the city and the state -------------------------------------------------------------------

@pytest.mark.parametrize("text, street, number, zip_code, city, in_region", [
    ('{"address": "88 Falls St, Niagara Falls, 14303, NY"}', "Falls St", "88", "14303", "Niagara Falls", False),
    ("Store 12: 700 Elm St, Dallas, 75201, TX\nStore 13: closed", "Elm St", "700", "75201", "Dallas", True),
    ("Mail: 40 Oak Rd, Springfield, 62701, Illinois", "Oak Rd", "40", "62701", "Springfield", False),
])
def test_zip_between_city_and_state(us, text, street, number, zip_code, city, in_region):
    assert [(s, n, z, c, r) for s, _u, n, z, c, r in _found(us, text)] == [(street, number, zip_code, city, in_region)]


@pytest.mark.parametrize("text", ["Since 1999, 12345, NY", "Order 4411, 77002, TX"])
def test_numbers_before_a_state_without_street(us, text):
    assert _found(us, text) == []


@pytest.mark.parametrize("text, unit", [
    ("Center\n100 Main St\nFifth Floor\nDallas, TX 75201", "Fifth Floor"),   # a floor spelled out: the unit
    ("Fairgrounds\n4500 Fair Ave\nGate C\nTulsa, OK 74114", "Gate C"),          # a lettered part of the grounds
])
def test_a_unit_line_is_no_note(us, text, unit):
    assert [u for _s, u, *_rest in _found(us, text)] == [unit]
