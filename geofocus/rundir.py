"""The run directory of a crawl: where its frontier, crawl log, model and series live."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

_ATTRIBUTE = "_geofocus_run_dir"


def get_run_dir(crawler: Crawler) -> Path:
    """``GEOFOCUS_RUN_DIR``, or ``runs/<region>-<timestamp>``; created on first use.

    The first call fixes the directory for the whole crawl, so every component
    of one crawler writes to the same place even when the default is a timestamp.
    """
    path = getattr(crawler, _ATTRIBUTE, None)
    if path is None:
        configured = crawler.settings.get("GEOFOCUS_RUN_DIR")
        if configured:
            path = Path(configured)
        else:
            region = getattr(crawler.spider, "region_name", None) or crawler.settings.get(
                "GEOFOCUS_REGION", "crawl"
            )
            path = Path("runs") / f"{region}-{time.strftime('%Y%m%d-%H%M%S')}"
        path.mkdir(parents=True, exist_ok=True)
        setattr(crawler, _ATTRIBUTE, path)
    return path
