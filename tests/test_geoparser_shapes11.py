"""Ways of writing German addresses met in real text (session 9, held-out 11: records of open data as JSON,
XML and Python fixtures, university imprints): each test is a class of writing, with members written for the
test, not snippets of the corpus."""

from __future__ import annotations

import time

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.in_region) for a in parser.parse(text).all_addresses]


# -- keys written with German letters ----------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # GeoJSON properties of open data: "Straße" as the key, the postcode a JSON number
    ('{"type": "Feature", "properties": {"Name": "Stadtteilbibliothek", "PLZ": 26125, "Ort": "Oldenburg", '
     '"Straße": "Alexanderstraße 85"}}', ("Alexanderstraße", "85", "26125", True)),
    # a Python dict with the street and its number in one key spelt with ß
    ("{'Einrichtung': 'Kita Sonnenschein', 'Straße_und_Hausnummer': 'Am Wehdeberg 3', 'PLZ': '28195', "
     "'Ort': 'Bremen'}", ("Am Wehdeberg", "3", "28195", False)),
    # YAML with umlauts in the keys
    ("anschrift:\n  straße: Donnerschweer Straße 210\n  postleitzahl: '26123'\n  ort: Oldenburg\n",
     ("Donnerschweer Straße", "210", "26123", True)),
])
def test_keys_with_german_letters(oldenburg, text, expected):
    assert expected in _found(oldenburg, text)


def test_key_with_german_letters_naming_no_part_is_ignored(oldenburg):
    # "Öffnungszeiten" and "Größe" name no address part: no address from their values
    text = '{"Öffnungszeiten": "Mo 9-12", "Größe": "26122", "Bemerkung": "Lange Straße 4"}'
    assert _found(oldenburg, text) == []


# -- a record with street and postcode keys but no place -----------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # JSON of a school register: postcode first, street and number in keys of their own, no city key
    ('{"schulnr": "2201", "plz": "26129", "strasse": "Bloherfelder Straße", "hausnr": "173", '
     '"telefon": "0441 123"}', ("Bloherfelder Straße", "173", "26129", True)),
    # another city's postcode: outside the region
    ('{"plz": "20095", "strasse": "Mönckebergstraße", "hausnr": "7a"}', ("Mönckebergstraße", "7a", "20095", False)),
    # a street without street word: the key says it is the street
    ("record = {'street': 'Kleine Freiheit', 'house_number': 12, 'zip': '24103'}",
     ("Kleine Freiheit", "12", "24103", False)),
    # street and number in one value, the postcode an unquoted number
    ('{"adresse": "Theaterwall 28", "postleitzahl": 26122}', ("Theaterwall", "28", "26122", True)),
])
def test_record_with_postcode_and_no_place(oldenburg, text, expected):
    assert expected in _found(oldenburg, text)


@pytest.mark.parametrize("text", [
    '{"strasse": "Musterstraße", "hausnr": "1", "plz": "26122"}',  # a sample street
    '{"strasse": "Hauptstraße", "hausnr": "5", "plz": "12345"}',  # a sample postcode
    '{"strasse": "Lange Straße", "plz": "26122"}',  # no house number
    '{"strasse": "Tel. 0441", "plz": "26122"}',  # no street
    '{"street": "1600 Amphitheatre Pkwy", "zip": "94043"}',  # a US street, read by the German pack
])
def test_record_with_postcode_and_no_place_needs_a_street_and_number(oldenburg, text):
    assert _found(oldenburg, text) == []


def test_record_with_postcode_and_no_place_in_the_us_pack_is_not_read_as_german(us):
    assert us.parse('{"plz": "10551", "strasse": "Turmstraße", "hausnr": "75"}').all_addresses == []


# -- a building's or site's name after a slash behind the house number -----------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Carl von Ossietzky Universität Oldenburg\nUhlhornsweg 49-55 / Campus Wechloy\n26129 Oldenburg",
     ("Uhlhornsweg", "49-55", "26129", True)),
    ("<p>Landesmuseum<br>Damm 1 / Prinzenpalais<br>26135 Oldenburg</p>", ("Damm", "1", "26135", True)),
    ("Besucheradresse: Schillerstraße 12b / Hofgebäude, 10625 Berlin", ("Schillerstraße", "12b", "10625", False)),
    ("Messe Nord\nHansaplatz 3 / Halle 2\n26123 Oldenburg", ("Hansaplatz", "3", "26123", True)),
])
def test_name_after_a_slash_behind_the_house_number(oldenburg, text, expected):
    assert expected in _found(oldenburg, text)


@pytest.mark.parametrize("text, number", [
    ("Lange Straße 29/31\n26122 Oldenburg", "29/31"),  # a range of numbers, not a name
    ("Lange Straße 3 / 5\n26122 Oldenburg", "3/5"),
])
def test_slash_before_a_number_stays_a_range(oldenburg, text, number):
    assert [n for _s, n, _p, _r in _found(oldenburg, text)] == [number]


@pytest.mark.parametrize("text", [
    "Sprachkurs 3 / Gruppe B\n26122 Oldenburg",  # no street word before the slash
    "Modul 4 / Übung\n26129 Oldenburg",
])
def test_slash_name_after_no_street(oldenburg, text):
    assert _found(oldenburg, text) == []


def test_slash_names_are_read_in_linear_time(oldenburg):
    # many slashes after numbers and no postcode: the tail pattern runs only at anchors
    text = ("Raum 12 / Nord " * 20_000) + "\n26122 Oldenburg"
    start = time.process_time()
    oldenburg.parse(text)
    assert time.process_time() - start < 2.0


# -- hyphenated street names with an abbreviated title or saint -------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Evangelisches Krankenhaus\nSt.-Jürgen-Platz 1\n26121 Oldenburg", ("St.-Jürgen-Platz", "1", "26121", True)),
    ("Praxis am Park, Prof.-Dr.-Wegener-Str. 7a, 26133 Oldenburg", ("Prof.-Dr.-Wegener-Str.", "7a", "26133", True)),
    ("Bgm.-Smidt-Straße 120 | 27568 Bremerhaven", ("Bgm.-Smidt-Straße", "120", "27568", False)),
])
def test_hyphenated_name_with_an_abbreviated_part(oldenburg, text, expected):
    assert expected in _found(oldenburg, text)


@pytest.mark.parametrize("text", [
    "Tel.-Nr. 4, 26122 Oldenburg",  # no street word at the end of the hyphenated name
    "Dr.-Ing. 4, 26122 Oldenburg",
])
def test_abbreviation_without_a_street_word_is_no_street(oldenburg, text):
    assert _found(oldenburg, text) == []


# -- a floor or building after a slash behind the house number ------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Gewerbepark Nord\nHoller Landstraße 11 / Gebäude 4\n26135 Oldenburg", ("Holler Landstraße", "11", "26135", True)),
    ("Kanzlei Hansen, Gartenstraße 8/1. OG, 20095 Hamburg", ("Gartenstraße", "8", "20095", False)),
])
def test_floor_or_building_after_a_slash(oldenburg, text, expected):
    assert expected in _found(oldenburg, text)


# -- OpenStreetMap XML: address tags as attributes ----------------------------------------------------------------

_OSM = """<osm version="0.6">
 <way id="7">
  <tag k="addr:city" v="Oldenburg"/>
  <tag k="addr:housenumber" v="70"/>
  <tag k="addr:postcode" v="26129"/>
  <tag k="addr:street" v="Küpkersweg"/>
  <tag k="building" v="office"/>
 </way>
 <node id="8" lat="53.5" lon="10.0">
  <tag k='addr:housenumber' v='2'/>
  <tag k='addr:postcode' v='20459'/>
  <tag k='addr:street' v='Deichstraße'/>
  <tag k='addr:city' v='Hamburg'/>
 </node>
 <node id="9"><tag k="addr:street" v="Staulinie"/><tag k="addr:housenumber" v="10"/></node>
</osm>"""


def test_openstreetmap_xml_address_tags(oldenburg):
    found = _found(oldenburg, _OSM)
    assert ("Küpkersweg", "70", "26129", True) in found
    assert ("Deichstraße", "2", "20459", False) in found
    assert len(found) == 2  # the third element has no place: no address


def test_openstreetmap_tags_of_other_keys_are_no_address(oldenburg):
    text = '<node id="1"><tag k="name" v="Lange Straße 4"/><tag k="note" v="26122 Oldenburg"/></node>'
    assert _found(oldenburg, text) == []


# -- a street in brackets before a place without postcode -------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Lesung im Theaterhafen (Stau 1) in Oldenburg", ("Stau", "1", "", True)),
    ("Vortrag im Bürgerhaus (Hauptstraße 12a), Bremen", ("Hauptstraße", "12a", "", False)),
])
def test_street_in_brackets_before_the_place(oldenburg, text, expected):
    street, number, postcode, in_region = expected
    assert (street, number, postcode or None, in_region) in _found(oldenburg, text)


@pytest.mark.parametrize("text", [
    "Schülerinnen (Jahrgang 5) in Oldenburg",
    "Schüler, Jahrgang 7, Oldenburg",
    "Treffen (seit 2019) in Oldenburg",
])
def test_bracketed_counts_before_a_place_are_no_street(oldenburg, text):
    assert _found(oldenburg, text) == []
