"""Address parts named by labels: form summaries, table rows, definition lists, OSM tags, rows of fields."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city) for a in parser.parse(text).addresses]


@pytest.mark.parametrize("text, street, number", [
    ("Straße: Lange Straße 4\nPLZ: 26121\nOrt: Oldenburg", "Lange Straße", "4"),
    ("Straße: Am Stadtmuseum 4-8\nPLZ: 26121\nOrt: Oldenburg", "Am Stadtmuseum", "4-8"),
    ("Str.: Lange Straße 4\nPLZ: 26121\nOrt: Oldenburg", "Lange Straße", "4"),
    ("STRASSE: Lange Straße 4\nPLZ: 26121\nORT: Oldenburg", "Lange Straße", "4"),
    ("Straße: Lange Straße\nHausnr.: 4\nPostleitzahl: 26121\nWohnort: Oldenburg", "Lange Straße", "4"),
    ("Straße: Lange Straße\nNr.: 4\nPLZ: 26121\nStadt: Oldenburg", "Lange Straße", "4"),
    ("Straße und Hausnummer: Lange Straße 4\nPLZ: 26121\nOrt: Oldenburg", "Lange Straße", "4"),
    ("Sitz: Lange Straße 4\nPLZ: 26121\nOrt: Oldenburg", "Lange Straße", "4"),
    ("PLZ: 26121\nOrt: Oldenburg\nStraße: Lange Straße 4", "Lange Straße", "4"),
    ("Street: Lange Straße\nHouse number: 4\nPostal code: 26121\nCity: Oldenburg", "Lange Straße", "4"),
    ("<tr><td>Straße</td><td>Lange Straße 4</td></tr><tr><td>PLZ</td><td>26121</td></tr>"
     "<tr><td>Ort</td><td>Oldenburg</td></tr>", "Lange Straße", "4"),
    ("<tr><th>Straße:</th><td>Lange Straße</td></tr><tr><th>Hausnummer:</th><td>4</td></tr>"
     "<tr><th>PLZ:</th><td>26121</td></tr><tr><th>Ort:</th><td>Oldenburg</td></tr>", "Lange Straße", "4"),
    ("<dl><dt>Straße</dt><dd>Lange Straße 4</dd><dt>PLZ</dt><dd>26121</dd><dt>Ort</dt><dd>Oldenburg</dd></dl>",
     "Lange Straße", "4"),
    ("| Straße | Lange Straße 4 |\n| PLZ | 26121 |\n| Ort | Oldenburg |", "Lange Straße", "4"),
    ("addr:street=Lange Straße\naddr:housenumber=4\naddr:postcode=26121\naddr:city=Oldenburg",
     "Lange Straße", "4"),
    ("addr:city=Oldenburg\naddr:housenumber=4\naddr:postcode=26121\naddr:street=Lange Straße", "Lange Straße", "4"),
    ("addr:street: Lange Straße\naddr:house_number: 4\naddr:postcode: 26121\naddr:city: Oldenburg",
     "Lange Straße", "4"),
    ("strasse=Lange Straße 4\nplz=26121\nort=Oldenburg", "Lange Straße", "4"),
    ("Straße: Lange Straße 4, PLZ: 26121, Ort: Oldenburg", "Lange Straße", "4"),
    ("Straße: Lange Straße 4 PLZ: 26121 Ort: Oldenburg", "Lange Straße", "4"),
    ("Straße/Hausnr.: Lange Straße 4 | PLZ/Ort: 26121 Oldenburg", "Lange Straße", "4"),
    ("Stadt: Oldenburg\nPLZ: 26121\nStraße + Hausnummer: Lange Straße 4", "Lange Straße", "4"),
])
def test_oldenburg_labelled_parts(oldenburg, text, street, number):
    assert (street, number, "26121", "Oldenburg") in _found(oldenburg, text)


@pytest.mark.parametrize("text, number, street", [
    ("<tr><td>Address</td><td>123 Main St</td></tr><tr><td>City</td><td>Chicago</td></tr>"
     "<tr><td>State</td><td>IL</td></tr><tr><td>Zip</td><td>60601</td></tr>", "123", "Main St"),
    ("addr:housenumber=123\naddr:street=Main Street\naddr:city=Chicago\naddr:state=IL\naddr:postcode=60601",
     "123", "Main Street"),
    ("<dl><dt>Address</dt><dd>123 Main St</dd><dt>City</dt><dd>Chicago</dd><dt>State</dt><dd>IL</dd>"
     "<dt>ZIP</dt><dd>60601</dd></dl>", "123", "Main St"),
    ("address: 123 Main St, city: Chicago, state: IL, zip: 60601", "123", "Main St"),
    ("Address: 123 Main St | City: Chicago | State: IL | ZIP: 60601", "123", "Main St"),
])
def test_us_labelled_parts(us, text, number, street):
    assert (street, number, "60601", "Chicago") in _found(us, text)


@pytest.mark.parametrize("text", [
    "Version: 4\nBuild: 26121\nName: Oldenburg",          # labels that name no address part
    "Nr.: 4\nPLZ: 26121\nOrt: Oldenburg",                 # no street
    "Straße: Lange Straße\nPLZ: 26121\nOrt: Oldenburg",   # no house number
    "Straße | Hausnummer | PLZ | Ort",                    # a table header
    "Straße:\nPLZ:\nOrt:\nOldenburg",                     # an empty form
    "Version: 4, Build: 26121, Name: Oldenburg",
    "Straße: Lange Straße, Tel: 0441 26121, Ort: Oldenburg",  # a phone number, no postcode
])
def test_labels_without_an_address(oldenburg, text):
    assert oldenburg.parse(text).all_addresses == []


@pytest.mark.parametrize("text", [
    "Lange Straße | 4 | 26121 | Oldenburg",
    "Lange Straße,4,26121,Oldenburg",
    "Lange Straße;4;26121;Oldenburg",
    "Lange Straße\t4\t26121\tOldenburg",
    '"Lange Straße","4","26121","Oldenburg"',
    "VALUES ('Lange Straße', '4', '26121', 'Oldenburg')",
    "Foto Meyer;Lange Straße;4;26121;Oldenburg;0441 1234",
    "<tr><td>Foto Meyer</td><td>Lange Straße</td><td>4</td><td>26121</td><td>Oldenburg</td></tr>",
    "| Foto Meyer | Lange Straße | 4 | 26121 | Oldenburg |",
    "Lange Straße, 4, 26121 Oldenburg",
])
def test_oldenburg_house_number_in_its_own_field(oldenburg, text):
    assert ("Lange Straße", "4", "26121", "Oldenburg") in _found(oldenburg, text)


@pytest.mark.parametrize("text", [
    "Version | 4 | 26121 | Release",        # no street word
    "1,4,26121,5\n2,5,26122,6",             # numeric CSV
    "Lange Straße,4,26121,3",               # no place after the postcode
    "Lange Straße\n4 Zimmer\n26121 Einwohner",
    "Kapitel | 4 | 26121 | Oldenburg",      # a label, no street
])
def test_rows_of_fields_that_are_no_address(oldenburg, text):
    assert oldenburg.parse(text).all_addresses == []


@pytest.mark.parametrize("text, number, street, city, zip_code", [
    ("1600,Pennsylvania Ave NW,Washington,DC,20500", "1600", "Pennsylvania Ave NW", "Washington", "20500"),
    ("VALUES ('1600', 'Pennsylvania Ave NW', 'Washington', 'DC', '20500')", "1600", "Pennsylvania Ave NW",
     "Washington", "20500"),
    ('"123 Main St","Chicago","IL","60601"', "123", "Main St", "Chicago", "60601"),
    ("123 Main St;Chicago;IL;60601", "123", "Main St", "Chicago", "60601"),
    ("123 Main St | Chicago | IL | 60601", "123", "Main St", "Chicago", "60601"),
    ("123,Main St,Chicago,IL,60601", "123", "Main St", "Chicago", "60601"),
    ("Acme;123 Main St;Chicago;IL;60601;312-555-0100", "123", "Main St", "Chicago", "60601"),
])
def test_us_rows_of_fields(us, text, number, street, city, zip_code):
    assert (street, number, zip_code, city) in _found(us, text)


@pytest.mark.parametrize("text", [
    "1,2,3,IL,60601",
    "version,1600,Chicago,IL,20500",
    "id,123,Chicago,IL,60601",
    "2024,North Ave,Chicago,IL,60601",  # a year column
    "2024,Main,Chicago,IL,60601",
    # a reference list after a version line (the dotted initials "N.J." read as a state)
    '.. versionadded:: 1.2.0\nReferences\n.. [1] P. Blanchard, D.J. Higham, N.J. Higham, "Accurately computing',
])
def test_us_rows_that_are_no_address(us, text):
    assert us.parse(text).all_addresses == []


@pytest.mark.parametrize("text", [
    "Lange Straße Nr. 4, 26121 Oldenburg",
    "Lange Straße 4,26121 Oldenburg",
    "LOCATION:Lange Straße 4\\, 26121 Oldenburg",
    "ADR;TYPE=work:;;Lange Straße 4;Oldenburg;;26121;Germany",
])
def test_oldenburg_nearby_shapes(oldenburg, text):
    assert ("Lange Straße", "4", "26121", "Oldenburg") in _found(oldenburg, text) or (
        ("Lange Straße", "4", None, "Oldenburg") in _found(oldenburg, text))


def test_ical_escaped_commas_us(us):
    assert ("Main St", "123", "60601", "Chicago") in _found(us, "LOCATION:123 Main St\\, Chicago\\, IL 60601")


@pytest.mark.parametrize("text", [
    "Einwohner: 4,26121 Mio",
    "Wert 4,26121 Oldenburg",         # a decimal, no street
    "Seite Nr. 4, 26121 Oldenburg",   # no street word
])
def test_nearby_lookalikes(oldenburg, text):
    assert oldenburg.parse(text).all_addresses == []


@pytest.mark.parametrize("text, number, street, city, zip_code", [
    ("123 N. Main St., Chicago, Ill. 60601", "123", "N. Main St.", "Chicago", "60601"),
    ("500 Pike St, Seattle, Wash. 98101", "500", "Pike St", "Seattle", "98101"),
    ("100 Congress Ave., Austin, Tex. 78701", "100", "Congress Ave.", "Austin", "78701"),
])
def test_us_ap_state_abbreviations_before_a_zip(us, text, number, street, city, zip_code):
    assert (street, number, zip_code, city) in _found(us, text)


@pytest.mark.parametrize("text", [
    "12 Oak St, Springfield, Miss. Smith said",   # a title, not Mississippi
    "400 Broad St, Seattle, Wash. is rainy",      # no ZIP after the AP abbreviation
])
def test_us_ap_abbreviation_without_zip_is_no_anchor(us, text):
    assert us.parse(text).all_addresses == []


def test_us_phone_number_before_the_place_is_no_street(us):
    assert us.parse("Phone: 312 555 0100, Chicago, IL 60601").all_addresses == []


def test_a_page_of_labels_alone_is_read_up_to_a_bound(oldenburg):
    result = oldenburg.parse("Straße\n" * 5000 + "Lange Straße 4\n26121 Oldenburg")
    assert result.truncated
    assert ("Lange Straße", "4", "26121", "Oldenburg") in [
        (a.street, a.house_number, a.postcode, a.city) for a in result.addresses]


def test_prefilled_form_fields(oldenburg, us):
    german = ('<input name="strasse" value="Lange Straße 4"><input type="text" value="26121" name="plz">'
              '<input name="ort" value="Oldenburg">')
    assert ("Lange Straße", "4", "26121", "Oldenburg") in _found(oldenburg, german)
    american = ('<input name="address[street]" value="123 Main St"><input name="address[city]" value="Chicago">'
                '<input name="address[state]" value="IL"><input name="address[zip]" value="60601">')
    assert ("Main St", "123", "60601", "Chicago") in _found(us, american)


def test_form_fields_that_are_no_address(oldenburg):
    form = ('<input name="strasse" value=""><input name="plz" placeholder="26121"><input name="ort" value="Oldenburg">'
            '<input name="version" value="4"><input name="build" value="26121">')
    assert oldenburg.parse(form).all_addresses == []


def test_more_separators(oldenburg, us):
    assert ("Lange Straße", "4", "26121", "Oldenburg") in _found(oldenburg, "Lange Straße 4, in 26121 Oldenburg")
    assert ("Main St", "123", "60601", "Chicago") in _found(us, "123 Main St|Chicago|IL|60601")


def test_place_first_row_with_the_number_in_its_own_field(oldenburg):
    assert ("Lange Straße", "4", "26121", "Oldenburg") in _found(oldenburg, "26121;Oldenburg;Lange Straße;4")
    assert oldenburg.parse("26121 Oldenburg, Hauptstraße\n12 Teilnehmer").all_addresses == []


@pytest.mark.parametrize("text, found", [
    ("Oldenburg | Lange Straße 4", True),
    ("Stadtmuseum Oldenburg | Am Stadtmuseum 4-8 | Tel. 0441 123", True),
    ("Oldenburg | Lange Straße 4 Fotos", False),   # the number does not end the field
    ("Oldenburg | Kapitel 4", False),
    ("Oldenburg | Platz 3", False),                # a rank
])
def test_city_first_with_a_bar(oldenburg, text, found):
    assert bool(oldenburg.parse(text).addresses) is found
