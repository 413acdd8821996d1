"""Ways of writing addresses met in real text (session 13, held-out 33: German addresses in data rows and records,
CSV and tab-separated rows, FHIR address elements): each test is a class of writing, with members written for the
test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _keys(parser, text):
    return sorted((a.street, a.house_number, a.postcode, a.in_region) for a in parser.parse(text).all_addresses)


# -- a data row with the house number in a column of its own after the street's name --

@pytest.mark.parametrize("text, expected", [
    ("4711,Grundschule Eversten,Hauptstraße,27,28195,Bremen,0441/123456\n", [("Hauptstraße", "27", "28195", False)]),
    ("0815,Grundschule Süd,Schulweg,5,24941,Flensburg,0461/1234\n", [("Schulweg", "5", "24941", False)]),
])
def test_house_number_in_its_own_column(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    "Müller,Hans,42,26121,Oldenburg\n",  # a person's age before the postcode: no street
    "Schmidt;Eva;Flensburg;7;24937;Flensburg\n",  # a town's name before a number is no street's name
])
def test_number_column_after_no_street_name_is_no_address(oldenburg, text):
    assert _keys(oldenburg, text) == []


# -- a data row whose place and postcode columns come before the street's --

@pytest.mark.parametrize("text, expected", [
    ("1001\tGymnasium Eversten\tOldenburg\t26122\tTheodor-Tantzen-Platz 8\t\t0441 1\n",
     [("Theodor-Tantzen-Platz", "8", "26122", True)]),
    ("Bremen;28195;Sögestraße;42 a;0421 1\n", [("Sögestraße", "42a", "28195", False)]),
    ("Bremen\t28195\tObernstraße\t2\tja\n", [("Obernstraße", "2", "28195", False)]),
])
def test_postcode_and_place_before_the_street(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    "Oldenburg;26122;Dr. Hans Meyer;12;Kinderarzt\n",  # a person after the postcode, not a street
    "Oldenburg\t26122\tRaum 12\t3\n",
])
def test_postcode_before_no_street_is_no_address(oldenburg, text):
    assert _keys(oldenburg, text) == []
