"""What geofocus components may ask of Scrapy's engine and downloader, answered in one place.

The scheduler hands out the best URL of a host whose download slot has room
(:func:`busy_slots`); the page budget and the Prometheus metrics count the
requests the engine has started and not yet finished (:func:`requests_in_flight`).
Nothing else in geofocus reads the engine's or the downloader's state.

Scrapy API used: ``crawler.engine.downloader.slots`` (public: a dict of slot key ->
``downloader.Slot`` with ``active`` and ``concurrency``, what AutoThrottle reads too).
Scrapy has no public count of the requests in progress; :func:`requests_in_flight`
reads the engine's ``_slot.inprogress`` (downloading or being processed by the
spider), the one private attribute geofocus touches.  Without a running engine
(a scheduler used on its own, a tool) every slot is free and nothing is in flight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.utils.httpobj import urlparse_cached

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


def _engine(crawler: Crawler) -> Any:
    try:
        return crawler.engine
    except RuntimeError:  # a crawler that is not crawling
        return None


def busy_slots(crawler: Crawler) -> set[str]:
    """Keys of the download slots that have as many active requests as their concurrency.

    A request the downloader has taken and not yet put in a slot (held in the downloader middlewares:
    Scrapy's robots.txt middleware holds every request of a host until the host's robots.txt is in)
    counts for its host's slot too.  Otherwise a host whose (slow) robots.txt is on its way never
    looks busy, and the scheduler hands out every queued URL of that host at once: they fill
    ``CONCURRENT_REQUESTS`` while they wait, then go through the host's slot two at a time
    (docs/performance.md, "Session 10: what limits two workers sharing one crawl").
    """
    downloader = getattr(_engine(crawler), "downloader", None)
    if downloader is None:
        return set()
    slots = downloader.slots
    active = getattr(downloader, "active", None)
    waiting: dict[str, int] = {}
    if active is None:
        keys: Any = slots.keys()
    else:
        # Scrapy keeps an idle host's slot for a minute, thousands of them in a broad crawl; only a
        # slot holding a request can be busy, and a request in a slot carries that slot's key in meta
        # and stays in the downloader's ``active`` set (at most CONCURRENT_REQUESTS) while it is there.
        keys = set()
        for request in active:
            key = request.meta.get("download_slot")
            if key is None:  # not in a slot yet: its slot will be its host's (Scrapy's default key)
                key = urlparse_cached(request).hostname or ""
                waiting[key] = waiting.get(key, 0) + 1
            keys.add(key)
    busy = set()
    default = getattr(downloader, "domain_concurrency", 1) or 1
    for key in keys:
        slot = slots.get(key)
        if slot is None:
            if waiting.get(key, 0) >= default:
                busy.add(key)
        elif len(slot.active) + waiting.get(key, 0) >= getattr(slot, "concurrency", 1):
            busy.add(key)
    return busy


def requests_in_flight(crawler: Crawler) -> int:
    """Requests the engine is downloading or whose response the spider is still processing."""
    slot = getattr(_engine(crawler), "_slot", None)
    return len(getattr(slot, "inprogress", ()) or ())
