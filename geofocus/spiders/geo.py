"""The ``geo`` spider: ``scrapy crawl geo -a region=NAME [-a seeds=...] [-a strategy=...]``.

It yields one item per relevant page and follows every link with its context.
Relevance comes from the geo evaluation middleware, priorities from the
decay and prediction middlewares; the spider itself only reads pages.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import scrapy
from scrapy.exceptions import UsageError
from scrapy.http import Response, TextResponse
from twisted.python.failure import Failure

from geofocus import signals as geo_signals
from geofocus.context import CrawlContext, set_crawl_context
from geofocus.items import PageItem
from geofocus.linkextract import iter_links, page_events
from geofocus.pagemeta import FINGERPRINT_META, META_KEY, PageMeta
from geofocus.regions import Region, RegionError, available_regions, load_region
from geofocus.scheduler import scheduler_of
from geofocus.seeds import SeedLineError, parse_seed_line
from geofocus.spidermiddlewares.decay import link_priority_bound
from geofocus.spidermiddlewares.prediction import link_scorer
from geofocus.strategies import check_strategy

logger = logging.getLogger(__name__)

#: Scrapy's Request meta key that skips ``safe_url_string`` (the scheduler does not store it).
VERBATIM = "verbatim_url"


class SeedError(UsageError):
    pass


def read_seeds(spec: str | None, region: Region, warn: bool = True) -> list[str]:
    """Seeds from a file (one URL per line, # comments), a comma-separated list,
    or, without either, the region pack's own ``seeds``.  Lines that are not http(s) URLs
    are skipped with a warning (logged only when ``warn``, so a second check is quiet)."""
    if spec:
        path = Path(spec)
        looks_like_url = "://" in spec or spec.startswith("www.")
        if path.is_file():
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        elif looks_like_url:
            lines = spec.split(",")
        else:
            raise SeedError(f"seeds file {spec!r} does not exist (pass a file or comma-separated URLs)")
    else:
        lines = list(region.raw.get("seeds", []))
    seeds: list[str] = []
    for line in lines:
        try:
            url = parse_seed_line(line)
        except SeedLineError as exc:
            if warn:
                logger.warning("Skipping seed %(line)r: %(reason)s", {"line": exc.line, "reason": exc.reason})
            continue
        if url is None:
            continue
        if url not in seeds:
            seeds.append(url)
    if not seeds:
        raise SeedError(
            ("no usable seeds in " + repr(spec) + ": give http(s) URLs, one per line or comma-separated"
             if spec and lines else "no seeds: pass -a seeds=FILE or -a seeds=URL,URL")
            + ("" if spec else f" (region {region.name!r} ships none)")
        )
    return seeds


class GeoSpider(scrapy.Spider):
    name = "geo"
    #: what this crawl is about (region, strategy, decay, seeds, run dir), set by from_crawler
    context: CrawlContext
    #: pages longer than this (GEOFOCUS_MAX_PARSE_BYTES) are not parsed
    max_parse_bytes: int
    #: the prediction middleware that scores links before their Requests exist (None: the chain does)
    _scorer: Any = None
    _scorer_checked = False

    def __init__(
        self, region: str | None = None, seeds: str | None = None, strategy: str | None = None, **kwargs: Any
    ):
        super().__init__(**kwargs)
        self.region_name = region
        self.seeds_spec = seeds
        self.strategy_arg = strategy

    @classmethod
    def check_arguments(
        cls, settings: Any, region: str | None = None, seeds: str | None = None, strategy: str | None = None,
        warn: bool = False, **_: Any
    ) -> tuple[Region, str, list[str]]:
        """The region, strategy and seeds the arguments name; UsageError saying what is wrong.

        There is no default region: a crawl of the wrong region finds nothing relevant, so
        ``-a region`` is required (a resumed run directory supplies its own)."""
        if not region:
            raise UsageError(
                "give the region: -a region=NAME (one of " + ", ".join(available_regions())
                + "; scrapy region list describes them)", print_help=False)
        try:
            loaded = load_region(region)
            chosen = check_strategy(strategy or settings.get("GEOFOCUS_STRATEGY"))
            if chosen == "classifier":  # its model files and thresholds, before the crawl starts
                from geofocus.classifier.config import check_settings as check_classifier

                check_classifier(settings)
            return loaded, chosen, read_seeds(seeds, loaded, warn=warn)
        except (RegionError, ValueError) as exc:
            raise UsageError(str(exc), print_help=False) from None

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> GeoSpider:
        """Checks the arguments and registers the crawl context every component reads."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        region, strategy, seeds = cls.check_arguments(
            crawler.settings, spider.region_name, spider.seeds_spec, spider.strategy_arg, warn=True
        )
        spider.context = set_crawl_context(crawler, CrawlContext.from_settings(
            crawler.settings, region=region, region_name=spider.region_name, strategy=strategy, seeds=seeds,
            resume_force=str(kwargs.get("resume") or "").lower() == "force",
        ))
        spider.max_parse_bytes = crawler.settings.getint("GEOFOCUS_MAX_PARSE_BYTES")
        return spider

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for url in self.context.seeds:
            yield scrapy.Request(url, callback=self.parse, errback=self.errback,
                                 meta={META_KEY: PageMeta.seed_page()})

    def parse(self, response: Response) -> Iterator[Any]:
        page = PageMeta.of(response) or PageMeta()
        if page.relevant:
            yield PageItem(
                url=response.url,
                addresses=page.addresses or [],
                priority=page.priority,
                score=page.score,
                prediction=page.prediction,
                dist=page.page_distance,
                seed_dist=page.seed_distance,
                depth=int(response.meta.get("depth", 0)),
                parent=page.parent,
                fetched_at=time.time(),
            )
        if not isinstance(response, TextResponse) or len(response.body) > self.max_parse_bytes:
            return
        try:
            root = response.selector.root
        except Exception as exc:  # parsel/lxml on a hopeless body
            logger.debug("Cannot parse %(url)s: %(error)r", {"url": response.url, "error": exc})
            return
        if not hasattr(root, "xpath"):
            return
        yield from self._follow(root, response, page)

    def _follow(self, root: Any, response: Response, page: PageMeta) -> Iterator[scrapy.Request]:
        """A Request per link of the page, except links the scheduler would refuse as known.

        The hot path of a crawl: each link is normalised once (its fingerprint,
        carried in meta), and a link already fetched, or queued at a priority
        at least as good as this page can give it, is dropped here, before a
        Request, its signals and its serialisation exist.  With ``adaptive`` and
        ``online`` the prediction middleware scores the links here (its
        ``score_links``), so that "as good as" is the link's final priority,
        not the bound 1.0 a prediction could reach.  With
        GEOFOCUS_ONLINE_RESCORE_FOUND_AGAIN=False, ``online`` re-scoring the whole
        queue drops a link already queued like a fetched one, unless this page is
        closer to a relevant page than the one it was queued from
        (``keeps_queue_current``).
        """
        events, too_deep = page_events(root, response.text)
        if too_deep:
            self._count_too_deep(response)
        scheduler = scheduler_of(self.crawler)
        if scheduler is None or scheduler.url_fingerprint(response.url) is None:
            for _key, link in iter_links(root, response.url, events=events):
                if not link.pop("nofollow"):
                    yield scrapy.Request(link["url"], callback=self.parse, errback=self.errback,
                                         meta={META_KEY: PageMeta(link=link)})
            return
        scorer = self._link_scorer()
        link_wanted = scheduler.link_wanted
        if scorer is not None and scorer.keeps_queue_current:
            # A link the frontier knows is refused (bound 0: not extracted, not scored) unless it waits
            # with a larger bridge distance than this page gives it: then it is scored again (bound 1).
            dist = page.page_distance + 1
            closer = scorer.found_closer

            def wanted(fp: str, link: dict[str, Any]) -> bool:
                return not link["nofollow"] and link_wanted(fp, 1.0 if closer(fp, dist) else 0.0)
        else:
            bound = link_priority_bound(page, self.context.strategy, self.context.decay)

            def wanted(fp: str, link: dict[str, Any]) -> bool:
                return not link["nofollow"] and link_wanted(fp, bound)

        links = iter_links(root, response.url, key=scheduler.url_fingerprint, wanted=wanted, events=events)
        if scorer is not None:
            for fp, link, link_page in scorer.score_links(response, page, _followed(links)):
                if link_wanted(fp, link_page.priority):
                    url = link["url"]
                    yield scrapy.Request(url, callback=self.parse, errback=self.errback, meta={
                        META_KEY: link_page, FINGERPRINT_META: (url, fp, link_page), VERBATIM: _verbatim(url)})
            return
        for fp, link in _followed(links):
            url = link["url"]
            yield scrapy.Request(url, callback=self.parse, errback=self.errback, meta={
                META_KEY: PageMeta(link=link), FINGERPRINT_META: (url, fp), VERBATIM: _verbatim(url)})

    def _link_scorer(self) -> Any:
        """The prediction middleware if it scores links before their Requests exist (checked once:
        the middleware chain is built before the first response)."""
        if not self._scorer_checked:
            self._scorer_checked = True
            self._scorer = link_scorer(self.crawler)
        return self._scorer

    def _count_too_deep(self, response: Response) -> None:
        self.crawler.stats.inc_value("geofocus/linkextract/too_deep")
        if not getattr(self, "_too_deep_logged", False):
            self._too_deep_logged = True
            logger.info(
                "%(url)s nests elements deeper than lxml parses (2,048): its links were taken from a "
                "streaming parse (further such pages are counted in geofocus/linkextract/too_deep, not logged)",
                {"url": response.url},
            )

    def errback(self, failure: Failure) -> None:
        request = getattr(failure, "request", None)
        if request is None:
            return
        reason = failure.type.__name__ if failure.type else "error"
        self.crawler.stats.inc_value(f"geofocus/failed/{reason}")
        self.crawler.signals.send_catch_log(geo_signals.request_failed, request=request, failure=failure,
                                            spider=self)
        logger.debug("Request failed: %(request)s: %(reason)s", {"request": request, "reason": failure.value})
        self.crawler.signals.send_catch_log(geo_signals.request_finished, request=request, spider=self)


def _verbatim(url: str) -> bool:
    """True when Request() may take a link's canonical URL as it is: w3lib's ``safe_url_string``
    (which Request runs on every URL unless meta ``verbatim_url`` is set) leaves a canonical URL
    unchanged except for a ``'`` (escaped in the query) and credentials (the userinfo escaped
    otherwise), so only those URLs still go through it (tests/test_urls_verbatim.py)."""
    return "'" not in url and "@" not in url


def _followed(links: Iterator[tuple[str, dict[str, Any]]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The links ``wanted`` let through, without their ``nofollow`` flag (all are followed)."""
    for fp, link in links:
        del link["nofollow"]
        yield fp, link
