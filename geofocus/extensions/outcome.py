"""The crawl's verdict: did it fetch anything, and if not, why.

A crawl that fetched no page, or whose seeds all failed, is not a success: ``scrapy crawl``
exits with 1 and prints one line saying why (DNS failure, proxy refused, timeouts, all seeds
filtered, robots.txt disallowing them).  The verdict is left on the crawler as
``crawler.geofocus_outcome`` for the crawl command (geofocus/commands/crawl.py).

It also keeps the default log free of tracebacks for ordinary network failures: Scrapy's
robots.txt middleware logs them with a traceback; below DEBUG only its one line is kept.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.exceptions import IgnoreRequest

from geofocus import signals as geo_signals
from geofocus.context import crawl_context
from geofocus.pagemeta import PageMeta

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from twisted.python.failure import Failure

logger = logging.getLogger(__name__)


@dataclass
class Outcome:
    code: int
    message: str


class _NoTraceback(logging.Filter):
    """Keeps the message, drops the traceback (the failure is explained by the outcome)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True


def explain(failure: Failure, request: Request, proxy: str | None) -> str:
    """A failure as a few words a user understands."""
    exc = failure.value
    name = type(exc).__name__
    host = urlsplit(request.url).hostname or request.url
    via = f"the proxy {proxy}" if proxy else host
    if isinstance(exc, IgnoreRequest):
        text = str(exc)
        if "robots.txt" in text:
            return "robots.txt disallows them"
        if text.startswith("geofocus filter "):
            return "filtered (" + text[len("geofocus filter "):].split(":", 1)[0] + ")"
        return f"ignored ({text or name})"
    if "DNS" in name or "Resolve" in name:
        return f"DNS lookup failed for {host} (no network, or no such host)"
    if "Refused" in name:
        return f"connection refused by {via}"
    if "Timeout" in name or "TimedOut" in name or name == "ResponseNeverReceived":
        return f"no answer from {via} within DOWNLOAD_TIMEOUT"
    if name == "HttpError":
        response = getattr(exc, "response", None)
        return f"HTTP {getattr(response, 'status', '?')}"
    if name in ("ConnectError", "ConnectionLost", "TunnelError"):
        return f"cannot connect to {via} ({exc})"
    return f"{name}: {exc}"


class CrawlOutcome:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.evaluated = 0
        self.seed_failures: Counter[str] = Counter()
        self.seeds_requested = 0
        self.failures: Counter[str] = Counter()
        self.budget_done_at_start = False
        crawler.geofocus_outcome = None  # type: ignore[attr-defined]
        if crawler.settings.get("LOG_LEVEL") != "DEBUG":
            for name in ("scrapy.downloadermiddlewares.robotstxt", "scrapy.core.scraper"):
                logging.getLogger(name).addFilter(_NoTraceback())

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlOutcome:
        ext = cls(crawler)
        crawler.signals.connect(ext.page_evaluated, geo_signals.page_evaluated)
        crawler.signals.connect(ext.request_failed, geo_signals.request_failed)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        return ext

    def page_evaluated(self, **kwargs: Any) -> None:
        self.evaluated += 1

    def request_failed(self, request: Request, failure: Failure, spider: Spider | None = None) -> None:
        proxy = request.meta.get("proxy")
        why = explain(failure, request, proxy)
        self.failures[why] += 1
        page = PageMeta.of(request)
        if page is not None and page.seed:
            self.seed_failures[why] += 1

    def spider_closed(self, spider: Spider, reason: str) -> None:
        self.crawler.geofocus_outcome = self.verdict(spider, reason)  # type: ignore[attr-defined]

    def verdict(self, spider: Spider, reason: str) -> Outcome | None:
        stats = self.crawler.stats
        total = int(stats.get_value("geofocus/fetched", 0) or 0) if stats else 0
        if reason == "budget_reached" and self.evaluated == 0:
            return Outcome(0, f"the page budget is used up: {total} pages of GEOFOCUS_MAX_PAGES="
                              f"{self.crawler.settings.getint('GEOFOCUS_MAX_PAGES')} already fetched; "
                              "raise it to continue this crawl")
        if self.evaluated or reason not in ("finished", "budget_reached"):
            return None
        seeds = crawl_context(self.crawler).seeds
        if self.seed_failures:
            why = "; ".join(f"{n} {w}" if n > 1 else w for w, n in self.seed_failures.most_common(3))
            all_of = "the seed" if len(seeds) == 1 else f"all {len(seeds)} seeds"
            return Outcome(1, f"no page fetched: {all_of} failed: {why}")
        if self.failures:
            why = "; ".join(f"{n}x {w}" for w, n in self.failures.most_common(3))
            return Outcome(1, f"no page fetched: every request failed: {why}")
        if total:
            return Outcome(0, f"no page fetched in this run: nothing left in the frontier "
                              f"({total} pages fetched before)")
        return Outcome(1, "no page fetched: no request was answered with a page")
