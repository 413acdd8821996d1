"""Records whose keys or columns name a street and a town without state or ZIP (session 14).

A key or a value of its own says "this is a city" where the text of a line could not: a region city whose name is
also a person's name or a town of several states ("Madison", "Austin", "Portland") is read there; SQL's
``INSERT ... SELECT`` form names its values by the column list as ``VALUES`` does.
"""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.house_number, a.street, a.city, a.state, a.in_region) for a in parser.parse(text).all_addresses]


@pytest.mark.parametrize("text, expected", [
    ('{"address": "415 E Gorham St", "city": "Madison"}', [("415", "E Gorham St", "Madison", "WI", True)]),
    ("  owner.setAddress(\"88 Congress Ave.\");\n  owner.setCity(\"Austin\");",
     [("88", "Congress Ave.", "Austin", "TX", True)]),
    ("street: 1220 SW Morrison Street\ncity: Portland\n", [("1220", "SW Morrison Street", "Portland", "OR", True)]),
])
def test_a_city_key_names_a_region_city_of_a_common_name(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("INSERT INTO members VALUES (4, 'Ann', 'Lee', '17 Jenifer Street', 'Madison', '6085550182');",
     [("17", "Jenifer Street", "Madison", "WI", True)]),
    ('shops = [["310 Congress Avenue"], ["Austin"]]', [("310", "Congress Avenue", "Austin", "TX", True)]),
    # A state's value after the city's: another town of the name, outside the region.
    ("(9, '5 Harbor Road', 'Portland', 'ME')", [("5", "Harbor Road", "Portland", "ME", False)]),
])
def test_a_common_region_city_name_as_a_value_after_a_street_value(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    'He said "Madison" and left.',
    "('Ann', 'Madison', '17 Jenifer Street')",  # the name before the street: a person's
    "INSERT INTO kids VALUES ('Austin', 'Lee', 12);",
])
def test_a_common_name_alone_is_no_place(us, text):
    assert _found(us, text) == []


def test_insert_select_rows_are_read_by_their_column_list(us):
    text = ("INSERT INTO owners (first_name, last_name, address, city, telephone) SELECT 'Ray', 'Orr', "
            "'91 Sherman Ave.', 'Middleton', '6085550101' WHERE NOT EXISTS (SELECT * FROM owners WHERE id=1);\n"
            "INSERT INTO shops (street, city, state) SELECT '100 N Main St', 'Seattle', 'WA';\n")
    assert set(_found(us, text)) == {("91", "Sherman Ave.", "Middleton", None, False),
                                     ("100", "N Main St", "Seattle", "WA", True)}


def test_insert_values_with_the_town_column_after_the_street_column(us):
    text = ("INSERT INTO owners (name, address, city) VALUES ('Kim', '4 Orchard Lane', 'Verona'), "
            "('Lu', '22 Lake Dr', 'Madison');")
    assert set(_found(us, text)) == {("4", "Orchard Lane", "Verona", None, False),
                                     ("22", "Lake Dr", "Madison", "WI", True)}


@pytest.mark.parametrize("town", ["McFarland", "DeKalb", "O'Fallon", "LaCrosse"])
def test_a_labelled_town_with_a_capital_inside_its_name(us, town):
    assert _found(us, f"Where: 12 Main Street, {town}.") == [("12", "Main Street", town, None, False)]


@pytest.mark.parametrize("text, expected", [
    # A Markdown table of geocoder output: the number, the road and the place each in a column the header names.
    ("| name | house_number | road | city | state | postcode |\n|:---|---:|:---|:---|:---|:---|\n"
     "| Ferry Building | 1 | Ferry Building | San Francisco | California | 94111 |\n"
     "| Union Station | 225 | South Canal Street | Chicago | Illinois | 60606 |\n",
     {("1", "Ferry Building", "San Francisco", "CA", True), ("225", "South Canal Street", "Chicago", "IL", True)}),
    # A CSV with the unit and the state in columns of their own.
    ("number,street,unit,city,state,zip\n1200,Main St,Apt 4,Kansas City,MO,64105\n812,Elm Ave,,Norman,OK,73069\n",
     {("1200", "Main St", "Kansas City", "MO", True), ("812", "Elm Ave", "Norman", "OK", False)}),
])
def test_us_rows_under_a_header_that_names_their_columns(us, text, expected):
    assert set(_found(us, text)) == expected


@pytest.mark.parametrize("text", [
    # FHIR Shorthand: the address's line as an array's element added ("[+]") or indexed ("[0]").
    '* address[Strasse]\n  * line[+] = "Kiefernweg 14"\n    * extension[Hausnummer].valueString = "14"\n'
    '  * city = "Kassel"\n  * postalCode = "34119"\n  * country = "Deutschland"\n',
    '* address.line[0] = "Kiefernweg 14"\n* address.city = "Kassel"\n* address.postalCode = "34119"\n',
    'patient.address.line[0] = "Kiefernweg 14";\npatient.address.city = "Kassel";\n'
    'patient.address.postalCode = "34119";',
])
def test_a_key_with_an_array_index_names_its_part(oldenburg, text):
    found = [(a.street, a.house_number, a.postcode, a.city) for a in oldenburg.parse(text).all_addresses]
    assert found == [("Kiefernweg", "14", "34119", "Kassel")]


@pytest.mark.parametrize("text, expected", [
    # County parcel and utility data name the parcel's place with a word of their own before each key.
    ('{"SITUS_ADDR": "1400 W 3RD ST", "SITUS_CITY": "DAYTON", "SITUS_STATE": "OH", "SITUS_ZIP": "45402"}',
     ("1400", "W 3RD ST", "45402", None, False)),
    ('{"SITESTREET": "MARKET ST", "SITENUMBER": "2100", "SITEUNIT": "7", "SITECITY": "SAN FRANCISCO", '
     '"SITEZIP": "94114"}', ("2100", "MARKET ST", "94114", "#7", True)),
    ('{"PropertyAddress": "77 Grove Ave", "PropertyCity": "Tulsa", "PropertyZip": "74120"}',
     ("77", "Grove Ave", "74120", None, True)),
    # A generated sample fills a key with its own name: no unit.
    ('{"address_line_1": "88 Pine Street", "address_line_2": "address_line_22", "locality": "Seattle", '
     '"administrative_district_level_1": "WA", "postal_code": "98101"}', ("88", "Pine Street", "98101", None, True)),
])
def test_keys_of_a_parcels_place_and_filler_units(us, text, expected):
    found = [(a.house_number, a.street, a.postcode, a.unit, a.in_region) for a in us.parse(text).all_addresses]
    assert found == [expected]


@pytest.mark.parametrize("text", [
    "Acme Inc.<br>123 Fake Street, Springfield, OR, 97477 US",
    "Ship to: 42 Fake St, Chicago, IL 60601",
])
def test_a_fake_street_is_a_sample(us, text):
    assert us.parse(text).all_addresses == []


@pytest.mark.parametrize("text, expected", [
    ("4200 Wisconsin Ave NW #106-147, Washington, DC 20016", ("Wisconsin Ave NW", "#106-147")),
    ("700 Pennsylvania Ave SE #2, Washington, DC 20003", ("Pennsylvania Ave SE", "#2")),
])
def test_a_quadrant_before_a_numbered_unit_stays_with_the_street(us, text, expected):
    assert [(a.street, a.unit) for a in us.parse(text).all_addresses] == [expected]


@pytest.mark.parametrize("text, expected", [
    ("Acme Labs · 425 Market St · San Francisco", ("425", "Market St", "San Francisco")),
    ("Office | 1550 Wewatta St | Denver", ("1550", "Wewatta St", "Denver")),
])
def test_a_separator_sign_before_a_region_city_without_state(us, text, expected):
    assert [(a.house_number, a.street, a.city) for a in us.parse(text).all_addresses] == [expected]


@pytest.mark.parametrize("text, expected", [
    # Google's address components by name, as records and test factories copy them.
    ("create(:address, street_number: '918', route: 'Pine Ave', city: 'Long Beach', state: 'CA', zip: '90813')",
     ("918", "Pine Ave", "90813", True)),
    # Adyen's postal address: the house number's key names a number or a building's name.
    ('PostalAddress(city: "Chicago", country: "US", houseNumberOrName: "71", postalCode: "60602", '
     'stateOrProvince: "IL", street: "W Washington St")', ("71", "W Washington St", "60602", True)),
])
def test_keys_of_geocoder_and_payment_records(us, text, expected):
    assert [(a.house_number, a.street, a.postcode, a.in_region) for a in us.parse(text).all_addresses] == [expected]


def test_a_route_key_without_a_street_value_is_no_address(us):
    assert us.parse('{"route": "/api/v1/orders", "city": "Chicago", "zip": "60601"}').all_addresses == []


def test_xml_values_in_cdata_sections(oldenburg):
    text = ("<Schule>\n  <PLZ>26122</PLZ>\n  <Ort><![CDATA[Oldenburg]]></Ort>\n"
            "  <Strasse><![CDATA[Haarenstr. 12]]></Strasse>\n</Schule>")
    found = [(a.street, a.house_number, a.postcode, a.in_region) for a in oldenburg.parse(text).all_addresses]
    assert found == [("Haarenstr.", "12", "26122", True)]
