"""How long the reactor was held: the largest delay of a timer due every tenth of a second.

While one page's work (parsing, link extraction, scoring) holds the reactor thread, no download
moves and no other page is evaluated.  This extension keeps a tick on the reactor and records by
how much it came late: ``geofocus/reactor/max_lag_ms`` (the largest delay in the crawl) and
``geofocus/reactor/lags_over_1s`` (how many ticks came more than a second late), in the stats
and ``stats.json``.  A loaded machine that does not schedule the process delays the tick too, so
the figure is an upper bound of what the crawl itself held.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from scrapy import signals
from twisted.internet import task

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

TICK_SECONDS = 0.1


class ReactorLag:
    def __init__(self, stats: StatsCollector):
        self.stats = stats
        self.max_lag = 0.0
        self.last = 0.0
        self.loop: task.LoopingCall | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ReactorLag:
        assert crawler.stats is not None
        ext = cls(crawler.stats)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self.last = time.monotonic()
        self.loop = task.LoopingCall(self.tick)
        self.loop.start(TICK_SECONDS, now=False)

    def tick(self) -> None:
        now = time.monotonic()
        lag = max(0.0, now - self.last - TICK_SECONDS)
        self.last = now
        if lag > 1.0:
            self.stats.inc_value("geofocus/reactor/lags_over_1s")
        if lag > self.max_lag:
            self.max_lag = lag
            self.stats.set_value("geofocus/reactor/max_lag_ms", round(lag * 1000))

    def spider_closed(self) -> None:
        if self.loop is not None and self.loop.running:
            self.loop.stop()
        self.stats.set_value("geofocus/reactor/max_lag_ms", round(self.max_lag * 1000))
