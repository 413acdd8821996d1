"""A GeoIP table for the ``ip`` partition policy: IP network -> (city, state), read from a CSV file."""

from __future__ import annotations

import csv
import ipaddress
from pathlib import Path
from typing import Any

from geofocus.partition.errors import PartitionError


class GeoIPTable:
    """IP network -> (city, state) from a CSV file ``network,city,state`` (e.g. 192.0.2.0/24,Boston,MA)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if not path or not Path(path).is_file():
            raise PartitionError(
                "GEOFOCUS_PARTITION=ip needs a GeoIP database: set GEOFOCUS_GEOIP_DB to a CSV file "
                "of 'network,city,state' lines" + (f" ({path} does not exist)" if path else "")
            )
        self.networks: list[tuple[Any, str, str]] = []
        with open(path, encoding="utf-8", newline="") as f:
            for row in csv.reader(f):
                if len(row) < 3 or row[0].startswith("#"):
                    continue
                try:
                    self.networks.append((ipaddress.ip_network(row[0].strip(), strict=False),
                                          row[1].strip(), row[2].strip()))
                except ValueError:
                    continue
        # most specific network first
        self.networks.sort(key=lambda n: -n[0].prefixlen)

    def lookup(self, ip: str) -> tuple[str, str] | None:
        try:
            addr = ipaddress.ip_address(ip)
        except ValueError:
            return None
        for net, city, state in self.networks:
            if addr.version == net.version and addr in net:
                return city, state
        return None
