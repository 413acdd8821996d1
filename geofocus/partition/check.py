"""The partition settings, checked before a crawl starts."""

from __future__ import annotations

from typing import Any

from geofocus.partition.errors import PartitionError
from geofocus.partition.geoip import GeoIPTable
from geofocus.partition.partitioner import POLICIES


def check_settings(settings: Any) -> None:
    """Before a crawl starts: a known policy, and a readable GeoIP table for ``ip``.

    Raises scrapy's UsageError with one line (exit status 2), not a traceback.
    """
    from scrapy.exceptions import UsageError

    policy = (settings.get("GEOFOCUS_PARTITION") or "").strip().lower()
    if not policy:
        return
    if policy not in POLICIES:
        raise UsageError(f"unknown GEOFOCUS_PARTITION {policy!r}; choose one of {', '.join(POLICIES)}",
                         print_help=False)
    if policy == "ip":
        try:
            GeoIPTable(settings.get("GEOFOCUS_GEOIP_DB") or "")
        except PartitionError as exc:
            raise UsageError(str(exc), print_help=False) from None
