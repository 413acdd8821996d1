"""Ways of writing addresses met in real text (session 8: API examples, data-model tests, JSON-LD records of
organisations): each test is a class of writing, with several members in text written for the test, not a
snippet of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


def _places(parser, text):
    return sorted((a.street, a.house_number, a.postcode) for a in parser.parse(text).all_addresses)


@pytest.mark.parametrize("text", [
    'Anschrift(strasse="Lange Straße", hausnummer="4", plz="26122", ort="Oldenburg")',
    "addr = dict(ort='Oldenburg', plz='26122',\n            strasse='Lange Straße', hausnummer='4')",
    'new Address(street="Lange Straße 4", zip="26122", city="Oldenburg")',
])
def test_keyword_arguments_without_spaces(oldenburg, text):
    assert _places(oldenburg, text) == [("Lange Straße", "4", "26122")]


@pytest.mark.parametrize("text", [
    "Address.create(\n    street1='900 Bagby St',\n    city='Houston',\n    state='TX',\n    zip='77002',\n)",
    'curl https://api.example.com/v1/verify \\\n  -d "primary_line=900 Bagby St" \\\n  -d "city=Houston" \\\n'
    '  -d "state=TX" \\\n  -d "zip_code=77002"',
    'curl -X POST https://api.example.com/bulk \\\n  --data-urlencode "to[0][address_line1]=900 Bagby St" \\\n'
    '  --data-urlencode "to[0][address_city]=Houston" \\\n  --data-urlencode "to[0][address_state]=TX" \\\n'
    '  --data-urlencode "to[0][address_zip]=77002"',
    "https://maps.example.com/search?street=900 Bagby St&city=Houston&state=TX&zip=77002&format=json",
])
def test_keyword_arguments_and_form_data_us(us, text):
    assert _places(us, text) == [("Bagby St", "900", "77002")]


@pytest.mark.parametrize("text", [
    '{"billing_street": "900 Bagby St", "billing_city": "Houston", "billing_state": "TX", "billing_zip": "77002"}',
    'shipping_address_line1: "900 Bagby St"\nshipping_city: "Houston"\nshipping_state: "TX"\nshipping_zip: "77002"',
    '{"street1": "Bagby St", "street_no": "900", "city": "Houston", "state": "TX", "zip": "77002"}',
    '{"venue_address": "900 Bagby St", "venue_city": "Houston", "venue_state": "TX", "venue_postal_code": "77002"}',
])
def test_keys_named_with_a_prefix_or_a_number_key(us, text):
    assert _places(us, text) == [("Bagby St", "900", "77002")]


@pytest.mark.parametrize("text", [
    # the two ends of a shipment or an order, each part under the end's prefix, in any order
    "{'from_street': '900 Bagby St', 'from_city': 'Houston', 'from_state': 'TX', 'from_zip': '77002',\n"
    " 'to_zip': '10027', 'to_state': 'NY', 'to_city': 'New York', 'to_street': '2 W 125th St'}",
    '{"origin_zip": "77002", "origin_city": "Houston", "origin_state": "TX", "origin_street": "900 Bagby St",\n'
    ' "destination_street": "2 W 125th St", "destination_city": "New York", "destination_state": "NY",\n'
    ' "destination_zip": "10027"}',
    'sender_street: "900 Bagby St"\nsender_city: "Houston"\nsender_state: "TX"\nsender_zip: "77002"\n'
    'recipient_street: "2 W 125th St"\nrecipient_city: "New York"\nrecipient_state: "NY"\nrecipient_zip: "10027"',
])
def test_keys_named_by_the_end_of_a_shipment(us, text):
    assert sorted(_places(us, text)) == [("Bagby St", "900", "77002"), ("W 125th St", "2", "10027")]


def test_form_data_value_needs_a_delimiter_before_its_key(us):
    # "x=1 street=..." in prose: no quote, "&", "?" or "[" before the key, so no form data.
    assert _places(us, 'the loop ran with x=1 and zip=77002" once') == []


def test_assignments_in_markup_attributes_are_not_read(oldenburg):
    html = '<div class="strasse" title="x"><span data-ort="Oldenburg">Kontakt</span></div>'
    assert _places(oldenburg, html) == []


@pytest.mark.parametrize("text, street", [
    ("Südliche Hamburger Straße 12\n22083 Hamburg", "Südliche Hamburger Straße"),
    ('{"strasse": "Östliche Karl-Friedrich-Straße", "hausnummer": "8", "plz": "75175", "ort": "Pforzheim"}',
     "Östliche Karl-Friedrich-Straße"),
    ("Obere Bremer Str. 3, 26122 Oldenburg", "Obere Bremer Str."),
    ("Innere Kanalstraße 15\n50823 Köln", "Innere Kanalstraße"),
    ("Alter Markt 7, 26122 Oldenburg", "Alter Markt"),
])
def test_adjective_of_position_or_age_before_the_street_name(oldenburg, text, street):
    assert [a.street for a in oldenburg.parse(text).all_addresses] == [street]


def test_words_in_er_of_a_sentence_stay_out_of_the_street(oldenburg):
    assert [a.street for a in oldenburg.parse("Unser Bremer Weg 4, 26122 Oldenburg").all_addresses] == ["Bremer Weg"]


@pytest.mark.parametrize("text, street", [
    ('{"streetAddress": "GroÃŸe StraÃŸe 12 ", "postalCode": 26122, "addressLocality": "Oldenburg"}', "Große Straße"),
    ('strasse: "KÃ¶nigstraÃŸe 4"\nplz: "26122"\nort: "Oldenburg"', "Königstraße"),
    ('<p>Kontakt</p>{"street": "MÃ¼hlenweg 3", "zip": "26122", "city": "Oldenburg"}', "Mühlenweg"),
])
def test_mojibake_in_keyed_values(oldenburg, text, street):
    assert [(a.street, a.postcode) for a in oldenburg.parse(text).all_addresses] == [(street, "26122")]


@pytest.mark.parametrize("text", [
    '{"street1": "Bagby St 900", "city": "Houston", "state": "TX", "zip": "77002"}',
    '"streetAddress": "North Main Street 900",\n"addressLocality": "Houston",\n"addressRegion": "TX",\n'
    '"postalCode": "77002"',
    "address: Bagby Street 900\ncity: Houston\nstate: TX\nzip: '77002'",
])
def test_us_street_value_with_the_number_after_it(us, text):
    [found] = _found(us, text)
    assert found[1] == "900" and found[3] == "77002" and found[5] is True


@pytest.mark.parametrize("street", ["County Road 12", "State Route 66", "US Highway 290", "Broadway 2024"])
def test_numbered_roads_and_years_keep_their_number_in_the_street(us, street):
    text = f'{{"street1": "{street}", "city": "Houston", "state": "TX", "zip": "77002"}}'
    assert not any(f[1] in ("12", "66", "290", "2024") for f in _found(us, text))


@pytest.mark.parametrize("locality, region", [
    ("Houston, Houston", "TX"),
    ("Midtown, Houston", "TX"),
    ("Houston, TX", "TX"),
    ("Houston", "US-TX"),
    ("Houston", "US.TX"),
])
def test_us_locality_with_a_district_or_repeated_and_iso_region_codes(us, locality, region):
    text = (f'{{"streetAddress": "900 Bagby St", "addressLocality": "{locality}", "addressRegion": "{region}",'
            f' "postalCode": "77002"}}')
    assert [(f[0], f[1], f[3], f[4], f[5]) for f in _found(us, text)] == [("Bagby St", "900", "77002", "Houston", True)]


@pytest.mark.parametrize("text, unit", [
    ("900 Bagby St, Siute 200, Houston, TX 77002", "Siute 200"),
    ("900 Bagby St Suit 12\nHouston, TX 77002", "Suit 12"),
    ("Sutie 300, 900 Bagby St, Houston, TX 77002", "Sutie 300"),
    ("<p>900 Bagby St<br />\nStuie 4<br />\nHouston, TX 77002</p>", "Stuie 4"),
])
def test_misspelt_suite_is_a_unit(us, text, unit):
    assert _found(us, text) == [("Bagby St", "900", unit, "77002", "Houston", True)]


@pytest.mark.parametrize("text, street", [
    ("Pfadfinderheim, II. Bergstraße 4, 26122 Oldenburg", "II. Bergstraße"),
    ("IV. Querweg 12\n26122 Oldenburg", "IV. Querweg"),
    ("Treffpunkt: XII. Hafenstraße 3 in 26122 Oldenburg", "XII. Hafenstraße"),
])
def test_roman_ordinal_before_a_street_name(oldenburg, text, street):
    assert [a.street for a in oldenburg.parse(text).all_addresses] == [street]


def test_arabic_list_number_before_a_street_stays_out(oldenburg):
    assert [a.street for a in oldenburg.parse("1. Querweg 12\n26122 Oldenburg").all_addresses] == ["Querweg"]


@pytest.mark.parametrize("text, unit", [
    ('{"Location": "Room 204, Public Safety Building",\n "Address": "900 Bagby St, Houston, TX 77002"}', "Room 204"),
    ("location: Suite 12, City Hall Annex\naddress: 900 Bagby St, Houston, TX 77002", "Suite 12"),
    ('"venue": "3rd Floor, Hall of the Council",\n"address": "900 Bagby St, Houston, TX 77002"', "3rd Floor"),
])
def test_unit_and_building_name_on_the_line_above_the_street(us, text, unit):
    assert _found(us, text) == [("Bagby St", "900", unit, "77002", "Houston", True)]


def test_line_above_with_its_own_address_gives_no_unit(us):
    text = '"Location": "Room 204, 100 Main St, Houston, TX 77002",\n"Address": "900 Bagby St, Houston, TX 77002"'
    assert [f[2] for f in _found(us, text) if f[0] == "Bagby St"] == [None]


@pytest.mark.parametrize("text", [
    "Stadtverwaltung\nMarkt=C3=BCbergang\nBr=C3=BCderstra=C3=9Fe 12\n26122 Oldenburg",      # UTF-8 bytes
    "Mit freundlichen Gr=FC=DFen\nGr=FCne Stra=DFe 12\n26122 Oldenburg\nTel. 0441 1234",      # Latin-1 bytes
    "<p>Amt f=C3=BCr Wirtschaft<br />=0D=0AGr=C3=BCne Stra=C3=9Fe 12<br />=0D=0A26122 Olden=\nburg</p>",
])
def test_quoted_printable_mail_text(oldenburg, text):
    found = [(a.street, a.house_number, a.postcode) for a in oldenburg.parse(text).all_addresses]
    assert [f for f in found if f[2] == "26122"] and all(f[0] in ("Brüderstraße", "Grüne Straße") for f in found)


@pytest.mark.parametrize("text, street", [
    ("Behörde\nCarl-von-Ossietzky- Straße 9\n26122 Oldenburg", "Carl-von-Ossietzky-Straße"),
    ("Amt, Johann-Justus-\nWeg 14, 26122 Oldenburg", "Johann-Justus-Weg"),
])
def test_hyphenated_street_name_cut_after_its_hyphen(oldenburg, text, street):
    assert [a.street for a in oldenburg.parse(text).all_addresses] == [street]


def test_quoted_printable_signs_absent_leave_equals_signs(oldenburg):
    text = "a=DEADBEEF\nLange Straße 4\n26122 Oldenburg"
    assert [a.street for a in oldenburg.parse(text).all_addresses] == ["Lange Straße"]


@pytest.mark.parametrize("text", [
    " ng at 4 p.m. at 900 Bagby St\\, Houston\\, TX 77002</b></li>",
    "ADDRESS 900 Bagby St\\; Houston\\; TX 77002",
    "Meet at 900 Bagby St\\, Houston\\, TX 77002\\n(second floor)",
])
def test_icalendar_escapes_without_a_property_at_the_line_start(us, text):
    assert [(f[0], f[1], f[3], f[4], f[5]) for f in _found(us, text)] == [("Bagby St", "900", "77002", "Houston", True)]


@pytest.mark.parametrize("text", [
    "Lange Straße 4 / Ecke Achternstraße, 26122 Oldenburg",
    "Treff: Lange Straße 4, Ecke Markt\n26122 Oldenburg",
    "Café X – Lange Straße 4 (Ecke Achternstraße) – 26122 Oldenburg",
])
def test_corner_named_between_house_number_and_postcode(oldenburg, text):
    assert [(a.street, a.house_number, a.postcode) for a in oldenburg.parse(text).all_addresses] == [
        ("Lange Straße", "4", "26122")]


@pytest.mark.parametrize("text, expected", [
    ("Offices\nHouston: 900 Bagby St., Suite 100\nDallas: 1500 Marilla St",
     [("Bagby St.", "900", "Suite 100", "Houston"), ("Marilla St", "1500", None, "Dallas")]),
    ("- Houston : 900 Bagby St, Suite 5", [("Bagby St", "900", "Suite 5", "Houston")]),
    ('"summary": "Meeting\\nHouston: 900 Bagby St\\n"', [("Bagby St", "900", None, "Houston")]),
])
def test_region_city_as_the_label_of_an_address_line(us, text, expected):
    assert [(f[0], f[1], f[2], f[4]) for f in _found(us, text)] == expected


@pytest.mark.parametrize("text", ["We met in Houston: 900 people came", "Springfield: 524 S. 2nd Street"])
def test_city_label_needs_a_region_city_at_the_line_start_and_a_street(us, text):
    assert _found(us, text) == []


@pytest.mark.parametrize("text", [
    "Anschrift: Haarenufer 8, Oldenburg 26122",
    "Haarenufer 8, Oldenburg, 26122, Deutschland",
    "Haarenufer 8\nOldenburg 26122",
])
def test_postcode_after_the_city(oldenburg, text):
    assert [(a.street, a.postcode, a.in_region) for a in oldenburg.parse(text).all_addresses] == [
        ("Haarenufer", "26122", True)]


def test_postcode_after_the_city_of_another_oldenburg_is_not_the_region(oldenburg):
    assert not any(a.in_region for a in oldenburg.parse("Haarenufer 8, Oldenburg 23758").all_addresses)


@pytest.mark.parametrize("text", [
    "NUMBER,STREET,UNIT,CITY,REGION,POSTCODE\n900,BAGBY ST,,HOUSTON,TX,77002",
    "LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE\n-95.36,29.76,900,Bagby Street,,Houston,,TX,77002",
    "INSERT INTO addr VALUES (7, '900', 'Bagby St', 'Houston', 'TX', '77002');",
])
def test_us_house_number_in_a_column_of_its_own(us, text):
    assert [(f[1], f[3], f[5]) for f in _found(us, text)] == [("900", "77002", True)]


def test_id_column_before_a_name_is_no_house_number(us):
    assert _found(us, "id,name,city,state,zip\n12,Main Street Cafe,Houston,TX,77002") == []


def test_id_column_before_a_numbered_street_is_no_house_number(us):
    text = "id,address_1,city,state,zip\n2,24 Second Avenue,Houston,TX,77002"
    assert [(f[0], f[1]) for f in _found(us, text)] == [("Second Avenue", "24")]


@pytest.mark.parametrize("code", ["77002-1234", "770021234"])
def test_zip_plus_four_in_json_ld(us, code):
    text = ('<script type="application/ld+json">{"@type": "Place", "address": {"@type": "PostalAddress", '
            f'"streetAddress": "900 Bagby St", "addressLocality": "Houston", "addressRegion": "TX", '
            f'"postalCode": "{code}"}}}}</script>')
    assert [(f[0], f[3], f[5]) for f in _found(us, text)] == [("Bagby St", "77002", True)]


@pytest.mark.parametrize("text", [
    "900 Bagby St - Houston, TX - 77002",
    "City Hall – 900 Bagby St. – Houston, TX — 77002 — (713) 837-0311",
])
def test_dashes_between_state_and_zip(us, text):
    assert [(f[1], f[3], f[5]) for f in _found(us, text)] == [("900", "77002", True)]


@pytest.mark.parametrize("text, street", [
    ("City Hall (900 Bagby St.)\nHouston, TX 77002", "Bagby St."),
    ("Meet at (900 Bagby St), Houston, TX 77002", "Bagby St"),
])
def test_street_in_brackets_loses_the_bracket(us, text, street):
    assert [f[0] for f in _found(us, text)] == [street]


@pytest.mark.parametrize("text", [
    "located at 900 Bagby St in downtown Houston, TX",
    "at 900 Bagby St in uptown Houston, TX 77002",
])
def test_word_of_the_sentence_before_the_city(us, text):
    assert [(f[4], f[5]) for f in _found(us, text)] == [("Houston", True)]


@pytest.mark.parametrize("text", [
    "Verein ● Haarenufer 8 ● 26122 Oldenburg ● Tel. 0441 123",
    "Haarenufer 8 ∙ 26122 Oldenburg",
    "Haarenufer 8 ⋅ 26122 Oldenburg ⋅ Deutschland",
])
def test_typographic_bullets_between_the_parts(oldenburg, text):
    assert [(a.street, a.postcode) for a in oldenburg.parse(text).all_addresses] == [("Haarenufer", "26122")]
