"""A delivery gate or dock numbered before a German postcode is no street; the street of the same place is read."""

from __future__ import annotations

import pytest


def _streets(parser, text):
    return [(a.street, a.house_number, a.postcode) for a in parser.parse(text).all_addresses]


@pytest.mark.parametrize("text", [
    "Anlieferung über Tor 5, 26135 Oldenburg",
    "Lieferungen bitte an Rampe 3, 26135 Oldenburg",
    "Warenannahme: Dock 12, 26135 Oldenburg",
])
def test_a_gate_or_dock_is_no_street(oldenburg, text):
    assert _streets(oldenburg, text) == []


def test_the_street_before_the_gate_is_read(oldenburg):
    text = "Anlieferung: Holler Landstraße 2, Tor 5, 26135 Oldenburg"
    assert _streets(oldenburg, text) == [("Holler Landstraße", "2", "26135")]


@pytest.mark.parametrize("text, street", [
    # streets that end in the words, as names do: read as before
    ("Haarentor 5, 26129 Oldenburg", "Haarentor"),
    ("Am Alten Tor 3, 26122 Oldenburg", "Am Alten Tor"),
])
def test_streets_named_after_a_gate_stay_streets(oldenburg, text, street):
    assert [s for s, _n, _p in _streets(oldenburg, text)] == [street]
