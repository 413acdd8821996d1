"""Ways of writing addresses met in real text (session 11, held-out 23: Jekyll front matter of a food map, a venue
list, a CSV of original and normalised addresses, a Java app's fixtures, notebooks of election officials): each
test is a class of writing, with members written for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- one address written twice, short and in capitals and in full ------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a CSV row of an address and its normalised form, the neighbourhood first
    ('12,,"40 ELM ST, DORCHESTER, MA 02125","40 Elm Street, Boston, MA 02125",40,Elm Street,Boston,',
     [("Elm Street", None, "40", "02125", "Boston", True)]),
    # the full writing first, a direction word and a type word abbreviated in the second
    ("Mailing: 1200 North Main Avenue, San Antonio, TX 78212. Office: 1200 N MAIN AVE, San Antonio, TX 78212",
     [("North Main Avenue", None, "1200", "78212", "San Antonio", True)]),
    # outside the region
    ("Original: 9 MAPLE DR, SALEM, OR 97301 / Normalized: 9 Maple Drive, Salem, OR 97301",
     [("Maple Drive", None, "9", "97301", "Salem", False)]),
])
def test_one_address_written_short_and_in_full(us, text, expected):
    assert _found(us, text) == expected


def test_two_streets_of_the_same_number_and_zip_stay_two(us):
    """Oak Street and Oak Avenue are two streets: no abbreviation makes one the other."""
    found = _found(us, "8 Oak Street, Denver, CO 80203 and 8 Oak Avenue, Denver, CO 80203")
    assert [(s, n) for s, _u, n, _z, _c, _r in found] == [("Oak Street", "8"), ("Oak Avenue", "8")]


# -- a key and its value as the two string arguments of a call; keys named by their owner's words ----------------

@pytest.mark.parametrize("text, expected", [
    # a Java map filled by put(), the owner's words before each part's key
    ('data.put("clinicStreetAddress", "400 Main St");\ndata.put("clinicStreetAddress2", "Suite 12");\n'
     'data.put("clinicCity", "Houston");\ndata.put("clinicState", "TX");\ndata.put("clinicZipCode", "77002");',
     [("Main St", "Suite 12", "400", "77002", "Houston", True)]),
    # JavaScript URLSearchParams.set() with single quotes and snake case
    ("params.set('employer_street', '12 Oak Ave'); params.set('employer_city', 'Tulsa'); "
     "params.set('employer_zip', '74103');",
     [("Oak Ave", None, "12", "74103", "Tulsa", True)]),
    # a JSON record with camel-case owned keys, outside the region
    ('{"shelterStreetAddress1": "77 Pine Rd", "shelterCity": "Bend", "shelterState": "OR", "shelterZip": "97701"}',
     [("Pine Rd", None, "77", "97701", "Bend", False)]),
])
def test_keyed_parts_in_call_arguments_and_owned_keys(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    # keys that end in a part's word but name something else: a phone number, a user, an e-mail address, a state
    '{"contactPhoneNumber": "555 1234", "userName": "Main St", "emailAddress": "a@b.org", "appState": "idle"}',
    'map.put("requestNumber", "4400"); map.put("formTitle", "12 Steps"); map.put("chatRoom", "7");',
])
def test_owned_keys_that_name_no_part(us, text):
    assert _found(us, text) == []


# -- the address as positional arguments, a bare unit among them --------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('new Address("100 S 1st St", "4B", "Minneapolis", "MN", "55401")',
     [("S 1st St", "#4B", "100", "55401", "Minneapolis", True)]),
    ('["2200 Elm Ave", "12", "Dallas", "TX", "75201"]',
     [("Elm Ave", "#12", "2200", "75201", "Dallas", True)]),
    # fields on lines of their own
    ("31 Harbor Blvd\n7\nDestin, FL 32541", [("Harbor Blvd", "#7", "31", "32541", "Destin", False)]),
])
def test_bare_unit_among_positional_fields(us, text, expected):
    assert _found(us, text) == expected


def test_a_zip_on_its_line_is_no_unit(us):
    """A line of five digits after the street is the ZIP, not a bare unit."""
    found = _found(us, '["55 Water St", "10004", "New York", "NY"]')
    assert all(u is None for _s, u, _n, _z, _c, _r in found)


# -- a town of its own, far from the region city whose ZIP is written -------------------------------------------

@pytest.mark.parametrize("text, city, in_region", [
    ("123 Main St, Springfield, IL 60652", "Springfield", False),
    ('"5 Court Sq", "Peoria", "IL", "60601"', "Peoria", False),
    ("9 Center St, Galveston, TX 77002", "Galveston", False),
    # neighbourhoods of the city with its ZIP stay in (GeoNames knows them as places, but inside the city)
    ("1 Main St, Harlem, NY 10027", "Harlem", True),
    ("10 Main St, Jamaica, NY 11432", "Jamaica", True),
    ("40 Oak St, Hyde Park, IL 60615", "Hyde Park", True),
])
def test_far_town_with_a_region_zip(us, text, city, in_region):
    assert [(c, r) for _s, _u, _n, _z, c, r in _found(us, text)] == [(city, in_region)]


# -- a rural grid number of one part -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, number, street, zip_code", [
    ("<td>W5445 Center Road, Monroe, WI 53566</td>", "W5445", "Center Road", "53566"),
    ("Town Hall: N3302 County Road K, Brodhead Wi 53520", "N3302", "County Road K", "53520"),
    ("S891 Hill Rd\nIndependence, WI 54747", "S891", "Hill Rd", "54747"),
    # the two-part grid number stays one number
    ("N165 W2123 Bridge St, Cedarburg, WI 53012", "N165 W2123", "Bridge St", "53012"),
    ("W180 N8130 Town Hall Rd, Menomonee Falls, WI 53051", "W180 N8130", "Town Hall Rd", "53051"),
])
def test_rural_grid_number_of_one_part(us, text, number, street, zip_code):
    assert [(n, s, z) for s, _u, n, z, _c, _r in _found(us, text)] == [(number, street, zip_code)]


@pytest.mark.parametrize("text", [
    "Flight N1234 Boston, MA 02110",  # a tail number, no street after it
    "Model E350 Van, Dallas, TX 75201",
])
def test_letter_and_digits_without_a_street_is_no_address(us, text):
    assert _found(us, text) == []
