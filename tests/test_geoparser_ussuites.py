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


# -- a part of a region city, then the city's name or alias, without a comma ("Roxbury Boston") --------------

@pytest.mark.parametrize("text, city", [
    ("1 Warren St Roxbury Boston MA 02119", "Boston"),
    ("30-10 Steinway St Astoria Queens NY 11103", "New York"),
    ("781 Nostrand Ave, Brooklyn New York NY 11216", "New York"),
    ("200 Broadway Manhattan NYC NY 10038", "New York"),
    ("5 Vine St Hollywood Los Angeles CA 90028", "Los Angeles"),
    ("640 Eastern Pkwy Crown Heights Brooklyn NYC NY 11213", "New York"),
])
def test_neighbourhood_then_city_is_the_city_in_the_region(us, text, city):
    found = us.parse(text).all_addresses
    assert [(a.city, a.in_region) for a in found] == [(city, True)]


@pytest.mark.parametrize("text, city", [
    # towns of their own whose names end in a region city's name stay as written, outside the region
    ("12 Oak St North Las Vegas NV 89030", "North Las Vegas"),
    ("4 Elm St East Los Angeles CA", "East Los Angeles"),
    ("9 Pine St West New York NJ 07093", "West New York"),
    ("8 Linden Ave South San Francisco CA 94080", "South San Francisco"),
])
def test_town_named_after_a_region_city_stays_as_written(us, text, city):
    found = us.parse(text).all_addresses
    assert [(a.city, a.in_region) for a in found] == [(city, False)]


# -- a road named by a word, "Road" and its number ("Ranch Road 620"): the number is the road's ---------------

@pytest.mark.parametrize("text, number, street", [
    ("2100 Ranch Road 620 N, Austin, TX 78734", "2100", "Ranch Road 620 N"),
    ("12 Farm to Market Road 1960 W, Houston, TX 77090", "12", "Farm to Market Road 1960 W"),
    ("8100 Park Road 4 W, Burnet, TX 78611", "8100", "Park Road 4 W"),
    ("5500 Ranch to Market Road 2222, Austin, TX 78730", "5500", "Ranch to Market Road 2222"),
    ("4 Forest Road 45 Flagstaff AZ 86001", "4", "Forest Road 45"),
    ("36401 County Road 43, Eaton, CO 80615", "36401", "County Road 43"),
])
def test_road_named_by_its_number_keeps_the_number(us, text, number, street):
    assert [(n, st) for n, st, _c, _s, _z in _found(us, text)] == [(number, street)]


def test_unit_after_a_named_road_stays_a_unit(us):
    # a unit word before the number: a unit, not the road's number
    found = us.parse("100 Main Road, Suite 5, Austin, TX 78701").all_addresses
    assert [(a.house_number, a.street, a.unit) for a in found] == [("100", "Main Road", "Suite 5")]
