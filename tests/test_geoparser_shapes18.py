"""Ways of writing addresses met in real text (session 10, held-out 18: Jekyll front matter of a hack night, saved
pages, API examples): each test is a class of writing, with members written for the test, not snippets of the
corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- YAML values aligned by hand: more than one space after the key's colon ----------------------------------

@pytest.mark.parametrize("text, street, number, zip_code", [
    # front matter of an event: the place in one key, with state and ZIP
    ("venue_name:   Lucky Lab\nvenue_street: 915 SE Hawthorne Blvd\nvenue_city:   Portland, OR 97214\n",
     "SE Hawthorne Blvd", "915", "97214"),
    # each part in its own key, the values in one column
    ("street:  1600 Pennsylvania Ave NW\ncity:    Washington\nstate:   DC\nzip:     20500\n",
     "Pennsylvania Ave NW", "1600", "20500"),
    # a state's name inside the city value
    ("address_street:  500 Main Street\naddress_city:    Houston, Texas 77002\n",
     "Main Street", "500", "77002"),
])
def test_aligned_yaml_values(us, text, street, number, zip_code):
    found = _found(us, text)
    assert [(s, n, z, r) for s, n, z, _c, r in found] == [(street, number, zip_code, True)]


def test_aligned_yaml_values_without_a_street_are_no_address(us):
    # aligned keys of an event without any street: nothing to find
    text = "title:    Hack Night\ntime:     6pm\ncity:     Chicago\nzip:      60654\n"
    assert _found(us, text) == []


def test_five_spaces_after_the_colon_are_still_not_read(us):
    # the limit stays: a value after five spaces is not taken for the city, so the street has no place
    text = "address_street: 3432 W Diversey Ave\naddress_city:     Chicago, IL 60647\n"
    found = _found(us, text)
    assert found == [] or all(z is None for _s, _n, z, _c, _r in found)


# -- a city key whose value holds the state and the ZIP too --------------------------------------------------

@pytest.mark.parametrize("text, street, number, zip_code, city", [
    ('{"street": "901 Bagby St", "city": "Houston, TX 77002"}', "Bagby St", "901", "77002", "Houston"),
    ("venue_street: 1500 Marilla Street\nvenue_city: Dallas, Texas 75201\n", "Marilla Street", "1500", "75201",
     "Dallas"),
    # a ZIP+4: the address keeps the five digits
    ("address_1: 2 E Main St\naddress_city: Akron, OH 44308-1234\n", "E Main St", "2", "44308", "Akron"),
])
def test_state_and_zip_inside_the_city_value(us, text, street, number, zip_code, city):
    assert _found(us, text) == [(street, number, zip_code, city, True)]
