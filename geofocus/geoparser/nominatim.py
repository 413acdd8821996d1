"""Addresses written as a geocoder's display name: the parts from the smallest to the country, one after a comma each.

``Transamerica Pyramid, 600, Montgomery Street, Financial District, San Francisco, California, 94111, United
States`` and ``5, Lange Straße, Innenstadt, Oldenburg, Niedersachsen, 26122, Deutschland``: Nominatim's
``display_name`` (OpenStreetMap's geocoder, and the packages that wrap it: geopy, tidygeocoder, the fixtures of
apps that call it) writes the house number as a part of its own before the street, the districts and the county
between the street and the state, and the postcode between the state and the country. No line of a page is written
so, and the readers of lines find no street in it. The parts are put in the order a page writes them, as a record's
keys are (``KeyedAddress``): the number and the street, the town (the last part before the state that is no
county), the state, the postcode.

The reader looks for a comma and the country's name, then for the postcode before it, and reads back within one
line, so the cost is linear in the page size.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from geofocus.geoparser.keyvalue import KeyedAddress
from geofocus.geoparser.model import WorkLimit
from geofocus.geoparser.us import STATES, state_code

# ", POSTCODE, COUNTRY", the country as Nominatim writes it in English or German: searched as its comma and the
# country's name (a literal comma first: a fast scan, each comma of a page tried in the engine, not in Python), the
# postcode read back from there.
_COUNTRY = re.compile(r",[ \t]*(?P<country>United States(?: of America)?|USA|Deutschland|Germany)(?![\w-])")
_POSTCODE_BEFORE = re.compile(r"(?<![\d-]),?[ \t]*(?P<postcode>\d{5})(?:-\d{4})?$")
_COMMA_BEFORE = re.compile(r",[ \t]*$")  # the comma that ends the state's part, searched back from the postcode
_US_COUNTRIES = frozenset(("United States", "United States of America", "USA"))
_GERMAN_STATES = frozenset((
    "baden-württemberg", "bayern", "bavaria", "berlin", "brandenburg", "bremen", "hamburg", "hessen", "hesse",
    "mecklenburg-vorpommern", "mecklenburg-western pomerania", "niedersachsen", "lower saxony", "nordrhein-westfalen",
    "north rhine-westphalia", "rheinland-pfalz", "rhineland-palatinate", "saarland", "sachsen", "saxony",
    "sachsen-anhalt", "saxony-anhalt", "schleswig-holstein", "thüringen", "thuringia"))
# The parts between the street and the state that name no town: a county, a German district or a union of
# municipalities, an administrative region.
_NOT_TOWN = re.compile(r"\b(?:County|Parish|Borough|Census Area)$|^(?:Landkreis|Kreis|Samtgemeinde|Amt|"
                       r"Verwaltungsgemeinschaft|Regierungsbezirk|Region|Gemeindefreies Gebiet)\b|^Ward \d")
_HOUSE_NUMBER = re.compile(r"[1-9]\d{0,4}(?:[ ]?[a-zA-Z])?(?:[-–/][1-9]\d{0,4}[a-zA-Z]?)?")
# A street's part: a letter first or an ordinal, words of letters and ordinals (a number part is the house
# number's; "North 4th Street", "5th Avenue").
_ORDINAL = r"[1-9]\d{0,2}(?:st|nd|rd|th)\b"
_STREET = re.compile(rf"(?:[^\W\d_]|{_ORDINAL})(?:[^\W\d_]|[ .'’-]|(?<= ){_ORDINAL}){{1,60}}")
_MAX_BACK = 400  # characters read back from the postcode: a display name is one line, shorter than that
# What a display name follows: a quote, a line's start, a cell's bar, a key's colon, a call's bracket
# ("Location(350, 5th Avenue, ...": geopy's repr; "Oldenburg (Oldb)" is a part's own bracket).
_START = re.compile(r"[\"'\n>\[|]|(?<! )\(|\\n|:[ \t]")


def display_name_addresses(text: str, limit: WorkLimit) -> Iterator[KeyedAddress]:
    """The addresses of the display names in ``text`` whose house number is a part of its own before the
    street's part (see the module's text)."""
    for country in _COUNTRY.finditer(text):
        found = _POSTCODE_BEFORE.search(text, max(0, country.start() - 16), country.start())
        if found is None:
            continue  # a country's name after another comma: no candidate of this reader
        at = found.start("postcode")
        comma = _COMMA_BEFORE.search(text, max(0, at - 8), at)
        if comma is None:
            continue
        if not limit.candidate():
            return
        window_start = max(0, comma.start() - _MAX_BACK)
        head = text[window_start:comma.start()]
        starts = [m.end() for m in _START.finditer(head)]
        parts = [p.strip() for p in head[starts[-1] if starts else 0:].split(",")]
        address = _address(parts, found.group("postcode"), country.group("country") in _US_COUNTRIES)
        if address is not None:
            address.start, address.end = window_start, country.end()
            yield address


def _address(parts: list[str], postcode: str, us: bool) -> KeyedAddress | None:
    """The parts of one display name (all before the postcode) put together, or None if it names no street with
    its number as a part of its own, or no state before the postcode."""
    if len(parts) < 4:
        return None
    state = parts[-1]
    if us:
        if state_code(state) not in STATES or len(state) < 4:
            return None  # Nominatim writes the state's name ("California"), not its code
        state = state_code(state)
    elif state.lower() not in _GERMAN_STATES:
        return None
    number_at = next((i for i, part in enumerate(parts[:-2]) if _HOUSE_NUMBER.fullmatch(part)), None)
    if number_at is None or not _STREET.fullmatch(parts[number_at + 1]):
        return None
    between = parts[number_at + 2:-1]
    town = next((part for part in reversed(between) if part and not _NOT_TOWN.search(part)), None)
    if town is None:
        return None
    record = {"number": parts[number_at], "street": parts[number_at + 1], "city": town, "postcode": postcode}
    if us:
        record["state"] = state
    return KeyedAddress(parts=record, place_after_street=True)
