"""Ways of writing addresses met in real text (session 12, held-out 29: website repositories of US businesses,
nonprofits and agencies: location pages, footers, site data files, map links): each test is a class of writing,
with members written for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- numbered address lines, the place in the second or third ---------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a site's YAML settings: the street in line 1, city, state and ZIP in line 2
    ("contact:\n  phone: 303-555-0100\n  address_line_1: 1550 Wewatta Street\n  address_line_2: Denver, CO 80202\n",
     [("Wewatta Street", None, "1550", "80202", "Denver", True)]),
    # keys in camel case, the state written out, ZIP+4, outside the region
    ("office:\n  addressLine1: 22 Front Street\n  addressLine2: Salem, Oregon 97301-1234\n  phone: 503-555-0199\n",
     [("Front Street", None, "22", "97301", "Salem", False)]),
    # a suite in line 2 and the place in line 3
    ("address_line_1: 400 Congress Avenue\naddress_line_2: Suite 1200\naddress_line_3: Austin, TX 78701\n",
     [("Congress Avenue", "Suite 1200", "400", "78701", "Austin", True)]),
])
def test_place_in_a_numbered_address_line(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    # line 2 is a unit as before
    ("address1: 77 Pine Street\naddress2: Apt 4B\ncity: Portland\nstate: OR\nzip: 97204\n",
     [("Pine Street", "Apt 4B", "77", "97204", "Portland", True)]),
    # a line 2 that names a place without a ZIP is no place line: no address without a place
    ("address_line_1: 77 Pine Street\naddress_line_2: Building C, East Wing\n", []),
])
def test_unit_lines_stay_units(us, text, expected):
    assert _found(us, text) == expected


# -- an address only in a map's link or embed --------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a directions link whose text says nothing of the place
    ('<p>Visit our taproom</p><a href="https://maps.google.com/maps?daddr=2030+W+Fullerton+Ave+Chicago+IL+60647">'
     'Get directions</a>',
     [("W Fullerton Ave", None, "2030", "60647", "Chicago", True)]),
    # the Maps URLs API, percent-encoded
    ('<a class="btn" href="https://www.google.com/maps/search/?api=1&query=1100%20Congress%20Ave%2C%20Austin'
     '%2C%20TX%2078701">Find us</a>',
     [("Congress Ave", None, "1100", "78701", "Austin", True)]),
    # an embed naming the place with its suite, outside the region
    ('<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d3300.1!2d-117.9!3d33.6!2m3!1f0!2f0!3f0'
     '!3m2!1i1024!2i768!4f13.1!3m3!1m2!1s0x0%3A0x0!2s2850+Harbor+Blvd+%23120%2C+Costa+Mesa%2C+CA+92626!5e0" '
     'width="600"></iframe>',
     [("Harbor Blvd", "#120", "2850", "92626", "Costa Mesa", False)]),
])
def test_address_only_in_a_map_link(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a place link naming a business and its coordinates only
    ('<a href="https://www.google.com/maps/place/Blue+Door+Bakery/@39.74,-104.99,17z">Blue Door Bakery</a>', []),
    # the address the page writes (without ZIP) is not read a second time from its link
    ('<p>We are at 215 Pearl Street, Denver, CO. <a href="https://www.google.com/maps/place/215+Pearl+St,+Denver,'
     '+CO+80203/@39.7,-104.9,17z">Map</a></p>',
     [("Pearl Street", None, "215", None, "Denver", True)]),
])
def test_map_links_without_a_new_address(us, text, expected):
    assert _found(us, text) == expected


# -- a house number left at a line's end by a wrapped sentence ---------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # template prose wrapped by the editor, state written out, no ZIP
    ("<p>Stop by the studio at 2400\n          Larimer Street, Denver, Colorado, any weekday.</p>",
     [("Larimer Street", None, "2400", None, "Denver", True)]),
    # a direction written out
    ("<p>Come see our team at 88\n    East Broad Street, Columbus, Ohio, on Fridays.</p>",
     [("East Broad Street", None, "88", None, "Columbus", True)]),
    # a quadrant before the street, the city after "in"
    ('<div class="about">The shop sits at 1520\n   NW Lovejoy Street in Portland, Oregon.</div>',
     [("NW Lovejoy Street", None, "1520", None, "Portland", True)]),
])
def test_house_number_wrapped_from_its_street(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    # a year or a time at a line's end is no house number of the next line's words
    "Founded at 1987\nMain Street Bakery began with one oven.",
    "Doors open at 7\nParking on Elm Street is free.",
])
def test_numbers_at_a_line_end_without_a_street_after(us, text):
    assert _found(us, text) == []


# -- a district of a region city written as the town, with the ZIP the USPS files under the district -----------

@pytest.mark.parametrize("text, expected", [
    # San Fernando Valley districts of Los Angeles, a footer and a location page
    ("<footer>Valley Arts Center<br>14410 Sylvan Street<br>Van Nuys, CA 91401</footer>",
     [("Sylvan Street", None, "14410", "91401", "Van Nuys", True)]),
    ("<p class='address'>18401 Ventura Blvd<br>Tarzana, California 91356</p>",
     [("Ventura Blvd", None, "18401", "91356", "Tarzana", True)]),
    # Houston's Kingwood, San Diego's La Jolla on one line
    ("Kingwood branch: 4400 Bens View Ln, Kingwood, TX 77339", [("Bens View Ln", None, "4400", "77339", "Kingwood",
                                                                True)]),
    ("7825 Fay Ave, La Jolla, CA 92037", [("Fay Ave", None, "7825", "92037", "La Jolla", True)]),
])
def test_district_of_a_region_city_as_the_town(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    # the same names in other states are other towns
    ("<p>500 Market St<br>Wilmington, DE 19801</p>", [("Market St", None, "500", "19801", "Wilmington", False)]),
    ("<p>220 Tampa Ave<br>Venice, FL 34285</p>", [("Tampa Ave", None, "220", "34285", "Venice", False)]),
    # a district's name that is also a far town of the state (Santa Barbara County's Mission Hills)
    ("<p>3600 Constellation Rd<br>Mission Hills, CA 93436</p>",
     [("Constellation Rd", None, "3600", "93436", "Mission Hills", False)]),
])
def test_district_names_elsewhere_stay_out(us, text, expected):
    assert _found(us, text) == expected
