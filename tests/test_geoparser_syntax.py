"""Address parts separated by markup or data syntax, as pages and the files they serve write them."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("text, street, number", [
    ("INSERT INTO firmen VALUES (17, 'Firma X', 'Achternstraße 12', '', '26122 Oldenburg', 'DE');",
     "Achternstraße", "12"),
    ('"Firma X";"Achternstraße 12";"26122";"Oldenburg"', "Achternstraße", "12"),
    ('var loc = {"postalCode": "26122", "addressLocality": "Oldenburg", "streetAddress": "Lange Straße 1"};',
     "Lange Straße", "1"),
    ('<script>window.cfg = {street: {name: "Haarenstraße", number: "7b"}, zip: "26122", city: "Oldenburg"}</script>',
     "Haarenstraße", "7b"),
    ("Lange Straße 1\n26122\nOldenburg\nDE", "Lange Straße", "1"),
    ("<li>Lange Straße 1</li><li>26122</li><li>Oldenburg</li>", "Lange Straße", "1"),
    ('street = "Achternstraße 5"\nzip_city = "26122 Oldenburg"', "Achternstraße", "5"),
    ("Anschrift: Achternstraße 5\\n26122 Oldenburg\\nTel. 0441 1234", "Achternstraße", "5"),
    ("- **Firma X**\n- **Achternstraße 5**\n- **26122 Oldenburg**", "Achternstraße", "5"),
    ("Firma X\\\nAchternstraße 5\\\n26122 Oldenburg", "Achternstraße", "5"),
    ("HaarenstraÃŸe 5, 26122 Oldenburg", "Haarenstraße", "5"),
    ("Haarenstraße 3/1, 26122 Oldenburg", "Haarenstraße", "3/1"),
    ("Haarenstraße 12D, 26122 Oldenburg", "Haarenstraße", "12D"),
    ("Haarenstraße 20-24, 26122 Oldenburg", "Haarenstraße", "20-24"),
    ("Am Falkpl. 5, 26122 Oldenburg", "Am Falkpl.", "5"),
    ("Haarenstraße 5, 26122, Oldenburg", "Haarenstraße", "5"),
    ("Haarenstraße 5\n(Eingang Lappan)\n26122 Oldenburg", "Haarenstraße", "5"),
    ("  - name: Firma X\n    strasse: Achternstraße 5\n    plz: 26122\n    ort: Oldenburg", "Achternstraße", "5"),
])
def test_oldenburg_addresses_in_data_syntax(oldenburg, text, street, number):
    found = [(a.street, a.house_number, a.postcode, a.city) for a in oldenburg.parse(text).addresses]
    assert found == [(street, number, "26122", "Oldenburg")]


def test_capitals_and_country_word(oldenburg):
    address = oldenburg.parse("ACHTERNSTRASSE 5\n26122 OLDENBURG").addresses
    assert [(a.house_number, a.postcode, a.city) for a in address] == [("5", "26122", "Oldenburg")]
    berlin = oldenburg.parse("Triftstraße 67 13353 Berlin Deutschland").all_addresses
    assert [(a.city, a.in_region) for a in berlin] == [("Berlin", False)]


@pytest.mark.parametrize("text, street, number, unit, city", [
    ("Visit 10 S Dearborn, Chicago, IL 60603", "S Dearborn", "10", None, "Chicago"),
    ("3320 M Street Northwest, Washington, DC 20007", "M Street Northwest", "3320", None, "Washington"),
    ("1800 M Street, NW, Washington, DC 20036", "M Street NW", "1800", None, "Washington"),
    ("5400 FM 529, Houston, TX 77041", "FM 529", "5400", None, "Houston"),
    ("100 Main St, 2nd Fl., Austin, TX 78701", "Main St", "100", "2nd Fl.", "Austin"),
    ("500 Main St #3002, Austin, TX 78701", "Main St", "500", "#3002", "Austin"),
    ("2615 1/2 Gary Avenue, Dallas, TX 75201", "Gary Avenue", "2615 1/2", None, "Dallas"),
    ("1200-B Main St, Austin, TX 78701", "Main St", "1200-B", None, "Austin"),
    ("1105 CENTRAL STREET DALLAS TX 75201", "CENTRAL STREET", "1105", None, "DALLAS"),
    ('{"streetAddress": "500 Main St", "addressLocality": "Austin", "addressRegion": "TX", "postalCode": "78701"}',
     "Main St", "500", None, "Austin"),
])
def test_us_addresses_in_the_forms_pages_write(us, text, street, number, unit, city):
    found = [(a.street, a.house_number, a.unit, a.city) for a in us.parse(text).all_addresses]
    assert found and found[0][:3] == (street, number, unit)
    assert found[0][3].lower() == city.lower()
    assert all(a.city != "NW" for a in us.parse(text).all_addresses)


@pytest.mark.parametrize("text, street, number, unit, zip_code", [
    # YAML records, one part per key, values unquoted (the district offices of the US Congress).
    ("  - id: X\n    address: 2700 M Street\n    suite: 250B\n"
     "    city: Bakersfield\n    state: CA\n    zip: '93301'",
     "M Street", "2700", "#250B", "93301"),
    ("- address: 310 E 38th St\n  suite: Suite 222\n  city: Minneapolis\n  state: MN\n  zip: 55409",
     "E 38th St", "310", "Suite 222", "55409"),
    ("  - id: X\n    address: One Gateway Center\n    suite: 23rd Floor\n"
     "    city: Newark\n    state: NJ\n    zip: '07102'",
     "Gateway Center", "One", "23rd Floor", "07102"),
    # Microdata and table cells: the ZIP in its own element after the state.
    ('<span itemprop="streetAddress">7 S. Broadway</span><br>\n<span itemprop="addressLocality">Denver</span>,\n'
     '<span itemprop="addressRegion">CO</span>\n<span itemprop="postalCode">80209</span>',
     "S. Broadway", "7", None, "80209"),
])
def test_us_addresses_split_over_keys_or_elements(us, text, street, number, unit, zip_code):
    found = [(a.street, a.house_number, a.unit, a.postcode, a.in_region) for a in us.parse(text).all_addresses]
    assert found == [(street, number, unit, zip_code, True)]


def test_yaml_lines_that_are_no_address(us, oldenburg):
    assert not us.parse("title: 100 Main Street\nsubtitle: Houston Rockets\nzip: 77002").all_addresses
    assert not oldenburg.parse("telefon: 0441 1234\nfax: 0441 1235\nort: Oldenburg").all_addresses


def test_prose_with_numbers_is_no_address(us, oldenburg):
    assert not us.parse("In 2019 the team scored 101 points, Dallas, TX reported.").all_addresses
    assert not oldenburg.parse('{"price": "26122", "name": "Oldenburg"}').all_addresses
