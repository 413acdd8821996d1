"""The nodes of a collaborative crawl and which node owns each target city (Gao, Lee & Miao 2006, Table 1)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

GENERAL = "general"

# Time zones of the paper's Table 1 -> node (Cn1..Cn5); Cn0 is the general node.
TIMEZONE_NODES = {
    "Eastern": "eastern",
    "Pacific": "pacific",
    "Mountain": "mountain",
    "Central": "central",
    "Hawaii": "hawaii-alaska",
    "Alaska": "hawaii-alaska",
}


def stable_hash(text: str) -> int:
    """A hash that is the same in every process (Python's hash() is salted)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


@dataclass(frozen=True)
class CityKey:
    name: str
    state: str
    population: int


@dataclass
class NodePlan:
    """The nodes of a collaborative crawl and the owner of each target city."""

    nodes: tuple[str, ...]
    general: str
    city_node: dict[CityKey, str] = field(default_factory=dict)

    def node_of(self, city: CityKey | None) -> str:
        if city is None:
            return self.general
        return self.city_node.get(city, self.general)

    def by_hash(self, key: str) -> str:
        return self.nodes[stable_hash(key) % len(self.nodes)]


def city_keys(region: Any) -> list[tuple[CityKey, Any, dict[str, Any]]]:
    raw = {(c.get("name"), c.get("state", "")): c for c in region.raw.get("cities", [])} if region.raw else {}
    return [(CityKey(c.name, c.state, c.population), c, raw.get((c.name, c.state), {})) for c in region.cities]


def plan_for_region(region: Any, nodes: str | Sequence[str] = "") -> NodePlan:
    """The node plan: explicit ``nodes`` (comma-separated) for hash/host partitions; otherwise
    one node per time zone of the paper's Table 1 plus the general node for a region set, and a
    single node for a one-city region."""
    names = [n.strip() for n in (nodes.split(",") if isinstance(nodes, str) else nodes) if n.strip()]
    cities = city_keys(region)
    if names:
        # explicit nodes: cities spread by time zone where known, else by hash; first node is general
        general = names[0]
        geo = names[1:] or names
        zones = sorted({raw.get("timezone", "") for _, _, raw in cities} - {""})
        city_node = {}
        for key, _, raw in cities:
            zone = raw.get("timezone", "")
            idx = zones.index(zone) if zone in zones else stable_hash(key.name)
            city_node[key] = geo[idx % len(geo)]
        return NodePlan(tuple(names), general, city_node)
    if len(cities) <= 1:
        return NodePlan(("default",), "default", {key: "default" for key, _, _ in cities})
    city_node = {}
    for key, _, raw in cities:
        zone = raw.get("timezone", "")
        city_node[key] = TIMEZONE_NODES.get(zone, GENERAL)
    ordered = [GENERAL] + [n for n in dict.fromkeys(TIMEZONE_NODES.values()) if n in city_node.values()]
    return NodePlan(tuple(ordered), GENERAL, city_node)
