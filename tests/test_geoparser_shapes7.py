"""Ways of writing addresses met in real text (session 7: meeting listings of city agencies): each test is
a class of writing, with several members in text written for the test, not a snippet of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


@pytest.mark.parametrize("text, unit", [
    ("Council Hall, 3rd Floor, 900 Bagby St, Houston, TX 77002", "3rd Floor"),       # floor, building, number
    ("Hearing Room\n4th Fl\n900 Bagby St, Houston, TX 77002", None),                  # floor on the line above
    ("Annex Chambers, \n11th Floor \n900 Bagby St, Houston, TX 77002", "11th Floor"),
    ('{"room": "Annex, Suite 120",\n "address": "900 Bagby St, Houston, TX 77002"}', "Suite 120"),
    ('"address": "Suite 120, 900 Bagby St, Houston, TX 77002"', "Suite 120"),         # quote before the unit
    ("Council Hall, 3rd Floor 900 Bagby St, Houston, TX 77002", "3rd Floor"),
])
def test_unit_before_the_house_number(us, text, unit):
    found = _found(us, text)
    assert [(f[0], f[1], f[3], f[4]) for f in found] == [("Bagby St", "900", "77002", "Houston")]
    if unit is not None:
        assert found[0][2] == unit


def test_unit_on_the_line_above_is_not_taken_from_another_address(us):
    text = "100 Main St, Houston, TX 77002, Suite 5\n900 Bagby St, Houston, TX 77002"
    assert [(f[0], f[2]) for f in _found(us, text) if f[0] == "Bagby St"] == [("Bagby St", None)]


@pytest.mark.parametrize("text", [
    "Training Room 735 Rusk St Houston, TX 77002",
    "2nd Floor Community Room 735 Rusk St Houston, TX 77002",
])
def test_room_named_by_its_use_before_the_house_number(us, text):
    assert [(f[0], f[1], f[3]) for f in _found(us, text)] == [("Rusk St", "735", "77002")]


def test_numbered_room_before_a_street_is_still_a_unit(us):
    assert not any(f[1] == "735" for f in _found(us, "Suite 735 Rusk St Houston, TX 77002"))


@pytest.mark.parametrize("text, unit", [
    ("611 Walker St, Lower Level\nHouston, TX 77002", "Lower Level"),
    ("<p>611 Walker St, Garden Level</p><p>Houston, TX 77002</p>", "Garden Level"),
    ("611 Walker St, Level 3, Houston, TX 77002", "Level 3"),
    ("611 Walker St\nSuites 210/212\nHouston, TX 77002", "Suites 210/212"),
    ("611 Walker St, Mezzanine, Houston, TX 77002", "Mezzanine"),
])
def test_unit_without_number_or_with_two_numbers_after_the_street(us, text, unit):
    assert _found(us, text) == [("Walker St", "611", unit, "77002", "Houston", True)]


@pytest.mark.parametrize("text, unit", [
    ("1960 E. Camelback, Phoenix, Arizona", None),                 # a year-like number before a direction
    ("1985 N. Central, Board Room 2, Phoenix, Arizona", "Board Room 2"),
    ("2004 W. Washington, Phoenix, AZ 85003", None),
])
def test_year_like_number_before_a_direction_and_untyped_street(us, text, unit):
    found = _found(us, text)
    assert len(found) == 1 and found[0][4] == "Phoenix" and found[0][2] == unit


def test_year_before_a_name_is_still_no_house_number(us):
    assert _found(us, "1999 Annual Report, Phoenix, AZ") == []


@pytest.mark.parametrize("text", [
    "at 500 Jefferson St, Pasadena, Texas 77506--em--Rescheduled--em--",
    '"location": "500 Jefferson St, Pasadena, TX 77506--"',
])
def test_zip_followed_by_dashes_of_markup(us, text):
    assert [(f[0], f[3]) for f in _found(us, text)] == [("Jefferson St", "77506")]


def test_zip_followed_by_a_dash_and_a_word_is_no_zip(us):
    assert all(f[3] != "77506" for f in _found(us, "500 Jefferson St, Pasadena, TX 77506-ish and more"))


@pytest.mark.parametrize("text", [
    '{"Stadtmuseum Oldenburg": {"strasse": "Am Stadtmuseum", "hausnummer": 4}}',            # the object's key
    "SOURCES = {\n    'Oldenburg Hauptbahnhof': {'street': 'Am Stadtmuseum', 'house_number': '4'},\n}",
    "- name: museum_oldenburg\n  args:\n    street: Am Stadtmuseum\n    house_number: 4",       # a name value
])
def test_keyed_street_and_number_with_the_place_in_the_record_name(oldenburg, text):
    assert [(f[0], f[1], f[3], f[4], f[5]) for f in _found(oldenburg, text)] == [
        ("Am Stadtmuseum", "4", None, "Oldenburg", True)]


@pytest.mark.parametrize("text", [
    '{"Oldenburg in Holstein": {"street": "Am Stadtmuseum", "house_number": 4}}',  # a confusable place
    '{"Museum": {"street": "Am Stadtmuseum", "house_number": 4}}',                   # no place at all
    '{"title": "Ein Tag in Oldenburg", "count": 4}',                                  # no street
])
def test_record_name_without_the_region_city_gives_no_address(oldenburg, text):
    assert not oldenburg.parse(text).relevant


def test_keyed_street_in_lower_case_with_a_place_key(oldenburg):
    text = "{'ort': 'Bremen', 'strasse': 'lange straße', 'nummer': '12'}"
    assert [(f[0], f[1], f[4], f[5]) for f in _found(oldenburg, text)] == [
        ("Lange Straße", "12", "Bremen", False)]


@pytest.mark.parametrize("text", [
    "Room 12, Senate Office 3 State House Station, Augusta, ME 04333",
    "45 Capitol Station, Frankfort, KY 40601",
    "mail: 100 State Office Building Sta., Portland, OR 97201",
])
def test_mail_stop_of_a_building_is_no_street(us, text):
    assert _found(us, text) == []


@pytest.mark.parametrize("text", ["120 Union Station, Dallas, TX 75202", "400 Grand Central Station, Dallas, TX 75202"])
def test_a_station_with_its_own_name_is_still_an_address(us, text):
    assert len(_found(us, text)) == 1


@pytest.mark.parametrize("text, street", [
    ("7,8,1501 Avenue of the Stars,,Los Angeles,CA,90067,US", "Avenue of the Stars"),
    ("1501 Avenue of the stars, Los Angeles, CA 90067", "Avenue of the stars"),   # lower case after "of the"
    ("3,4,1501 Avenue of the stars,Suite 2,Los Angeles,CA,90067,US", "Avenue of the stars"),
])
def test_avenue_of_a_name(us, text, street):
    assert [(f[0], f[1], f[3]) for f in _found(us, text)] == [(street, "1501", "90067")]


@pytest.mark.parametrize("text, city, in_region", [
    ("Treffpunkt: Promenade 3, Hamburg", "Hamburg", False),
    ("Kai 7\nBremen", "Bremen", False),
    ("Anger 2, Oldenburg", "Oldenburg", True),
])
def test_street_word_alone_as_the_street_name_without_postcode(oldenburg, text, city, in_region):
    found = _found(oldenburg, text)
    assert [(f[1], f[4], f[5]) for f in found] == [(text.split(",")[0].split("\n")[0].split()[-1], city, in_region)]


@pytest.mark.parametrize("text", ["Platz 3, Bremen", "Rang 2 in Hamburg", "Seite 4, Berlin"])
def test_rank_or_page_number_is_no_street(oldenburg, text):
    assert _found(oldenburg, text) == []


@pytest.mark.parametrize("text, in_region", [
    ("Venue: 136-20 Roosevelt Ave, Flushing, NY", True),    # a place the USPS accepts for a ZIP of the city
    ("Office: 12 Dudley St, Roxbury, MA", True),
    ("Office: 12 Dudley St, Roxbury, NJ", False),           # the same name in another state
    ("Office: 12 Dudley St, Springfield, MA", False),       # a place that is no name of the region's ZIPs
])
def test_neighbourhood_without_zip(us, text, in_region):
    found = _found(us, text)
    assert len(found) == 1 and found[0][5] is in_region


def test_city_mentions_after_a_common_first_word(oldenburg):
    """"Stadt Oldenburg" is an alias whose first word is common: its mentions are still found, the word
    alone (or inside "Innenstadt") is none, with and without the caller's test."""
    gaz = oldenburg.gazetteer
    text = "Die Innenstadt der Stadt ist voll. Stadt Oldenburg, Markt 1. " + "Stadtfest in der Stadt. " * 40
    for keep in (None, lambda at: True):
        assert [text[at:at + 15] for at in gaz.city_mentions(text, keep=keep)] == ["Stadt Oldenburg", "Oldenburg, Mark"]
    assert [(f[0], f[1], f[4]) for f in _found(oldenburg, "Stadt Oldenburg, Markt 1")] == [("Markt", "1", "Oldenburg")]
