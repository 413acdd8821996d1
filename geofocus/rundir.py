"""The run directory of a crawl: where its frontier, crawl log, model and series live.

It is part of the crawl context (geofocus/context.py): ``GEOFOCUS_RUN_DIR``, or
``runs/<region>-<timestamp>``, fixed once per crawl and created on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geofocus.context import crawl_context

if TYPE_CHECKING:
    from pathlib import Path

    from scrapy.crawler import Crawler


def get_run_dir(crawler: Crawler) -> Path:
    """The run directory of ``crawler``'s crawl (created on first use)."""
    return crawl_context(crawler).run_dir
