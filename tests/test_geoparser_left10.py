"""Leftover classes of issue 10 (session 10, helper geo-left), each a rule with members written for the test in
shapes of their own, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.house_number, a.street, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- 1. a German range of house numbers written with a word ("bis", "und", "u.") is the range "114-118" -------

@pytest.mark.parametrize("text, expected", [
    ("Besuchen Sie uns: Ammerländer Heerstraße 114 bis 118, 26129 Oldenburg",
     ("114-118", "Ammerländer Heerstraße", "26129", "Oldenburg", True)),
    ("Stadtmuseum\nMarktplatz 5 und 7\n26122 Oldenburg", ("5-7", "Marktplatz", "26122", "Oldenburg", True)),
    ("Lange Straße 5 u. 7 · 26122 Oldenburg", ("5-7", "Lange Straße", "26122", "Oldenburg", True)),
    ("26122 Oldenburg, Achternstraße 12 u.14", ("12-14", "Achternstraße", "26122", "Oldenburg", True)),
    ("Praxis | Am Stadtmuseum 3 bis 5 | 26121 Oldenburg",
     ("3-5", "Am Stadtmuseum", "26121", "Oldenburg", True)),
    ("Hauptstraße 12 und 14\n10115 Berlin", ("12-14", "Hauptstraße", "10115", "Berlin", False)),
    ('{"streetAddress": "Heiligengeiststraße 6 bis 8", "postalCode": "26121", "addressLocality": "Oldenburg"}',
     ("6-8", "Heiligengeiststraße", "26121", "Oldenburg", True)),
    ('<script type="application/ld+json">{"@type": "PostalAddress", "streetAddress": "Gottorpstraße 2 u. 4", '
     '"postalCode": "26122", "addressLocality": "Oldenburg"}</script>',
     ("2-4", "Gottorpstraße", "26122", "Oldenburg", True)),
])
def test_word_range_of_house_numbers(oldenburg, text, expected):
    assert [f[:2] + f[3:] for f in _found(oldenburg, text)] == [expected]


@pytest.mark.parametrize("text", [
    "Die Linien 5 und 7, 26122 Oldenburg",  # no street word: two bus lines, not a range
    "Kapitel 3 bis 5, 26122 Oldenburg",
    "Geöffnet Montag bis Freitag 9 bis 18\n26122 Oldenburg",  # opening hours
    "Gleis 3 und 4, 26122 Oldenburg",
])
def test_word_range_needs_a_street(oldenburg, text):
    assert _found(oldenburg, text) == []


# -- 2. the country between a US street and its city is neither street nor city -------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Head office: 1600 Main St, USA, New York, NY 10001",
     ("1600", "Main St", None, "10001", "New York", True)),
    ("233 S Wacker Dr, United States, Chicago, IL", ("233", "S Wacker Dr", None, None, "Chicago", True)),
    ("<p>500 Pine St, U.S.A., Seattle, WA 98101</p>", ("500", "Pine St", None, "98101", "Seattle", True)),
    ("Visit: 400 Elm Street, Suite 5, United States of America, Dallas, TX 75201",
     ("400", "Elm Street", "Suite 5", "75201", "Dallas", True)),
    ("1 Infinite Loop, US, Cupertino, California 95014",
     ("1", "Infinite Loop", None, "95014", "Cupertino", False)),
])
def test_country_between_street_and_city(us, text, expected):
    assert _found(us, text) == [expected]


# -- 3. a floor in lower case is the unit, and a room's name after a "Room:" label before it is left out ---------

@pytest.mark.parametrize("text, expected", [
    ("Denver: 1437 Bannock St, 3rd floor\n", ("1437", "Bannock St", "3rd floor", None, "Denver", True)),
    ("Meeting place:\nDallas: 1500 Marilla St Room: Flag Room 6th Floor\n",
     ("1500", "Marilla St", "6th Floor", None, "Dallas", True)),
    ("Boston: 1 City Hall Sq, Room: Piemonte Room, 5th floor\n",
     ("1", "City Hall Sq", "5th floor", None, "Boston", True)),
    ("800 N Capitol St, 2nd fl., Washington, DC 20002",
     ("800", "N Capitol St", "2nd fl.", "20002", "Washington", True)),
])
def test_lower_case_floor_and_named_room(us, text, expected):
    assert _found(us, text) == [expected]


# -- 4. a test's assertions name the parts in their accessors (RSpec, Jest, pytest) ------------------------------

@pytest.mark.parametrize("text, expected", [
    ("it 'reads the venue' do\n  expect(place.city).to eq 'seattle'\n"
     "  expect(place.address).to eq('77 Pike St Ste 4')\n  expect(place.lat).to be_within(0.1).of(47.6)\n"
     "  expect(place.zip).to eq '98101'\nend",
     ("77", "Pike St", "Ste 4", "98101", "Seattle", True)),
    ('expect(addr.street).toBe("1437 Bannock St");\nexpect(addr.city).toEqual(\'Denver\');\n'
     "expect(addr.state).toBe('CO');\nexpect(addr.zip).toStrictEqual('80202');",
     ("1437", "Bannock St", None, "80202", "Denver", True)),
    ("def test_venue(place):\n    assert place.street_address == '900 Bagby St'\n    assert place.city == 'Houston'\n"
     '    assert place.postal_code == "77002"\n',
     ("900", "Bagby St", None, "77002", "Houston", True)),
])
def test_assertions_name_the_parts(us, text, expected):
    assert _found(us, text) == [expected]


def test_assertions_name_the_parts_german(oldenburg):
    text = ("expect(venue.strasse).to eq 'Lange Straße 4'\nexpect(venue.plz).to eq '26122'\n"
            "expect(venue.ort).to eq 'Oldenburg'")
    assert [f[:2] + f[3:] for f in _found(oldenburg, text)] == [("4", "Lange Straße", "26122", "Oldenburg", True)]


def test_a_comparison_alone_is_no_address(us):
    assert _found(us, "if (x.zip == '98101') { y = 1 }\nexpect(page.title).to eq 'Seattle'") == []


# -- 5. a township is a municipality of its own, even with a ZIP whose names the USPS accepts for a region city ---

@pytest.mark.parametrize("text, expected", [
    ("Heritage Hall - 4200 Otter Lake Road, White Bear Township, MN 55110",
     ("4200", "Otter Lake Road", None, "55110", "White Bear Township", False)),
    ("4200 Otter Lake Rd\nWhite Bear Tp, MN 55110", ("4200", "Otter Lake Rd", None, "55110", "White Bear Tp", False)),
    ("Clinic: 12 Oak St, Maplewood Twp, MN 55109", ("12", "Oak St", None, "55109", "Maplewood Twp", False)),
])
def test_township_is_not_the_city_of_its_zip(us, text, expected):
    assert _found(us, text) == [expected]


def test_neighbourhood_of_a_region_zip_stays_in(us):
    assert _found(us, "1 Main St, Harlem, NY 10027") == [("1", "Main St", None, "10027", "Harlem", True)]
