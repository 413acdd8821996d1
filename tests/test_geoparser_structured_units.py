"""A unit written inside a structured record's street value (schema.org ``streetAddress`` in JSON-LD and
microdata): the unit is its own field, as in text, and a unit written first does not hide the address."""

from __future__ import annotations

import json

import pytest


def _json_ld(street: str, city: str, state: str, zip_code: str) -> str:
    record = {"@context": "https://schema.org", "@type": "LocalBusiness", "name": "Example Dental",
              "address": {"@type": "PostalAddress", "streetAddress": street, "addressLocality": city,
                          "addressRegion": state, "postalCode": zip_code}}
    return f'<html><head><script type="application/ld+json">{json.dumps(record)}</script></head><body></body></html>'


def _found(parser, text):
    return [(a.house_number, a.street, a.unit, a.city, a.postcode, a.in_region)
            for a in parser.parse(text).all_addresses]


@pytest.mark.parametrize("street, expected", [
    ("4410 Ross Ave Suite 310", ("4410", "Ross Ave", "Suite 310")),
    ("4410 Ross Avenue, Suite 310", ("4410", "Ross Avenue", "Suite 310")),
    ("4410 Ross Ave Ste. 310", ("4410", "Ross Ave", "Ste. 310")),
    ("4410 Ross Ave #310", ("4410", "Ross Ave", "#310")),
    ("4410 Ross Ave, 3rd Floor", ("4410", "Ross Ave", "3rd Floor")),
    ("4410 N Ross Ave Unit B", ("4410", "N Ross Ave", "Unit B")),
    # the unit first: before, no address was read at all
    ("Suite 310, 4410 Ross Ave", ("4410", "Ross Ave", "Suite 310")),
    ("Ste 310 - 4410 Ross Ave", ("4410", "Ross Ave", "Ste 310")),
])
def test_a_unit_in_a_json_ld_street_address_is_its_own_field(us, street, expected):
    assert _found(us, _json_ld(street, "Dallas", "TX", "75204")) == [(*expected, "Dallas", "75204", True)]


@pytest.mark.parametrize("street, expected", [
    # no unit: the value is the street as written, its direction and its name's words kept
    ("1600 Pennsylvania Avenue NW", ("1600", "Pennsylvania Avenue NW", None)),
    ("100 Suite Street", ("100", "Suite Street", None)),
    ("2 Unit Road", ("2", "Unit Road", None)),
])
def test_a_street_value_without_unit_is_kept_whole(us, street, expected):
    assert _found(us, _json_ld(street, "Dallas", "TX", "75204")) == [(*expected, "Dallas", "75204", True)]


def test_a_unit_alone_is_no_address(us):
    assert _found(us, _json_ld("Suite 310", "Dallas", "TX", "75204")) == []


def test_a_unit_in_a_microdata_street_address(us):
    html = ('<div itemscope itemtype="https://schema.org/PostalAddress">'
            '<span itemprop="streetAddress">233 S Wacker Dr Ste 9600</span>, '
            '<span itemprop="addressLocality">Chicago</span>, <span itemprop="addressRegion">IL</span> '
            '<span itemprop="postalCode">60606</span></div>')
    assert _found(us, html) == [("233", "S Wacker Dr", "Ste 9600", "Chicago", "60606", True)]
