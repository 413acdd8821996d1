"""Ways of writing addresses met in real text (session 12, held-out 30: German addresses in data and API shapes,
shipping SDKs' request data, builder calls, vCards in program text): each test is a class of writing, with members
written for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


def _keys(parser, text):
    return sorted((a.street, a.house_number, a.postcode, a.in_region) for a in parser.parse(text).all_addresses)


# -- keyed records of several parties in one object; an account's number under a key that reads as a house number --

def test_parties_with_prefixed_keys_in_one_php_array(oldenburg):
    text = """return [
        'billingNumber' => '22222222220104',
        'shipperCountryCode' => 'DEU',
        'shipperPostalCode' => '26122',
        'shipperCity' => 'Oldenburg',
        'shipperStreet' => 'Staulinie',
        'shipperStreetNumber' => '11a',
        'consigneeCountryCode' => 'DEU',
        'consigneePostalCode' => '28195',
        'consigneeCity' => 'Bremen',
        'consigneeStreet' => 'Am Wall',
        'consigneeStreetNumber' => '140',
    ];"""
    assert _keys(oldenburg, text) == [("Am Wall", "140", "28195", False), ("Staulinie", "11a", "26122", True)]


def test_parties_with_prefixed_keys_in_json(oldenburg):
    text = """{"customerNumber": "0004711238", "senderZip": "26121", "senderCity": "Oldenburg",
    "senderStreet": "Heiligengeiststraße", "senderHouseNumber": "6", "receiverZip": "49074",
    "receiverCity": "Osnabrück", "receiverStreet": "Große Straße", "receiverHouseNumber": "29"}"""
    assert _keys(oldenburg, text) == [("Große Straße", "29", "49074", False),
                                      ("Heiligengeiststraße", "6", "26121", True)]


def test_parties_with_german_owner_words(oldenburg):
    text = """$sendung = [
        'kundennummer' => '5012345678',
        'absenderStrasse' => 'Lange Straße',
        'absenderHausnummer' => '12',
        'absenderPlz' => '26122',
        'absenderOrt' => 'Oldenburg',
        'empfaengerStrasse' => 'Obernstraße',
        'empfaengerHausnummer' => '5',
        'empfaengerPlz' => '28195',
        'empfaengerOrt' => 'Bremen',
    ];"""
    assert _keys(oldenburg, text) == [("Lange Straße", "12", "26122", True), ("Obernstraße", "5", "28195", False)]


def test_second_party_of_another_country_is_not_read_as_german(oldenburg):
    # the shipper's country key before its parts, the receiver's in another country after them
    text = """$data = [
        'shipperCountryCode' => 'DEU',
        'shipperPostalCode' => '26135',
        'shipperCity' => 'Oldenburg',
        'shipperStreet' => 'Stedinger Straße',
        'shipperStreetNumber' => '7',
        'receiverCountryCode' => 'USA',
        'receiverPostalCode' => '78701',
        'receiverCity' => 'Austin',
        'receiverStreet' => 'Congress Ave',
        'receiverStreetNumber' => '100',
    ];"""
    assert _keys(oldenburg, text) == [("Stedinger Straße", "7", "26135", True)]


def test_country_in_two_keys_one_after_the_other_stays_one_record(oldenburg):
    text = """{"street": "Gottorpstraße", "houseNumber": "2", "postalCode": "26122", "city": "Oldenburg",
    "countryCode": "DE", "countryName": "Deutschland"}"""
    assert _keys(oldenburg, text) == [("Gottorpstraße", "2", "26122", True)]


@pytest.mark.parametrize("key, value", [
    ("billing_number", "5000000000"),
    ("accountNumber", "12345678901"),
    ("shipmentNumber", "00340434161094042557"),
])
def test_long_number_under_a_number_key_is_no_house_number(oldenburg, key, value):
    text = f"""{{"{key}": "{value}", "street": "Ofener Straße", "number": "16", "zip": "26121",
    "city": "Oldenburg"}}"""
    assert _keys(oldenburg, text) == [("Ofener Straße", "16", "26121", True)]


# -- arguments one per line: a call or an array written down the page ------------------------------------------

@pytest.mark.parametrize("text, street, number, postcode", [
    # PHP: name, country, postcode, city, street, number
    ("$builder->setAddress(\n    'Anna Schmidt',\n    'DEU',\n    '26123',\n    'Oldenburg',\n"
     "    'Donnerschweer Straße',\n    '45'\n);", "Donnerschweer Straße", "45", "26123"),
    # Python: street and number in one argument, then postcode and city
    ('Address(\n    "Lange Straße 14",\n    "26122",\n    "Oldenburg",\n)', "Lange Straße", "14", "26122"),
    # a JavaScript array, double quotes
    ('const venue = [\n  "Kulturetage",\n  "Bahnhofstraße 11",\n  "26122 Oldenburg"\n];', "Bahnhofstraße", "11",
     "26122"),
])
def test_arguments_one_per_line(oldenburg, text, street, number, postcode):
    assert _found(oldenburg, text) == [(street, number, postcode, "Oldenburg", True)]


def test_street_and_number_in_arguments_of_their_own_one_per_line(oldenburg):
    text = "$a = new Address(\n    'Lange Straße',\n    '12',\n    '26122',\n    'Oldenburg'\n);"
    assert _found(oldenburg, text) == [("Lange Straße", "12", "26122", "Oldenburg", True)]


@pytest.mark.parametrize("text", [
    "log(\n    'Oldenburg',\n    '26122',\n    'done'\n);",
    # a Swiss address: a four-digit postcode, no German one
    "$b->setShipperAddress(\n    'Test Tester',\n    'CHE',\n    '8005',\n    'Zürich',\n    'Lagerstrasse',\n"
    "    '11'\n);",
    "items = [\n  'apple',\n  'pear',\n  '26122',\n]",
])
def test_arguments_one_per_line_without_a_german_address(oldenburg, text):
    assert _found(oldenburg, text) == []


# -- builder calls whose method names end in a digit --------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "$address = $address->withPostalCode('26121')->withLocality('Oldenburg')->withAddressLine1('Peterstraße 3');",
    "Address a = Address.builder().addressLine1(\"Peterstraße 3\").postalCode(\"26121\").city(\"Oldenburg\").build();",
    "contact.setStreet1('Peterstraße 3'); contact.setZip('26121'); contact.setCity('Oldenburg');",
])
def test_builder_methods_ending_in_a_digit(oldenburg, text):
    assert _found(oldenburg, text) == [("Peterstraße", "3", "26121", "Oldenburg", True)]


# -- a heredoc in program text: its "<<<" or "<<" opens no tag --------------------------------------------------

@pytest.mark.parametrize("text", [
    # PHP heredoc, an arrow after it ("->" ends what would be the tag)
    "$vcard = <<<VCARD\nBEGIN:VCARD\nADR;TYPE=work:;;Markt 1;Oldenburg;;26122;Deutschland\nEND:VCARD\nVCARD;\n"
    "$this->assertSame('x', $card->ADR->getValue());",
    # Ruby squiggly heredoc
    "body = <<~TEXT\n  Stadtmuseum\n  Am Stadtmuseum 4\n  26121 Oldenburg\nTEXT\n"
    "expect(page).to have_content(x) if a->b",
    # shell heredoc
    "cat <<EOF > imprint.txt\nLandesbibliothek, Pferdemarkt 15, 26121 Oldenburg\nEOF\necho done >> log",
])
def test_heredoc_opens_no_tag(oldenburg, text):
    found = _found(oldenburg, text)
    assert len(found) == 1 and found[0][4] is True


def test_html_tags_are_still_tags(oldenburg):
    text = "<p><b>Stadtmuseum</b><br>Am Stadtmuseum 4<br>26121 Oldenburg</p>"
    assert _found(oldenburg, text) == [("Am Stadtmuseum", "4", "26121", "Oldenburg", True)]


# -- Mannheim's squares: a block's letter and number as the street -----------------------------------------------

@pytest.mark.parametrize("text, street, number, postcode", [
    ("Stadtbibliothek, N 3, 4, 68161 Mannheim", "N 3", "4", "68161"),
    ('{"name": "Kunsthalle", "address": "F1 10, 68159 Mannheim"}', "F1", "10", "68159"),
    ("Zeughaus\nC5 2-4\n68159 Mannheim", "C5", "2-4", "68159"),
    ("Kanzlei Weber, L 14, 16a, 68161 Mannheim", "L 14", "16a", "68161"),
])
def test_mannheim_square_as_the_street(oldenburg, text, street, number, postcode):
    assert _keys(oldenburg, text) == [(street, number, postcode, False)]


@pytest.mark.parametrize("text", [
    "Umleitung über B 75 3, 28195 Bremen",  # a federal road before another postcode
    "Papier A4 12, 80331 München",  # a paper size
    "Feld J2 4, 68159 Mannheim",  # no square has the letter J
])
def test_square_names_elsewhere_are_no_streets(oldenburg, text):
    assert _keys(oldenburg, text) == []
