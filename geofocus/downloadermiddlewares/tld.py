"""Drops URLs on country-code TLDs that cannot carry the region's addresses.

Generic TLDs (.com, .org, .info, ...) pass; a two-letter TLD passes only if
the region pack lists it (``tlds``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.utils.httpobj import urlparse_cached

from geofocus.context import crawl_context
from geofocus.downloadermiddlewares.base import FilterMiddleware
from geofocus.netaddr import is_ip_literal

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

    from geofocus.regions import Region


class TldFilterMiddleware(FilterMiddleware):
    def __init__(self, crawler: Crawler, region: Region | None):
        super().__init__(crawler)
        self.region = region

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TldFilterMiddleware:
        if not crawler.settings.getbool("GEOFOCUS_TLD_FILTER_ENABLED"):
            raise NotConfigured("GEOFOCUS_TLD_FILTER_ENABLED is off")
        return cls(crawler, crawl_context(crawler).region)

    def should_follow(self, host: str, allowed: tuple[str, ...]) -> bool:
        """Override to change the rule; e.g. ``return host.endswith(".de")`` for German hosts only."""
        if not host or "." not in host or is_ip_literal(host):
            return True
        tld = host.rsplit(".", 1)[1].lower()
        if len(tld) != 2 or not tld.isalpha():
            return True  # generic TLDs carry addresses of any country
        return tld in allowed

    def process_request(self, request: Request, spider: Spider | None = None) -> None:
        spider = spider or self.crawler.spider
        if self.region is None:
            return
        host = urlparse_cached(request).hostname or ""
        if not self.should_follow(host, self.region.tlds):
            self.reject(request, f"tld/{host.rsplit('.', 1)[-1]}", spider)
