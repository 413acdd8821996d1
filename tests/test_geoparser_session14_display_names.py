"""Addresses written as a geocoder's display name (Nominatim's ``display_name``, geopy's ``Location``): the house
number a part of its own before the street, districts and a county between the street and the state, the postcode
between the state and the country."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return {(a.house_number, a.street, a.postcode, a.city, a.in_region) for a in parser.parse(text).all_addresses}


@pytest.mark.parametrize("text, expected", [
    ('{"place_id": 1, "display_name": "Space Needle, 400, Broad Street, Belltown, Seattle, King County, Washington, '
     '98109, United States", "class": "tourism"}', {("400", "Broad Street", "98109", "Seattle", True)}),
    ("| Gateway Arch | 11, North 4th Street, Downtown, St. Louis, Missouri, 63102, United States | 38.62 |",
     {("11", "North 4th Street", "63102", "St. Louis", True)}),
    # A town of no region city: an address outside the region.
    ('"display_name": "12, Main Street, Stowe, Lamoille County, Vermont, 05672, United States"',
     {("12", "Main Street", "05672", "Stowe", False)}),
])
def test_us_display_names(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    ('"display_name": "7, Schloßplatz, Innenstadt, Oldenburg (Oldb), Niedersachsen, 26122, Deutschland"',
     {("7", "Schloßplatz", "26122", "Oldenburg", True)}),
    ("Location(14a, Donnerschweer Straße, Donnerschwee, Oldenburg, Lower Saxony, 26123, Germany, (53.15, 8.23))",
     {("14a", "Donnerschweer Straße", "26123", "Oldenburg", True)}),
    ('"display_name": "3, Kirchstraße, Garrel, Landkreis Cloppenburg, Niedersachsen, 49681, Deutschland"',
     {("3", "Kirchstraße", "49681", "Garrel", False)}),
])
def test_german_display_names(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    '"display_name": "Bagby Street, Downtown, Houston, Harris County, Texas, 77002, United States"',  # no number
    "Born 1950, 12, Smith, Texas, 75001, USA",  # a year and a name, no street
    "Orders 2024, 17, shipped, Texas, 75001, United States",
])
def test_no_display_name_address_without_a_number_and_a_street(us, text):
    assert _found(us, text) == set()


def test_a_geopy_location_is_read_with_its_zip(us):
    # The line reader also reads "1000, 5th Avenue, Upper East Side, ..., New York" without the ZIP (the district
    # taken into the street): a wrong reading that the display name's reading does not take away (left as it is).
    found = _found(us, "Location(1000, 5th Avenue, Upper East Side, Manhattan, New York County, New York, 10028, "
                       "United States, (40.779, -73.963, 0.0))")
    assert ("1000", "5th Avenue", "10028", "New York", True) in found
