"""Python's cyclic garbage collector, tuned for a crawl: freeze what start-up built, collect less often.

A crawl process holds a few hundred thousand objects built at start (Scrapy, Twisted, numpy,
the region's gazetteer, the link model) that live until it ends, and allocates many small
short-lived containers per page (Requests, page states, Deferreds, link dicts).  With
Python's defaults (a young collection every 700 net allocations, a full one scanning every
tracked object) the collector cost 0.9 ms of CPU per page of a ``distance`` crawl and
1.3 ms of an ``online`` one on the 100,000-page simweb (docs/performance.md, "Session 8").

When the spider opens this extension runs one full collection, then ``gc.freeze()``: the
objects that survive it move to the permanent generation, which no later collection scans.
It also raises the young generation's threshold to ``GEOFOCUS_GC_THRESHOLD`` allocations
(0: Python's own).  Reference counting still frees nearly everything a page allocates the
moment it is dropped. The threshold only sets how often the collector looks for cycles.
When the spider closes it restores the thresholds and unfreezes the objects it froze, so
that an in-process caller (a test, a script running several crawls) gets its process back.
``GEOFOCUS_GC_FREEZE = False`` turns both off.  No crawl decision depends on either.
"""

from __future__ import annotations

import gc
import logging
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured

from geofocus import defaults

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


class GcTuning:
    def __init__(self, stats: StatsCollector, threshold: int):
        self.stats = stats
        self.threshold = threshold
        self._previous: tuple[int, ...] | None = None
        self._froze = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GcTuning:
        settings = crawler.settings
        if not settings.getbool("GEOFOCUS_GC_FREEZE", defaults.GEOFOCUS_GC_FREEZE):
            raise NotConfigured("GEOFOCUS_GC_FREEZE is off")
        assert crawler.stats is not None
        ext = cls(crawler.stats, settings.getint("GEOFOCUS_GC_THRESHOLD", defaults.GEOFOCUS_GC_THRESHOLD))
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        gc.collect()
        if gc.get_freeze_count() == 0:  # another crawl in this process froze already: leave it to that one
            gc.freeze()
            self._froze = True
        self.stats.set_value("geofocus/gc/frozen_objects", gc.get_freeze_count())
        if self.threshold > 0:
            self._previous = gc.get_threshold()
            gc.set_threshold(max(self.threshold, self._previous[0]), *self._previous[1:])

    def spider_closed(self) -> None:
        if self._previous is not None:
            gc.set_threshold(*self._previous)
            self._previous = None
        if self._froze:
            gc.unfreeze()
            self._froze = False
