"""A US record whose parts are keyed (JSON, XML) is no German address when it names a US state, though its
five-digit ZIP has a German postcode's form; German records naming their Land are read as before."""

from __future__ import annotations

import pytest


def _streets(parser, text):
    return [(a.street, a.house_number, a.postcode) for a in parser.parse(text).all_addresses]


@pytest.mark.parametrize("text", [
    '{"street": "Payne St", "number": "1005", "zip": "60201", "state": "IL"}',
    "<Address><Street>Payne St</Street><Number>1005</Number><Zip>60201</Zip><State>Illinois</State></Address>",
    '{"address": {"streetName": "Grove Ave", "houseNumber": "396", "postalCode": "28659", "state": "North Carolina"}}',
])
def test_a_us_record_is_no_german_address(oldenburg, text):
    assert _streets(oldenburg, text) == []


@pytest.mark.parametrize("text", [
    '{"strasse": "Lange Straße", "hausnummer": "5", "plz": "26122", "ort": "Oldenburg", "bundesland": "NI"}',
    '{"street": "Lange Straße 5", "zip": "26122", "city": "Oldenburg", "state": "Niedersachsen"}',
    '{"street": "Domshof", "number": "8", "zip": "28195", "city": "Bremen", "region": "HB"}',
])
def test_a_german_record_naming_its_land_is_read(oldenburg, text):
    assert len(_streets(oldenburg, text)) == 1


def test_the_us_record_is_read_in_the_us_reading(us):
    text = '{"street": "Payne St", "number": "1005", "zip": "60201", "state": "IL"}'
    assert _streets(us, text) == [("Payne St", "1005", "60201")]
