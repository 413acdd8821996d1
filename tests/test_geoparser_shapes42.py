"""Ways of writing US addresses in data met in real text (session 13, held-out 38's store and vote-site records and
held-out 42, US data records, scored blind): each test is a class of writing, with members written for the test,
not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.unit, a.city, a.state, a.postcode, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a record's street and ZIP keys, no city and no state ---------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # before: no address (a ZIP outside the region named no city, and the record was not read)
    ('{"store_no": "881", "postal_code": "30067", "address": "2955 Cobb Pkwy SE"}',
     [("Cobb Pkwy SE", "2955", None, None, "GA", "30067", False)]),
    ("stores = [\n  {\n    'zip': '17404',\n    'street': '1650 Loucks Road'\n  },\n]",
     [("Loucks Road", "1650", None, None, "PA", "17404", False)]),
    # a town-like word before the type word stays the street's ("Town Center Drive" is no street in a town "Drive")
    ('{"zip_code": "29212", "address": "1200 Harbison Town Center Drive"}',
     [("Harbison Town Center Drive", "1200", None, None, "SC", "29212", False)]),
    # the unit in the street's value or in a key of its own; a highway's number
    ('{"postal_code": "46168", "address": "2373 E Main St Bldg C"}',
     [("E Main St", "2373", "Bldg C", None, "IN", "46168", False)]),
    ('{"address": "88 Mill Pond Rd", "suite": "210", "zip": "06489"}',
     [("Mill Pond Rd", "88", "#210", None, "CT", "06489", False)]),
    ('{"zip": "37087", "address": "910 Hwy 231"}',
     [("Hwy 231", "910", None, None, "TN", "37087", False)]),
])
def test_a_street_and_zip_record_outside_the_region(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    # before: the region key read as the state ("Center City 19143": no state, no address)
    ('{"site": "Library", "street_address": "6501 Woodland Ave.", "region": "Southwest", "zip": "19142"}',
     [("Woodland Ave.", "6501", None, "Philadelphia", "PA", "19142", True)]),
    ('{"street": "700 Pike St", "region": "Downtown", "zip": "98101", "open": true}',
     [("Pike St", "700", None, "Seattle", "WA", "98101", True)]),
])
def test_a_region_key_naming_a_district_is_no_state(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    '{"address": "2955 Cobb Pkwy SE", "zip": "12345"}',  # a ZIP a writer types for any ZIP
    '{"address": "2955 Cobb Pkwy SE", "zip": "00000"}',  # no ZIP
    '{"address": "410 Harbor Logistics", "zip": "17404"}',  # a company's name, no street
    '{"address": "Suite 300", "zip": "17404"}',  # a unit alone
    '{"store": "881", "zip": "17404"}',  # no street
    '[{"address": "1650 Loucks Road"}, {"zip": "17404"}]',  # parts of two objects
    "1650 Loucks Road,17404",  # a row's columns, which no key names
    # a type word alone or after a direction alone: a name whose type the record left out (tagged training data)
    '{"AddressNumber": "2240", "StreetName": "Ridge", "ZipCode": "17404"}',
    '{"address": "5760 South Park", "zip": "17404"}',
])
def test_what_is_no_street_and_zip_record_gives_none(us, text):
    assert _found(us, text) == []


def test_a_state_key_naming_a_state_is_kept(us):
    # the state key's value names the state: read as before, the city from the record
    text = '{"address": "2955 Cobb Pkwy SE", "city": "Atlanta", "state": "Georgia", "zip": "30339"}'
    assert _found(us, text) == [("Cobb Pkwy SE", "2955", None, "Atlanta", "GA", "30339", True)]


# -- an SQL INSERT whose column list names the values, written in the table's order ------------------------------

@pytest.mark.parametrize("text, expected", [
    # before: no address (other values between the city and the ZIP, the state after the ZIP, a bare number)
    ('INSERT INTO shops (street, town, country, lat, lng, title, zip, region) VALUES ("77 Ferry Rd", "Ogdensburg", '
     '"US", 44.69, -75.48, "Corner Deli", 13669, "NY");',
     [("Ferry Rd", "77", None, "Ogdensburg", "NY", "13669", False)]),
    # several tuples of one statement, single quotes with '' inside, NULL, a line break before VALUES
    ("insert into venues (id, zip_code, name, address, city, state)\nvalues\n"
     "  (1, '75201', 'Ann''s Hall', '1919 Ross Ave', 'Dallas', 'TX'),\n"
     "  (2, '77002', 'Bayou Room', '901 Bagby St', 'Houston', NULL);",
     [("Ross Ave", "1919", None, "Dallas", "TX", "75201", True),
      ("Bagby St", "901", None, "Houston", "TX", "77002", True)]),
    # the unit in a column of its own, the state before the street
    ("INSERT INTO `offices` (`state`, `street1`, `suite`, `postal_code`, `city`) VALUES "
     "('OR', '520 SW Yamhill St', '300', '97204', 'Portland');",
     [("SW Yamhill St", "520", "#300", "Portland", "OR", "97204", True)]),
])
def test_an_sql_insert_read_by_its_column_list(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    # no street column: a name and a town are no address
    "INSERT INTO people (name, city, zip) VALUES ('Ann Lee', 'Dallas', '75201');",
    # the street's column holds no street
    "INSERT INTO shops (title, address, zip) VALUES ('Deli', 'Ferry Road Deli LLC', '13669');",
    # a value that is a function's call: no tuple of plain values
    "INSERT INTO shops (address, city, created) VALUES ('77 Ferry Rd', now(), 'NY');",
])
def test_what_is_no_address_in_an_sql_insert_gives_none(us, text):
    assert _found(us, text) == []


# -- the house number's key holding the whole street line ---------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # before: no address (no street key), or the street read twice ("Church Street 100 Church Street") beside a
    # "name" that repeats the line
    ('{"address": {"streetName": "", "streetNumber": "2211 Elm St", "city": "Dallas", "postalCode": "75201"}}',
     [("Elm St", "2211", None, "Dallas", "TX", "75201", True)]),
    ('{"name": "48 Wall Street", "address": {"streetName": "", "streetNumber": "48 Wall Street", "city": "New York", '
     '"postalCode": "10005", "region": "NY"}}',
     [("Wall Street", "48", None, "New York", "NY", "10005", True)]),
])
def test_a_house_number_key_holding_the_street_line(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a number and a street in keys of their own, as before
    ('{"streetNumber": "2211", "streetName": "Elm St", "city": "Dallas", "postalCode": "75201"}',
     [("Elm St", "2211", None, "Dallas", "TX", "75201", True)]),
    # a number alone is no street
    ('{"streetNumber": "2211", "city": "Dallas", "postalCode": "75201"}', []),
    ('{"streetNumber": "Building 4", "city": "Dallas", "postalCode": "75201"}', []),
])
def test_a_house_number_key_with_a_number_stays_the_number(us, text, expected):
    assert _found(us, text) == expected


def test_a_region_key_naming_no_state_without_a_zip_gives_none(us):
    # another country's province in the region key, no ZIP: nothing says the town is a US town
    text = '{"housenumber": "82", "street": "Whitney Avenue", "locality": "Hamilton", "region": "Ontario"}'
    assert _found(us, text) == []
