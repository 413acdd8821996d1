"""The best-first scheduler: Scrapy's scheduler interface over a geofocus frontier.

Requests are ordered by the float ``priority`` of their page state
(:class:`geofocus.pagemeta.PageMeta`, ``meta["geofocus"]``) in [0, 1]
in one global order (Scrapy's own queues keep one queue per integer priority
and, since 2.14, pick the least busy domain first; neither fits a best-first
crawl).  The scheduler is politeness-aware: when the best URLs belong to hosts
whose download slots are full, it hands out the best URL of another host.

Scrapy's scheduler contract, as GeoScheduler keeps it:

- ``Request.priority``: a request whose page state has a ``priority``
  (every request the geo spider makes) is ordered by that float alone; its
  ``Request.priority`` is kept in the stored request but does not order it.  A
  request without one (requests of other code, Scrapy's own test cases) is
  ordered by ``Request.priority``, mapped monotonically into (0, 1)
  (:func:`scrapy_priority`: 0 -> 0.5, higher first, as in Scrapy).
- ``dont_filter=True`` means what it means in Scrapy: the request is never
  dropped as a duplicate.  A retry (``meta["retry_times"]``) of a request
  this worker holds goes back to the queue; a request whose URL is queued or fetched already is queued
  once more under a key of its own (and fetched again), e.g. six identical
  start URLs give six responses.  Requests without it are deduplicated by
  fingerprint: a URL is queued once, raised when found again with a better
  priority, and never fetched twice.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
import uuid
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np
import orjson
from scrapy import Request, signals
from scrapy.core.scheduler import BaseScheduler
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet import task

from geofocus import defaults
from geofocus import signals as geo_signals
from geofocus.downloadslots import busy_slots
from geofocus.frontier import FrontierEntry, FrontierQueue, PushResult, SqliteFrontier
from geofocus.pagemeta import FINGERPRINT_META, FINISHED_MARKER, FRONTIER_KEY_META, META_KEY, PageMeta
from geofocus.rundir import get_run_dir
from geofocus.serialize import (
    MalformedRequest,
    _method_name,
    _text,
    request_from_json_dict,
    request_to_json_dict,
)

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

#: Counters kept in the frontier so that a resumed crawl continues its totals.
PERSISTED_STATS = ("geofocus/fetched", "geofocus/relevant")
#: Malformed entries set aside per next_request call before it yields to the reactor.
MAX_MALFORMED_PER_CALL = 100

#: Request attributes left out of the stored request when they have Request's default value.
_DEFAULT_ATTRIBUTES = {
    "method": "GET", "body": "", "cookies": {}, "encoding": "utf-8", "priority": 0, "dont_filter": False,
    "flags": [], "cb_kwargs": {}, "errback": None, "headers": {},
}

_SCHEDULERS: WeakKeyDictionary[Crawler, GeoScheduler] = WeakKeyDictionary()


def scheduler_of(crawler: Crawler) -> GeoScheduler | None:
    """The open GeoScheduler of a crawler (None before it opens, or with another scheduler)."""
    return _SCHEDULERS.get(crawler)


def scrapy_priority(priority: int) -> float:
    """Scrapy's integer ``Request.priority`` as a frontier priority in (0, 1), order kept."""
    return 0.5 + math.atan(priority) / math.pi


class _URLProbe:
    """What a request fingerprinter reads of a GET request without a body, for a bare URL:
    a link's fingerprint before (and, for a known link, instead of) building its Request."""

    __slots__ = ("url", "__weakref__")
    method = "GET"
    body = b""
    meta: dict[str, Any] = {}
    headers: dict[bytes, Any] = {}

    def __init__(self, url: str):
        self.url = url


def build_frontier(crawler: Crawler) -> FrontierQueue:
    settings = crawler.settings
    if settings.get("GEOFOCUS_REDIS_URL"):
        from geofocus.redis.frontier import RedisFrontier

        return RedisFrontier.from_crawler(crawler)
    return SqliteFrontier(
        get_run_dir(crawler) / "frontier.sqlite",
        cache_mb=settings.getint("GEOFOCUS_FRONTIER_CACHE_MB", defaults.GEOFOCUS_FRONTIER_CACHE_MB),
        seed=settings.getint("GEOFOCUS_FRONTIER_SEED") if settings.get("GEOFOCUS_FRONTIER_SEED") else None,
    )


class GeoScheduler(BaseScheduler):
    def __init__(
        self,
        crawler: Crawler,
        frontier: FrontierQueue,
        stats: StatsCollector,
        *,
        flush_interval: float,
        flush_pages: int,
        rescore_every: int,
        rescore_batch: int,
        rescore_queue: bool,
    ):
        self.crawler = crawler
        #: Public: the Redis extension finds a shared frontier here (geofocus.redis.extension.frontier_of).
        self.frontier = frontier
        self.stats = stats
        self.flush_interval = flush_interval
        self.flush_pages = flush_pages
        self._finished_since_flush = 0
        self.rescore_every = rescore_every
        self.rescore_batch = rescore_batch
        self.spider: Spider | None = None
        self._flusher: task.LoopingCall | None = None
        self._pops_since_rescore = 0
        self._rescore_cursor = ""
        # Whole-queue re-scoring: tried while True; False once no receiver answered (or not wanted).
        self._rescore_queue = rescore_queue and hasattr(frontier, "queued_priority_array")
        self._rescore_cpu = 0.0
        self._warned_malformed = False
        # Per-request stats counted here and added to the stats collector on each flush
        # (a stats call per link costs more than the rest of the duplicate check).
        self._counts: dict[str, int] = {}
        self._pushable = getattr(frontier, "pushable", None)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GeoScheduler:
        settings = crawler.settings
        d = defaults  # a crawler without the project's settings gets the same values
        assert crawler.stats is not None
        scheduler = cls(
            crawler,
            build_frontier(crawler),
            crawler.stats,
            flush_interval=settings.getfloat("GEOFOCUS_FRONTIER_FLUSH_INTERVAL", d.GEOFOCUS_FRONTIER_FLUSH_INTERVAL),
            flush_pages=settings.getint("GEOFOCUS_FRONTIER_FLUSH_PAGES", d.GEOFOCUS_FRONTIER_FLUSH_PAGES),
            rescore_every=settings.getint("GEOFOCUS_RESCORE_EVERY", d.GEOFOCUS_RESCORE_EVERY),
            rescore_batch=settings.getint("GEOFOCUS_RESCORE_BATCH", d.GEOFOCUS_RESCORE_BATCH),
            rescore_queue=settings.getbool("GEOFOCUS_RESCORE_QUEUE", d.GEOFOCUS_RESCORE_QUEUE),
        )
        crawler.signals.connect(scheduler.request_finished, geo_signals.request_finished)
        crawler.signals.connect(scheduler.page_evaluated, geo_signals.page_evaluated)
        crawler.signals.connect(scheduler.response_downloaded, signals.response_downloaded)
        return scheduler

    # -- life cycle -------------------------------------------------------
    def open(self, spider: Spider) -> None:
        self.spider = spider
        _SCHEDULERS[self.crawler] = self
        self.frontier.open()
        counters = self.frontier.counters()
        for key in PERSISTED_STATS:
            if counters.get(key):
                self.stats.set_value(key, int(counters[key]))
        if counters:
            logger.info(
                "Resuming a crawl: %(queued)d URLs queued, %(fetched)d pages fetched before",
                {"queued": len(self.frontier), "fetched": counters.get("geofocus/fetched", 0)},
                extra={"spider": spider},
            )
        self._update_size_stat()
        self._flusher = task.LoopingCall(self._flush)
        self._flusher.start(self.flush_interval, now=False)

    def close(self, reason: str) -> None:
        if self._flusher is not None and self._flusher.running:
            self._flusher.stop()
        self._flush_counts()
        self._update_size_stat()
        self.frontier.close()
        if _SCHEDULERS.get(self.crawler) is self:
            del _SCHEDULERS[self.crawler]

    def count(self, key: str, n: int = 1) -> None:
        """Add to a stat at the next flush (cheap enough to call per link)."""
        self._counts[key] = self._counts.get(key, 0) + n

    def _flush_counts(self) -> None:
        counts, self._counts = self._counts, {}
        for key, n in counts.items():
            self.stats.inc_value(key, n)

    def flush(self) -> None:
        """Commit the frontier and bring the stats up to date (the timer does this every second)."""
        self._flush()

    def _flush(self) -> None:
        self._finished_since_flush = 0
        self._flush_counts()
        try:
            self.frontier.flush()
        except Exception:
            logger.exception("Frontier flush failed; will retry", extra={"spider": self.spider})
        self._update_size_stat()

    def _update_size_stat(self) -> None:
        self.stats.set_value("geofocus/frontier/size", len(self.frontier))

    # -- the engine's interface -------------------------------------------
    def has_pending_requests(self) -> bool:
        return len(self.frontier) > 0

    def __len__(self) -> int:
        return len(self.frontier)

    def enqueue_request(self, request: Request) -> bool:
        finished = request.meta.get(FINISHED_MARKER)
        if finished is not None:
            # Behind the page's links: all of them are queued now.
            self._mark_done(finished)
            return False
        fingerprint = self.fingerprint(request)
        entry = self._entry_for(request, fingerprint)
        if entry is None:
            return False
        result = self.frontier.push(entry)
        if result == PushResult.REJECTED and request.dont_filter:
            # Never dropped as a duplicate: a retry of a request this worker holds goes back
            # to the queue; any other (even of a URL in flight) goes in once more under a key of its own.
            if "retry_times" in request.meta and self.frontier.release(entry):
                result = PushResult.NEW
            else:
                entry.fingerprint = f"{fingerprint}#{uuid.uuid4().hex[:12]}"
                result = self.frontier.push(entry)
        if result == PushResult.NEW:
            self.count("geofocus/scheduler/enqueued")
            return True
        if result == PushResult.RAISED:
            self.count("geofocus/frontier/reprioritised")
            return True
        self.count("geofocus/scheduler/duplicate")
        return False

    def next_request(self) -> Request | None:
        self._maybe_rescore()
        busy = busy_slots(self.crawler)
        for _ in range(MAX_MALFORMED_PER_CALL):
            entry = self.frontier.pop(busy)
            if entry is None:
                return None
            try:
                request = request_from_json_dict(entry.request, self.spider)
                break
            except MalformedRequest as exc:
                self._set_aside(entry, str(exc))
        else:
            return None
        if "#" in entry.fingerprint:
            request.meta[FRONTIER_KEY_META] = entry.fingerprint
        self.count("geofocus/scheduler/dequeued")
        self._pops_since_rescore += 1
        return request

    # -- helpers ------------------------------------------------------------
    def _set_aside(self, entry: FrontierEntry, reason: str) -> None:
        """A frontier entry geofocus did not write (or cannot read): moved aside, never retried."""
        self.stats.inc_value("geofocus/frontier/malformed")
        if not self._warned_malformed:
            self._warned_malformed = True
            logger.warning(
                "Setting aside a malformed frontier entry %(fp)s: %(reason)s (further ones are only "
                "counted in geofocus/frontier/malformed)",
                {"fp": entry.fingerprint, "reason": reason}, extra={"spider": self.spider},
            )
        else:
            logger.debug("Setting aside a malformed frontier entry %(fp)s: %(reason)s",
                         {"fp": entry.fingerprint, "reason": reason}, extra={"spider": self.spider})
        quarantine = getattr(self.frontier, "quarantine", None)
        if quarantine is not None:
            quarantine(entry, reason)
        else:
            self.frontier.done(entry.fingerprint)

    def fingerprint(self, request: Request) -> str:
        carried = request.meta.get(FINGERPRINT_META)
        if carried is not None and carried[0] == request.url:
            return carried[1]
        return self.crawler.request_fingerprinter.fingerprint(request).hex()

    def url_fingerprint(self, url: str) -> str | None:
        """The fingerprint a GET request for ``url`` will have (None if the fingerprinter needs a real Request)."""
        try:
            return self.crawler.request_fingerprinter.fingerprint(_URLProbe(url)).hex()  # type: ignore[arg-type]
        except (AttributeError, TypeError):
            return None

    @property
    def rescores_whole_queue(self) -> bool:
        """Whether every ``rescore_every`` pops the whole queue is offered for re-scoring
        (``rescore_queue_requested``), not a batch."""
        return bool(self.rescore_every) and self._rescore_queue

    def link_wanted(self, fingerprint: str, priority: float) -> bool:
        """False when a link at this priority would be refused as a duplicate: the caller drops it
        before it becomes a Request (no signals, no serialisation).  Counted as a duplicate."""
        if self._pushable is None or self._pushable(fingerprint, priority):
            return True
        self._counts["geofocus/scheduler/duplicate"] = self._counts.get("geofocus/scheduler/duplicate", 0) + 1
        return False

    def _entry_for(self, request: Request, fingerprint: str) -> FrontierEntry | None:
        page = PageMeta.of(request)
        if page is not None and page.priority is not None:
            try:
                priority = float(page.priority)
            except (TypeError, ValueError):  # a request rebuilt from an entry geofocus did not write
                priority = 0.0
        else:
            priority = scrapy_priority(request.priority)
        try:
            payload = _payload(request, self.spider)
            encoded = _strip_unserialisable(payload)
        except ValueError as exc:
            logger.warning(
                "Cannot queue %(request)s: %(error)s",
                {"request": request, "error": exc},
                extra={"spider": self.spider},
            )
            self.count("geofocus/scheduler/unserialisable")
            return None
        slot = request.meta.get("download_slot") or _host(request)
        # min(max(priority, 0.0), 1.0) without the two calls (the same value, NaN and -0.0 included)
        priority = 0.0 if priority < 0.0 else 1.0 if priority > 1.0 else priority
        return FrontierEntry(fingerprint, priority, slot, payload, encoded)

    def _maybe_rescore(self) -> None:
        """Re-score a batch of queued URLs with the current link model, now and then."""
        if not self.rescore_every or self._pops_since_rescore < self.rescore_every:
            return
        self._pops_since_rescore = 0
        if self._rescore_queue and self._rescore_whole_queue():
            return
        batch = self.frontier.queued_sample(self.rescore_batch, after=self._rescore_cursor)
        self._rescore_cursor = batch[-1].fingerprint if len(batch) == self.rescore_batch else ""
        if not batch:
            return
        pages = [_stored_page(e.request) for e in batch]
        responses = self.crawler.signals.send_catch_log(geo_signals.rescore_requested, pages=pages)
        for _receiver, priorities in responses:
            if not isinstance(priorities, list) or len(priorities) != len(batch):
                continue
            updates = []
            for entry, page, priority in zip(batch, pages, priorities, strict=False):
                if priority is None or abs(priority - entry.priority) < 1e-9:
                    continue
                page.priority = priority
                if isinstance(entry.request, dict) and isinstance(entry.request.get("meta", {}), dict):
                    entry.request["meta"] = {**entry.request.get("meta", {}), META_KEY: page.to_dict()}
                updates.append((entry.fingerprint, priority, entry.request))
            changed = self.frontier.update_priorities(updates)
            self.count("geofocus/frontier/rescored", changed)
            break

    def _rescore_whole_queue(self) -> bool:
        """Re-score every queued entry (``rescore_queue_requested``); False if no receiver can.

        The new priorities go back in one ``update_listed`` (NaN: keep); the stored request keeps the
        priority it was queued with in its page state (the frontier's priority is what orders the queue
        and what a resumed crawl replays).
        """
        started = time.process_time()
        # The embedded frontier lists the priorities as an array and takes the new ones back as one (NaN: keep):
        # no list of a million floats or update tuples (about 100 MB at 1,000,000 queued while they exist).
        fingerprints, priorities = self.frontier.queued_priority_array()  # type: ignore[attr-defined]
        responses = self.crawler.signals.send_catch_log(
            geo_signals.rescore_queue_requested, fingerprints=fingerprints, priorities=priorities)
        for _receiver, answer in responses:
            if answer is None:
                continue
            try:
                new = np.asarray(answer, dtype=np.float64)
            except (TypeError, ValueError):
                continue
            if new.shape != (len(fingerprints),):
                continue
            changed = self.frontier.update_listed(  # type: ignore[attr-defined]
                np.clip(np.where(np.isfinite(new), new, np.nan), 0.0, 1.0))
            self.count("geofocus/frontier/rescored", changed)
            self.count("geofocus/frontier/rescore_queue/passes")
            self.count("geofocus/frontier/rescore_queue/queued", len(fingerprints))
            # CPU of the whole pass (listing, model, write-back; the heap rebuild comes at the next pop)
            self._rescore_cpu += time.process_time() - started
            self.stats.set_value("geofocus/frontier/rescore_queue/cpu_seconds", round(self._rescore_cpu, 3))
            return True
        # Nobody keeps the queued links' features (not the ``online`` strategy): batches from now on.
        self._rescore_queue = False
        return False

    # -- signals ------------------------------------------------------------
    def request_finished(self, request: Request, spider: Spider) -> None:
        self._mark_done(self.frontier_key(request))

    def frontier_key(self, request: Request) -> str:
        """The frontier key of a popped request: its fingerprint, or its own key (dont_filter duplicates)."""
        return request.meta.get(FRONTIER_KEY_META) or self.fingerprint(request)

    def _mark_done(self, fingerprint: str) -> None:
        self.frontier.done(fingerprint)
        if "#" in fingerprint:  # a duplicate fetched on purpose: its URL is fetched too
            self.frontier.done(fingerprint.split("#", 1)[0])
        # Committing every few pages bounds what a kill -9 makes the crawl redo.
        self._finished_since_flush += 1
        if self.flush_pages and self._finished_since_flush >= self.flush_pages:
            self._flush()

    def response_downloaded(self, response: Response, request: Request, spider: Spider) -> None:
        # A redirect never reaches the spider: its target is queued on its own.
        if 300 <= response.status < 400 and "Location" in response.headers:
            self.frontier.done(self.frontier_key(request))

    def page_evaluated(self, response: Response, relevant: bool, spider: Spider, **kwargs: Any) -> None:
        self.frontier.increment("geofocus/fetched")
        if relevant:
            self.frontier.increment("geofocus/relevant")


def _stored_page(request: Any) -> PageMeta:
    """The page state of a queued entry, or an empty one if the entry is malformed
    (it is set aside when popped; re-scoring must not trip over it first)."""
    meta = request.get("meta") if isinstance(request, dict) else None
    gf = meta.get(META_KEY) if isinstance(meta, dict) else None
    return PageMeta.from_dict(gf) if isinstance(gf, dict) else PageMeta()


#: A host that ``urlsplit(url).hostname`` gives lower-cased as it is (no userinfo, port, brackets or odd characters).
_PLAIN_HOST = re.compile(r"[A-Za-z0-9._-]+")


#: The slot of a plain http(s) host as a URL spells it (the text between ``//`` and the next ``/``) -> the host in
#: lower case: a crawl meets a few thousand hosts, and a link's slot is then one ``find`` and one look-up.
_HOSTS: dict[str, str] = {}
_HOSTS_MAX = 1 << 16


def _host(request: Request) -> str:
    """``urlparse_cached(request).hostname or ""``; an http(s) URL with a plain host without urllib's parse (which
    was a fifth of a link's queueing; its cache on the request is of no use: the popped request is another)."""
    url = request.url
    if url.startswith("http://"):
        start = 7
    elif url.startswith("https://"):
        start = 8
    else:
        return urlparse_cached(request).hostname or ""
    stop = url.find("/", start)
    spelt = url[start:] if stop < 0 else url[start:stop]
    host = _HOSTS.get(spelt)
    if host is not None:
        return host
    end = len(url)
    for mark in "/?#":
        at = url.find(mark, start, end)
        if at >= 0:
            end = at
    host = url[start:end]
    if not _PLAIN_HOST.fullmatch(host):
        return urlparse_cached(request).hostname or ""
    host = host.lower()
    if host == spelt.lower():  # (no ``?`` or ``#`` before the first ``/``: the same host for every URL spelt so)
        if len(_HOSTS) >= _HOSTS_MAX:
            _HOSTS.clear()
        _HOSTS[spelt] = host
    return host


def _payload(request: Request, spider: Spider | None) -> dict[str, Any]:
    """``request_to_json_dict`` then ``_compact``: the same dict, built directly for a plain GET ``Request`` with
    Request's defaults but for URL, callbacks, headers and meta (every link of the geo spider), instead of
    reading all thirteen attributes and deleting the defaults again."""
    if (type(request) is not Request or request.method != "GET" or request.priority != 0
            or request.dont_filter is not False):
        return _general_payload(request, spider)
    if _LAZY_FIELDS:
        # a Scrapy that keeps these in slots makes an empty dict or list at the first reading of the property:
        # read the slots (None: the default) instead of making them and comparing them with new empty ones
        cookies, flags, cb_kwargs = request._cookies, request._flags, request._cb_kwargs
        if (request._body or request._encoding != "utf-8"
                or (cookies is not None and cookies != {}) or (flags is not None and flags != [])
                or (cb_kwargs is not None and cb_kwargs != {})):
            return _general_payload(request, spider)
        headers = request._headers
        meta = request._meta
    else:
        if (request.body or request.cookies != {} or request.flags != [] or request.cb_kwargs != {}
                or request.encoding != "utf-8"):
            return _general_payload(request, spider)
        headers, meta = request.headers, request.meta
    callback: Any = request.callback
    errback: Any = request.errback
    payload: dict[str, Any] = {
        "url": request.url,
        "callback": callback.__name__ if getattr(callback, "__self__", None) is spider and spider is not None
        else _method_name(callback, spider),
    }
    if errback is not None:
        payload["errback"] = (errback.__name__ if getattr(errback, "__self__", None) is spider and spider is not None
                              else _method_name(errback, spider))
    if headers:  # (dict() copies the stored lists in C; Headers.items() makes each list anew)
        stored: dict[Any, Any] = dict(headers)
        # (``_text`` spelt out: Headers keeps bytes)
        payload["headers"] = {
            k.decode("latin-1") if type(k) is bytes else _text(k): [
                v.decode("latin-1") if type(v) is bytes else _text(v) for v in vs]
            for k, vs in stored.items()}
    if meta:
        # ``wire_meta`` and ``_compact`` in one copy: the page state in its wire form, without the carried
        # fingerprint (and verbatim_url with it); the request's own dict when neither is there
        page = meta.get(META_KEY)
        if type(page) is PageMeta or FINGERPRINT_META in meta:
            meta = dict(meta)
            if type(page) is PageMeta:
                meta[META_KEY] = page.to_dict()
            if FINGERPRINT_META in meta:
                del meta[FINGERPRINT_META]
                meta.pop("verbatim_url", None)
    payload["meta"] = meta if meta is not None else {}
    return payload


#: Request keeps cookies, flags, cb_kwargs, body, encoding, headers and meta in slots of these names (Scrapy 2.19 does).
_LAZY_FIELDS = all(name in getattr(Request, "__slots__", ()) for name in (
    "_cookies", "_flags", "_cb_kwargs", "_body", "_encoding", "_headers", "_meta"))


def _general_payload(request: Request, spider: Spider | None) -> dict[str, Any]:
    general = request_to_json_dict(request, spider)
    _compact(general)
    return general


def _compact(payload: dict[str, Any]) -> None:
    """Leave out what the request rebuilds by default (smaller rows, faster JSON)."""
    for key, default in _DEFAULT_ATTRIBUTES.items():
        if key in payload and payload[key] == default:
            del payload[key]
    meta = payload.get("meta")
    if meta and FINGERPRINT_META in meta:
        meta = payload["meta"] = dict(meta)
        del meta[FINGERPRINT_META]
        # The geo spider's links (they carry a fingerprint): canonical URLs Request() took as they
        # are, which a popped request rebuilt from the stored URL gets back through safe_url_string.
        # (Another request's verbatim_url is its own wish and stays.)
        meta.pop("verbatim_url", None)


def _strip_unserialisable(payload: dict[str, Any]) -> bytes | None:
    """Drop meta values JSON cannot carry (never pickle them into a shared store).

    Returns the payload's compact JSON when it encoded as it was (the frontier stores those
    bytes instead of encoding the request a second time), None when something was dropped.
    """
    try:
        # without ``OPT_NON_STR_KEYS`` first: that option costs orjson about 40 % more on every dict
        return orjson.dumps(payload)
    except TypeError:  # (orjson.JSONEncodeError is one) e.g. a key that is not a string
        pass
    try:
        return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        pass
    meta = payload.get("meta") or {}
    for key in list(meta):
        try:
            json.dumps(meta[key])
        except (TypeError, ValueError):
            del meta[key]
    try:
        json.dumps(payload)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"request is not JSON-serialisable: {exc}") from exc
    return None
