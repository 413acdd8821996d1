"""Classes of writing the US test suites of other parsers showed (session 11, tests/data/conformance/us_suites.jsonl):
each test is a class, with members written for the test, not the suites' strings."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.house_number, a.street, a.city, a.state, a.postcode) for a in parser.parse(text).all_addresses]


# -- a place named like a state, then its state and ZIP ("Indiana, Pennsylvania 15705") -----------------------

@pytest.mark.parametrize("text, city, state, zip_code", [
    ("500 Main St, Nevada, Missouri 64772", "Nevada", "MO", "64772"),
    ("12 Elm St, Virginia, Minnesota 55792", "Virginia", "MN", "55792"),
    ("100 Oak Ave, Washington, Pennsylvania 15301", "Washington", "PA", "15301"),
    ("25 Pine St, Vermont, Illinois 61484", "Vermont", "IL", "61484"),
    ("Visit us: 8 Bank St, Delaware, Ohio 43015.", "Delaware", "OH", "43015"),
])
def test_place_named_like_a_state_before_the_state(us, text, city, state, zip_code):
    assert [(c, s, z) for _n, _st, c, s, z in _found(us, text)] == [(city, state, zip_code)]


@pytest.mark.parametrize("text, city, zip_code", [
    # the place between the state and the ZIP stays the metro area's name, the city the one before the state
    ("9 Lake Rd, Kirkland, WA, Seattle 98034", "Kirkland", "98034"),
    ("40 Pine St, Bellevue, WA, Seattle Metro 98004", "Bellevue", "98004"),
])
def test_place_between_state_and_zip_that_is_no_state(us, text, city, zip_code):
    assert [(c, s, z) for _n, _st, c, s, z in _found(us, text)] == [(city, "WA", zip_code)]


# -- the place's last word is no part of the state ("Santa Fe New Mexico") -----------------------------------

@pytest.mark.parametrize("text, city, state", [
    ("22 Cerrillos Rd Santa Fe New Mexico 87505", "Santa Fe", "NM"),
    ("7 Canyon Rd Santa Fe New Mexico", "Santa Fe", "NM"),
    ("15 Main St Los Lunas New Mexico 87031", "Los Lunas", "NM"),
    ("300 Oak Ave Santa Fe Springs California 90670", "Santa Fe Springs", "CA"),
    ("41 Elm St Eau Claire Wisconsin 54701", "Eau Claire", "WI"),
])
def test_place_written_out_before_a_state_of_two_words(us, text, city, state):
    assert [(c, s) for _n, _st, c, s, _z in _found(us, text)] == [(city, state)]


# -- a street type that begins no place's name stays the street's ("Square Mall Tampa") ----------------------

@pytest.mark.parametrize("text, street, city", [
    ("2290 Fletcher Square Mall Tampa FL 33612", "Fletcher Square Mall", "Tampa"),
    ("15 College Square Mall Gainesville FL", "College Square Mall", "Gainesville"),
    ("5 Market Square Mall Salem OR 97301", "Market Square Mall", "Salem"),
    ("77 Town Plaza Mall Mesa AZ", "Town Plaza Mall", "Mesa"),
])
def test_type_word_that_begins_no_place_stays_in_the_street(us, text, street, city):
    assert [(st, c) for _n, st, c, _s, _z in _found(us, text)] == [(street, city)]


@pytest.mark.parametrize("text, street, city", [
    # "St" before a place is Saint, "Park" begins places: the place keeps them
    ("800 N. Lindberg St. Louis MO", "N. Lindberg", "St. Louis"),
    ("12 Park Ave Park City UT 84060", "Park Ave", "Park City"),
])
def test_type_words_that_begin_places_stay_with_the_place(us, text, street, city):
    assert [(st, c) for _n, st, c, _s, _z in _found(us, text)] == [(street, city)]


# -- a number followed by a unit of measure is a quantity, no house number -----------------------------------

@pytest.mark.parametrize("text", [
    "Office: 900 sq. ft. Columbia Ave., Newfield, NJ 08344",
    "Lot of 2 acres Columbia Ave., Newfield, NJ 08344",
    "About 3 miles down Columbia Ave, Newfield, NJ 08344",
    "1200 sq ft office on Main St, Dallas, TX 75201",
    "45 sq. ft. 0 Oak Rd, Dallas, TX 75201",
    "Weighs 40 lbs Shipped from Elm St, Austin, TX 78701",
])
def test_quantity_before_a_street_is_no_house_number(us, text):
    assert _found(us, text) == []


@pytest.mark.parametrize("text, number, street", [
    # the house number after a distance stays; streets named Mile or Miles stay
    ("3 miles north of 120 Main St, Dallas, TX 75201", "120", "Main St"),
    ("5 minutes from 300 Elm St, Austin, TX 78701", "300", "Elm St"),
    ("100 Mile Square Rd, Yonkers, NY 10701", "100", "Mile Square Rd"),
    ("20 Miles Ave, Dallas, TX 75201", "20", "Miles Ave"),
])
def test_addresses_near_a_quantity_are_kept(us, text, number, street):
    assert [(n, st) for n, st, _c, _s, _z in _found(us, text)] == [(number, street)]
