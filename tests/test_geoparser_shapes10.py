"""Ways of writing addresses met in real text (session 9, held-out 10: address-library test strings, saved
pages of real sites, API fixtures, GeoJSON, CSV): each test is a class of writing, with members written for
the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


def _keys(parser, text):
    return {(a.house_number, a.street.upper(), a.postcode, a.in_region) for a in parser.parse(text).all_addresses}


# -- a ZIP that lost its leading zero in a keyed record ---------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # GeoJSON properties of a JavaScript object, the ZIP a string of four digits
    ("properties: {\n  address: '88 HANOVER ST',\n  city: 'BOSTON',\n  state: 'MA',\n  zip: '2113',\n}",
     ("88", "HANOVER ST", "02113", True)),
    # JSON, the ZIP a number, the state's name
    ('{"street": "1 City Hall Square", "city": "Boston", "state": "Massachusetts", "zip": 2201}',
     ("1", "CITY HALL SQUARE", "02201", True)),
    # Newark, New Jersey, ZIP+4 without its zero
    ('{"address1": "920 Broad St", "city": "Newark", "province_code": "NJ", "zip": "7102-1234"}',
     ("920", "BROAD ST", "07102", True)),
])
def test_zip_without_its_leading_zero_is_padded_in_states_whose_zips_start_with_zero(us, text, expected):
    assert _keys(us, text) == {expected}


def test_four_digit_zip_of_another_state_is_no_zip(us):
    # Texas ZIPs never start with 0: "7701" is no ZIP of Houston, the record gives no postcode.
    found = _keys(us, '{"address": "901 Bagby St", "city": "Houston", "state": "TX", "zip": "7701"}')
    assert all(postcode != "07701" for _n, _s, postcode, _r in found)


def test_quote_after_a_keyed_value_is_no_city(us):
    # The page text reading across the keys' quotes ("BOSTON'") adds no second, wrong address.
    text = "{\n  address: '200 CLARENDON ST',\n  city: 'BOSTON',\n  state: 'MA',\n  zip: '02116',\n}"
    assert _keys(us, text) == {("200", "CLARENDON ST", "02116", True)}


# -- a locality that holds the state ------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('"address": {"streetAddress": "1 Dr Carlton B Goodlett Pl", "postalCode": "94102",'
     ' "addressLocality": "San Francisco, California"}', ("1", "DR CARLTON B GOODLETT PL", "94102", True)),
    ('"location": {"street": "500 N Akard St", "city": "Dallas, Texas", "zip": "75201"}',
     ("500", "N AKARD ST", "75201", True)),
    # without ZIP: the state from the locality makes the region city
    ('{"street": "1 E Washington St", "locality": "Phoenix, Arizona"}', ("1", "E WASHINGTON ST", None, True)),
    # another state's city of the same name stays out
    ('{"street": "100 N Main St", "locality": "Glendale, Arizona, USA", "zip": "85301"}',
     ("100", "N MAIN ST", "85301", True)),
])
def test_locality_with_city_and_state(us, text, expected):
    assert _keys(us, text) == {expected}


# -- JSON-LD wrapped in a CDATA section ---------------------------------------------------------------------

@pytest.mark.parametrize("opening, closing", [
    ("<![CDATA[", "]]>"),
    ("//<![CDATA[", "//]]>"),
    ("/*<![CDATA[*/", "/*]]>*/"),
])
def test_json_ld_in_a_cdata_section(us, opening, closing):
    page = (
        '<html><head><script type="application/ld+json">\n' + opening + "\n"
        '{"@context": "https://schema.org", "@type": "Library", "name": "Central Library", "address": '
        '{"@type": "PostalAddress", "streetAddress": "1000 4th Ave", "addressLocality": "Seattle", '
        '"addressRegion": "WA", "postalCode": "98104"}}\n' + closing + "\n</script></head><body>Hours</body></html>"
    )
    assert _keys(us, page) == {("1000", "4TH AVE", "98104", True)}


# -- JSON written as an escaped string inside JSON -----------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('{"place": {"name": "Pike Place Market", "address_json": "{\\"street_address\\": \\"85 Pike St\\", '
     '\\"zip_code\\": \\"98101\\", \\"city_name\\": \\"Seattle, Washington\\", \\"country_code\\": \\"US\\"}"}}',
     ("85", "PIKE ST", "98101", True)),
    # a JavaScript string holding a record
    ("var venue = \"{\\\"address\\\": \\\"2001 Blake St\\\", \\\"city\\\": \\\"Denver\\\", \\\"state\\\": \\\"CO\\\", "
     "\\\"zip\\\": \\\"80205\\\"}\";", ("2001", "BLAKE ST", "80205", True)),
])
def test_escaped_json_inside_a_string(us, text, expected):
    assert _keys(us, text) == {expected}


# -- "D.C" without its last dot --------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "The museum is at 600 Independence Ave SW, Washington D.C 20560.",
    "600 Independence Ave SW\nWashington, D.C 20560",
])
def test_dc_without_its_last_dot(us, text):
    assert _keys(us, text) == {("600", "INDEPENDENCE AVE SW", "20560", True)}


def test_two_letters_with_one_dot_are_a_state_only_when_they_name_one(us):
    assert _keys(us, "Order 12 Main St, Foo, U.S 20500 now") == set()


# -- a county between the city and the state -----------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Visit us: 1 Main St, Louisville, Jefferson County, KY 40202", ("1", "MAIN ST", "40202", True)),
    ("2100 Ross Ave, Dallas, Dallas County, TX 75201", ("2100", "ROSS AVE", "75201", True)),
    # the same shape outside the region stays out
    ("123 Lake St, Kirkland, King County, WA 98033", ("123", "LAKE ST", "98033", False)),
])
def test_county_between_city_and_state(us, text, expected):
    assert _keys(us, text) == {expected}


# -- a street and its ZIP without city or state ----------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # CSV: an id column before the number-first street, the ZIP in the next field, quoted fields after
    ('17,Northside Learning Center,3924 N Lincoln Ave,60613,"(773) 555-0100"\n'
     '18,Lakeview Tots,1115 W Belmont Ave Suite 2,60657,"(773) 555-0101"',
     {("3924", "N LINCOLN AVE", "60613", True), ("1115", "W BELMONT AVE", "60657", True)}),
    # a keyed record
    ('{"site": "Main Branch", "address": "400 S State St", "zip": "60605"}', {("400", "S STATE ST", "60605", True)}),
])
def test_street_and_region_zip_without_city_name_the_zip_city(us, text, expected):
    assert _keys(us, text) == expected


@pytest.mark.parametrize("text", [
    # a ZIP outside the region names no city: nothing is read
    '21,Evanston Day School,1840 Ridge Ave,60201,"(847) 555-0102"',
    # no type word: an id and a count are no street and ZIP
    '5,104 Lincoln,60613,12',
])
def test_street_and_zip_without_city_outside_the_region_or_without_type_word(us, text):
    assert _keys(us, text) == set()


# -- the place written first in a sentence: "in CITY, ST at NUMBER STREET" --------------------------------

@pytest.mark.parametrize("text, expected", [
    ("The agency is headquartered in Washington, DC at 451 7th St. SW, near the Mall.",
     ("451", "7TH ST. SW", None, True)),
    ("Our new office in Seattle, WA at 1000 2nd Ave, Suite 300, opens in May.", ("1000", "2ND AVE", None, True)),
    ("The meetup takes place in Denver, CO 80202 at 1701 Wynkoop St on Tuesdays.",
     ("1701", "WYNKOOP ST", "80202", True)),
    # another state's city of that name is out
    ("He opened a shop in Portland, ME at 12 Exchange Street.", ("12", "EXCHANGE STREET", None, False)),
])
def test_place_first_then_street(us, text, expected):
    assert _keys(us, text) == {expected}


@pytest.mark.parametrize("text", [
    "We met in Austin, TX on 5 occasions last year.",
    "She was born in Boston, MA at 5 a.m. on a Sunday.",
])
def test_place_first_without_a_street_is_nothing(us, text):
    assert _keys(us, text) == set()


# -- address parts as XML elements -------------------------------------------------------------------------

def test_ubl_postal_address_elements_us(us):
    xml = ("<cac:PostalAddress>\n  <cbc:StreetName>1200 Main Street</cbc:StreetName>\n"
           "  <cbc:AdditionalStreetName>Suite 300</cbc:AdditionalStreetName>\n"
           "  <cbc:CityName>Kansas City</cbc:CityName>\n  <cbc:PostalZone>64105</cbc:PostalZone>\n"
           "  <cbc:CountrySubentity>MO</cbc:CountrySubentity>\n</cac:PostalAddress>")
    assert _found(us, xml) == [("Main Street", "1200", "Suite 300", "64105", "Kansas City", True)]


def test_ubl_postal_address_elements_de(oldenburg):
    xml = ("<cac:PostalAddress>\n  <cbc:StreetName>Schlossplatz 1</cbc:StreetName>\n"
           "  <cbc:CityName>Oldenburg</cbc:CityName>\n  <cbc:PostalZone>26122</cbc:PostalZone>\n"
           "  <cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country>\n</cac:PostalAddress>")
    assert [(a.street, a.house_number, a.postcode, a.in_region) for a in oldenburg.parse(xml).all_addresses] == [
        ("Schlossplatz", "1", "26122", True)]


def test_xml_elements_in_another_order_and_without_prefix(us):
    xml = ("<venue><zip>80202</zip><city>Denver</city><state>CO</state>"
           "<street>1701 Wynkoop St</street></venue>")
    assert _keys(us, xml) == {("1701", "WYNKOOP ST", "80202", True)}


def test_html_elements_are_no_address_parts(us):
    assert _keys(us, "<p><b>Street</b> food</p><td>1200</td><td>Chicago</td><span>60601</span>") == set()


# -- the postal names of a region city's neighbourhoods (pack: ZIP_PLACES of New York and Boston) ---------

@pytest.mark.parametrize("text, expected", [
    ("1 Paul Gore St, Jamaica Plain, MA 02130", ("1", "PAUL GORE ST", "02130", True)),
    ("25 Lyman St, West Roxbury, MA 02132", ("25", "LYMAN ST", "02132", True)),
    ("40-10 82nd St, Jackson Heights, NY 11372", ("40-10", "82ND ST", "11372", True)),
    # the USPS's abbreviation of the place, written out
    ("89-02 Rockaway Beach Blvd, Rockaway Beach, NY 11693", ("89-02", "ROCKAWAY BEACH BLVD", "11693", True)),
    # towns of their own that share the ZIP area stay out
    ("795 Massachusetts Ave, Cambridge, MA 02139", ("795", "MASSACHUSETTS AVE", "02139", False)),
    ("1 Main St, Spokane Valley, WA 99206", ("1", "MAIN ST", "99206", False)),
])
def test_neighbourhood_postal_names(us, text, expected):
    assert _keys(us, text) == {expected}


# -- a grid street without type word after a region city's label ------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Offices\nChicago: 69 W. Washington\nSpringfield: 100 Main Street", ("69", "W. WASHINGTON", None, True)),
    ("Houston: 1200 N. Shepherd, Suite 4", ("1200", "N. SHEPHERD", None, True)),
])
def test_grid_street_without_type_word_after_a_city_label(us, text, expected):
    assert expected in _keys(us, text)


def test_one_digit_and_a_direction_after_a_city_label_is_no_street(us):
    assert _keys(us, "Final scores\nChicago: 3 North Stars\nDallas: 2") == set()


# -- a keyed record with city and ZIP but no state: the ZIP's prefix names the state --------------------------

@pytest.mark.parametrize("text, expected", [
    ('{"store": {"name": "Downtown", "city": "Cupertino", "address1": "10123 N Wolfe Rd", "zip": "95014"}}',
     ("10123", "N WOLFE RD", "95014", False)),
    ('{"address": "200 S Main St", "city": "Ann Arbor", "zip": "48104"}', ("200", "S MAIN ST", "48104", False)),
    # a region city and its ZIP: in
    ('{"address": "401 Biscayne Blvd", "city": "Richmond", "zip": "23219"}', ("401", "BISCAYNE BLVD", "23219", True)),
])
def test_city_and_zip_without_state_take_the_state_of_the_zip_prefix(us, text, expected):
    assert _keys(us, text) == {expected}


def test_pack_names_the_state_of_zip_prefixes(us):
    states = us.region.raw["zip3_states"]
    assert (states["950"], states["606"], states["021"], states["100"], states["981"]) == ("CA", "IL", "MA", "NY", "WA")
