"""The crawl context: what one crawl is about, decided once and read by every component.

The geo spider builds it in ``from_crawler`` from its arguments (``-a region``,
``-a strategy``, ``-a seeds``, ``-a resume``) and the settings (``GEOFOCUS_STRATEGY``,
``GEOFOCUS_DECAY``, ``GEOFOCUS_PREDICTION_DEPTH``, ``GEOFOCUS_RUN_DIR``) and registers
it for its crawler; components get it with :func:`crawl_context` instead of reading
attributes of the spider.  A crawler whose spider registers none (another spider, a
component test) gets one from the settings alone: no region, no seeds, the
configured strategy.  The context does not change during a crawl.

The run directory (``GEOFOCUS_RUN_DIR``, or ``runs/<region>-<timestamp>``) is fixed
when the context is built and created on first use, so every component of one crawl
writes to the same place even when the default is a timestamp.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from geofocus import defaults

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from geofocus.regions import Region


@dataclass(eq=False)
class CrawlContext:
    #: the region pack (None: no region, e.g. a component test without one)
    region: Region | None
    #: the region as the user named it (``-a region``), as run.json records it
    region_name: str | None
    #: one of :data:`geofocus.strategies.STRATEGIES`
    strategy: str
    #: bridge-distance decay: score = decay ** dist
    decay: float
    #: link prediction depth n
    depth: int
    #: the start URLs (canonical)
    seeds: tuple[str, ...] = ()
    #: ``-a resume=force``: a resumed run may change region, strategy, decay or depth
    resume_force: bool = False
    #: where the run directory is (created on first use of :attr:`run_dir`)
    run_dir_path: Path = field(default_factory=lambda: Path("runs") / "crawl")
    _run_dir_made: bool = field(default=False, init=False, repr=False)

    @classmethod
    def from_settings(
        cls,
        settings: Any,
        *,
        region: Region | None = None,
        region_name: str | None = None,
        strategy: str | None = None,
        seeds: tuple[str, ...] | list[str] = (),
        resume_force: bool = False,
    ) -> CrawlContext:
        """The context of a crawl of ``region`` with ``strategy`` (default: GEOFOCUS_STRATEGY)."""
        name = region_name or (region.name if region is not None else None)
        configured = settings.get("GEOFOCUS_RUN_DIR")
        started = time.strftime("%Y%m%d-%H%M%S")
        run_dir = Path(configured) if configured else Path("runs") / f"{name or 'crawl'}-{started}"
        return cls(
            region=region,
            region_name=name,
            strategy=strategy or settings.get("GEOFOCUS_STRATEGY") or defaults.GEOFOCUS_STRATEGY,
            decay=settings.getfloat("GEOFOCUS_DECAY", defaults.GEOFOCUS_DECAY),
            depth=settings.getint("GEOFOCUS_PREDICTION_DEPTH", defaults.GEOFOCUS_PREDICTION_DEPTH),
            seeds=tuple(seeds),
            resume_force=resume_force,
            run_dir_path=run_dir,
        )

    @property
    def run_dir(self) -> Path:
        """The run directory, created on first use."""
        if not self._run_dir_made:
            self.run_dir_path.mkdir(parents=True, exist_ok=True)
            self._run_dir_made = True
        return self.run_dir_path


_CONTEXTS: WeakKeyDictionary[Crawler, CrawlContext] = WeakKeyDictionary()


def set_crawl_context(crawler: Crawler, context: CrawlContext) -> CrawlContext:
    """Register the context of ``crawler``'s crawl (the spider does this in ``from_crawler``)."""
    _CONTEXTS[crawler] = context
    return context


def crawl_context(crawler: Crawler) -> CrawlContext:
    """The context of ``crawler``'s crawl; one from the settings alone if the spider registered none."""
    context = _CONTEXTS.get(crawler)
    if context is None:
        context = set_crawl_context(crawler, CrawlContext.from_settings(crawler.settings))
    return context
