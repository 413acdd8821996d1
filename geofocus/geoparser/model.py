from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


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

    def key(self) -> tuple[str, str, str, str]:
        """Identity of an address across pages (case- and spacing-insensitive)."""
        return (
            " ".join(self.street.lower().split()),
            self.house_number.lower().replace(" ", ""),
            self.postcode or "",
            (self.city or "").lower(),
        )

    def to_dict(self, with_region: bool = False) -> dict[str, Any]:
        data = asdict(self)
        if not with_region:
            data.pop("in_region")
        return data


@dataclass
class ParseResult:
    all_addresses: list[Address] = field(default_factory=list)

    @property
    def addresses(self) -> list[Address]:
        return [a for a in self.all_addresses if a.in_region]

    @property
    def relevant(self) -> bool:
        return any(a.in_region for a in self.all_addresses)
