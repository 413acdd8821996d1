"""Ways of writing US addresses met in held-out 14 (session 9: contact blocks of city agencies): each test is a
class of writing, with members written for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.house_number, a.street, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a unit whose last word is a direction (the wing of the floor) --------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("100 Summer St.\nSuite 200 West\nBoston, MA 02110",
     ("100", "Summer St.", "Suite 200 West", "02110", "Boston", True)),
    ("Office of Planning\n1500 Market Street\nSte 400 North\nPhiladelphia, PA 19102",
     ("1500", "Market Street", "Ste 400 North", "19102", "Philadelphia", True)),
    ("<p>700 Main Ave<br/>Floor 3 South<br/>Houston, TX 77002</p>",
     ("700", "Main Ave", "Floor 3 South", "77002", "Houston", True)),
    ("Visit us at 25 Elm Street, Suite 12 East, Denver, CO 80202.",
     ("25", "Elm Street", "Suite 12 East", "80202", "Denver", True)),
])
def test_unit_ending_in_direction(us, text, expected):
    assert expected in _found(us, text)


def test_direction_on_the_city_line_stays_the_city(us):
    # The break is before the direction: "West Chester" is the place, the unit is "Suite 200".
    found = _found(us, "10 High St\nSuite 200\nWest Chester, PA 19380")
    assert [(f[2], f[4]) for f in found] == [("Suite 200", "West Chester")]


def test_highway_number_not_a_unit(us):
    # "No." is a unit word, but "No. 130 North" on a highway is the route: not read as a unit with a direction.
    found = _found(us, "1200 U.S. Highway No. 130 North\nCinnaminson, NJ 08077")
    assert not any(f[2] and f[2].endswith("North") for f in found)


# -- a mail stop after the street --------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Public Works\n2020 Harbor Drive, M.S. 27\nSan Diego, CA 92101",
     ("2020", "Harbor Drive", "M.S. 27", "92101", "San Diego", True)),
    ("4100 Ocean Blvd, M.S. 4-2, Long Beach, CA 90802",
     ("4100", "Ocean Blvd", "M.S. 4-2", "90802", "Long Beach", True)),
    ("<br>88 Pine Street, MSC 12<br>Seattle, WA 98101",
     ("88", "Pine Street", "MSC 12", "98101", "Seattle", True)),
    ("Records Office\n301 Oak Ave MSC 1234\nPhoenix, AZ 85004",
     ("301", "Oak Ave", "MSC 1234", "85004", "Phoenix", True)),
])
def test_mail_stop_after_street(us, text, expected):
    assert expected in _found(us, text)


def test_mail_stop_needs_a_digit(us):
    # "MSC" without a number is no mail stop.
    found = _found(us, "12 College Rd, MSC Office\nEast Lansing, MI 48824")
    assert not any(f[2] and f[2].startswith("MSC") for f in found)
