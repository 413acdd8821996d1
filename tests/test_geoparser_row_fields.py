"""A row of quoted values (SQL VALUES, a quoted CSV line, a literal list) with a street's value right before a
region city's value and no state or ZIP: an address of the region, as the one-element array tables are."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.house_number, a.street, a.city, a.in_region) for a in parser.parse(text).all_addresses]


@pytest.mark.parametrize("text, expected", [
    ("INSERT INTO stores VALUES (7, 'Harbor Books', '1201 Alaskan Way', 'Seattle', '2065550100');",
     [("1201", "Alaskan Way", "Seattle", True)]),
    ('"Acme","500 Pine Street","Seattle","206-555-0100"', [("500", "Pine Street", "Seattle", True)]),
    ("venues = ['1700 Lincoln St', 'Denver']", [("1700", "Lincoln St", "Denver", True)]),
    # The state's value after the city's says which town of the name: the region's, or another one outside it.
    ("(1, 'Jeff', '12 Maple Street', 'Phoenix', 'AZ')", [("12", "Maple Street", "Phoenix", True)]),
    ("(1, 'Jeff', '12 Maple Street', 'Phoenix', 'TX')", [("12", "Maple Street", "Phoenix", False)]),
])
def test_a_street_value_then_a_region_city_value(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    "('Bob', 'Main Street', 'Denver')",  # no house number
    "('Bob', '12 Main Street', 'Springfield', '555')",  # no region city
    "('Lot', '66 Main', 'Chicago')",  # no street's type word
])
def test_no_address_without_a_typed_street_and_a_region_city_alone(us, text):
    assert _found(us, text) == []
