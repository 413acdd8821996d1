"""Refuses requests to private, loopback, link-local and other non-public addresses.

SSRF protection for a crawler that follows any link it finds: IP literals and
local names are checked directly; other host names are resolved (through
Scrapy's caching resolver) unless a proxy does the resolving.  The offline
web and the tests set ``GEOFOCUS_ALLOW_PRIVATE``.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached

from geofocus.downloadermiddlewares.base import FilterMiddleware

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

_LOCAL_NAMES = ("localhost", ".localhost", ".local", ".internal", ".localdomain", ".home.arpa")


def is_public_ip(value: str) -> bool:
    try:
        ip = ipaddress.ip_address(value.strip("[]"))
    except ValueError:
        return True
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


class PrivateAddressMiddleware(FilterMiddleware):
    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PrivateAddressMiddleware:
        if crawler.settings.getbool("GEOFOCUS_ALLOW_PRIVATE"):
            raise NotConfigured("GEOFOCUS_ALLOW_PRIVATE is on")
        return cls(crawler)

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        spider = spider or self.crawler.spider
        host = (urlparse_cached(request).hostname or "").lower()
        if host == "localhost" or host.endswith(_LOCAL_NAMES):
            self.reject(request, "private/local_name", spider)
        try:
            ipaddress.ip_address(host.strip("[]"))
            literal = True
        except ValueError:
            literal = False
        if literal:
            if not is_public_ip(host):
                self.reject(request, "private/ip", spider)
            return
        if request.meta.get("proxy"):
            return  # the proxy resolves the name; it is the proxy's policy that applies
        from twisted.internet import reactor

        try:
            address = await maybe_deferred_to_future(reactor.resolve(host))  # type: ignore[attr-defined]
        except Exception:
            return  # an unresolvable name fails in the download, with its own error
        if not is_public_ip(address):
            self.reject(request, "private/resolved", spider, detail=f"({host} -> {address})")
