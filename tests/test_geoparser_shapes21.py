"""Ways of writing addresses met in real text (session 11, held-out 21: meeting pages of a standards body and of
user groups, conference logistics, event front matter): each test is a class of writing, with members written for
the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a paragraph hard-wrapped between the house number and the street, in a shape only usaddress reads ---------

@pytest.mark.parametrize("text, street, unit, number, zip_code, in_region", [
    # a floor in brackets after the street
    ("Our group meets at the Foundry, located at 2500\nN. Clark Street (3rd Floor), Chicago, IL 60614, on Mondays.",
     "N. Clark Street", "3rd Floor", "2500", "60614", True),
    # a suite in brackets, the break after a comma's clause
    ("The clinic, 1400\nJackson St (Suite 2B), Denver, CO 80206, opens daily.", "Jackson St", "Suite 2B", "1400",
     "80206", True),
    # a building in brackets, outside the region
    ("This spring we moved to 77\nMassachusetts Ave (Building 10), Cambridge, MA 02139.", "Massachusetts Ave",
     "Building 10", "77", "02139", False),
    # a suite after a comma, a place the pattern does not take for a city
    ("Our office is at 2500\nN. Mannheim Road, Suite 100, Franklin Park, IL 60131", "N. Mannheim Road", "Suite 100",
     "2500", "60131", False),
])
def test_wrapped_between_number_and_street_read_by_usaddress(us, text, street, unit, number, zip_code, in_region):
    assert [(s, u, n, z, r) for s, u, n, z, _c, r in _found(us, text)] == [
        (street, unit, number, zip_code, in_region)]


@pytest.mark.parametrize("text", [
    "in 2019\nand 2020 we met in Austin, TX 78701",
    "Offices: 12\nMain Street offices closed, Austin, TX 78701",
    "Since 1999\nParents Association has met in Houston, TX 77002",
    # a box or a unit's number ends the line, the place is the next line
    '"address": "PO Box 156\\nHasbrouck Heights, NJ 07604\\nUnited States of America"',
    "P.O. BOX 42\nSpringfield, IL 62701",
    "Room 156\nHasbrouck Heights, NJ 07604",
    "Gate 12\nSalt Lake City, UT 84101",
])
def test_a_number_ending_a_line_before_words_is_no_address(us, text):
    assert _found(us, text) == []


# -- a note of the cross streets after the street, before the place ----------------------------------------------

@pytest.mark.parametrize("text, street, number, zip_code", [
    ("Hack night: 633 Folsom St. between 2nd and 3rd streets, San Francisco, CA 94107.", "Folsom St.", "633",
     "94107"),
    ("Venue: 55 Music Concourse Dr at Martin Luther King Jr Dr, San Francisco, CA 94118", "Music Concourse Dr", "55",
     "94118"),
    ("Meet us at 1200 Main St (between 12th & 13th), Kansas City, MO 64105", "Main St", "1200", "64105"),
    ("Studio: 500 Pine St near 5th Ave, Seattle, WA 98101", "Pine St", "500", "98101"),
    ("We are at 310 S Michigan Ave, between Jackson and Van Buren, Chicago, IL 60604.", "S Michigan Ave", "310",
     "60604"),
    ("The library (1000 Fifth Avenue at 82nd Street, New York, NY 10028) opens at nine.", "Fifth Avenue", "1000",
     "10028"),
])
def test_cross_street_note_before_the_place(us, text, street, number, zip_code):
    assert [(s, n, z, r) for s, _u, n, z, _c, r in _found(us, text)] == [(street, number, zip_code, True)]


def test_cross_street_note_in_a_keyed_street_value(us):
    text = ("address:\n  name: Dev Bootcamp\n  street: 633 Folsom St. between 2nd and 3rd streets\n"
            "  locality: San Francisco\n  region: CA\n")
    assert [(s, n, c, r) for s, _u, n, _z, c, r in _found(us, text)] == [("Folsom St.", "633", "San Francisco", True)]


@pytest.mark.parametrize("text, street", [
    # "at" before no street: the words stay the reading's business
    ("Doors at 6pm: 123 Main Street, Austin, TX 78701", "Main Street"),
    # a street named with "Between" is left whole
    ("4 Between the Lakes Rd, Salisbury, CT 06068", "Between the Lakes Rd"),
    # a venue whose name ends in a type word, then "at"/"@" and its address: the address is no cross street
    ("Javits Center at 429 11th Ave, New York, NY 10001", "11th Ave"),
    ("Convention Center @ 500 E Cesar Chavez Street, Austin, TX 78701", "E Cesar Chavez Street"),
])
def test_no_cross_street_note(us, text, street):
    assert [s for s, _u, _n, _z, _c, _r in _found(us, text)] == [street]


# -- the place first in a sentence without a state, maybe a venue's name before the street -------------------------

@pytest.mark.parametrize("text, street, unit, number, city", [
    ("The meetup is in Chicago, at the Merchandise Mart, 222 W Merchandise Mart Plaza.", "W Merchandise Mart Plaza",
     None, "222", "Chicago"),
    ("…in downtown Seattle, at the SURF Incubator, 999 3rd Avenue.", "3rd Avenue", None, "999", "Seattle"),
    ("The summit is in Denver, at 1701 Bryant St, on May 3.", "Bryant St", None, "1701", "Denver"),
    ("Our offices in Chicago, at 233 S Wacker Dr, Suite 4400, and in New York.", "S Wacker Dr", "Suite 4400", "233",
     "Chicago"),
])
def test_place_first_without_state(us, text, street, unit, number, city):
    assert [(s, u, n, c, r) for s, u, n, _z, c, r in _found(us, text)] == [(street, unit, number, city, True)]


@pytest.mark.parametrize("text", [
    "We live in Chicago, at least for now, with 3 kids and 2 dogs.",
    "Held in Denver, on 12 March Street festivals close the roads.",
    # a place of another country that is also a US town's name, no state: left alone
    "…in London, at the Barbican, 10 Silk St.",
])
def test_place_first_without_state_needs_a_street(us, text):
    assert _found(us, text) == []


# -- a labelled line naming the place, the street on the next line without a place of its own ----------------------

@pytest.mark.parametrize("text, street, unit, number, city, in_region", [
    ("## Fall meeting\n### Location: Boston, Massachusetts, USA\n### [Hynes](https://example.org/hynes) Convention "
     "Center (900 Boylston Street) / Room 302\n### Host: ACME", "Boylston Street", None, "900", "Boston", True),
    ("Where: Chicago, IL\nMerchandise Mart, 222 W Merchandise Mart Plaza, 8th Floor", "W Merchandise Mart Plaza",
     "8th Floor", "222", "Chicago", True),
    ("* **Venue:** Providence, RI\n* The Foundry, 235 Promenade Street", "Promenade Street", None, "235",
     "Providence", False),
])
def test_labelled_place_line_then_the_street(us, text, street, unit, number, city, in_region):
    assert [(s, u, n, c, r) for s, u, n, _z, c, r in _found(us, text)] == [(street, unit, number, city, in_region)]


def test_labelled_place_line_then_an_address_with_its_own_place(us):
    # the street's own place and state after it: read by its own anchor, once
    text = "Venue: Austin, TX\n12 Main Street, Dallas, TX 75201"
    assert [(s, n, c) for s, _u, n, _z, c, _r in _found(us, text)] == [("Main Street", "12", "Dallas")]


@pytest.mark.parametrize("text", [
    "Location: Denver, CO\nDates: May 3 2019",
    "Location: Denver, CO\nOn 12 March Street fairs close the roads.",
    # no label: a place in a sentence, then a street on the next line, is left alone
    "We met in Denver, CO\n1200 Main Street was closed.",
])
def test_labelled_place_line_needs_a_street(us, text):
    assert _found(us, text) == []
