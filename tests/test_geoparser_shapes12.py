"""Ways of writing addresses met in real text (session 9, held-out 12: event calendars' iCalendar exports,
saved pages of news sites): each test is a class of writing, with members written for the test, not
snippets of the corpus."""

from __future__ import annotations

import pytest


def _keys(parser, text):
    return {(a.house_number, a.street.upper(), a.postcode, a.in_region) for a in parser.parse(text).all_addresses}


# -- "VENUE @ ADDRESS": the "@" of event listings stands for "at" before the house number ----------------

@pytest.mark.parametrize("text, expected", [
    # iCalendar LOCATION with escaped commas, a comma inside the street's name
    ("LOCATION:Union Hall @ 1200 Martin Luther King\\, Jr. Way\\, Seattle\\, Washington 98122 US",
     ("1200", "MARTIN LUTHER KING JR. WAY", "98122", True)),
    # plain text, a comma inside the name, the state abbreviated
    ("Meetup: Code Night @ 45 W Martin Luther King, Jr. Blvd., Austin, TX 78701",
     ("45", "W MARTIN LUTHER KING JR. BLVD.", "78701", True)),
    # Markdown list item of an event page
    ("- Lightning talks @ 300 NE Martin Luther King, Jr. Blvd, Portland, OR 97232",
     ("300", "NE MARTIN LUTHER KING JR. BLVD", "97232", True)),
])
def test_venue_at_sign_before_the_house_number(us, text, expected):
    assert _keys(us, text) == {expected}


@pytest.mark.parametrize("text", [
    "Special price @ 199 Dollars Phoenix, AZ",      # a price, no street type after the "@"
    "Order 3 @ 25 Units Denver, CO",
])
def test_at_sign_before_a_number_without_street_type_is_no_address(us, text):
    assert _keys(us, text) == set()


# -- a street with two type words, the line or comma after it: the second word is no part of the place ------

@pytest.mark.parametrize("text, expected", [
    ("4200 12th Street Causeway\nTampa, FL 33605", ("4200", "12TH STREET CAUSEWAY", "33605", False)),
    ("<p>1200 W 79th Street Causeway<br>\nTampa, FL 33607</p>", ("1200", "W 79TH STREET CAUSEWAY", "33607", False)),
    ("300 2nd Street Bypass\nFort Worth, TX 76102", ("300", "2ND STREET BYPASS", "76102", True)),
])
def test_second_type_word_before_a_line_break_stays_in_the_street(us, text, expected):
    assert _keys(us, text) == {expected}


def test_without_a_break_a_type_word_may_start_the_place(us):
    # "St." before "Louis" is Saint: with no comma or line break the place reading decides.
    assert _keys(us, "800 N. Lindberg St. Louis MO 63167") == {("800", "N. LINDBERG", "63167", True)}
