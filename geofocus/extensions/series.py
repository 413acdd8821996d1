"""The crawl's time series and its closing summary.

Every ``GEOFOCUS_SERIES_EVERY`` fetched pages, one JSON line is appended to
``RUN_DIR/series.jsonl``: {"fetched", "relevant", "harvest_rate", "frontier_size",
"pages_per_second", "time"}; the counts are the crawl loop's stats (``geofocus/fetched``,
``geofocus/relevant``, ``geofocus/frontier/size``), pages per second is measured over the
interval since the previous line. When the spider closes, one summary line is logged: pages,
relevant pages, harvest rate, distinct addresses, where the outputs are.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from geofocus import defaults
from geofocus import signals as geo_signals
from geofocus.metrics.addresses import AddressKey, address_key
from geofocus.rundir import get_run_dir

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

SERIES_FILE = "series.jsonl"


class CrawlSeries:
    """Scrapy extension; switched off (NotConfigured) when GEOFOCUS_SERIES_EVERY is 0."""

    def __init__(self, crawler: Crawler, every: int):
        self.crawler = crawler
        self.every = every
        self.next_mark = every
        self.addresses: set[AddressKey] = set()
        self.run_dir: Path | None = None
        self.last_time = time.time()
        self.last_fetched = 0
        self.lines = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlSeries:
        every = crawler.settings.getint("GEOFOCUS_SERIES_EVERY", defaults.GEOFOCUS_SERIES_EVERY)
        if every <= 0:
            raise NotConfigured("GEOFOCUS_SERIES_EVERY is 0: no crawl series")
        ext = cls(crawler, every)
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        crawler.signals.connect(ext.item_scraped, signals.item_scraped)
        # Counts move when a page has been evaluated; checking on every response and item
        # writes each line at most one page late, without a timer.
        crawler.signals.connect(ext.check, signals.response_received)
        crawler.signals.connect(ext.page_evaluated, geo_signals.page_evaluated)
        return ext

    # -- counts ----------------------------------------------------------------------------

    def _stat(self, key: str) -> Any:
        return self.crawler.stats.get_value(key) if self.crawler.stats else None

    def _counts(self) -> tuple[int, int]:
        fetched = self._stat("geofocus/fetched") or 0
        relevant = self._stat("geofocus/relevant") or 0
        return int(fetched), int(relevant)

    def _add_addresses(self, addresses: Any) -> None:
        for address in addresses or ():
            if isinstance(address, dict):
                self.addresses.add(address_key(address))

    # -- signal handlers -------------------------------------------------------------------

    def spider_opened(self, spider: Spider) -> None:
        self.run_dir = get_run_dir(self.crawler)
        self.last_time = time.time()
        # A resumed crawl continues its counts; the series continues after its last mark.
        self.last_fetched, _ = self._counts()
        self.next_mark = (self.last_fetched // self.every + 1) * self.every

    def item_scraped(self, item: Any, response: Any = None, spider: Any = None) -> None:
        try:
            addresses = item.get("addresses") if hasattr(item, "get") else None
            if addresses is None:
                addresses = getattr(item, "addresses", None)
        except Exception:  # an item type we do not know: it only misses the address count
            addresses = None
        self._add_addresses(addresses)
        self.check()

    def page_evaluated(self, response: Any = None, relevant: Any = None, addresses: Any = None,
                       spider: Any = None) -> None:
        self._add_addresses(addresses)
        self.check()

    def check(self, *args: Any, **kwargs: Any) -> None:
        fetched, relevant = self._counts()
        if fetched >= self.next_mark:
            self._write(fetched, relevant)
            self.next_mark = (fetched // self.every + 1) * self.every

    def _write(self, fetched: int, relevant: int) -> None:
        if self.run_dir is None:
            return
        now = time.time()
        elapsed = now - self.last_time
        pps = (fetched - self.last_fetched) / elapsed if elapsed > 0 else None
        frontier = self._stat("geofocus/frontier/size")
        line = {
            "fetched": fetched,
            "relevant": relevant,
            "harvest_rate": relevant / fetched if fetched else 0.0,
            "frontier_size": frontier if isinstance(frontier, (int, float)) else None,
            "pages_per_second": round(pps, 3) if pps is not None else None,
            "time": round(now, 3),
        }
        try:
            with (self.run_dir / SERIES_FILE).open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(line) + "\n")
        except OSError as exc:
            logger.warning("Cannot append to %(path)s: %(error)s",
                           {"path": self.run_dir / SERIES_FILE, "error": exc})
            return
        self.lines += 1
        self.last_time, self.last_fetched = now, fetched

    def spider_closed(self, spider: Spider, reason: str = "") -> None:
        self.check()
        fetched, relevant = self._counts()
        run_dir = self.run_dir
        outputs = []
        if run_dir is not None:
            outputs = [str(run_dir)]
        for uri in (self.crawler.settings.getdict("FEEDS") or {}):
            outputs.append(str(uri))
        rate = 100.0 * relevant / fetched if fetched else 0.0
        live_report = self.crawler.settings.getbool("GEOFOCUS_LIVE_REPORT", defaults.GEOFOCUS_LIVE_REPORT)
        logger.info(
            "Crawl finished (%(reason)s): %(fetched)d pages, %(relevant)d relevant "
            "(harvest rate %(rate).1f %%), %(addresses)d distinct addresses; outputs: "
            "%(outputs)s" + ("; report: %(run_dir)s/report/index.html" if fetched and live_report else ""),
            {"reason": reason or "finished", "fetched": fetched, "relevant": relevant,
             "rate": rate, "addresses": len(self.addresses),
             "outputs": ", ".join(outputs) or "none", "run_dir": run_dir or "RUN_DIR"},
            extra={"spider": spider},
        )
