"""The fields of the addresses a geoparser finds, as the geoparser tests compare them."""

from __future__ import annotations

from typing import Any

# The fields most tests compare: the street, its number, the place and whether it is the region's.
STREET_AND_PLACE = ("street", "house_number", "postcode", "city", "in_region")
WITH_UNIT = ("street", "house_number", "unit", "postcode", "in_region")


def found(parser: Any, text: str, fields: tuple[str, ...] = STREET_AND_PLACE) -> list[tuple[Any, ...]]:
    """``fields`` of every address ``parser`` finds in ``text``, in the order found."""
    return [tuple(getattr(address, name) for name in fields) for address in parser.parse(text).all_addresses]


def found_with_unit(parser: Any, text: str) -> list[tuple[Any, ...]]:
    """``found`` with the unit in place of the city."""
    return found(parser, text, WITH_UNIT)
