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

from geofocus.context import crawl_context
from geofocus.pagemeta import PageMeta
from geofocus.strategies import bfs_priority, decay_score

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response


def link_priority_bound(parent: PageMeta, strategy: str, decay: float) -> float:
    """The priority every link of page ``parent`` gets (``bfs``, ``distance``), or at most gets
    (``adaptive``, where the prediction raises the score up to 1): what a link must beat to be
    worth queuing again."""
    if strategy == "bfs":
        return bfs_priority(parent.seed_distance + 1)
    if strategy == "distance":
        return decay_score(parent.page_distance + 1, decay)
    return 1.0


def link_values(parent: PageMeta, strategy: str, decay: float) -> tuple[int, int, float, float]:
    """(dist, seed_dist, score, priority) of every link of page ``parent``: what
    :class:`BridgeDistanceMiddleware` writes into each link's page state."""
    dist = parent.page_distance + 1
    seed_dist = parent.seed_distance + 1
    score = decay_score(dist, decay)
    return dist, seed_dist, score, bfs_priority(seed_dist) if strategy == "bfs" else score


class BridgeDistanceMiddleware:
    """Writes dist, seed_dist, score, parent and (``bfs``, ``distance``) priority of every outgoing link."""

    def __init__(self, crawler: Crawler, decay: float, strategy: str):
        self.crawler = crawler
        if not 0 < decay <= 1:
            # Never NotConfigured: a crawl without its decay would run without focus, silently.
            # scrapy crawl checks the setting first (geofocus/settingscheck.py); this is for other callers.
            raise ValueError(f"GEOFOCUS_DECAY must be in (0, 1], got {decay}")
        self.decay = decay
        self.strategy = strategy

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BridgeDistanceMiddleware:
        context = crawl_context(crawler)
        return cls(crawler, context.decay, context.strategy)

    def link_values(self, parent: PageMeta) -> tuple[int, int, float, float]:
        """(dist, seed_dist, score, priority) of every link of page ``parent``."""
        return link_values(parent, self.strategy, self.decay)

    def annotate(self, request: Request, parent: PageMeta, parent_url: str,
                 values: tuple[int, int, float, float] | None = None) -> None:
        page = PageMeta.of(request)
        if page is None or page.score is not None:  # not ours, or a seed / redirect that carries its own
            return
        page.dist, page.seed_dist, page.score, page.priority = values or self.link_values(parent)
        page.parent = parent_url

    def process_spider_output(
        self, response: Response, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        parent = PageMeta.of(response) or PageMeta()
        values = self.link_values(parent)  # the same for every link of the page
        url = response.url
        for item in result:
            if isinstance(item, Request):
                self.annotate(item, parent, url, values)
            yield item

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        parent = PageMeta.of(response) or PageMeta()
        values = self.link_values(parent)  # the same for every link of the page
        url = response.url
        async for item in result:
            if isinstance(item, Request):
                self.annotate(item, parent, url, values)
            yield item
