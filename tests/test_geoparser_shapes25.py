"""Ways of writing addresses met in real text (session 12, held-out 25: German addresses in open-data rows, imprints of
public bodies, keyed records of courts and airlines, template languages): each test is a class of writing, with
members written for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


def _keys(parser, text):
    return [(a.street, a.house_number, a.postcode, a.in_region) for a in parser.parse(text).all_addresses]


# -- a district between the house number and the postcode, in a field of its own; a comma glued to the postcode --

@pytest.mark.parametrize("text, street, number, postcode", [
    # prose and imprints: the district after a comma
    ("Stadtteiltreff Kreyenbrück, Ofener Straße 12, Bürgerfelde, 26121 Oldenburg", "Ofener Straße", "12", "26121"),
    # "OT" (Ortsteil) before the district
    ("Hofladen Meyer, Tweelbäker Weg 4, OT Tweelbäke, 26135 Oldenburg", "Tweelbäker Weg", "4", "26135"),
    # a CSV row: id, name, street, district, "PLZ Ort", dates; no space after the commas
    ("7,Kramermarkt,Lange Straße 5,Innenstadt,26122 Oldenburg,01.10.26,10.10.26", "Lange Straße", "5", "26122"),
    # a hyphenated district and a semicolon
    ("Peterstraße 3;Donnerschwee-Nord;26121 Oldenburg;Mo-Fr", "Peterstraße", "3", "26121"),
    # the street column and the "PLZ Ort" column next to each other: the comma glued to the postcode
    ("12,Stadtfest,Alexanderstraße 100,26121 Oldenburg,2026", "Alexanderstraße", "100", "26121"),
])
def test_district_field_between_number_and_postcode(oldenburg, text, street, number, postcode):
    assert _found(oldenburg, text) == [(street, number, postcode, "Oldenburg", True)]


@pytest.mark.parametrize("text, street, number, postcode", [
    ("Königsallee 12, Stadtmitte, 40212 Düsseldorf", "Königsallee", "12", "40212"),
    # the comma glued to a postcode of another city (a decimal's look, but a street word before it)
    ("3,Hofflohmarkt,Bergmannstraße 100,10961 Berlin,2026", "Bergmannstraße", "100", "10961"),
    ("3,Hofflohmarkt,Bergmannstraße 100,Kreuzberg,10961 Berlin,2026", "Bergmannstraße", "100", "10961"),
])
def test_district_field_and_glued_comma_outside_the_region(oldenburg, text, street, number, postcode):
    assert _keys(oldenburg, text) == [(street, number, postcode, False)]


@pytest.mark.parametrize("text", [
    "Kapitel 5, Einleitung, 26122 Oldenburg",  # no street word before the field
    "Anteil 62,10827 Berlin",  # a decimal's look, no street word
    "Wert 4,26121 Oldenburg",
])
def test_no_street_word_before_a_field_or_glued_comma(oldenburg, text):
    assert _found(oldenburg, text) == []


# -- a building or floor between street and postcode in a data row; a row with a postcode and no place -----------

@pytest.mark.parametrize("text, street, number, postcode", [
    # a building column between street and postcode, then the place
    ("1;Lange Straße 5;Haus B;26122;Oldenburg", "Lange Straße", "5", "26122"),
    # a building column, a postcode column and no place: the postcode names it
    ("4711;Peterstraße 3;Altbau;26121;12,5;ja", "Peterstraße", "3", "26121"),
    # no building column, still no place
    ("Bahnhofstraße 11;26122;1.200;ja", "Bahnhofstraße", "11", "26122"),
    # the building and the floor, commas
    ("88,Ofener Straße 12,Baracke 2,1. OG,26121,offen", "Ofener Straße", "12", "26121"),
])
def test_building_column_and_row_without_place(oldenburg, text, street, number, postcode):
    assert _keys(oldenburg, text) == [(street, number, postcode, True)]


def test_row_without_place_outside_the_region(oldenburg):
    assert _keys(oldenburg, "30447002;Hermannstraße 5 ;Halle 1 ;12049;675;ja") == [
        ("Hermannstraße", "5", "12049", False)]


def test_building_supplement_in_prose_is_no_street(oldenburg):
    # "Baracke 1" was read as the street of the postcode
    assert _keys(oldenburg, "Ofener Straße 12, Baracke 1, 26121 Oldenburg") == [("Ofener Straße", "12", "26121", True)]


@pytest.mark.parametrize("text", [
    "Version 2;Build 3;26122;ok",  # no street word in the first column
    "Kapitel 5;Haus 3;26122;Seite 9",
])
def test_row_without_place_needs_a_street_word(oldenburg, text):
    assert _found(oldenburg, text) == []
