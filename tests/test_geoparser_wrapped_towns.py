"""A US town of two words that a hard wrap (mail, Markdown source, plain text) parted after its first word."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.house_number, a.street, a.city, a.postcode, a.in_region) for a in parser.parse(text).all_addresses]


@pytest.mark.parametrize("text, expected", [
    ("Our spring meetup is at 400 Harbor Drive, San\nLeandro, CA 94577, upstairs.",
     [("400", "Harbor Drive", "San Leandro", "94577", False)]),
    ("Send the forms to 75 Commerce Way, Mountain\nView, CA 94041",
     [("75", "Commerce Way", "Mountain View", "94041", False)]),
    ("> The clinic moved to 18 Vista Rd, Palo\n> Alto, CA 94301", [("18", "Vista Rd", "Palo Alto", "94301", False)]),
    ("Ship to: 9 Canal St, Fort\nLauderdale, FL 33301", [("9", "Canal St", "Fort Lauderdale", "33301", False)]),
    ("  12 Pine Rd, Round\n  Rock, TX", [("12", "Pine Rd", "Round Rock", None, False)]),  # no ZIP
    ("Warehouse: 2200 Industrial Pkwy, Santa\nClara, CA 95054",
     [("2200", "Industrial Pkwy", "Santa Clara", "95054", False)]),
])
def test_a_town_parted_by_a_wrap_is_one_town(us, text, expected):
    assert _found(us, text) == expected


def test_a_region_city_parted_by_a_wrap_stays_in_the_region(us):
    assert _found(us, "Write to us at 500 Howard Street, San\nFrancisco, CA 94105.") == [
        ("500", "Howard Street", "San Francisco", "94105", True)]


def test_a_direction_ending_the_line_is_not_joined_to_the_town(us):
    # "Elm St, East" may be the street's quadrant: the next line's town is not made "East Denver"
    assert _found(us, "Acme Inc., 200 Elm St, East\nDenver, CO 80202") == []
