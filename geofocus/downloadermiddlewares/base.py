from __future__ import annotations

import logging
from typing import TYPE_CHECKING, NoReturn

from scrapy.exceptions import IgnoreRequest

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class FilterMiddleware:
    """Base of the URL filters: a rejection raises IgnoreRequest and is counted by reason."""

    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        self._logged: set[str] = set()

    def reject(self, request: Request, reason: str, spider: Spider | None, detail: str = "") -> NoReturn:
        self.stats.inc_value("geofocus/filtered")
        self.stats.inc_value(f"geofocus/filtered/{reason}")
        kind = reason.split("/", 1)[0]
        if kind not in self._logged:
            self._logged.add(kind)
            logger.debug(
                "Filtered %(reason)s: %(url)s %(detail)s (no more %(kind)s rejections will be shown)",
                {"reason": reason, "url": request.url, "detail": detail, "kind": kind},
                extra={"spider": spider},
            )
        raise IgnoreRequest(f"geofocus filter {reason}: {request.url} {detail}".strip())
