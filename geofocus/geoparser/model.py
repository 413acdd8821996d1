from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# Work per page is bounded, so that no input costs more than about half a
# second whatever its size: at most MAX_ANCHORS anchors (a postcode with a
# place after it, a region city name, a US state) get the street search (20-500
# microseconds each) in each reading of the page, and at most MAX_CANDIDATES cheap
# candidates (five-digit numbers, city-name words, keyed values) are looked at,
# at a few microseconds each.
MAX_ANCHORS = 2000
MAX_CANDIDATES = 40_000
# usaddress (a CRF, ~0.4 ms per address) re-reads the fields of at most this many US addresses per page.
MAX_FIELD_SPLITS = 200
# Below those caps the budget grows with the page: one anchor per ANCHOR_CHARS characters, one
# candidate per CANDIDATE_CHARS, one usaddress reading per FIELD_SPLIT_CHARS, but never less than the
# floors (a page of a few kilobytes gets the whole floor).  Each reading of the page (its text, the
# second reading, the keyed and labelled parts) gets the anchors and candidates afresh, so that
# thousands of anchors the first reading cannot read (a list of Markdown links) leave the second one
# its share; the usaddress readings are one budget.  At ~20-150 us an anchor, ~3 us a candidate and
# ~0.4 ms a usaddress reading, a page of nothing but anchors costs at most ~0.2 us a character: about
# 5 MB/s whatever its size, where fixed budgets let a dense 100 KB page cost as much as a 2 MB one.
ANCHOR_CHARS = 5000
CANDIDATE_CHARS = 200
FIELD_SPLIT_CHARS = 20000
MIN_ANCHORS = 100
MIN_CANDIDATES = 2000
MIN_FIELD_SPLITS = 30
# Those budgets bound the work that finds nothing.  An anchor that gave an address is given back, with
# a few candidates, up to MAX_ANCHORS addresses a parse: a directory page of hundreds of real addresses
# (a business listing of 300 addresses is ~30 KB) is read whole, at ~70 us an address.
CANDIDATES_PER_ADDRESS = 4


@dataclass
class WorkLimit:
    """The budget of one parse; ``truncated`` tells that a limit cut the page short."""

    anchors: int = MAX_ANCHORS
    candidates: int = MAX_CANDIDATES
    field_splits: int = MAX_FIELD_SPLITS
    truncated: bool = False
    refunds: int = MAX_ANCHORS
    # Whether the first reading of the page (its text) named a city of a list read without postcode
    # (other German cities; US region cities without state): None before it, then True or False. The
    # later readings (the second reading, keyed fields) are scanned for them only if it did.
    other_cities: bool | None = None
    region_cities: bool | None = None

    @classmethod
    def for_size(cls, chars: int) -> WorkLimit:
        """The budget of one reading of a page of ``chars`` characters: in proportion to its size, between
        the floors and the caps above."""
        return cls(anchors=min(MAX_ANCHORS, max(MIN_ANCHORS, chars // ANCHOR_CHARS)),
                   candidates=min(MAX_CANDIDATES, max(MIN_CANDIDATES, chars // CANDIDATE_CHARS)),
                   field_splits=min(MAX_FIELD_SPLITS, max(MIN_FIELD_SPLITS, chars // FIELD_SPLIT_CHARS)))

    def renew(self, budget: WorkLimit) -> None:
        """A fresh budget of anchors and candidates for the next reading of the page, as ``budget`` gives
        them (``truncated`` and the usaddress readings left stay as they are)."""
        self.anchors, self.candidates = budget.anchors, budget.candidates

    def anchor(self) -> bool:
        """Count one anchor; False once the budget is spent."""
        self.anchors -= 1
        if self.anchors < 0:
            self.truncated = True
            return False
        return True

    def found(self) -> None:
        """An anchor gave an address: give it back with a few candidates (at most MAX_ANCHORS times)."""
        if self.refunds > 0 and self.anchors >= 0:
            self.refunds -= 1
            self.anchors += 1
            if self.candidates >= 0:
                self.candidates += CANDIDATES_PER_ADDRESS

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
