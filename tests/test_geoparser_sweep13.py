"""Ways of writing met in the sweep of session 13's changes (docs/geoparser.md, "Session 13: sweep of this session's
changes"): each test is a class of writing, with members written for the test, not lines of the swept text."""

from __future__ import annotations

import pytest


def _keys(parser, text):
    return sorted((a.street, a.house_number, a.postcode, a.in_region) for a in parser.parse(text).all_addresses)


# -- two numbers in a row's building column are no house numbers of the street --

@pytest.mark.parametrize("text, expected", [
    ("4711;Alexanderstraße 12;Haus 3, 3a;26121;1.204\n", [("Alexanderstraße", "12", "26121", True)]),
    ("0815;Kirchweg 7 ;Trakt 2,4 ;28195;ja\n", [("Kirchweg", "7", "28195", False)]),
    ("Schule Nord\tLange Straße 30\tBau 1, 2\t26122\tOldenburg\n", [("Lange Straße", "30", "26122", True)]),
])
def test_two_numbers_of_a_building_column_are_no_second_house_number(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


@pytest.mark.parametrize("text, expected", [
    # the two numbers in the street's own field stay two addresses, with or without a building column
    ("4711;Alexanderstraße 12,14;Haus 3;26121;1.204\n",
     [("Alexanderstraße", "12", "26121", True), ("Alexanderstraße", "14", "26121", True)]),
    ('0815;"Kirchweg 3, 5";Trakt 2;28195;ja\n', [("Kirchweg", "3", "28195", False), ("Kirchweg", "5", "28195", False)]),
])
def test_two_numbers_in_the_street_field_stay_two_addresses(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected
