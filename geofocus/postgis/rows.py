"""Crawl-log records as rows of ``pages`` and ``addresses``.

A record is one line of ``RUN_DIR/crawl.jsonl`` (see geofocus/extensions/crawllog.py),
optionally with ``run_id`` and ``region``; the crawl's writer, the spool and
``scrapy postgis-load`` all go through these functions, so a page is stored the
same way whichever path brought it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from geofocus.postgis.schema import PRECISIONS

PAGE_COLUMNS = ("url", "fetched_at", "status", "relevant", "priority", "score", "prediction", "dist",
                "seed_dist", "depth", "parent", "run_id", "region", "node")
ADDRESS_COLUMNS = ("page_url", "ordinal", "street", "house_number", "postcode", "city", "country",
                   "lon", "lat", "precision", "text_span", "address_key")


def _float(value: Any) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def _int(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


def _clean(row: tuple) -> tuple:
    """PostgreSQL text cannot hold NUL characters; a page may (they are dropped)."""
    return tuple(v.replace("\x00", "") if isinstance(v, str) else v for v in row)


def address_key(address: dict[str, Any]) -> str:
    """Identity of an address across pages, as geofocus.geoparser.model.Address.key()."""
    street = " ".join(str(address.get("street") or "").lower().split())
    number = str(address.get("house_number") or "").lower().replace(" ", "")
    return "|".join((street, number, str(address.get("postcode") or ""), str(address.get("city") or "").lower()))


def address_text(address: dict[str, Any]) -> str:
    """The text span the address came from when the geoparser reports one, else its written form."""
    if address.get("span"):
        return str(address["span"])
    street = " ".join(x for x in (address.get("street"), address.get("house_number")) if x)
    place = " ".join(x for x in (address.get("postcode"), address.get("city")) if x)
    return ", ".join(x for x in (street, place) if x)


def page_row(record: dict[str, Any], run_id: str | None = None, region: str | None = None) -> tuple:
    return _clean((
        str(record["url"]),
        _float(record.get("time")) or 0.0,
        _int(record.get("status")),
        bool(record.get("relevant")),
        _float(record.get("priority")),
        _float(record.get("score")),
        _float(record.get("prediction")),
        _int(record.get("dist")),
        _int(record.get("seed_dist")),
        _int(record.get("depth")),
        record.get("parent"),
        record.get("run_id") or run_id,
        record.get("region") or region,
        record.get("node"),
    ))


def address_rows(record: dict[str, Any]) -> list[tuple]:
    rows = []
    for ordinal, address in enumerate(record.get("addresses") or []):
        if not isinstance(address, dict) or not address.get("street"):
            continue
        lat, lon = _float(address.get("lat")), _float(address.get("lon"))
        if lat is None or lon is None or not (-90 <= lat <= 90 and -180 <= lon <= 180):
            lat = lon = None
        precision = address.get("precision") if address.get("precision") in PRECISIONS else None
        rows.append(_clean((
            str(record["url"]), ordinal, str(address["street"]), address.get("house_number"),
            address.get("postcode"), address.get("city"), address.get("country"),
            lon, lat, precision if lat is not None else None, address_text(address), address_key(address),
        )))
    return rows


def valid(record: Any) -> bool:
    return isinstance(record, dict) and isinstance(record.get("url"), str) and bool(record["url"])


def latest_per_url(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per URL (the last one: a page re-fetched after a kill keeps its newest row), sorted by URL
    so that concurrent writers lock pages in the same order."""
    latest: dict[str, dict[str, Any]] = {}
    for record in records:
        latest[record["url"]] = record
    return [latest[url] for url in sorted(latest)]
