"""Ways of writing US addresses without state met in real text (session 13: held-out 34, scored blind, and the
second sweep's misses): each test is a class of writing, with members written for the test, not snippets of the
corpus, and negatives that must stay without a find."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.unit, a.city, a.state, a.postcode, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a street, "in" and a region city, no state -------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("The shop has moved: it is located at 2210 12th Avenue in Seattle.",
     [("12th Avenue", "2210", None, "Seattle", "WA", None, True)]),
    ("Our next hack night is at 850 Folsom Street in San Francisco on Tuesday.",
     [("Folsom Street", "850", None, "San Francisco", "CA", None, True)]),
    # a unit and a building's name after "at" between the street and "in"
    ("Hearings are held at 77 North Elm Street, Room 210, at the Civic Center Annex in Los Angeles.",
     [("North Elm Street", "77", "Room 210", "Los Angeles", "CA", None, True)]),
    ("The van parks at the playground at 570 Eddy Street\nin San Francisco on Tuesdays.",  # a hard wrap
     [("Eddy Street", "570", None, "San Francisco", "CA", None, True)]),
    ("Drop off donations at 415 Grant Ave in downtown Denver",
     [("Grant Ave", "415", None, "Denver", "CO", None, True)]),
    # a region city's name inside the street does not end the address early
    ("We moved to 1650 Houston Street in Dallas.",
     [("Houston Street", "1650", None, "Dallas", "TX", None, True)]),
])
def test_a_street_in_a_region_city(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    "She finished the 3 Mile Run in Boston in record time.",  # a count after an article, no house number
    "The 7 Points Plaza in Denver opened last spring.",
    "In 1998 Pike Place in Seattle looked different.",  # a year, not a house number
    "We toured 12 Main Street shops in Dallas.",  # the street does not end before "in"
    "Sold at 300 Main St in Dallas County fairs.",  # a county, not the city
    "Walk to 44 Elm Street in Springfield.",  # a town outside the region: nothing confirms it
])
def test_no_street_in_a_region_city(us, text):
    assert _found(us, text) == []


# -- a street on a place's labelled line under a heading naming the city and state --------------------------------

@pytest.mark.parametrize("text, expected", [
    ("**SEATTLE, WA**\n**Contact:** Ann, ann[at]example[dot]org\n**Time:** Sunday, 2 PM\n"
     "**Location:** 1520 Pike Pl\n**Notes:** look for the sign",
     [("Pike Pl", "1520", None, "Seattle", "WA", None, True)]),
    ("### Denver, CO\n\nWhen: Friday 6 PM\nWhere: The Oak Room, 300 Larimer Street. Enter from the alley.",
     [("Larimer Street", "300", None, "Denver", "CO", None, True)]),
    ("<h3>Portland, OR</h3>\n<p>Venue: 41 SE Ash St, Suite 5</p>",
     [("SE Ash St", "41", "Suite 5", "Portland", "OR", None, True)]),
])
def test_a_street_under_a_city_heading(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    "**Location:** 1520 Pike Pl\n**Notes:** look for the sign",  # no heading
    "**Jane Roe, MD**\nLocation: 100 Elm Street",  # a person's title, no region city
    "**SEATTLE, WA**\nWe meet online.\nNotes: bring 2 Park Passes.",  # no labelled street
    "**SEATTLE, WA**\n" + "line\n" * 14 + "Location: 1520 Pike Pl",  # the heading too far up
    "**SEATTLE, WA**\nTime: 6 PM, room 4 Main Hall",  # no house number before a street
])
def test_no_street_under_a_city_heading(us, text):
    assert _found(us, text) == []


def test_a_place_after_the_street_is_its_own(us):
    # the town written after the street is the address's, not the heading's
    found = _found(us, "**SEATTLE, WA**\nLocation: 12 Main St, Bellevue, WA 98004")
    assert found == [("Main St", "12", None, "Bellevue", "WA", "98004", False)]


# -- a table's columns as one-element arrays: a street's cell, then a region city's cell ---------------------------

@pytest.mark.parametrize("text, expected", [
    ('const sites = [\n  [\n   "12"\n  ],\n  [\n   "Oak Grove Library"\n  ],\n  [\n   "4410 Franklin Blvd"\n  ],\n'
     '  [\n   "Sacramento"\n  ],\n  [\n   "38.51"\n  ]\n]',
     [("Franklin Blvd", "4410", None, "Sacramento", "CA", None, True)]),
    ('rows = [["Hall B"], ["900 Grand Ave Suite 2"], ["Tulsa"], ["36.1"]]',
     [("Grand Ave", "900", "Suite 2", "Tulsa", "OK", None, True)]),
])
def test_a_street_cell_before_a_region_city_cell(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    'rows = [["Oak Grove Library"], ["Sacramento"], ["38.51"]]',  # no street's cell
    'rows = [["4410 Franklin Blvd"], ["Elk Grove"]]',  # a town outside the region: nothing confirms it
    'rows = [["12 Main St"], ["Sacramento Kings"]]',  # the cell is more than the city's name
    'rows = [["Main Street Band"], ["Tulsa"]]',  # no house number
])
def test_no_street_cell_before_a_region_city_cell(us, text):
    assert _found(us, text) == []


# -- a town without state after "located at": after "in", before a phone in brackets or ", and", hard-wrapped ------

@pytest.mark.parametrize("text, expected", [
    ("A second office is located at 210 Alma Street, Suite 3 in Palo Alto.",
     [("Alma Street", "210", "Suite 3", "Palo Alto", None, None, False)]),
    ("The pantry is located at 77 Linden Avenue, South San Francisco (650-555-0100), open Fridays.",
     [("Linden Avenue", "77", None, "South San Francisco", None, None, False)]),
    ("The clinic is located at 15 Laurel Street, Menlo Park, and takes walk-ins.",
     [("Laurel Street", "15", None, "Menlo Park", None, None, False)]),
    ("The class is located\nat 88 Castro Street, Mountain View. Bring a mat.",
     [("Castro Street", "88", None, "Mountain View", None, None, False)]),
    ("Lunch is served at the parish hall, located at 31 Oak Road (behind the church) in Redwood City.",
     [("Oak Road", "31", None, "Redwood City", None, None, False)]),
    # a region city broken by a hard wrap: read as the region's
    ("The drop-in center is located at 440 North 1st Street, San\nJose. Walk-ins welcome.",
     [("North 1st Street", "440", None, "San Jose", "CA", None, True)]),
])
def test_a_town_after_located_at(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    "The office is located at 12 Main St, Main Hall (555-1234).",  # a hall, no town
    "It is located at 40 Elm Street, Suite 4 (2nd floor).",  # a unit and a remark, no town
    "The desk is located at 9 Elm Street, North.",  # a wing, no town
    "Visit 31 Oak Road (behind the church) in Redwood City.",  # no "located at"
])
def test_no_town_after_located_at(us, text):
    assert _found(us, text) == []


# -- the place of a static map's image (its "center="), in HTML or Markdown --------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('<img alt="map" src="https://maps.googleapis.com/maps/api/staticmap?center=Cafe+Vita+1005+E+Pike+St+Seattle,'
     '+WA+98122&zoom=15&size=600x300">',
     [("E Pike St", "1005", None, "Seattle", "WA", "98122", True)]),
    ("Find us: ![map](https://maps.googleapis.com/maps/api/staticmap?center=2300+Market+St,San+Francisco,CA"
     "&zoom=16)",
     [("Market St", "2300", None, "San Francisco", "CA", None, True)]),
    # a Markdown link to a map's place, as an HTML one is read
    ("See [the map](https://www.google.com/maps/place/410+Terry+Ave+N,+Seattle,+WA+98109/@47.62,-122.33)",
     [("Terry Ave N", "410", None, "Seattle", "WA", "98109", True)]),
])
def test_the_place_of_a_static_map(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    '<img src="https://maps.googleapis.com/maps/api/staticmap?center=47.6097,-122.3331&zoom=13&size=600x300">',
    "![map](https://maps.googleapis.com/maps/api/staticmap?center=Seattle,WA&zoom=10)",  # a city, no street
])
def test_no_place_of_a_static_map(us, text):
    assert _found(us, text) == []


# -- a geocoder's record with the street line in its "name" and no street key ------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('{"properties": {"layer": "address", "name": "740 Park Avenue", "locality": "New York", "region": "NY"}}',
     [("Park Avenue", "740", None, "New York", "NY", None, True)]),
    ('{"layer": "address", "name": "2 Lombard St", "locality": "San Francisco"}',
     [("Lombard St", "2", None, "San Francisco", "CA", None, True)]),
])
def test_a_street_in_a_records_name(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    '{"name": "Blue Bottle Coffee", "locality": "Oakland"}',  # a place's name
    '{"name": "7 Eleven", "locality": "Dallas", "region": "TX"}',  # a number, no street
    '{"name": "20 Main Street Bakery", "locality": "Houston"}',  # more than the street line
])
def test_no_street_in_a_records_name(us, text):
    assert _found(us, text) == []


def test_a_records_own_street_key_comes_first(us):
    # the street's key says what the street is; the name is the place's
    text = ('{"name": "18 Oak Street", "street": "Elm Street", "housenumber": "40", "locality": "Seattle",'
            ' "region": "WA"}')
    assert _found(us, text) == [("Elm Street", "40", None, "Seattle", "WA", None, True)]


def test_a_name_without_a_town_is_no_street(us):
    assert _found(us, '{"name": "740 Park Avenue", "postalcode": "10021"}') == []
