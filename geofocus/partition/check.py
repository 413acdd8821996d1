"""The partition settings, checked before a crawl starts."""

from __future__ import annotations

from typing import Any

from geofocus.partition.errors import PartitionError
from geofocus.partition.geoip import GeoIPTable
from geofocus.partition.partitioner import POLICIES
from geofocus.usage import as_usage_error


def check_settings(settings: Any) -> None:
    """Before a crawl starts: a known policy, and a readable GeoIP table for ``ip``.

    Raises scrapy's UsageError with one line (``geofocus.usage``), not a traceback.
    """
    policy = (settings.get("GEOFOCUS_PARTITION") or "").strip().lower()
    if not policy:
        return
    with as_usage_error(PartitionError):
        if policy not in POLICIES:
            raise PartitionError(f"unknown GEOFOCUS_PARTITION {policy!r}; choose one of {', '.join(POLICIES)}")
        if policy == "ip":
            GeoIPTable(settings.get("GEOFOCUS_GEOIP_DB") or "")
