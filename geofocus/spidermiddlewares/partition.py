"""Sets the ``node`` of outgoing requests' page state: which collaborating node fetches them.

The Redis frontier queues each request for its node; this worker pops from
the queue of ``GEOFOCUS_NODE``.  Counts URLs kept (``geofocus/partition/kept``)
and sent to other nodes (``geofocus/partition/sent/<node>``, the paper's
communication overhead = sent / pages).  Off unless ``GEOFOCUS_PARTITION`` or
``GEOFOCUS_NODE`` is set; the default policy is ``host`` for a one-city region
and ``content`` for a region set.  Every node of the plan needs a worker, or
the URLs sent to it wait in its queue (``scrapy crawl-admin status`` shows them).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from typing import Any

from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse

from geofocus.context import crawl_context
from geofocus.pagemeta import PageMeta
from geofocus.partition import (
    POLICIES,
    CityMentions,
    GeoIPTable,
    Link,
    Page,
    Partitioner,
    PartitionError,
    plan_for_region,
)

logger = logging.getLogger(__name__)


class PartitionMiddleware:
    def __init__(self, crawler: Any, policy: str, node: str, nodes: str, geoip_db: str) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.policy = policy
        self.node = node
        self.nodes = nodes
        self.geoip_db = geoip_db
        self.partitioner: Partitioner | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> PartitionMiddleware:
        s = crawler.settings
        policy = (s.get("GEOFOCUS_PARTITION") or "").strip().lower()
        if not policy and not s.get("GEOFOCUS_NODE"):
            # without nodes every worker of a shared crawl serves the one queue
            raise NotConfigured  # not a collaborative crawl (no message: it would be a WARNING on every crawl)
        if policy and policy not in POLICIES:
            raise PartitionError(f"unknown GEOFOCUS_PARTITION {policy!r}; choose one of {', '.join(POLICIES)}")
        return cls(crawler, policy, s.get("GEOFOCUS_NODE") or "", s.get("GEOFOCUS_NODES") or "",
                   s.get("GEOFOCUS_GEOIP_DB") or "")

    def _setup(self) -> Partitioner:
        if self.partitioner is None:
            region = crawl_context(self.crawler).region
            if region is None:
                raise PartitionError("the partition middleware needs a spider with a region")
            plan = plan_for_region(region, self.nodes)
            policy = self.policy or ("host" if len(region.cities) <= 1 else "content")
            geoip = GeoIPTable(self.geoip_db) if policy == "ip" else None
            self.partitioner = Partitioner(policy, plan, CityMentions(region), geoip)
            if not self.node:
                self.node = plan.nodes[0]
            if self.node not in plan.nodes:
                logger.warning(
                    "Partition: this node %(node)r is not one of the plan's nodes %(nodes)s: it will "
                    "fetch only seeds; name it with GEOFOCUS_NODE or list the nodes in GEOFOCUS_NODES",
                    {"node": self.node, "nodes": ",".join(plan.nodes)})
            logger.info("Partition: policy %(policy)s, nodes %(nodes)s, this node %(node)s",
                        {"policy": policy, "nodes": ",".join(plan.nodes), "node": self.node})
        return self.partitioner

    async def process_spider_output_async(self, response: Response, result: AsyncIterator[Any],
                                          spider: Any) -> AsyncIterator[Any]:
        batch = []
        async for item in result:
            batch.append(item)
        for out in self._route(response, batch, spider):
            yield out

    def process_spider_output(self, response: Response, result: Iterable[Any], spider: Any) -> Iterable[Any]:
        return self._route(response, list(result), spider)

    def _route(self, response: Response, outputs: list[Any], spider: Any) -> Iterable[Any]:
        pages = [(o, p) for o in outputs if isinstance(o, Request)
                 for p in (PageMeta.ensure(o),) if not p.node]
        if pages:
            partitioner = self._setup()
            parent = PageMeta.of(response) or PageMeta()
            text = ""
            if isinstance(response, TextResponse) and partitioner.policy in ("content", "classification"):
                try:
                    text = " ".join(response.xpath("//body//text()").getall())
                except Exception:  # not HTML after all
                    text = response.text
            page = Page(response.url, text, str(response.ip_address) if response.ip_address else None,
                        list(parent.addresses or []))
            links = []
            for r, p in pages:
                link = p.link or {}
                links.append(Link(r.url, str(link.get("anchor") or ""), str(link.get("context") or "")))
            for (_r, p), node in zip(pages, partitioner.assign(page, links), strict=False):
                p.node = node
                if node == self.node:
                    self.stats.inc_value("geofocus/partition/kept")
                else:
                    self.stats.inc_value("geofocus/partition/sent")
                    self.stats.inc_value(f"geofocus/partition/sent/{node}")
        return outputs
