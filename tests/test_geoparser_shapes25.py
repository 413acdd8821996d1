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
    # a footer's separators: a bar, a middle dot, a spaced dash
    ("Stadtmuseum | Am Stadtmuseum 4 | Innenstadt | 26121 Oldenburg", "Am Stadtmuseum", "4", "26121"),
    ("Kulturzentrum · Bahnhofstraße 11 · Bahnhofsviertel · 26122 Oldenburg", "Bahnhofstraße", "11", "26122"),
    ("Bürgerbüro Nord - Alexanderstraße 100 - Nadorst - 26121 Oldenburg", "Alexanderstraße", "100", "26121"),
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


# -- text lines of Pug and Slim templates: "|" before the text, an element alone on its line between ---------------

@pytest.mark.parametrize("text", [
    # Pug: piped text, "br" between
    ".legal\n  h2 Impressum\n  p\n    | Kulturetage gGmbH\n    br\n    |  Bahnhofstraße 11\n    br\n"
    "    |  26122 Oldenburg\n",
    # Pug: the block in a span with a class
    "p\n  span.adresse\n    | Stadtbibliothek\n    br\n    | Peterstraße 3\n    br\n    | 26121 Oldenburg\n",
    # Slim: the same marks
    "footer\n  address\n    | Peterstraße 3\n    br\n    | 26121 Oldenburg\n",
    # Pug's tag interpolated in a line of text
    "p Stadtbibliothek #[br] Peterstraße 3 #[br/] 26121 Oldenburg\n",
])
def test_piped_template_text(oldenburg, text):
    assert [(s, z, r) for s, _n, z, _c, r in _found(oldenburg, text)] in (
        [("Bahnhofstraße", "26122", True)], [("Peterstraße", "26121", True)])


def test_table_rows_keep_their_pipes(oldenburg):
    # a Markdown table's row has another "|" on its line: no template text
    text = "| Ort | Adresse |\n|---|---|\n| Bibliothek | Peterstraße 3, 26121 Oldenburg |\n"
    assert _keys(oldenburg, text) == [("Peterstraße", "3", "26121", True)]


# -- keys of German public data: the street with its number in one key, the delivery postcode -------------------

@pytest.mark.parametrize("text", [
    # upper-case keys of a court register, the postcode of the delivery district far from the street
    'PLZ_GROSSKUNDE: "26105",\nPLZ_ZUSTELLBEZIRK: "26135",\nTEL: "0441 220-0",\nFAX: "0441 220-1234",\n'
    'BEZEICHNUNG: "Amtsgericht",\nORT: "Oldenburg",\nSTR_HNR: "Elisabethstraße 7",',
    # JSON with "str_nr" and "plz_strasse" beside a PO box's postcode
    '{"name": "Landgericht", "plz_postfach": "26024", "postfach": "2451", "plz_strasse": "26135",\n'
    ' "ort": "Oldenburg", "str_nr": "Elisabethstraße 7"}',
    # "strasse_hnr" in a Python dict
    "{'strasse_hnr': 'Elisabethstraße 7', 'plz': '26135', 'ort': 'Oldenburg'}",
])
def test_street_and_number_key_and_delivery_postcode(oldenburg, text):
    assert _keys(oldenburg, text) == [("Elisabethstraße", "7", "26135", True)]


# -- a keyed street value with a building, a gate or a room after the house number ------------------------------

@pytest.mark.parametrize("text", [
    '{"streetAndNumber": "Ammerländer Heerstraße 114, Gebäude A14, Raum 1-102", "postalCode": "26129",'
    ' "city": "Oldenburg"}',
    '{"street": "Ammerländer Heerstraße 114, Campus Haarentor, Hörsaal 1", "zip": "26129", "city": "Oldenburg"}',
    "strasse: Ammerländer Heerstraße 114, Hörsaalzentrum\nplz: 26129\nort: Oldenburg\n",
])
def test_keyed_street_with_supplements_after_the_number(oldenburg, text):
    assert _keys(oldenburg, text) == [("Ammerländer Heerstraße", "114", "26129", True)]


@pytest.mark.parametrize("street_address", [
    "Ammerländer Heerstraße 114, 2. OG",
    "Ammerländer Heerstraße 114, Gebäude A14",
    "Ammerländer Heerstraße 114, Campus Haarentor, Block 3",
])
def test_structured_street_address_with_supplements_after_the_number(oldenburg, street_address):
    # JSON-LD's streetAddress: the number was taken from the end of the value ("Block 3") or not found at all
    record = ('{"@context": "https://schema.org", "@type": "Library", "address": {"@type": "PostalAddress",'
              f' "streetAddress": "{street_address}", "postalCode": "26129", "addressLocality": "Oldenburg"}}}}')
    page = f'<html><head><script type="application/ld+json">{record}</script></head><body><p>Bibliothek</p></body>'
    assert _keys(oldenburg, page) == [("Ammerländer Heerstraße", "114", "26129", True)]


def test_keyed_street_holding_its_place_stays_whole(oldenburg):
    # the value after the comma has a postcode: the place, not a supplement
    text = '{"street": "Lange Straße 5, 26122 Oldenburg", "city": "Oldenburg"}'
    assert _keys(oldenburg, text) == [("Lange Straße", "5", "26122", True)]


# -- two streets of one building or site before one place ------------------------------------------------------

@pytest.mark.parametrize("text, first, second", [
    ("Tanzhaus, Uferstraße 23 und Badstraße 41a, 26122 Oldenburg", ("Uferstraße", "23"), ("Badstraße", "41a")),
    ("Eckhaus Heiligengeiststraße 10 / Lange Straße 2, 26121 Oldenburg",
     ("Heiligengeiststraße", "10"), ("Lange Straße", "2")),
    ("Markt 1 & Schüttingstraße 3\n26122 Oldenburg", ("Markt", "1"), ("Schüttingstraße", "3")),
    ('{"address": "Achternstraße 2 sowie Lange Straße 5", "zip": "26122", "city": "Oldenburg"}',
     ("Achternstraße", "2"), ("Lange Straße", "5")),
])
def test_two_streets_joined_before_one_place(oldenburg, text, first, second):
    found = _keys(oldenburg, text)
    assert sorted(found) == sorted([(*first, found[0][2], True), (*second, found[0][2], True)])
    assert found[0][2] in ("26121", "26122")


@pytest.mark.parametrize("text", [
    "Linie 5 und Lange Straße 7, 26122 Oldenburg",  # a bus line is no street
    "Lange Straße 5 und 7, 26122 Oldenburg",  # a range of numbers of one street
])
def test_joined_only_with_a_street_word(oldenburg, text):
    assert len(_found(oldenburg, text)) == 1


# -- "Kolonie" after an adjective is a street's name, also where a street word is asked for -------------------------

@pytest.mark.parametrize("text, street", [
    ("Hofcafé, Neue Kolonie 12, Eversten, 26131 Oldenburg", "Neue Kolonie"),  # a district field between
    ("Alte Kolonie 3 und Lange Straße 5, 26122 Oldenburg", "Alte Kolonie"),  # joined to a second street
])
def test_kolonie_after_an_adjective(oldenburg, text, street):
    assert street in [s for s, _n, _z, _c, r in _found(oldenburg, text) if r]
