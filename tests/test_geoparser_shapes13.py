"""Ways of writing German addresses met in real text (session 9, held-out 13: car park records of cities and
of Deutsche Bahn as GeoJSON, one address a string with ``\\n`` escapes): each test is a class of writing, with
members written for the test, not snippets of the corpus."""

from __future__ import annotations

import time

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.in_region) for a in parser.parse(text).all_addresses]


# -- place, postcode and street, one a line --------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a station record: place, postcode, street, each on its own line, as a JSON string with escapes
    ('{"name": "Parkhaus Hauptbahnhof", "address": "Oldenburg\\n26122\\nBahnhofsplatz 10", "capacity": 320}',
     ("Bahnhofsplatz", "10", "26122", "Oldenburg", True)),
    # the same as lines of text, the street with a street word, a note on the line after it
    ("Bremen\n28195\nAm Wall 140\nEinfahrt von der Bürgermeister-Smidt-Straße",
     ("Am Wall", "140", "28195", "Bremen", False)),
    # a street without a street word, a house number with a letter
    ("Parkplatz Nord\nDelmenhorst\n27749\nCramerhof 2a", ("Cramerhof", "2a", "27749", "Delmenhorst", False)),
    # a place of two words (not in any list), a range of numbers, the next field after a comma
    ('"Bad Zwischenahn\\n26160\\nAm Delfter 12-14", "lot"',
     ("Am Delfter", "12-14", "26160", "Bad Zwischenahn", False)),
])
def test_place_postcode_street_lines(oldenburg, text, expected):
    assert _found(oldenburg, text) == [expected]


@pytest.mark.parametrize("text", [
    # the street without a house number: no street address
    '"address": "Oldenburg\\n26122\\nBahnhofsplatz"',
    # a count before the postcode-like number, not a place
    "Teilnehmer\n26122\nLange Straße 5",
    # a year after the street word is no house number
    "Oldenburg\n26122\nSaison 2024",
    # the postcode shares its line with other text: the reader of the usual order decides (nothing here)
    "Oldenburg\nKundennummer 26122\nLange Straße 5",
])
def test_place_postcode_street_lines_not(oldenburg, text):
    assert [a for a in oldenburg.parse(text).all_addresses if a.postcode == "26122"] == []


def test_usual_order_unchanged(oldenburg):
    # street, postcode, place one a line stays the street before the postcode
    assert _found(oldenburg, "Bahnhofsplatz 10\n26122\nOldenburg") == [
        ("Bahnhofsplatz", "10", "26122", "Oldenburg", True)]
    # two records in a row: each place goes with its own postcode and street
    text = "Essen\n45127\nKettwiger Straße 5\nDortmund\n44137\nKönigswall 15"
    assert _found(oldenburg, text) == [("Kettwiger Straße", "5", "45127", "Essen", False),
                                       ("Königswall", "15", "44137", "Dortmund", False)]


def test_place_postcode_street_lines_linear(oldenburg):
    # thousands of postcodes alone on their lines: each looks back one line and forward one, no more
    text = "Ort\n26122\nStraße\n" * 20000
    began = time.process_time()
    oldenburg.parse(text)
    assert time.process_time() - began < 10
