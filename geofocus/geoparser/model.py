from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# Work per page is bounded, so that no input costs more than about half a
# second whatever its size: at most MAX_ANCHORS anchors (a postcode with a
# place after it, a region city name, a US state) get the street search (100-250
# microseconds each), and at most MAX_CANDIDATES cheap candidates (five-digit
# numbers, city-name words) are looked at, at a few microseconds each.  A real
# page, even a directory of hundreds of addresses, stays far below both.
MAX_ANCHORS = 2000
MAX_CANDIDATES = 40_000
# usaddress (a CRF, ~0.4 ms per address) re-reads the fields of at most this many US addresses per page.
MAX_FIELD_SPLITS = 200


@dataclass
class WorkLimit:
    """The budget of one parse; ``truncated`` tells that a limit cut the page short."""

    anchors: int = MAX_ANCHORS
    candidates: int = MAX_CANDIDATES
    field_splits: int = MAX_FIELD_SPLITS
    truncated: bool = False

    def anchor(self) -> bool:
        """Count one anchor; False once the budget is spent."""
        self.anchors -= 1
        if self.anchors < 0:
            self.truncated = True
            return False
        return True

    def candidate(self) -> bool:
        self.candidates -= 1
        if self.candidates < 0:
            self.truncated = True
            return False
        return True


AddressKey = tuple[str, str, str, str]


def address_key(street: str, house_number: str, postcode: str | None, city: str | None) -> AddressKey:
    """The identity of an address across pages and runs: (street, house number, postcode, city), street
    and city case- and spacing-insensitive, the house number without spaces ("12 a" = "12A").

    The one address key: ``Address.key``, the metrics' distinct addresses
    (``geofocus.metrics.addresses``) and the geoparser evaluation's match key build on it.
    """
    return (
        " ".join(street.lower().split()),
        house_number.lower().replace(" ", ""),
        postcode or "",
        (city or "").lower(),
    )


@dataclass
class Address:
    street: str
    house_number: str
    postcode: str | None
    city: str | None
    country: str
    lat: float | None = None
    lon: float | None = None
    precision: str | None = None  # "street" or "postcode": what the coordinate stands for
    in_region: bool = False
    state: str | None = None  # US: the USPS state code
    unit: str | None = None  # US: suite, apartment, floor ("Suite 100", "#3002"), not part of the street

    def key(self) -> AddressKey:
        """Identity of an address across pages (see ``address_key``)."""
        return address_key(self.street, self.house_number, self.postcode, self.city)

    def to_dict(self, with_region: bool = False) -> dict[str, Any]:
        data = asdict(self)
        if not with_region:
            data.pop("in_region")
        return data


@dataclass
class ParseResult:
    all_addresses: list[Address] = field(default_factory=list)
    truncated: bool = False  # the page had more anchors than one parse looks at

    @property
    def addresses(self) -> list[Address]:
        return [a for a in self.all_addresses if a.in_region]

    @property
    def relevant(self) -> bool:
        return any(a.in_region for a in self.all_addresses)
