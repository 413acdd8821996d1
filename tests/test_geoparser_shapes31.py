"""Ways of writing addresses met in real text (session 12, held-out 31, scored blind on the session's final parser,
then this one class fixed): each test is a class of writing, with members written for the test, not snippets of the
corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.city, a.state, a.postcode, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a private mailbox's or a box's number after the street is no town's ZIP --------------------------------------

@pytest.mark.parametrize("text, expected", [
    # the box after a suite, then the place: one address, the region's
    ("1200 Elm St Ste 4, PMB 75012, Dallas, TX 75201",
     [("Elm St", "1200", "Dallas", "TX", "75201", True)]),
    ("Acme Co., 88 Pine Street, Box 30301, Atlanta, GA 30303",
     [("Pine Street", "88", "Atlanta", "GA", "30303", True)]),
    # the box's line alone, with no place after it: no address (before: "PMB" read as a town with the ZIP 53289)
    ("Write to us: 2045 W Grand Ave Ste B, PMB 53289", []),
    ("500 Oak Ave, Box 90210", []),
])
def test_a_box_number_is_no_zip(us, text, expected):
    assert _found(us, text) == expected


def test_a_town_and_its_zip_without_state_still_read(us):
    assert _found(us, "380 New York St. Redlands 92373") == [("New York St.", "380", "Redlands", "CA", "92373", False)]


# -- a letter's attention line between the street and the place ---------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Acme Corp.\n100 Main St\nAttn: Legal Department\nDallas, TX 75201",
     [("Main St", "100", "Dallas", "TX", "75201", True)]),
    ("Widget LLC\n2200 Pine Ave, PMB 4411\nATTN: Jane Q. Roe\nDenver, CO 80202 USA",
     [("Pine Ave", "2200", "Denver", "CO", "80202", True)]),
    ("Friends of the Park\n45 Elm Street\nc/o Mary O'Neil\nPortland, OR 97205",
     [("Elm Street", "45", "Portland", "OR", "97205", True)]),
])
def test_an_attention_line_between_street_and_place(us, text, expected):
    assert _found(us, text) == expected


def test_a_unit_on_the_attention_line_is_no_note(us):
    # "Attn: Suite 5" names a part of the building: not left out as a note (and not read as the unit either)
    assert _found(us, "Acme\n100 Main St\nAttn: Suite 5\nDallas, TX 75201") == []
