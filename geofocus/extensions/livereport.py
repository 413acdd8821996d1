"""The live view: ``RUN_DIR/report/index.html`` kept up to date while the crawl runs.

Every ``GEOFOCUS_LIVE_REPORT_PAGES`` pages or ``GEOFOCUS_LIVE_REPORT_INTERVAL`` seconds
(whichever comes first; both 0: only at the end) the report of the run directory is rebuilt
(`scrapy report`'s build, in a thread so that the reactor keeps crawling), with a page that
reloads itself; when the crawl stops, the final report replaces it.  ``GEOFOCUS_LIVE_REPORT``
False switches it off (the test suite does, through geofocus/offline_settings.py).  A failure to build is
logged once as a warning and never stops the crawl.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals
from twisted.internet import task, threads
from twisted.internet.defer import Deferred

from geofocus import signals as geo_signals
from geofocus.rundir import get_run_dir

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


def build(run_dir: Any, live: float) -> None:
    from geofocus.reporting import build_report

    build_report([run_dir], run_dir / "report", live=live)


class LiveReport:
    def __init__(self, crawler: Crawler, every_pages: int, interval: float):
        self.crawler = crawler
        self.every_pages = every_pages
        self.interval = interval
        self.building: Deferred | None = None
        self.pages_at_last = -1
        self.last = 0.0
        self.timer: task.LoopingCall | None = None
        self.warned = False
        self.builds = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LiveReport:
        ext = cls(crawler, crawler.settings.getint("GEOFOCUS_LIVE_REPORT_PAGES"),
                  crawler.settings.getfloat("GEOFOCUS_LIVE_REPORT_INTERVAL"))
        if not crawler.settings.getbool("GEOFOCUS_LIVE_REPORT"):  # off: inert, no "Disabled" warning
            return ext
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        crawler.signals.connect(ext.page_evaluated, geo_signals.page_evaluated)
        return ext

    def _fetched(self) -> int:
        return int(self.crawler.stats.get_value("geofocus/fetched", 0) or 0) if self.crawler.stats else 0

    @property
    def reload_seconds(self) -> float:
        return self.interval if self.interval > 0 else 10.0

    def spider_opened(self, spider: Spider) -> None:
        self.run_dir = get_run_dir(self.crawler)
        self.last = time.monotonic()
        self.pages_at_last = self._fetched()
        if self.interval > 0:
            self.timer = task.LoopingCall(self.maybe_build)
            self.timer.start(min(self.interval, 5.0), now=False)

    def page_evaluated(self, **kwargs: Any) -> None:
        if self.every_pages > 0 and self._fetched() - self.pages_at_last >= self.every_pages:
            self.start_build(live=True)

    def maybe_build(self) -> None:
        if self.interval > 0 and time.monotonic() - self.last >= self.interval:
            self.start_build(live=True)

    def start_build(self, live: bool) -> Deferred | None:
        if self.building is not None:
            return self.building
        fetched = self._fetched()
        if fetched == 0 or fetched == self.pages_at_last and live:
            self.last = time.monotonic()
            return None
        self.pages_at_last, self.last = fetched, time.monotonic()
        d = threads.deferToThread(build, self.run_dir, self.reload_seconds if live else 0)
        d.addCallbacks(self._built, self._failed)
        self.building = d
        return d

    def _built(self, _: Any) -> None:
        self.building = None
        self.builds += 1
        if self.builds == 1:
            every = f"{self.every_pages} pages or " if self.every_pages > 0 else ""
            logger.info("Live report: %(path)s (rebuilt every %(every)s%(secs)g s)",
                        {"path": self.run_dir / "report" / "index.html", "every": every, "secs": self.interval})

    def _failed(self, failure: Any) -> None:
        self.building = None
        if not self.warned:
            self.warned = True
            logger.warning("Cannot build the live report: %(error)s", {"error": failure.value})

    def spider_closed(self, spider: Spider, reason: str = "") -> Deferred | None:
        if self.timer is not None and self.timer.running:
            self.timer.stop()
        if self._fetched() == 0:
            return None
        previous = self.building
        final: Deferred[None] = Deferred()

        def run_final(_: Any = None) -> None:
            self.building = None
            self.pages_at_last = -1
            d = self.start_build(live=False)
            if d is None:
                final.callback(None)
            else:
                d.addBoth(lambda _: final.callback(None))

        if previous is not None:
            previous.addBoth(run_final)
        else:
            run_final()
        return final
