"""Ways of writing German addresses met in real text (session 14, held-out 48: code fixtures with the postcode
first, GIS exports of land-register data): each test is a class of writing, with members written for the test, not
snippets of the corpus."""

from __future__ import annotations

import pytest

from tests.addressfields import found as _found

# -- a street named for a person or a place, its words apart, its street word a word of its own ---------------

@pytest.mark.parametrize("text, street, number, postcode, city, inside", [
    # postcode and town first, as insurers' and authorities' registers write them
    ('UNFALLKASSE("UK Nord", "24114 Kiel, Theodor Storm Str. 7", "1203")', "Theodor Storm Str.", "7", "24114",
     "Kiel", False),
    ('{"anschrift": "26123 Oldenburg, Karl Jaspers Allee 12"}', "Karl Jaspers Allee", "12", "26123", "Oldenburg",
     True),
    ("Sitz: 04109 Leipzig, Wilhelm Leuschner Platz 3", "Wilhelm Leuschner Platz", "3", "04109", "Leipzig", False),
    # the street first, its first word kept (it was cut to "Brandt Straße")
    ("Willy Brandt Straße 40, 30169 Hannover", "Willy Brandt Straße", "40", "30169", "Hannover", False),
    # one name word before the street word
    ("Tel-Aviv Ring 5, 26129 Oldenburg", "Tel-Aviv Ring", "5", "26129", "Oldenburg", True),
    ("53113 Bonn, Bonner Talweg 8", "Bonner Talweg", "8", "53113", "Bonn", False),
])
def test_named_street_with_its_street_word_apart(oldenburg, text, street, number, postcode, city, inside):
    assert _found(oldenburg, text) == [(street, number, postcode, city, inside)]


def test_a_phrase_word_before_a_street_word_is_no_name(oldenburg):
    # "Kontakt" starts a label, not a street's name: the street is "Lange Straße" alone
    found = _found(oldenburg, "26122 Oldenburg, Kontakt Lange Straße 7")
    assert [f[0] for f in found] in ([], ["Lange Straße"])


# -- the house number's key of land registers and GIS exports: "Hsnr" ----------------------------------------

@pytest.mark.parametrize("text, street, number, postcode", [
    # GeoJSON properties of a city's facilities, numbers written as floats by the export
    ('{ "type": "Feature", "properties": { "Name": "Freibad Ost", "Plz": 26125.0, "Strname": "Brandsweg", '
     '"Hsnr": 14.0 } }', "Brandsweg", "14", "26125"),
    # the same keys in capitals and as strings (a shapefile's attribute table as JSON)
    ('{"STRNAME": "Alexanderstraße", "HSNR": "212", "PLZ": "26127", "ORT": "Oldenburg"}', "Alexanderstraße",
     "212", "26127"),
    # a Python record of the same export
    ("{'plz': 49074, 'strname': 'Neuer Graben', 'hsnr': 29}", "Neuer Graben", "29", "49074"),
])
def test_gis_house_number_key(oldenburg, text, street, number, postcode):
    found = [(a.street, a.house_number, a.postcode) for a in oldenburg.parse(text).all_addresses]
    assert found == [(street, number, postcode)]
