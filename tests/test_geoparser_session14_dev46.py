"""Ways of writing German addresses met in held-out 46 (session 14: contract tests, fixtures and seed files of a
software house, web imprints): each test is a class of writing, with members written for the test, not snippets of
the corpus."""

from __future__ import annotations

import pytest


def _keys(parser, text):
    return sorted((a.street, a.house_number, a.postcode, a.in_region) for a in parser.parse(text).all_addresses)


# -- a Roman ordinal before a street's name without a street word --

@pytest.mark.parametrize("text, expected", [
    ("Unser Büro: III. Hagen 12, 45127 Essen", [("III. Hagen", "12", "45127", False)]),
    ('{"strasse": "IV. Gewende", "hausnummer": "5", "plz": "26125", "ort": "Oldenburg"}',
     [("IV. Gewende", "5", "26125", True)]),
    ("<td>II. Hagen 3</td><td>45127 Essen</td>", [("II. Hagen", "3", "45127", False)]),
])
def test_roman_ordinal_before_a_street_without_street_word(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


def test_arabic_list_number_is_no_part_of_the_street(oldenburg):
    # "1." before a line is an ordered list's item, not the street's ordinal
    assert _keys(oldenburg, "1. Haarenstraße 3, 26122 Oldenburg") == [("Haarenstraße", "3", "26122", True)]


# -- a record's name and identifier beside its address, which is an object of its own --

@pytest.mark.parametrize("text, expected", [
    ('{"name": "Jana Beispielhaft", "number": "4711",\n'
     ' "address": {"street": {"name": "Lange Hecke", "number": "12"}, "city": "45127 Essen"}}',
     [("Lange Hecke", "12", "45127", False)]),
    ('{"title": "Praxis am Markt", "nr": "17",\n'
     ' "anschrift": {"strasse": "Kleine Freiheit", "hausnummer": "3", "plz": "24103", "ort": "Kiel"}}',
     [("Kleine Freiheit", "3", "24103", False)]),
])
def test_record_identifier_beside_its_nested_address(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


def test_two_nested_addresses_stay_apart(oldenburg):
    text = ('{"id": "77", "billing": {"street": {"name": "Donnerschweer Straße", "number": "9"}, "city": "26123 '
            'Oldenburg"},\n "delivery": {"street": {"name": "Kurze Straße", "number": "2"}, "city": "28195 Bremen"}}')
    assert _keys(oldenburg, text) == [("Donnerschweer Straße", "9", "26123", True),
                                      ("Kurze Straße", "2", "28195", False)]


# -- a JSON builder's nested object named by its call --

@pytest.mark.parametrize("text, expected", [
    ('new PactDslJsonBody()\n  .stringValue("city", "26121 Oldenburg")\n  .object("street")\n'
     '    .stringValue("name", "Lappan")\n    .stringValue("number", "1")\n  .closeObject()',
     [("Lappan", "1", "26121", True)]),
    ('builder.startObject("street")\n    .field("name", "Lange Hecke")\n    .field("number", "8")\n  .endObject()\n'
     '  .field("city", "45127 Essen");',
     [("Lange Hecke", "8", "45127", False)]),
])
def test_json_builder_nested_street(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


# -- a fluent builder's word before the part, a value class named for its owner --

@pytest.mark.parametrize("text, expected", [
    ('Address.of("Jan").atStreet("Haarenufer 12").inCity("26122 Oldenburg").build();',
     [("Haarenufer", "12", "26122", True)]),
    ('new Address(new AddressStreet("Bloherfelder Str."), new AddressHouseNumber("40"),\n'
     '    new AddressZipCode("26129"), new AddressCity("Oldenburg"));', [("Bloherfelder Str.", "40", "26129", True)]),
    ('Shop.named("Eck").onStreet("Wiesenweg 4").inTown("24937 Flensburg")', [("Wiesenweg", "4", "24937", False)]),
])
def test_fluent_and_prefixed_value_class_calls(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


def test_identifier_value_classes_are_no_parts(oldenburg):
    text = 'new Order(new OrderNumber("26122"), new CustomerNumber("4711"), new Recipient("Oldenburg"));'
    assert _keys(oldenburg, text) == []


# -- a label and its value as one string of code --

@pytest.mark.parametrize("text, expected", [
    ("await expect(card.getByText('Straße: Nadorster Str. 30')).toBeVisible();\n"
     "await expect(card.getByText('Ort: 26123 Oldenburg')).toBeVisible();", [("Nadorster Str.", "30", "26123", True)]),
    ('assertEquals("Anschrift: Bahnhofstraße 5", label.getText());\nassertEquals("PLZ: 24937", plz.getText());\n'
     'assertEquals("Stadt: Flensburg", ort.getText());', [("Bahnhofstraße", "5", "24937", False)]),
])
def test_labelled_value_inside_a_string(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


def test_quoted_keys_with_bare_numbers_still_read(oldenburg):
    # a bare postcode before the next quoted key is a value of its own, not a labelled string's end
    text = "row = {'strasse': 'Rosenstraße 3', 'plz': 26122, 'ort': 'Oldenburg'}"
    assert _keys(oldenburg, text) == [("Rosenstraße", "3", "26122", True)]


# -- a UI test typing the parts into fields named by their labels --

@pytest.mark.parametrize("text, expected", [
    ("await page.getByRole('textbox', { name: 'Straße' }).fill('Schützenweg');\n"
     "await page.getByRole('textbox', { name: 'Hausnummer' }).fill('21 a');\n"
     "await page.getByRole('textbox', { name: 'PLZ' }).fill('26129');\n"
     "await page.getByRole('textbox', { name: 'Ort' }).fill('Oldenburg');", [("Schützenweg", "21a", "26129", True)]),
    ("cy.get('#street').type('Lange Hecke 4');\ncy.get('#zip').type('45127');\ncy.get('#city').type('Essen');",
     [("Lange Hecke", "4", "45127", False)]),
    ('driver.findElement(By.name("strasse")).sendKeys("Heiligengeiststraße 6");\n'
     'driver.findElement(By.name("plzOrt")).sendKeys("26121 Oldenburg");',
     [("Heiligengeiststraße", "6", "26121", True)]),
])
def test_ui_test_fills_the_address_fields(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


# -- a SQL row whose values hold function calls --

@pytest.mark.parametrize("text, expected", [
    ("insert into ADDRESS (ID, CUSTOMER_ID, STREET, HOUSE_NUMBER, ZIP, CITY)\n"
     "  values (nextval('ADDRESS_SEQ'), currval('CUSTOMER_SEQ'), 'Wiekhorn', '9', '45127', 'Essen');",
     [("Wiekhorn", "9", "45127", "Essen")]),
    ("INSERT INTO kunde (id, strasse, hausnummer, plz, ort, angelegt) VALUES "
     "(gen_random_uuid(), 'Ellerbrook', '100', '26121', 'Oldenburg', NOW());",
     [("Ellerbrook", "100", "26121", "Oldenburg")]),
])
def test_sql_row_with_function_calls(oldenburg, text, expected):
    # the column list names each value: the row's city too (a street without street word is no row's street alone)
    found = oldenburg.parse(text).all_addresses
    assert sorted((a.street, a.house_number, a.postcode, a.city) for a in found) == expected


# -- a programmer's placeholder as the street --

@pytest.mark.parametrize("text", [
    '{"street": {"name": "Test", "number": "1"}, "city": "26122 Oldenburg"}',
    "Foo 3\n26121 Oldenburg",
])
def test_placeholder_street_is_no_address(oldenburg, text):
    assert _keys(oldenburg, text) == []


@pytest.mark.parametrize("text", [
    'const facility = {\n  street: "742 Fake Avenue",\n  city: "Denver",\n  state: "CO",\n  zipCode: "80202",\n};',
    "Ship to: 12 Fake St, Boston, MA 02108",
])
def test_fake_street_is_no_address(us, text):
    assert _keys(us, text) == []


def test_a_street_named_like_a_placeholder_word_stays(us):
    # only the whole name, or the placeholder word right before a type word, is a sample: "Testa Street" is none
    assert _keys(us, "Visit us at 40 Testa Street, Boston, MA 02108") == [("Testa Street", "40", "02108", True)]


# -- a German record read in the US pack: its postcode is no ZIP --

@pytest.mark.parametrize("text", [
    '{"strasse": "Lindenstraße", "hausnummer": "12", "plz": "10969", "ort": "Berlin"}',
    '{"e_strasse": "Köpfelweide", "e_hnr": "3", "e_plz": "12589", "e_ort": "Berlin"}',  # a German letter, no suffix
    "cy.get('#street').type('Chausseestr. 8');\ncy.get('#zip').type('10115');\ncy.get('#city').type('Berlin');",
])
def test_german_record_is_no_us_address(us, text):
    assert _keys(us, text) == []


def test_us_record_without_state_still_read(us):
    text = '{"street": "Ocean Way", "houseNumber": "5", "zip": "92101", "city": "San Diego"}'
    assert _keys(us, text) == [("Ocean Way", "5", "92101", True)]
