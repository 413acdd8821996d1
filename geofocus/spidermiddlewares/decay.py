"""Bridge-distance decay (Ahlers & Boll, section 4.1) for every outgoing link.

A link found on page P gets dist = P.dist + 1, where P.dist is 0 when P is a
seed or relevant; score = decay ** dist; seed_dist = P.seed_dist + 1.  The
priority is the score (strategies ``distance`` and ``adaptive``; the
prediction middleware raises it for ``adaptive``) or the breadth-first
priority by seed distance (``bfs``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy import Request

from geofocus.strategies import bfs_priority, decay_score, page_distance

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response


def link_priority_bound(parent: dict[str, Any], strategy: str, decay: float) -> float:
    """The priority every link of page ``parent`` gets (``bfs``, ``distance``), or at most gets
    (``adaptive``, where the prediction raises the score up to 1): what a link must beat to be
    worth queuing again."""
    if strategy == "bfs":
        return bfs_priority(int(parent.get("seed_dist", 0)) + 1)
    if strategy == "distance":
        return decay_score(page_distance(parent) + 1, decay)
    return 1.0


class BridgeDistanceMiddleware:
    def __init__(self, crawler: Crawler, decay: float, default_strategy: str):
        self.crawler = crawler
        if not 0 < decay <= 1:
            # Never NotConfigured: a crawl without its decay would run without focus, silently.
            # scrapy crawl checks the setting first (geofocus/settingscheck.py); this is for other callers.
            raise ValueError(f"GEOFOCUS_DECAY must be in (0, 1], got {decay}")
        self.decay = decay
        self.default_strategy = default_strategy

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BridgeDistanceMiddleware:
        return cls(crawler, crawler.settings.getfloat("GEOFOCUS_DECAY"), crawler.settings.get("GEOFOCUS_STRATEGY"))

    def annotate(self, request: Request, parent: dict[str, Any], parent_url: str, strategy: str) -> None:
        meta = request.meta.get("geofocus")
        if meta is None or "score" in meta:  # not ours, or a seed / redirect that carries its own
            return
        dist = page_distance(parent) + 1
        seed_dist = int(parent.get("seed_dist", 0)) + 1
        score = decay_score(dist, self.decay)
        meta.update(
            dist=dist,
            seed_dist=seed_dist,
            score=score,
            parent=parent_url,
            priority=bfs_priority(seed_dist) if strategy == "bfs" else score,
        )

    def _annotated(self, response: Response, result: Iterable[Any], spider: Spider) -> Iterator[Any]:
        parent = response.meta.get("geofocus") or {}
        strategy = getattr(spider, "strategy", self.default_strategy)
        for item in result:
            if isinstance(item, Request):
                self.annotate(item, parent, response.url, strategy)
            yield item

    def process_spider_output(self, response: Response, result: Iterable[Any], spider: Spider | None = None) -> Iterator[Any]:
        spider = spider or self.crawler.spider
        return self._annotated(response, result, spider)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        spider = spider or self.crawler.spider
        parent = response.meta.get("geofocus") or {}
        strategy = getattr(spider, "strategy", self.default_strategy)
        async for item in result:
            if isinstance(item, Request):
                self.annotate(item, parent, response.url, strategy)
            yield item
