"""The partition policies: which node fetches each link of a page (Gao, Lee & Miao 2006, section 3).

Policy A: all URLs extracted from page p go to the node of p's most probable city; ``url`` and
``anchor`` decide per link, ``hash`` and ``host`` by a hash (see the package docstring).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from geofocus.partition.cities import CityMentions
from geofocus.partition.errors import PartitionError
from geofocus.partition.geoip import GeoIPTable
from geofocus.partition.plan import CityKey, NodePlan
from geofocus.partition.textclass import TextClassifier

POLICIES = ("host", "hash", "url", "anchor", "content", "classification", "ip")


@dataclass
class Page:
    """What a policy may look at: the page's URL, text, server IP and the addresses found on it."""

    url: str
    text: str = ""
    ip: str | None = None
    addresses: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Link:
    url: str
    anchor: str = ""
    context: str = ""


class Partitioner:
    """Maps the links of a page to nodes under one policy (policy A where the policy is page-level)."""

    def __init__(self, policy: str, plan: NodePlan, gazetteer: CityMentions | None = None,
                 geoip: GeoIPTable | None = None) -> None:
        if policy not in POLICIES:
            raise PartitionError(f"unknown partition policy {policy!r}; choose one of {', '.join(POLICIES)}")
        if policy == "ip" and geoip is None:
            raise PartitionError("GEOFOCUS_PARTITION=ip needs a GeoIP database (GEOFOCUS_GEOIP_DB)")
        if policy in ("url", "anchor", "content", "classification", "ip") and gazetteer is None:
            raise PartitionError(f"partition policy {policy!r} needs the region's cities")
        self.policy = policy
        self.plan = plan
        self.gazetteer = gazetteer
        self.geoip = geoip
        self.classifier = TextClassifier() if policy == "classification" else None

    def page_city(self, page: Page) -> CityKey | None:
        """The page's most probable target city under a page-level policy (None: not geo-aware)."""
        g = self.gazetteer
        assert g is not None
        if self.policy == "content":
            return g.best_content_city(page.text)
        if self.policy == "ip":
            assert self.geoip is not None
            found = self.geoip.lookup(page.ip or "")
            return g.resolve(found[0], found[1]) if found else None
        if self.policy == "classification":
            assert self.classifier is not None
            labelled = self._address_city(page)
            if labelled is not None:
                # the geoparser's addresses label the page: learn from it, then trust it
                self.classifier.learn(page.text, self.plan.node_of(labelled))
                return labelled
            node = self.classifier.predict(page.text)
            return next((k for k, n in self.plan.city_node.items() if n == node), None) if node else None
        return None

    def _address_city(self, page: Page) -> CityKey | None:
        assert self.gazetteer is not None
        counts: Counter[CityKey] = Counter()
        for a in page.addresses:
            key = self.gazetteer.resolve(str(a.get("city") or ""), a.get("state") or None)
            if key is not None:
                counts[key] += 1
        return counts.most_common(1)[0][0] if counts else None

    def assign(self, page: Page, links: Iterable[Link]) -> list[str]:
        """The node of every link of ``page``, in order."""
        links = list(links)
        plan = self.plan
        if self.policy == "hash":
            return [plan.by_hash(link.url) for link in links]
        if self.policy == "host":
            return [plan.by_hash((urlsplit(link.url).hostname or "").lower()) for link in links]
        g = self.gazetteer
        assert g is not None
        if self.policy == "url":
            return [plan.node_of(g.city_in_url(link.url)) for link in links]
        if self.policy == "anchor":
            return [plan.node_of(g.city_near_anchor(link.anchor, link.context)) for link in links]
        node = plan.node_of(self.page_city(page))
        return [node] * len(links)
