"""Distinct addresses of one or more crawls, and their GeoJSON.

An address is identified as :meth:`geofocus.geoparser.Address.key` does (street and house
number case- and spacing-insensitive, postcode, city), so the same address found on several
pages, or by several runs, is one address.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from geofocus.geoparser.model import AddressKey
from geofocus.geoparser.model import address_key as identity_key

ADDRESS_FIELDS = ("street", "house_number", "postcode", "city", "country")


def address_key(address: Mapping[str, Any]) -> AddressKey:
    """The identity of an address dict, as ``Address.key()`` gives it (``geoparser.model.address_key``)."""
    return identity_key(str(address.get("street") or ""), str(address.get("house_number") or ""),
                        str(address.get("postcode") or ""), str(address.get("city") or ""))


def count_entities(pages: Iterable[Mapping[str, Any]]) -> tuple[int, int]:
    """(distinct addresses, address occurrences) over pages (Gao et al.'s Table 5 counts)."""
    keys: set[AddressKey] = set()
    total = 0
    for page in pages:
        for address in page.get("addresses") or ():
            if isinstance(address, Mapping):
                keys.add(address_key(address))
                total += 1
    return len(keys), total


@dataclass
class AddressRecord:
    """One distinct address: its fields, where it was found and when first."""

    key: AddressKey
    fields: dict[str, Any]
    lat: float | None
    lon: float | None
    precision: str | None
    urls: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    first_seen: float | None = None
    first_seen_url: str | None = None

    def located(self) -> bool:
        return self.lat is not None and self.lon is not None


def _coord(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def collect_addresses(
    runs: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
    fallback_coords: Mapping[str, tuple[float, float]] | None = None,
) -> list[AddressRecord]:
    """Distinct addresses over ``runs`` (pairs of run label and pages), in order of discovery.

    ``fallback_coords`` maps a postcode or a lower-cased city name to (lat, lon); it places
    addresses that the geoparser found without coordinates (precision then says "postcode"
    or "city").
    """
    records: dict[AddressKey, AddressRecord] = {}
    for label, pages in runs:
        for page in pages:
            url = page.get("url")
            when = page.get("time")
            when = float(when) if isinstance(when, (int, float)) else None
            for address in page.get("addresses") or ():
                if not isinstance(address, Mapping):
                    continue
                key = address_key(address)
                rec = records.get(key)
                if rec is None:
                    lat, lon = _coord(address.get("lat")), _coord(address.get("lon"))
                    precision = address.get("precision")
                    if (lat is None or lon is None) and fallback_coords:
                        for level, name in (
                            ("postcode", str(address.get("postcode") or "")),
                            ("city", str(address.get("city") or "").lower()),
                        ):
                            if name and name in fallback_coords:
                                lat, lon = fallback_coords[name]
                                precision = level
                                break
                    rec = AddressRecord(
                        key=key,
                        fields={f: address.get(f) for f in ADDRESS_FIELDS},
                        lat=lat,
                        lon=lon,
                        precision=precision if isinstance(precision, str) else None,
                    )
                    records[key] = rec
                if isinstance(url, str) and url not in rec.urls:
                    rec.urls.append(url)
                if label not in rec.runs:
                    rec.runs.append(label)
                if when is not None and (rec.first_seen is None or when < rec.first_seen):
                    rec.first_seen = when
                    rec.first_seen_url = url if isinstance(url, str) else None
                elif rec.first_seen is None and rec.first_seen_url is None:
                    rec.first_seen_url = url if isinstance(url, str) else None
    return list(records.values())


def _iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def to_geojson(records: Sequence[AddressRecord]) -> dict[str, Any]:
    """A GeoJSON FeatureCollection (RFC 7946): one Point feature per located address.

    Coordinates are [lon, lat]. Addresses without any coordinate get ``geometry: null``
    (allowed by RFC 7946 for unlocated features), so no address is silently dropped.
    """
    features = []
    for rec in records:
        geometry = (
            {"type": "Point", "coordinates": [rec.lon, rec.lat]} if rec.located() else None
        )
        properties: dict[str, Any] = dict(rec.fields)
        properties.update(
            precision=rec.precision,
            urls=list(rec.urls),
            url_count=len(rec.urls),
            runs=list(rec.runs),
            first_seen=_iso(rec.first_seen),
            first_seen_url=rec.first_seen_url,
        )
        features.append({"type": "Feature", "geometry": geometry, "properties": properties})
    return {"type": "FeatureCollection", "features": features}
