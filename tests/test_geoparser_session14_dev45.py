"""Ways of writing US addresses met in real text (session 14, held-out 45: test fixtures in C++, Java and JSON, table
rows of sites, sample data): each test is a class of writing, with members written for the test, not snippets of the
corpus."""

from __future__ import annotations

import pytest

from tests.addressfields import found as _found
from tests.addressfields import found_with_unit as _found_with_unit

# -- designated initialisers: a key after a dot of its own, a member initialised in braces ----------------------

@pytest.mark.parametrize("text", [
    # C++20 / C99 designated initialisers with "="
    'Address office = {\n    .street = "350 Fifth Avenue",\n    .city = "New York",\n    .state = "NY",\n'
    '    .zip = "10118",\n};',
    # the street's member initialised in braces, the others with "=" (libraries' address structs)
    'const PostalRecord r{\n    .address_line{"350 Fifth Avenue"},\n    .locality = "New York",\n'
    '    .administrative_area = "NY",\n    .postal_code = "10118",\n};',
    # every member in braces
    'Venue v{.street{"350 Fifth Avenue"}, .city{"New York"}, .state{"NY"}, .zip{"10118"}};',
])
def test_designated_initialisers(us, text):
    assert _found(us, text) == [("Fifth Avenue", "350", "10118", "New York", True)]


def test_designated_initialiser_outside_the_region(us):
    text = ('struct addr a = {\n  .line1 = "4400 Massachusetts Ave",\n  .town = "Bethesda",\n  .state = "MD",\n'
            '  .postcode = "20814",\n};')
    assert _found(us, text) == [("Massachusetts Ave", "4400", "20814", "Bethesda", False)]


def test_a_braced_member_that_names_no_part_is_no_address(us):
    # a struct of a meeting: its members' names name no part of an address
    text = 'Meeting m{.title{"Board meeting"}, .room{"12"}, .notes{"bring 350 copies"}};'
    assert _found(us, text) == []


# -- a builder's adder of a repeated field ----------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    # a Java builder: the street line added, the state's name in full, no ZIP
    'PostalAddress a = PostalAddress.newBuilder()\n    .addAddressLine("2100 Ross Avenue")\n'
    '    .setLocality("Dallas")\n    .setAdministrativeArea("Texas")\n    .build();',
    # protobuf's plural field name
    'PostalAddress.newBuilder().addAddressLines("2100 Ross Avenue").setLocality("Dallas")'
    '.setAdministrativeArea("TX").setPostalCode("75201").build()',
    # Kotlin, an adder of the street
    'val a = Address.builder().addStreet("2100 Ross Avenue").withCity("Dallas").withState("TX").build()',
])
def test_a_builders_adder_names_the_street(us, text):
    found = _found(us, text)
    assert [(street, number, city, in_region) for street, number, _, city, in_region in found] == [
        ("Ross Avenue", "2100", "Dallas", True)]


def test_an_adder_of_any_line_names_no_street(us):
    # "addLine" adds a line of any text (a report, a log): its argument is no street, the town beside it no address
    text = 'report.addLine("1200 rows imported");\nreport.setCity("Dallas");\nreport.addLine("done");'
    assert _found(us, text) == []


# -- numbered address lines, the street in the third ------------------------------------------------------------

@pytest.mark.parametrize("text, unit", [
    # a JSON example record: a room in the first line, a building in the second, the street in the third
    ('{"city": "Seattle", "state": "WA", "street1": "Room 4B", "street2": "Harbor Steps Tower",'
     ' "street3": "1200 Western Ave", "zip": "98101"}', "Room 4B"),
    # YAML, the lines under "address_line_N" keys, no unit among the first two
    ("address_line_1: Harbor Steps Tower\naddress_line_2: Attn Front Desk\naddress_line_3: 1200 Western Ave\n"
     "city: Seattle\nstate: WA\nzip: '98101'", None),
])
def test_the_street_in_a_third_address_line(us, text, unit):
    assert _found_with_unit(us, text) == [("Western Ave", "1200", unit, "98101", True)]


def test_a_third_line_after_the_street_stays_no_street(us):
    # the street in the first line, a unit and a building after it: the first line stays the street
    text = ('{"street1": "1200 Western Ave", "street2": "Suite 300", "street3": "Harbor Steps Tower",'
            ' "city": "Seattle", "state": "WA", "zip": "98101"}')
    assert _found_with_unit(us, text) == [("Western Ave", "1200", "Suite 300", "98101", True)]


# -- table rows with a town's cell and a street's cell, no state or ZIP -----------------------------------------

@pytest.mark.parametrize("text", [
    # HTML, the town first
    "<table><tr><th>City</th><th>Address</th><th>Open</th></tr>\n"
    "<tr><td>Tulsa</td><td>415 S Boston Ave</td><td>Mon-Fri</td></tr></table>",
    # a component library's rows and cells (JSX)
    "<Table>\n  <Row>\n    <Cell>Tulsa</Cell>\n    <Cell>415 S Boston Ave</Cell>\n    <Cell>Mon-Fri</Cell>\n"
    "  </Row>\n</Table>",
    # a Markdown table, the street first
    "| Site | Street | Town |\n|------|--------|------|\n| Main branch | 415 S Boston Ave | Tulsa |",
    # capitals
    "<TABLE><TR><TD>TULSA</TD><TD>415 S Boston Ave</TD></TR></TABLE>",
])
def test_a_table_row_of_a_town_and_a_street(us, text):
    found = _found(us, text)
    assert [(street, number, in_region) for street, number, *_rest, in_region in found] == [
        ("S Boston Ave", "415", True)]


def test_table_rows_each_their_own_address(us):
    text = ("| City | Address |\n| --- | --- |\n| Omaha | 1819 Farnam St |\n| Tucson | 255 W Alameda St |\n")
    found = {(street, number, in_region) for street, number, *_rest, in_region in _found(us, text)}
    assert found == {("Farnam St", "1819", True), ("W Alameda St", "255", True)}


@pytest.mark.parametrize("text", [
    # two streets in one row: which goes with the town is not said
    "<tr><td>Tulsa</td><td>415 S Boston Ave</td><td>12 E 5th St</td></tr>",
    # the town is none of the region's
    "<tr><td>Broken Arrow</td><td>415 S Boston Ave</td></tr>",
    # no street word: a count, not a street
    "| Tulsa | 415 visitors | 2023 |\n|---|---|---|",
    # a Markdown-looking line without a table's delimiter row
    "| Tulsa | 415 S Boston Ave |",
])
def test_table_rows_that_name_no_address(us, text):
    assert _found(us, text) == []


# -- sample streets ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    'physical_address: {address_1: "123 Some Street", city: "Portland", state: "OR", zip: "97201"}',
    "Ship to: 42 Some St, Portland, OR 97201",
])
def test_some_street_is_a_sample_street(us, text):
    assert _found(us, text) == []
