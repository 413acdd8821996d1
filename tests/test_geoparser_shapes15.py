"""Ways of writing US addresses met in held-out 15 (session 10: geocoders' fixtures and READMEs, workshop front
matter, a CSV data set): each test is a class of writing, with members written for the test, not snippets of the
corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.house_number, a.street, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- the parts of a street's name in keys of their own ----------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('{"number": "1101", "street": "Pennsylvania", "suffix": "Ave", "postdirectional": "NW",'
     ' "city": "Washington", "state": "DC", "zip": "20004"}',
     ("1101", "Pennsylvania Ave NW", None, "20004", "Washington", True)),
    ("{'street_name': 'Lamar', 'street_type': 'Blvd', 'house_number': '2200', 'predirection': 'N',"
     " 'city': 'Austin', 'state': 'TX', 'zip': '78705'}",
     ("2200", "N Lamar Blvd", None, "78705", "Austin", True)),
    ("predirectional: S\nstreet: Main\nsuffix: St\nnumber: 300\ncity: Los Angeles\nstate: CA\nzip: 90013",
     ("300", "S Main St", None, "90013", "Los Angeles", True)),
    ('{"number": "350", "street": "5th", "suffix": "Ave", "city": "New York", "state": "NY", "zip": "10118"}',
     ("350", "5th Ave", None, "10118", "New York", True)),
])
def test_street_parts_in_keys(us, text, expected):
    found = _found(us, text)
    assert expected in found
    # The street's name alone ("Pennsylvania", "Lamar") is no second address.
    assert len(found) == 1


def test_street_parts_already_in_the_street(us):
    # "street" holds the whole name: the type and direction keys add nothing twice.
    found = _found(us, '{"number": "1657", "street": "W Broad St", "predirectional": "W", "suffix": "St",'
                       ' "city": "Richmond", "state": "VA"}')
    assert [(f[0], f[1]) for f in found] == [("1657", "W Broad St")]


def test_suffix_of_a_name_is_no_street_type(us):
    # "suffix" of a person's name ("Jr.") is no part of the street.
    found = _found(us, "Name: John Smith\nSuffix: Jr.\nStreet: 100 Main St\nCity: Dallas\nState: TX\nZip: 75201")
    assert [(f[0], f[1]) for f in found] == [("100", "Main St")]


# -- a number in the field before the address (a key, an id) ---------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('{"1": "3101 patterson ave, richmond, va"}', ("3101", "patterson ave")),
    ("7: '2200 n lamar blvd, austin, tx'", ("2200", "n lamar blvd")),
    ('stops = {12: "450 w cermak rd, chicago, il"}', ("450", "w cermak rd")),
])
def test_number_of_another_field_is_no_house_number(us, text, expected):
    assert [(f[0], f[1]) for f in _found(us, text)] == [expected]


def test_two_numbers_in_one_field_stay_apart(us):
    # "555 1234" in one field (a phone number, a count) before a street: still not read as a house number.
    found = _found(us, "call 555 1234 main st, dallas, tx")
    assert ("555", "1234 main st") not in [(f[0], f[1]) for f in found]


# -- a remark in parentheses after the city or the unit ---------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("710 East Ben White Blvd, Austin (S), TX 78704",
     ("710", "East Ben White Blvd", None, "78704", "Austin", True)),
    ("1313,8/31/89,1,48,1200 S.E. MILITARY DRIVE,San Antonio (S),TX,78214,Supercenter",
     ("1200", "S.E. MILITARY DRIVE", None, "78214", "San Antonio", True)),
    ("500 Main St (rear entrance), Houston, TX 77002",
     ("500", "Main St", None, "77002", "Houston", True)),
    ('address: "1400 W. 22nd St.,  Room L15 (Lower Level), Denver CO 80202"',
     ("1400", "W. 22nd St.", "Room L15", "80202", "Denver", True)),
])
def test_remark_in_parentheses(us, text, expected):
    assert expected in _found(us, text)


# -- the state at the end of a quoted value, no ZIP, no comma before it ----------------------------------

@pytest.mark.parametrize("text, expected", [
    ('client.geocode("42370 Bob Hope Drive, Rancho Mirage CA")',
     ("42370", "Bob Hope Drive", None, None, "Rancho Mirage", False)),
    ("venue = '1435 North Wells Street Chicago IL'",
     ("1435", "North Wells Street", None, None, "Chicago", True)),
    ('"location": "2 15th St NW, Washington DC",',
     ("2", "15th St NW", None, None, "Washington", True)),
])
def test_state_ending_a_quoted_value(us, text, expected):
    assert expected in _found(us, text)


def test_state_ending_a_quoted_sentence_needs_a_street(us):
    assert _found(us, 'print("We met at 12 Main Street in ME")') == []


@pytest.mark.parametrize("text, expected", [
    ('{"components": {"primary_number": "2", "street_name": "Penn", "street_suffix": "Plz", "secondary_number": "15",'
     ' "secondary_designator": "Fl", "city_name": "New York", "state_abbreviation": "NY", "zipcode": "10121"}}',
     ("2", "Penn Plz", "Fl 15", "10121", "New York", True)),
    ('{"primary_number": "600", "street_predirection": "N", "street_name": "Michigan", "street_suffix": "Ave",'
     ' "city_name": "Chicago", "state_abbreviation": "IL", "zipcode": "60611"}',
     ("600", "N Michigan Ave", None, "60611", "Chicago", True)),
])
def test_street_and_unit_parts_of_a_verified_record(us, text, expected):
    # Address-verification records: the number, the name's parts and the unit's word and number in keys of their own.
    assert _found(us, text) == [expected]


# -- no city between the street and the state: the ZIP names the place -------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("900 Sycamore Dr, TN 38361, USA", ("900", "Sycamore Dr", None, "38361", None, False)),
    ('"formatted_address": "100 Spear St, CA 94105, USA"', ("100", "Spear St", None, "94105", "San Francisco", True)),
    ("5 Oak Ave Suite 3, CA 90012", ("5", "Oak Ave", "Suite 3", "90012", "Los Angeles", True)),
])
def test_street_state_and_zip_without_city(us, text, expected):
    assert expected in _found(us, text)


@pytest.mark.parametrize("text", [
    "12 Main St, TX",  # no ZIP: nothing names the place
    "We have 5 offices, TX 75201",  # no street type
])
def test_no_city_needs_a_typed_street_a_comma_and_a_zip(us, text):
    assert _found(us, text) == []


def test_street_type_word_is_never_the_city(us):
    # No comma and no city: usaddress reads "St" as the place; no address rather than the city "St".
    assert not any(f[4] == "St" for f in _found(us, "12 Main St TX 75201"))
    assert ("400", "N Ervay St", None, "75201", "Dallas", True) in _found(us, "400 N Ervay St Dallas TX 75201")


# -- numbered loops and spurs, and a type word after a route's number ------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("5025 LOOP 410 NORTHWEST,San Antonio (NW),TX,78229",
     ("5025", "LOOP 410 NORTHWEST", None, "78229", "San Antonio", True)),
    ("7700 W Loop 610 S, Houston (SW), TX 77071", ("7700", "W Loop 610 S", None, "77071", "Houston", True)),
    ("13201 FM 620 ROAD NORTH,Austin (NW),TX,78729", ("13201", "FM 620 ROAD NORTH", None, "78729", "Austin", True)),
])
def test_numbered_loop_and_route_with_type_word(us, text, expected):
    found = _found(us, text)
    assert expected in found
    assert not any(f[0] in ("410", "610", "620") for f in found)  # the route's number is no house number


# -- a street named after an institution ------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("1450 UNIVERSITY AVENUE WEST,St. Paul (Midway),MN,55104",
     ("1450", "UNIVERSITY AVENUE WEST", None, "55104", "St. Paul", True)),
    ("2200 College St (rear), Houston, TX 77002", ("2200", "College St", None, "77002", "Houston", True)),
])
def test_street_named_after_an_institution(us, text, expected):
    assert expected in _found(us, text)


# -- a keyed record naming another country ----------------------------------------------------------------

@pytest.mark.parametrize("text", [
    '{"address1": "13 Rue Yves Toudic", "components": {"country_iso_3": "FRA", "locality": "Paris",'
    ' "postal_code": "75010", "thoroughfare": "Rue Yves Toudic", "premise_number": "13"}}',
    '{"street": "12 Queen St W", "city": "Toronto", "zip": "10001", "country": "Canada"}',
])
def test_keyed_record_of_another_country_is_no_us_address(us, text):
    assert _found(us, text) == []


@pytest.mark.parametrize("text", [
    '{"countryCode": "USA", "countryName": "United States", "stateCode": "NY", "city": "New York",'
    ' "street": "Penn Plz", "postalCode": "10001", "houseNumber": "4"}',
    '{"country_code": "us", "street": "4 Penn Plz", "city": "New York", "zip": "10001",'
    ' "country": "United States of America"}',
])
def test_keyed_record_naming_the_us_twice_stays_one_record(us, text):
    assert _found(us, text) == [("4", "Penn Plz", None, "10001", "New York", True)]

