"""Ways of writing addresses met in real text (session 12, held-out 26: geocoding services' responses kept as test
fixtures, SQL seed rows, vCards, an iCalendar feed): each test is a class of writing, with members written for the
test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a keyed record naming its city and, under "locality", a part of the city -----------------------------------

@pytest.mark.parametrize("text, expected", [
    # a GeoJSON feature's properties: the city and its postcode before the neighbourhood and the street
    ('{"type":"Feature","properties":{"city":"Denver","postcode":"80202","locality":"LoDo","housenumber":"1701",'
     '"street":"Wynkoop Street","state":"Colorado","name":"Union Station"}}',
     [("Wynkoop Street", None, "1701", "80202", "Denver", True)]),
    # the neighbourhood first, the city after the street
    ('{"locality": "Capitol Hill", "housenumber": "745", "street": "19th Avenue East", "city": "Seattle", '
     '"postcode": "98112"}',
     [("19th Avenue East", None, "745", "98112", "Seattle", True)]),
    # YAML keys, outside the region
    ("housenumber: 9\nstreet: Maple Drive\ncity: Salem\nlocality: Downtown\npostcode: '97301'\nstate: Oregon\n",
     [("Maple Drive", None, "9", "97301", "Salem", False)]),
])
def test_city_and_locality_in_one_record(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    # "locality" alone is the city (Pelias, Google's components)
    ('{"housenumber": "600", "street": "Congress Avenue", "locality": "Austin", "region": "Texas", '
     '"postalcode": "78701"}',
     [("Congress Avenue", None, "600", "78701", "Austin", True)]),
    # two records in a list, each with its own locality
    ('[{"housenumber": "12", "street": "Elm Street", "locality": "Denver", "postalcode": "80203"}, '
     '{"housenumber": "14", "street": "Oak Street", "locality": "Austin", "postalcode": "78701"}]',
     [("Elm Street", None, "12", "80203", "Denver", True), ("Oak Street", None, "14", "78701", "Austin", True)]),
])
def test_locality_alone_is_the_city(us, text, expected):
    assert _found(us, text) == expected


# -- house number zero ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a quoted SQL value, the garage of a park without a number of its own
    ("('Common Garage', '0 Charles St, Boston, MA 02116, USA', 42.35, -71.06),",
     [("Charles St", None, "0", "02116", "Boston", True)]),
    # a parcel in a permit export, fields of a CSV row in capitals
    ("PERMIT-2291,VACANT LOT,0 W FULTON ST,CHICAGO,IL,60607",
     [("W FULTON ST", None, "0", "60607", "Chicago", True)]),
    # after a label, outside the region
    ("Lot: 0 Elm Street, Salem, OR 97301", [("Elm Street", None, "0", "97301", "Salem", False)]),
])
def test_house_number_zero(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    "Found 0 Results, Chicago, IL 60601",
    "Rated 0 Stars\nChicago, IL 60601",
    "We have 0 Main St locations in Austin, TX 78701",
])
def test_zero_before_words_is_no_house_number(us, text):
    assert _found(us, text) == []


# -- a ZIP no post office has (a form's or a sample's placeholder) ----------------------------------------------

@pytest.mark.parametrize("text", [
    # a vCard's work address of a sample contact
    "ADR;TYPE=WORK:;;45 Lexington Ave;New York;NY;99999;USA",
    # a line of a form letter
    "Ship to: 700 Elm Street, Dallas, TX 00000",
    # keys and values
    '{"street": "12 Oak Ave", "city": "Denver", "state": "CO", "zip": "99999"}',
    # JSON-LD
    '<script type="application/ld+json">{"@type": "Store", "address": {"@type": "PostalAddress", '
    '"streetAddress": "9 Pine Rd", "addressLocality": "Austin", "addressRegion": "TX", "postalCode": "00000"}}'
    '</script>',
])
def test_placeholder_zip_is_no_address(us, text):
    assert _found(us, text) == []


@pytest.mark.parametrize("text, expected", [
    # the last ZIP there is, and the first
    ("Federal Building, 648 Mission Street, Ketchikan, AK 99901",
     [("Mission Street", None, "648", "99901", "Ketchikan", False)]),
    ("IRS, 1 Main St, Holtsville, NY 00501", [("Main St", None, "1", "00501", "Holtsville", False)]),
])
def test_zips_at_the_ends_of_the_range_are_zips(us, text, expected):
    assert _found(us, text) == expected


# -- a typed street, a town and its ZIP in one value, without a state --------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a batch geocoder's single-line input
    ('{"OBJECTID": 4, "SingleLine": "2200 Harbor Blvd. Costa Mesa 92627"}',
     [("Harbor Blvd.", None, "2200", "92627", "Costa Mesa", False)]),
    # a CSV cell, a comma between street and town
    ('7,"15 Cedar Lane, Bozeman 59715",open', [("Cedar Lane", None, "15", "59715", "Bozeman", False)]),
    # a line of its own, a direction after the street's type
    ("Mail to:\n500 Court St NE Salem 97301\n", [("Court St NE", None, "500", "97301", "Salem", False)]),
    # a region city of two words before its own ZIP keeps both words
    ('venue = "6801 Hollywood Blvd San Diego 92101"',
     [("Hollywood Blvd", None, "6801", "92101", "San Diego", True)]),
])
def test_street_town_and_zip_without_state(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    # a region's ZIP after a word that names none of its places
    'ref = "12 Oak St Warehouse 30301"',
    # a unit's word before five digits
    'address: "40 Elm St Suite 12345"',
    # a sample: a country where the state would be
    '"123 Main St, Anytown, USA 12345"',
])
def test_words_before_a_zip_that_name_no_town(us, text):
    assert _found(us, text) == []


# -- a generated run of house numbers on one street -------------------------------------------------------------

@pytest.mark.parametrize("text", [
    # a test's contacts, one number up each time
    "ADR;TYPE=HOME:;;201 Oak St;Denver;CO;80203;\nADR;TYPE=WORK:;;202 Oak St;Denver;CO;80203;\n"
    "ADR:;;203 Oak St;Denver;CO;80203;",
    # seed rows
    "INSERT INTO homes VALUES ('10 Pine Ave, Austin, TX 78701'), ('11 Pine Ave, Austin, TX 78701'), "
    "('12 Pine Ave, Austin, TX 78701'), ('13 Pine Ave, Austin, TX 78701');",
])
def test_consecutive_house_numbers_of_one_street_are_generated(us, text):
    assert _found(us, text) == []


@pytest.mark.parametrize("text, numbers", [
    # one side of a street: the numbers go up by two
    ("101 Oak St, Dallas, TX 75201\n103 Oak St, Dallas, TX 75201\n105 Oak St, Dallas, TX 75201",
     ["101", "103", "105"]),
    # two neighbours across the street
    ("1 Elm St, Dallas, TX 75201; 2 Elm St, Dallas, TX 75201", ["1", "2"]),
    # consecutive numbers on three streets
    ("5 Elm St, Dallas, TX 75201; 6 Oak St, Dallas, TX 75201; 7 Ash St, Dallas, TX 75201", ["5", "6", "7"]),
])
def test_house_numbers_of_real_neighbours_stay(us, text, numbers):
    assert [number for _s, _u, number, _z, _c, _r in _found(us, text)] == numbers


@pytest.mark.parametrize("text, expected", [
    # OSM's address keys of a village, no "city" key
    ('{"address": {"house_number": "40", "road": "Bay Street", "village": "Sag Harbor", "county": "Suffolk County", '
     '"state": "New York", "postcode": "11963"}}',
     [("Bay Street", None, "40", "11963", "Sag Harbor", False)]),
    # a hamlet inside the village: the village is the address's place
    ('{"address": {"house_number": "3", "road": "Lake Street", "hamlet": "Ridgeland", "village": "Oak Park", '
     '"state": "Illinois", "postcode": "60302"}}',
     [("Lake Street", None, "3", "60302", "Oak Park", False)]),
    # a geocoder's municipality
    ('{"address": {"streetNumber": "88", "streetName": "Townsend St", "municipality": "San Francisco", '
     '"countrySubdivision": "CA", "postalCode": "94107"}}',
     [("Townsend St", None, "88", "94107", "San Francisco", True)]),
])
def test_smaller_places_and_municipalities_as_the_city(us, text, expected):
    assert _found(us, text) == expected
