"""The progress line, every ``GEOFOCUS_PROGRESS_INTERVAL`` seconds (10)::

    Progress: 1200 pages (+130 in 10 s: 13.0 pages/s), 57 relevant (harvest rate 4.8 %),
    budget 40 % of 3000 (ETA 2 min 20 s), frontier 8410 queued, 32 in flight

Counts are the crawl's (``geofocus/fetched`` and ``geofocus/relevant``, which a resumed crawl
continues); rates are measured within this run only, so a resume does not show the pages of
the earlier runs as fetched in the first interval.  The budget fraction and the ETA appear
when ``GEOFOCUS_MAX_PAGES`` is set; the ETA uses this run's mean rate.  It replaces Scrapy's
LogStats (pages/min of every response, robots.txt included, once a minute).
"""

from __future__ import annotations

import logging
import os
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import task

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


def duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


class GeoLogStats:
    def __init__(self, crawler: Crawler, interval: float):
        self.crawler = crawler
        self.interval = interval
        self.max_pages = crawler.settings.getint("GEOFOCUS_MAX_PAGES")
        self.task: task.LoopingCall | None = None
        self.started = time.monotonic()
        self.start_fetched = 0
        self.last_time = self.started
        self.last_fetched = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GeoLogStats:
        interval = crawler.settings.getfloat("GEOFOCUS_PROGRESS_INTERVAL")
        if interval <= 0:
            raise NotConfigured("GEOFOCUS_PROGRESS_INTERVAL is 0")
        ext = cls(crawler, interval)
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        return ext

    def _stat(self, key: str) -> int:
        value = self.crawler.stats.get_value(key, 0) if self.crawler.stats else 0
        return int(value or 0)

    def spider_opened(self, spider: Spider) -> None:
        # Runs after the scheduler restored a resumed crawl's counts.
        self.started = self.last_time = time.monotonic()
        self.start_fetched = self.last_fetched = self._stat("geofocus/fetched")
        self.task = task.LoopingCall(self.log)
        self.task.start(self.interval, now=False)

    def spider_closed(self, spider: Spider, reason: str = "") -> None:
        if self.task is not None and self.task.running:
            self.task.stop()

    def figures(self) -> dict[str, Any]:
        now = time.monotonic()
        fetched = self._stat("geofocus/fetched")
        relevant = self._stat("geofocus/relevant")
        interval = max(now - self.last_time, 1e-9)
        run_rate = (fetched - self.start_fetched) / max(now - self.started, 1e-9)
        engine = getattr(self.crawler, "engine", None)
        in_flight = len(getattr(getattr(engine, "downloader", None), "active", ()) or ())
        figures: dict[str, Any] = {
            "fetched": fetched,
            "new": fetched - self.last_fetched,
            "seconds": now - self.last_time,
            "rate": (fetched - self.last_fetched) / interval,
            "run_rate": run_rate,
            "relevant": relevant,
            "harvest": 100.0 * relevant / fetched if fetched else 0.0,
            "frontier": self._stat("geofocus/frontier/size"),
            "in_flight": in_flight,
            "budget": None,
            "eta": None,
        }
        if self.max_pages > 0:
            figures["budget"] = min(1.0, fetched / self.max_pages)
            remaining = max(0, self.max_pages - fetched)
            figures["eta"] = remaining / run_rate if run_rate > 0 else None
        self.last_time, self.last_fetched = now, fetched
        return figures

    def log(self) -> None:
        f = self.figures()
        budget = ""
        if f["budget"] is not None:
            eta = duration(f["eta"]) if f["eta"] is not None else "unknown"
            budget = f", budget {100 * f['budget']:.0f} % of {self.max_pages} (ETA {eta})"
        waiting = ""
        if f["fetched"] == 0 and f["in_flight"]:
            proxy = os.environ.get("http_proxy") or os.environ.get("HTTP_PROXY")
            waiting = "; waiting for the first answer" + (f" through the proxy {proxy}" if proxy else "") + \
                f" (requests time out after DOWNLOAD_TIMEOUT={self.crawler.settings.getint('DOWNLOAD_TIMEOUT')} s)"
        logger.info(
            "Progress: %(fetched)d pages (+%(new)d in %(secs)s: %(rate).1f pages/s), %(relevant)d relevant "
            "(harvest rate %(harvest).1f %%)%(budget)s, frontier %(frontier)d queued, "
            "%(in_flight)d in flight%(waiting)s",
            {**f, "secs": duration(f["seconds"]), "budget": budget, "waiting": waiting},
        )
