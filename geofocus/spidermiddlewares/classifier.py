"""Strategy ``classifier``: link selection by an SVM on the link's text and maps on its parent.

Thin Scrapy adapter around :mod:`geofocus.classifier` (order 560: after the
decay and prediction middlewares have annotated a page's links, before the
geo evaluation).  Active only when the spider's strategy is ``classifier``.

For every fetched page:

1. its images are found (``<img>`` with a declared size of at least 100 x 50
   px or none declared, at most ``GEOFOCUS_IMAGE_MAX_PER_PAGE``) and map embeds
   are recognised from their iframe URLs (score_V = 1 at once, nothing
   fetched).  Images are downloaded through Scrapy's downloader
   (``engine.download_async``: downloader middlewares, robots.txt, the private
   address filter, ``download_maxsize`` = ``GEOFOCUS_IMAGE_MAX_BYTES``), never
   through the frontier or the spider middlewares: they are not pages, are
   never geoparsed and never counted as fetched pages or finds (stats
   ``geofocus/images/*``).  Each is decoded and classified in a thread;
   a URL seen before reuses its score (logos repeat on every page of a site).
2. each link gets score_T (``score_t`` of its page state) and the policy's
   decision with what is known of score_V so far: SELECT (queued, priority
   f = a1 * score_T + a2 * score_V), EXPLORE (queued with ``explore`` = its
   depth in the trail) or DROP (not queued).  A link that only a map on its
   parent could let through is *held* until the parent's images are
   classified.
3. once the page's links and images are all in, score_V = max over its
   images: held links that now pass are queued, and links queued on text
   alone are queued again with their better priority (the frontier moves them
   up: ``geofocus/frontier/reprioritised``).  One line per page goes to
   ``RUN_DIR/classifier.jsonl``.

A page reached by exploration (``explore`` >= 1) is fetched and its links
classified, but its item is dropped (not a find; stat
``geofocus/classifier/exploration_pages``).  Held links live in memory: a
crash loses the held links of pages whose images were still downloading.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import urljoin

from scrapy import Request, signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.http import TextResponse
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import deferred_from_coro
from twisted.internet import threads

from geofocus.classifier.config import ClassifierConfig, load_config
from geofocus.classifier.image import MIN_HEIGHT, MIN_WIDTH, ImageRejected, is_map_embed
from geofocus.classifier.policy import DROP, EXPLORE, MAP_THRESHOLD
from geofocus.context import crawl_context
from geofocus.downloadermiddlewares.contenttype import content_type_of
from geofocus.items import PageItem
from geofocus.pagemeta import IMAGE_META, META_KEY, PageMeta
from geofocus.rundir import get_run_dir
from geofocus.urlnorm import InvalidURL, canonical_url

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.python.failure import Failure

logger = logging.getLogger(__name__)

LOG_FILE = "classifier.jsonl"
#: How many image scores are remembered by URL.
IMAGE_CACHE = 50_000
#: Pages whose images are still being classified, at most; beyond, pages are decided on text alone.
MAX_OPEN_PAGES = 2_000


def _declared(value: str | None) -> int | None:
    try:
        return int(str(value).strip().rstrip("px")) if value else None
    except ValueError:
        return None


def page_images(response: TextResponse, limit: int) -> tuple[list[str], int]:
    """(image URLs to classify, number of map embeds) of a page."""
    urls: list[str] = []
    embeds = 0
    for src in response.xpath("//iframe/@src").getall():
        if is_map_embed(urljoin(response.url, src.strip())):
            embeds += 1
    for img in response.xpath("//img[@src]"):
        if len(urls) >= limit:
            break
        width, height = _declared(img.attrib.get("width")), _declared(img.attrib.get("height"))
        if (width is not None and width < MIN_WIDTH) or (height is not None and height < MIN_HEIGHT):
            continue  # an icon by its own account: not worth a request
        src = img.attrib["src"].strip()
        if not src or src.startswith("data:"):
            continue
        try:
            url = canonical_url(urljoin(response.url, src))
        except (InvalidURL, ValueError):
            continue
        if url.startswith(("http://", "https://")) and url not in urls:
            urls.append(url)
    return urls, embeds


@dataclass
class PageState:
    """A fetched page whose links wait for its images."""

    url: str
    trail: int
    relevant: bool
    score_t: float | None
    score_v: float = 0.0
    pending: int = 0
    images: int = 0
    embeds: int = 0
    output_done: bool = False
    finished: bool = False
    counted_open: bool = False
    held: list[Request] = field(default_factory=list)
    queued: list[Request] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=lambda: {"select": 0, "explore": 0, "drop": 0, "held": 0})


class ClassifierMiddleware:
    def __init__(self, crawler: Crawler, config: ClassifierConfig):
        self.crawler = crawler
        self.stats = crawler.stats
        self.config = config
        self.policy = config.policy
        self.text = config.text
        self.image = config.image
        self._image_scores: OrderedDict[str, float | None] = OrderedDict()
        self._waiting: dict[str, list[PageState]] = {}
        self._open_pages = 0
        self._log: IO[str] | None = None
        self._errors_logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ClassifierMiddleware:
        if crawl_context(crawler).strategy != "classifier":
            raise NotConfigured  # no message: Scrapy logs disabled components with one at WARNING
        # `scrapy crawl` checked this already (one line, exit 2); elsewhere a bad setting stops here.
        config = load_config(crawler.settings)
        mw = cls(crawler, config)
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(mw.spider_idle, signal=signals.spider_idle)
        logger.info(
            "classifier strategy: selection %s, exploration %s, t1=%s t2=%s t3=%s k=%s, link SVM of %d terms%s",
            config.policy.selection, config.policy.exploration, config.policy.t1, config.policy.t2,
            config.policy.t3, config.policy.skip_k, len(config.text.vocabulary),
            ", map classifier on" if config.image else "",
        )
        return mw

    def spider_opened(self, spider: Spider) -> None:
        self._log = open(get_run_dir(self.crawler) / LOG_FILE, "a", encoding="utf-8", buffering=1)

    def spider_idle(self, spider: Spider) -> None:
        # Images still being classified may release held links: the crawl is not over yet.
        if self._waiting:
            raise DontCloseSpider

    def spider_closed(self, spider: Spider, reason: str = "") -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    # -- input: what a page is ------------------------------------------------------

    def process_spider_input(self, response: Response, spider: Spider | None = None) -> None:
        page = PageMeta.of(response)
        if page is None:
            return
        self.stats.inc_value("geofocus/classifier/pages")
        if int(page.explore or 0) > 0:
            self.stats.inc_value("geofocus/classifier/exploration_pages")
            if page.relevant:
                self.stats.inc_value("geofocus/classifier/exploration_relevant")
        elif page.relevant:
            self.stats.inc_value("geofocus/classifier/finds")

    # -- output: the page's links -----------------------------------------------------

    def process_spider_output(self, response: Response, result: Iterable[Any],
                              spider: Spider | None = None) -> Iterator[Any]:
        if not self._evaluated(response):
            yield from result  # an error page's errback: no links, no log line
            return
        state = self._open(response)
        for item in result:
            out = self._route(item, state)
            if out is not None:
                yield out
        self._output_done(state)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        if not self._evaluated(response):
            async for item in result:
                yield item
            return
        state = self._open(response)
        async for item in result:
            out = self._route(item, state)
            if out is not None:
                yield out
        self._output_done(state)

    @staticmethod
    def _evaluated(response: Response) -> bool:
        page = PageMeta.of(response)
        return page is not None and page.evaluated

    def _open(self, response: Response) -> PageState:
        page = PageMeta.of(response) or PageMeta()
        state = PageState(response.url, int(page.explore or 0), bool(page.relevant), page.score_t)
        if self.image is not None and isinstance(response, TextResponse) and self._open_pages < MAX_OPEN_PAGES:
            try:
                urls, state.embeds = page_images(response, self.config.max_images)
            except Exception:  # lxml on a hopeless body: no images, not a crash
                urls, state.embeds = [], 0
            state.images = len(urls)
            if state.embeds:
                self.stats.inc_value("geofocus/images/embeds", state.embeds)
                state.score_v = 1.0
            else:
                for url in urls:
                    self._want_image(url, state)
        elif self.image is not None and self._open_pages >= MAX_OPEN_PAGES:
            self.stats.inc_value("geofocus/images/skipped/busy")
        if state.pending:
            state.counted_open = True
            self._open_pages += 1
        return state

    def _route(self, item: Any, state: PageState) -> Any:
        if isinstance(item, PageItem) and state.trail > 0:
            self.stats.inc_value("geofocus/classifier/exploration_items_dropped")
            return None
        if not isinstance(item, Request):
            return item
        link_page = PageMeta.of(item)
        if link_page is None or not isinstance(link_page.link, dict):
            return item
        score_t = self.text.score(link_page.link)
        link_page.score_t = round(score_t, 4)
        decision = self.policy.decide(score_t, state.score_v, state.trail)
        if decision == DROP:
            if state.pending and self.policy.could_pass_with_map(score_t, state.trail):
                state.held.append(item)
                state.counts["held"] += 1
                return None
            state.counts["drop"] += 1
            self.stats.inc_value("geofocus/classifier/links/dropped")
            return None
        self._annotate(link_page, score_t, state, decision)
        state.counts[decision] += 1
        self.stats.inc_value(f"geofocus/classifier/links/{'explored' if decision == EXPLORE else 'selected'}")
        if state.pending:
            state.queued.append(item)
        return item

    def _annotate(self, link_page: PageMeta, score_t: float, state: PageState, decision: str) -> None:
        link_page.score_v = round(state.score_v, 4)
        link_page.priority = self.policy.fusion(score_t, state.score_v)
        link_page.explore = state.trail + 1 if decision == EXPLORE else 0

    def _output_done(self, state: PageState) -> None:
        state.output_done = True
        self._maybe_finish(state)

    def _maybe_finish(self, state: PageState) -> None:
        if state.finished or not state.output_done or state.pending:
            return
        state.finished = True
        if state.counted_open:
            self._open_pages -= 1
        if state.score_v >= MAP_THRESHOLD:
            self.stats.inc_value("geofocus/classifier/pages_with_map")
        released = raised = 0
        for request in state.held:
            held = PageMeta.ensure(request)
            assert held.score_t is not None  # set by _route before a link is held
            decision = self.policy.decide(held.score_t, state.score_v, state.trail)
            if decision == DROP:
                state.counts["drop"] += 1
                self.stats.inc_value("geofocus/classifier/links/dropped")
                continue
            self._annotate(held, held.score_t, state, decision)
            state.counts[decision] += 1
            self.stats.inc_value(f"geofocus/classifier/links/{'explored' if decision == EXPLORE else 'selected'}")
            released += self._crawl(request)
        if state.score_v > 0:
            for request in state.queued:
                old = PageMeta.ensure(request)
                assert old.score_t is not None  # set by _route before a link is queued
                decision = self.policy.decide(old.score_t, state.score_v, state.trail)
                new = replace(old, extra=dict(old.extra))  # the queued request keeps its own state
                self._annotate(new, old.score_t, state, decision)
                if (new.priority or 0) > (old.priority or 0) or (new.explore or 0) < (old.explore or 0):
                    raised += self._crawl(request.replace(meta={**request.meta, META_KEY: new}))
        if released:
            self.stats.inc_value("geofocus/classifier/links/released_by_map", released)
        if raised:
            self.stats.inc_value("geofocus/classifier/links/requeued_by_map", raised)
        state.held = []
        state.queued = []
        self._write_log(state)

    def _crawl(self, request: Request) -> int:
        engine = self.crawler.engine
        if engine is None or engine.spider is None:
            return 0
        try:
            engine.crawl(request)
        except RuntimeError:  # the spider is closing
            return 0
        return 1

    def _write_log(self, state: PageState) -> None:
        if self._log is None:
            return
        self._log.write(
            json.dumps(
                {
                    "url": state.url,
                    "explore": state.trail,
                    "relevant": state.relevant,
                    "score_t": state.score_t,
                    "score_v": round(state.score_v, 4),
                    "images": state.images,
                    "embeds": state.embeds,
                    "links": state.counts,
                }
            )
            + "\n"
        )

    # -- images ------------------------------------------------------------------------

    def _want_image(self, url: str, state: PageState) -> None:
        if url in self._image_scores:
            score = self._image_scores[url]
            self._image_scores.move_to_end(url)
            self.stats.inc_value("geofocus/images/cached")
            if score is not None:
                state.score_v = max(state.score_v, score)
            return
        state.pending += 1
        waiting = self._waiting.get(url)
        if waiting is not None:
            waiting.append(state)
            return
        self._waiting[url] = [state]
        request = Request(
            url,
            callback=NO_CALLBACK,
            dont_filter=True,
            meta={IMAGE_META: True, "download_maxsize": self.config.max_image_bytes, "dont_retry": True},
        )
        self.stats.inc_value("geofocus/images/requested")
        engine = self.crawler.engine
        if engine is None or engine.spider is None:
            self._image_done(url, None, "closing")
            return
        d = deferred_from_coro(engine.download_async(request))
        d.addCallbacks(self._downloaded, self._download_failed, callbackArgs=(url,), errbackArgs=(url,))
        d.addErrback(self._unexpected, url)

    def _downloaded(self, response: Response, url: str) -> Any:
        self.stats.inc_value("geofocus/images/fetched")
        self.stats.inc_value("geofocus/images/bytes", len(response.body))
        ctype = content_type_of(response.headers) or ""
        if response.status != 200:
            return self._image_done(url, None, f"status_{response.status}")
        if not ctype.startswith("image/"):
            return self._image_done(url, None, "content_type")
        if len(response.body) > self.config.max_image_bytes:
            return self._image_done(url, None, "too_large")
        assert self.image is not None
        d = threads.deferToThread(self.image.score_bytes, response.body)
        d.addCallbacks(self._classified, self._rejected, callbackArgs=(url,), errbackArgs=(url,))
        return d

    def _classified(self, probability: float, url: str) -> None:
        self.stats.inc_value("geofocus/images/classified")
        if probability >= MAP_THRESHOLD:
            self.stats.inc_value("geofocus/images/maps")
        self._image_done(url, probability, None)

    def _rejected(self, failure: Failure, url: str) -> None:
        if failure.check(ImageRejected):
            self._image_done(url, None, failure.value.reason)
        else:
            self._log_once("error", "classifying image %s failed: %s", url, failure.getErrorMessage())
            self._image_done(url, None, "error")

    def _download_failed(self, failure: Failure, url: str) -> None:
        exc = failure.value
        message = str(exc).lower()
        if "max size" in message or "maxsize" in message:  # Scrapy cancelled it at download_maxsize
            reason = "too_large"
        else:
            reason = f"failed/{type(exc).__name__}"
        self._image_done(url, None, reason)

    def _unexpected(self, failure: Failure, url: str) -> None:
        self._log_once("unexpected", "image %s: %s", url, failure.getErrorMessage())

    def _log_once(self, key: str, message: str, *args: Any) -> None:
        self.stats.inc_value(f"geofocus/images/errors/{key}")
        if key not in self._errors_logged:
            self._errors_logged.add(key)
            logger.warning(message + " (no more such messages will be shown)", *args)

    def _image_done(self, url: str, score: float | None, skipped: str | None) -> None:
        if skipped is not None:
            self.stats.inc_value("geofocus/images/skipped")
            self.stats.inc_value(f"geofocus/images/skipped/{skipped}")
        self._image_scores[url] = score
        if len(self._image_scores) > IMAGE_CACHE:
            self._image_scores.popitem(last=False)
        for state in self._waiting.pop(url, []):
            state.pending -= 1
            if score is not None:
                state.score_v = max(state.score_v, score)
            self._maybe_finish(state)
