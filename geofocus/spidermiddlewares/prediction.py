"""Link prediction spider middleware: learns from the crawl and ranks its links.

Thin Scrapy adapter around ``geofocus.prediction`` (order 570, between the geo
evaluation at 550 and the decay middleware at 580).  Contract, all in the page
state (:class:`geofocus.pagemeta.PageMeta`):

* input (a fetched page, after the geo evaluation set ``relevant``): the
  page's ``path`` holds the term lists of the last n links on its path, most
  recent first; ``path[k-1]`` becomes a training example for depth k with the
  page's label.
* output (each Request whose page state has a ``link``, after the
  decay middleware set ``score``): sets ``path`` = [terms of its link] +
  the parent's path, cut to n entries.  With strategy ``adaptive`` it also sets
  ``prediction`` and ``priority`` = score + prediction * (1 - score).  With
  any other strategy (``distance``, ``bfs``) it neither extracts features nor
  learns: it sets ``prediction`` to None and leaves ``priority`` to the
  decay middleware, so the baselines pay nothing for the prediction (fair
  throughput comparisons) and the crawl log says plainly that none was used.
  A model can still be had from a baseline crawl afterwards, from its crawl
  log: ``scrapy train RUN_DIR -o MODEL``.
* ``rescore(page)``: recompute a queued request's priority with the current
  model; the scheduler's ``rescore_requested`` signal calls it for a batch.
* ``score_links(response, parent, links)``: the same page state (the decay
  middleware's fields, then path, prediction and priority) for links that have
  no Request yet.  The geo spider uses it (see :func:`link_scorer`) to drop a
  link that is queued at a priority at least as good as its final one before
  a Request, the middleware chain and the page-finished filter ever see it
  (with ``adaptive`` and ``online`` about a third of a page's unfetched links
  are such duplicates).  The spider carries the scored page state in
  ``meta[FINGERPRINT_META]`` as ``(url, fingerprint, page state)``; a request
  whose page state is that one is not scored again.

The strategy, decay and depth come from the crawl context (geofocus/context.py).

The model starts from ``RUN_DIR/model.json`` if it exists (a resumed crawl),
else from ``GEOFOCUS_MODEL``, else empty; it is saved to ``RUN_DIR/model.json``
every ``GEOFOCUS_MODEL_SAVE_INTERVAL`` seconds and when the spider closes.

With ``GEOFOCUS_REDIS_URL`` (a crawl shared by several workers) the model's
counts are pooled in Redis (geofocus/redis/modelstore.py): every
``GEOFOCUS_MODEL_SYNC_INTERVAL`` seconds a worker ships what it learned since
its last sync and merges what the others learned, in a thread; the pool, not
RUN_DIR/model.json, is what a restarted worker starts from (plus
``GEOFOCUS_MODEL``, which stays local to each worker and is never shipped).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any

import numpy as np
from scrapy import Request, signals
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from geofocus import defaults
from geofocus import signals as geo_signals
from geofocus.context import crawl_context
from geofocus.pagemeta import FINGERPRINT_META, PageMeta
from geofocus.prediction.features import _hostname, link_ids, link_terms
from geofocus.prediction.model import BridgeNaiveBayes, priority
from geofocus.prediction.modelfile import ModelFile
from geofocus.prediction.online import OnlineLinkModel, QueuedLinks
from geofocus.rundir import get_run_dir
from geofocus.scheduler import scheduler_of
from geofocus.spidermiddlewares.decay import BridgeDistanceMiddleware, link_values
from geofocus.strategies import STRATEGIES

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.internet.defer import Deferred

    from geofocus.redis.modelsync import ModelPoolSync

logger = logging.getLogger(__name__)

MODEL_FILE = "model.json"
ONLINE_MODEL_FILE = "model.npz"
# ``online`` re-scoring answers None (keep) for a queued link whose priority moved less than this.
RESCORE_MIN_CHANGE = 0.002
_EXAMPLES_AT = [f"geofocus/prediction/examples/depth_{k}" for k in range(16)]
_INT_TYPE = frozenset((int,))


class LinkPredictionMiddleware(BaseSpiderMiddleware):
    """Online bridge-aware naive Bayes link prediction (see the module docstring)."""

    def __init__(
        self,
        crawler: Crawler,
        *,
        depth: int,
        decay: float,
        alpha: float,
        strategy: str,
        initial_model: str | None,
        save_interval: float,
        redis_url: str,
        crawl_id: str,
        online_lr: float,
        online_bits: int,
        online_host_yield: bool,
        rescore_queue: bool,
        online_found_weight: float = 0.0,
        online_rescore_found_again: bool = True,
    ) -> None:
        super().__init__(crawler)
        self.depth = depth
        self.decay = decay
        self.alpha = alpha
        self.strategy = strategy
        self._initial_model = initial_model
        self.save_interval = save_interval
        self.stats = crawler.stats
        self.rescore_seconds = 0.0
        self.model: BridgeNaiveBayes = BridgeNaiveBayes(depth, alpha)
        # The ``online`` strategy's model (hashed logistic + host yield), None otherwise.
        self.online_lr = online_lr
        self.online_bits = online_bits
        self.online_host_yield = online_host_yield
        self.online_model: OnlineLinkModel | None = None
        # ``online`` with an embedded frontier: each queued link's hashed ids, for whole-queue re-scoring.
        self.rescore_queue = rescore_queue
        self.queued = QueuedLinks(online_found_weight)
        # ``online``: score a link found again while queued with its new page (see ``keeps_queue_current``).
        self.rescore_found_again = online_rescore_found_again
        self._online: bool | None = None
        self._scheduler: Any = None
        self.model_file: ModelFile | None = None  # set by open()
        self._opened = False
        self._adaptive: bool | None = None
        self._bad_path_logged = False
        # Prediction histogram, counted here and added to the stats once per page
        # (a stats call per link costs more than the model query).
        self._buckets = [0] * 10
        # Pooling through Redis (GEOFOCUS_REDIS_URL): geofocus/redis/modelsync.py.
        self.redis_url = redis_url
        self.crawl_id = crawl_id
        self.pool_sync: ModelPoolSync | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        s = crawler.settings
        d = defaults  # a crawler without the project's settings (tests, other projects) gets the same values
        context = crawl_context(crawler)
        depth = context.depth
        if depth < 1:
            raise ValueError(f"GEOFOCUS_PREDICTION_DEPTH must be >= 1, got {depth}")
        mw = cls(
            crawler,
            depth=depth,
            decay=context.decay,
            alpha=s.getfloat("GEOFOCUS_PREDICTION_ALPHA", d.GEOFOCUS_PREDICTION_ALPHA),
            strategy=context.strategy,
            initial_model=s.get("GEOFOCUS_MODEL") or None,
            save_interval=s.getfloat("GEOFOCUS_MODEL_SAVE_INTERVAL", d.GEOFOCUS_MODEL_SAVE_INTERVAL),
            redis_url=s.get("GEOFOCUS_REDIS_URL") or "",
            crawl_id=s.get("GEOFOCUS_CRAWL_ID") or "",
            online_lr=s.getfloat("GEOFOCUS_ONLINE_LR", d.GEOFOCUS_ONLINE_LR),
            online_bits=s.getint("GEOFOCUS_ONLINE_BITS", d.GEOFOCUS_ONLINE_BITS),
            online_host_yield=s.getbool("GEOFOCUS_ONLINE_HOST_YIELD", d.GEOFOCUS_ONLINE_HOST_YIELD),
            rescore_queue=s.getbool("GEOFOCUS_RESCORE_QUEUE", d.GEOFOCUS_RESCORE_QUEUE),
            online_found_weight=s.getfloat("GEOFOCUS_ONLINE_FOUND_WEIGHT", d.GEOFOCUS_ONLINE_FOUND_WEIGHT),
            online_rescore_found_again=s.getbool("GEOFOCUS_ONLINE_RESCORE_FOUND_AGAIN",
                                                 d.GEOFOCUS_ONLINE_RESCORE_FOUND_AGAIN),
        )
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(mw.rescore_requested, signal=geo_signals.rescore_requested)
        crawler.signals.connect(mw.rescore_queue_requested, signal=geo_signals.rescore_queue_requested)
        if crawler.spider is not None:
            # Load now, not at spider_opened: a bad model file must stop the
            # crawl here (signal handlers' errors are only logged), and the
            # scheduler may call rescore() before spider_opened.
            mw.open()
        return mw

    # -- lifecycle ------------------------------------------------------------

    @property
    def adaptive(self) -> bool:
        if self._adaptive is None:
            # A shared crawl (GEOFOCUS_REDIS_URL) runs ``online`` as ``adaptive``: the logistic
            # model's weights are not additive counts, so only the naive Bayes pools (see open()).
            self._adaptive = self.strategy == "adaptive" or (self.strategy == "online" and bool(self.redis_url))
        return self._adaptive

    @property
    def online(self) -> bool:
        if self._online is None:
            self._online = self.strategy == "online" and not self.redis_url
        return self._online

    @property
    def keeps_queue_current(self) -> bool:
        """True when this middleware is left to keep every queued link's priority current: ``online``
        re-scoring the whole queue (each pass re-scores every queued link with the current model) with
        GEOFOCUS_ONLINE_RESCORE_FOUND_AGAIN=False.  The geo spider then scores a link found again while
        queued only when it is found closer to a relevant page (``found_closer``), and drops the others
        as it drops a fetched link, before their context is extracted: half of the links ``online``
        scored were links found again, 94 % of them scored no higher than they were queued, yet scoring
        them is worth ~0.3 points of harvest (docs/prediction.md, "Links found again (session 14)")."""
        if not self.online or self.rescore_found_again:
            return False
        scheduler = self._queue_scheduler()  # None (and rescore_queue False): no whole-queue passes
        return scheduler is not None and self.rescore_queue and scheduler.rescores_whole_queue

    def found_closer(self, fingerprint: str, dist: int) -> bool:
        """True when the link was queued by this middleware with a bridge distance larger than ``dist``."""
        queued = self.queued.dist(fingerprint)
        return queued is not None and dist < queued

    @property
    def pooled(self) -> bool:
        """True when the model's counts are shared with the crawl's other workers through Redis."""
        return bool(self.redis_url) and self.adaptive

    def spider_opened(self, spider: Spider) -> None:
        self.open()
        if self.pooled:
            from geofocus.redis.modelsync import ModelPoolSync  # Redis only for shared crawls

            self.pool_sync = ModelPoolSync.connect(
                self.crawler.settings, self.redis_url, self.crawl_id, lambda: self.model, self.depth, self.alpha,
                self.stats, on_merged=self._merged)
            if self.pool_sync is not None:
                self.pool_sync.start()

    def spider_closed(self, spider: Spider, reason: str = "") -> None:
        self.flush_stats()
        if self.pool_sync is not None:
            self.pool_sync.close()
        self.save()

    def _merged(self) -> None:
        if self.model_file is not None:
            self.model_file.mark_changed()

    def open(self) -> None:
        """Load the model (run dir first, then GEOFOCUS_MODEL); idempotent."""
        if self._opened:
            return
        self._opened = True
        self._adaptive = None
        self._online = None
        if self.strategy not in STRATEGIES:
            logger.warning("unknown strategy %r; links get no prediction", self.strategy)
        if self.strategy == "online" and self.redis_url:
            logger.warning("strategy online is not pooled across workers; this shared crawl predicts with"
                           " adaptive's naive Bayes, whose counts the workers pool through Redis")
        if self.online:
            self._open_online()
            return
        self.model_file = ModelFile(get_run_dir(self.crawler) / MODEL_FILE, self._initial_model,
                                    self.save_interval, self.stats)
        # Resume from what this crawl learned before, unless pooled: a pooled crawl gets that (and
        # what the other workers learned) from Redis instead.
        source = self.model_file.source(resume=not self.pooled)
        if source is not None:
            # A bad model file is a configuration error: it stops the crawl.
            model = BridgeNaiveBayes.load(source, track_delta=self.pooled)
            if model.depth != self.depth:
                logger.info("model %s has depth %d; using depth %d", source, model.depth, self.depth)
                model = model.resized(self.depth)
            self.model = model
            logger.info("link model loaded from %s: %r", source, model)
        elif self.pooled:
            self.model = BridgeNaiveBayes(self.depth, self.alpha, track_delta=True)
        self.stats.set_value("geofocus/prediction/model_examples_loaded", self.model.examples())

    def _open_online(self) -> None:
        """Load the ``online`` model: RUN_DIR/model.npz (resume), else GEOFOCUS_MODEL (.npz), else new."""
        self.model_file = ModelFile(get_run_dir(self.crawler) / ONLINE_MODEL_FILE, self._initial_model,
                                    self.save_interval, self.stats)
        source = self.model_file.source()
        if source is not None:
            # A bad model file is a configuration error: it stops the crawl.
            model = OnlineLinkModel.load(source)
            if model.depth != self.depth:
                raise ValueError(f"{source}: model depth {model.depth} != GEOFOCUS_PREDICTION_DEPTH {self.depth}")
            logger.info("link model loaded from %s: %r", source, model)
        else:
            model = OnlineLinkModel(self.depth, self.online_bits, self.online_lr)
        self.online_model = model
        self.stats.set_value("geofocus/prediction/model_examples_loaded", model.examples())

    def save(self) -> None:
        """Write the model to RUN_DIR/model.json (model.npz for ``online``) if it changed."""
        if self.model_file is not None:
            self.model_file.save(self.online_model or self.model)

    # -- pooling through Redis (geofocus/redis/modelsync.py) -------------------

    def sync(self) -> Deferred | None:
        """One exchange with the crawl's pool now (None when not pooled or one is under way)."""
        return self.pool_sync.sync() if self.pool_sync is not None else None

    # -- learning -------------------------------------------------------------

    def process_spider_input(self, response: Response) -> None:
        """Learn from an evaluated page: path[k-1] is a depth-k example labelled with its relevance."""
        page = PageMeta.of(response)
        if page is None:
            return
        relevant = page.relevant
        path = page.path
        if relevant is not None and self.online:
            self._learn_online(response, page, bool(relevant), path)
            return
        if relevant is None or not path or not self.adaptive:
            return
        self.flush_stats()
        if not self._opened:
            self.open()
        if not isinstance(path, list):
            self._log_bad_path(response)
            return
        label = bool(relevant)
        for k, terms in enumerate(path[: self.depth], start=1):
            if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
                self._log_bad_path(response)
                return
            self.model.learn(terms, k, label)
            self.stats.inc_value("geofocus/prediction/examples")
            self.stats.inc_value(f"geofocus/prediction/examples/depth_{k}")
        if self.model_file is not None:
            self.model_file.changed(self.model)

    def _learn_online(self, response: Response, page: PageMeta, relevant: bool, path: Any) -> None:
        """``online``: path[k-1] (hashed ids) is a depth-k example; depth 1 also with its dynamic ids."""
        self.flush_stats()
        if not self._opened:
            self.open()
        model = self.online_model
        assert model is not None
        host = _target_host(page, response.url) if self.online_host_yield else None
        if path:
            # every entry a list of ints (type int exactly: no bools), the types collected in C
            if not isinstance(path, list) or not all(map(isinstance, path, repeat(list))) or not (
                _INT_TYPE.issuperset(map(type, chain.from_iterable(path)))
            ):
                self._log_bad_path(response)
            else:
                examples = path[: self.depth]
                if examples:
                    examples[0] = [*examples[0], *model.dynamic_ids(_int_or_none(page.dist), host)]
                learned = model.learn_path(examples, relevant)  # one step for all depths
                if learned < len(examples):
                    self._log_bad_path(response)
                if learned:
                    inc = self.stats.inc_value
                    inc("geofocus/prediction/examples", learned)
                    for k in range(1, learned + 1):
                        inc(_EXAMPLES_AT[k] if k < len(_EXAMPLES_AT) else f"geofocus/prediction/examples/depth_{k}")
        if host:
            model.observe_host(host, relevant)
        if self.model_file is not None:
            self.model_file.changed(model)

    def _log_bad_path(self, response: Response) -> None:
        self.stats.inc_value("geofocus/prediction/bad_path")
        if not self._bad_path_logged:
            self._bad_path_logged = True
            logger.warning(
                "ignoring the malformed link path (meta['geofocus']['path']) of %s (no more such"
                " messages will be shown; see stat geofocus/prediction/bad_path)",
                response.url,
            )

    # -- scoring --------------------------------------------------------------

    def process_spider_output(
        self, response: Response | None, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        if not self.online:
            yield from super().process_spider_output(response, result)
            return
        # ``online`` scores a page's links together: one sparse product for all of them costs
        # about what the model query of two links costs one at a time.
        outputs: list[Any] = []
        try:
            outputs.extend(result)
        except Exception:
            # A callback that fails half-way still hands on what it yielded before (its item too).
            self._process_online_page(outputs, response)
            yield from outputs
            raise
        self._process_online_page(outputs, response)
        yield from outputs

    async def process_spider_output_async(
        self, response: Response | None, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        if not self.online:
            async for o in super().process_spider_output_async(response, result):
                yield o
            return
        outputs: list[Any] = []
        try:
            async for o in result:
                outputs.append(o)
        except Exception:
            self._process_online_page(outputs, response)
            for o in outputs:
                yield o
            raise
        self._process_online_page(outputs, response)
        for o in outputs:
            yield o

    def _process_online_page(self, outputs: list[Any], response: Response | None) -> None:
        """Features, path and priority of every link among a page's outputs, scored in one call."""
        requests: list[Request] = []
        pages: list[PageMeta] = []
        id_lists: list[list[int]] = []
        hosts: list[str | None] = []
        parent: list[Any] | None = None  # the same for every link of the page: read at the first one
        for o in outputs:
            if not isinstance(o, Request):
                continue
            page = PageMeta.of(o)
            if page is None:
                continue
            # _scored(o, page) inline: nearly every Request of the geo spider was scored by score_links
            carried = o.meta.get(FINGERPRINT_META)
            if carried is not None and len(carried) > 2 and carried[2] is page and carried[0] == o.url:
                continue
            link = page.link
            if not isinstance(link, Mapping):
                continue
            if parent is None:
                parent = self._parent_path(response)
            ids, host = self._link_ids(page, link, parent)
            requests.append(o)
            pages.append(page)
            id_lists.append(ids)
            hosts.append(host)
        if not pages:
            return
        scored = self._score_online(pages, id_lists, hosts)
        if self.rescore_queue:
            for i in scored:
                page = pages[i]
                self._remember(requests[i], page, id_lists[i], float(page.priority or 0.0), hosts[i])

    def get_processed_request(self, request: Request, response: Response | None) -> Request:
        page = PageMeta.of(request)
        if page is None:
            return request
        link = page.link
        if not isinstance(link, Mapping) or _scored(request, page):
            return request
        if self.online:
            return self._process_online(request, response, page, link)
        if not self.adaptive:
            page.prediction = None
            return request
        if not self._opened:
            self.open()
        terms = link_terms(link)
        page.path = [terms, *self._parent_path(response)]
        self._score(page, terms)
        return request

    def score_links(
        self, response: Response, parent: PageMeta, links: Iterable[tuple[str, dict[str, Any]]]
    ) -> Iterator[tuple[str, dict[str, Any], PageMeta]]:
        """(fingerprint, link, page state) for each (fingerprint, link) of page ``response``: the
        page state a Request for the link would leave the decay middleware and this one with.

        What the middlewares do to a page's Requests, done before the Requests exist and in the
        same order: ``adaptive`` scores each link as it is pulled (as the chain does), ``online``
        scores the page's links in one batch (as :meth:`process_spider_output` does) and
        remembers those the frontier will queue for whole-queue re-scoring.
        """
        if not self._opened:
            self.open()
        dist, seed_dist, score, decay_priority = link_values(parent, self.strategy, self.decay)
        url = response.url
        parent_path = self._parent_path(response)
        if not self.online:
            for fp, link in links:
                page = PageMeta(link=link, dist=dist, seed_dist=seed_dist, score=score,
                                priority=decay_priority, parent=url)
                terms = link_terms(link)
                page.path = [terms, *parent_path]
                self._score(page, terms)
                yield fp, link, page
            return
        batch = [(fp, link, PageMeta(link=link, dist=dist, seed_dist=seed_dist, score=score,
                                     priority=decay_priority, parent=url)) for fp, link in links]
        if not batch:
            return
        pages = [page for _fp, _link, page in batch]
        id_lists: list[list[int]] = []
        hosts: list[str | None] = []
        model = self.online_model
        assert model is not None
        bits = model.bits
        host_yield = self.online_host_yield
        for _fp, link, page in batch:  # what _link_ids does, inline (once per link found)
            ids, host = link_ids(link, bits)
            page.path = [ids, *parent_path]
            id_lists.append(ids)
            hosts.append(host if host_yield else None)
        scored = self._score_online(pages, id_lists, hosts)
        if self.rescore_queue:
            for i in scored:
                page = pages[i]
                self._remember_fingerprint(batch[i][0], page, id_lists[i], float(page.priority or 0.0), hosts[i])
        yield from batch

    def _parent_path(self, response: Response | None) -> list[Any]:
        """The first n-1 entries of the parent page's path (none if it has no list there)."""
        parent = PageMeta.of(response)
        if parent is not None and isinstance(parent.path, list):
            return parent.path[: self.depth - 1]
        return []

    def _process_online(
        self, request: Request, response: Response | None, page: PageMeta, link: Mapping[str, Any]
    ) -> Request:
        """One link on its own (``process_start``, other callers): the batch path for a page of one."""
        ids, host = self._link_ids(page, link, self._parent_path(response))
        if self._score_online([page], [ids], [host]) and self.rescore_queue:
            self._remember(request, page, ids, float(page.priority or 0.0), host)
        return request

    def _link_ids(
        self, page: PageMeta, link: Mapping[str, Any], parent: list[Any]
    ) -> tuple[list[int], str | None]:
        """The hashed ids of ``link`` (the page's) and its target host when host yield is on (else
        None); sets the page's path (its ids + ``parent``, the path of the page the link is on)."""
        if not self._opened:
            self.open()
        model = self.online_model
        assert model is not None
        ids, host = link_ids(link, model.bits)  # = model.ids(link_terms(link)), from cached parts
        page.path = [ids, *parent]
        return ids, host if self.online_host_yield else None

    def _remember(self, request: Request, page: PageMeta, ids: list[int], priority: float,
                  host: str | None) -> None:
        """Keep a link's ids by fingerprint for whole-queue re-scoring, if the frontier will queue it."""
        scheduler = self._queue_scheduler()
        if scheduler is not None:
            # the fingerprint the geo spider carries in meta, if any
            self._remember_fingerprint(scheduler.fingerprint(request), page, ids, priority, host)

    def _queue_scheduler(self) -> Any:
        """The scheduler whose frontier lists its whole queue (None: whole-queue re-scoring is off)."""
        scheduler = self._scheduler
        if scheduler is None:
            scheduler = self._scheduler = scheduler_of(self.crawler)
            if scheduler is None or not hasattr(scheduler.frontier, "queued_priority_array"):
                self.rescore_queue = False  # another scheduler, or a shared frontier: batches only
                return None
        return scheduler

    def _remember_fingerprint(self, fingerprint: str, page: PageMeta, ids: list[int], priority: float,
                              host: str | None) -> None:
        scheduler = self._queue_scheduler()
        if scheduler is None:
            return
        pushable = scheduler._pushable
        if pushable is not None and not pushable(fingerprint, priority):
            return  # a duplicate the frontier refuses: nothing to re-score
        self.queued.add(fingerprint, ids, _int_or_none(page.dist), host, priority)

    def _score_online(self, pages: list[PageMeta], id_lists: list[list[int]],
                      hosts: list[str | None]) -> list[int]:
        """priority = the model's prediction (the bridge distance is one of its features); the
        decay score until the model has its first example.  Links without a numeric score
        (not set by the decay middleware) are left unscored.  ``hosts[i]``: the target host of
        link i for its host yield (None: none).  Returns the indices scored."""
        model = self.online_model
        assert model is not None
        rows = [i for i, page in enumerate(pages)
                if isinstance(page.score, (int, float)) and not isinstance(page.score, bool)]
        if not rows:
            return rows
        # One CSR batch: each row's static ids, then its dynamic ids (looked up once per
        # distance and host of the page's links: the model does not change during the batch).
        dynamic = model.dynamic_ids
        dyn_of: dict[tuple[int | None, str | None], list[int]] = {}
        lengths: list[int] = []
        indices: list[int] = []
        for i in rows:
            key = (_int_or_none(pages[i].dist), hosts[i])
            dyn = dyn_of.get(key)
            if dyn is None:
                dyn = dyn_of[key] = dynamic(*key)
            ids = id_lists[i]
            indices += ids
            indices += dyn
            lengths.append(len(ids) + len(dyn))
        preds = model.score_csr(np.array(lengths, dtype=np.int64), np.array(indices, dtype=np.int64),
                                self.decay).tolist()
        trained = model.has_examples()
        buckets = self._buckets
        for i, pred in zip(rows, preds, strict=True):
            page = pages[i]
            page.prediction = pred
            buckets[min(int(pred * 10), 9)] += 1
            page.priority = pred if trained else float(page.score or 0.0)
        return rows

    def _host_of(self, page: PageMeta) -> str | None:
        return _target_host(page, None) if self.online_host_yield else None

    def _rescore_online(self, pages: list[PageMeta]) -> list[float | None]:
        """All queued links of a batch in one vectorised call of the model."""
        model = self.online_model
        assert model is not None
        rows: list[int] = []
        id_lists: list[list[int]] = []
        for i, page in enumerate(pages):
            if not isinstance(page, PageMeta):
                continue
            path = page.path
            score = page.score
            if not (isinstance(path, list) and path and isinstance(path[0], list)):
                continue
            if not isinstance(score, (int, float)) or isinstance(score, bool):
                continue
            ids = path[0]
            if not all(type(x) is int and 0 <= x < (1 << model.bits) for x in ids):
                continue
            rows.append(i)
            id_lists.append([*ids, *model.dynamic_ids(_int_or_none(page.dist), self._host_of(page))])
        out: list[float | None] = [None] * len(pages)
        if not rows or not model.has_examples():
            return out
        preds = model.score_many(id_lists, self.decay)
        for i, pred in zip(rows, preds.tolist(), strict=False):
            page = pages[i]
            old = page.priority
            # Write back only priorities that moved: a frontier update costs far more than the product.
            if isinstance(old, (int, float)) and abs(pred - old) < RESCORE_MIN_CHANGE:
                continue
            page.prediction = pred
            page.priority = pred
            out[i] = pred
        return out

    def _score(self, page: PageMeta, terms: list[str]) -> float | None:
        pred = self.model.prediction(terms, self.decay)
        page.prediction = pred
        self._buckets[min(int(pred * 10), 9)] += 1
        score = page.score
        if isinstance(score, (int, float)) and not isinstance(score, bool):
            page.priority = priority(float(score), pred)
            return page.priority
        return None

    def flush_stats(self) -> None:
        """Add the predictions counted since the last flush to ``geofocus/prediction/score_bucket/<b>``."""
        for b, count in enumerate(self._buckets):
            if count:
                self.stats.inc_value(f"geofocus/prediction/score_bucket/{b}", count)
                self._buckets[b] = 0

    def rescore_queue_requested(self, fingerprints: list[str], priorities: list[float]) -> Any:
        """Handler of ``rescore_queue_requested``: new priorities of the whole queue (NaN: keep), or
        None when this strategy keeps no features per queued link (the scheduler then uses batches)."""
        if not (self.online and self.rescore_queue):
            return None
        started = time.perf_counter()
        if not self._opened:
            self.open()
        model = self.online_model
        assert model is not None
        out = self.queued.rescore(model, fingerprints, priorities, self.decay, RESCORE_MIN_CHANGE)
        self.stats.inc_value("geofocus/prediction/rescored", int((out == out).sum()))
        # Queued links scored (those with features: all but seeds and requests of other code).
        self.stats.inc_value("geofocus/prediction/rescore_queue/scored", self.queued.last_scored)
        # Memory of the queued links' features after the pass (docs/prediction.md: bytes per queued link).
        self.stats.set_value("geofocus/prediction/rescore_queue/features", len(self.queued))
        self.stats.set_value("geofocus/prediction/rescore_queue/features_bytes", self.queued.nbytes())
        self.rescore_seconds += time.perf_counter() - started
        self.stats.set_value("geofocus/prediction/rescore_seconds", round(self.rescore_seconds, 3))
        return out

    def rescore_requested(self, pages: list[PageMeta]) -> list[float | None]:
        """Handler of the scheduler's ``rescore_requested`` signal: one ``rescore`` per page state."""
        started = time.perf_counter()
        if self.online:
            if not self._opened:
                self.open()
            out = self._rescore_online(pages)
        else:
            out = [self.rescore(p) for p in pages]
        self.stats.inc_value("geofocus/prediction/rescored", sum(p is not None for p in out))
        self.rescore_seconds += time.perf_counter() - started
        self.stats.set_value("geofocus/prediction/rescore_seconds", round(self.rescore_seconds, 3))
        return out

    def rescore(self, page: PageMeta) -> float | None:
        """New priority of a queued request's page state with the current model.

        Updates its ``prediction`` and ``priority`` in place and returns the priority;
        None (page untouched) when the strategy is not adaptive or the page has no
        link terms or no numeric score.
        """
        if self.online:
            return self.rescore_requested([page])[0]
        if not self.adaptive or not isinstance(page, PageMeta):
            return None
        if not self._opened:
            self.open()
        path = page.path
        if isinstance(path, list) and path and isinstance(path[0], list):
            terms = path[0]
        elif isinstance(page.link, Mapping):
            terms = link_terms(page.link)
        else:
            return None
        score = page.score
        if not isinstance(score, (int, float)) or isinstance(score, bool):
            return None
        pred = self.model.prediction(terms, self.decay)
        page.prediction = pred
        page.priority = priority(float(score), pred)
        return page.priority


def link_scorer(crawler: Crawler) -> LinkPredictionMiddleware | None:
    """The prediction middleware, when the geo spider may score its links with
    :meth:`LinkPredictionMiddleware.score_links` before their Requests exist: strategy
    ``adaptive`` or ``online``, and between the spider and this middleware only the decay
    middleware and middlewares that neither read nor write a link's priority or features
    (otherwise None: the links are scored as Requests, in the chain)."""
    from scrapy.spidermiddlewares.depth import DepthMiddleware
    from scrapy.spidermiddlewares.metacopy import MetaCopyDetectionMiddleware
    from scrapy.spidermiddlewares.referer import RefererMiddleware
    from scrapy.spidermiddlewares.urllength import UrlLengthMiddleware

    from geofocus.spidermiddlewares.partition import PartitionMiddleware

    engine = getattr(crawler, "engine", None)
    chain: Sequence[Any] = getattr(getattr(getattr(engine, "scraper", None), "spidermw", None), "middlewares", ())
    at = [i for i, mw in enumerate(chain) if isinstance(mw, LinkPredictionMiddleware)]
    if len(at) != 1:
        return None
    middleware: LinkPredictionMiddleware = chain[at[0]]
    if not (middleware.adaptive or middleware.online):
        return None
    # The spider's output passes the chain from its end to its start: these come before us.
    before = chain[at[0] + 1:]
    passive = (BridgeDistanceMiddleware, PartitionMiddleware, RefererMiddleware, UrlLengthMiddleware,
               DepthMiddleware, MetaCopyDetectionMiddleware)
    if sum(isinstance(mw, BridgeDistanceMiddleware) for mw in before) != 1 or not all(
        isinstance(mw, passive) for mw in before
    ):
        return None
    return middleware


def _scored(request: Request, page: PageMeta) -> bool:
    """True for a request the geo spider made with the page state ``score_links`` gave it."""
    carried = request.meta.get(FINGERPRINT_META)
    return carried is not None and len(carried) > 2 and carried[2] is page and carried[0] == request.url


def _int_or_none(value: Any) -> int | None:
    return value if type(value) is int else None


def _target_host(page: PageMeta, fallback_url: str | None) -> str | None:
    """Host of the URL a request was queued for (its link's target), else of ``fallback_url``."""
    link = page.link
    url = link.get("url") if isinstance(link, Mapping) else None
    if not isinstance(url, str):
        url = fallback_url
    return _hostname(url) if url else None
