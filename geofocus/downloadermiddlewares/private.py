"""Refuses requests to private, loopback, link-local and other non-public addresses.

SSRF protection for a crawler that follows any link it finds.  Every host is
first read the way a resolver, a proxy or a browser would read it
(:mod:`geofocus.netaddr`): numeric IPv4 forms (``2130706433``, ``0x7f.1``,
``0177.0.0.1``, ``127.1``, ``0``), IPv6 literals and the IPv4 addresses they
embed, percent-escaped and IDNA-mapped characters, trailing dots.  Local names
(``localhost``, ``*.localhost``, ``*.local``, ``*.internal``, single-label
names that a resolver completes with its search domains) are refused by name.
Both hold with a proxy, which would otherwise resolve them on our behalf.
Other names are resolved (through Scrapy's caching resolver) unless a proxy
does the resolving.  Redirects pass through here like any request.  The
offline web and the tests set ``GEOFOCUS_ALLOW_PRIVATE``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached

from geofocus.downloadermiddlewares.base import FilterMiddleware
from geofocus.netaddr import host_ip, is_public_ip, mapped_host

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

__all__ = ["PrivateAddressMiddleware", "is_local_name", "is_public_ip", "private_reason"]

_LOCAL_NAMES = frozenset({"localhost", "ip6-localhost", "ip6-loopback", "localhost.localdomain"})
_LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".lan", ".intranet")


def is_local_name(host: str) -> bool:
    """A name only a local resolver knows: localhost and its kin, local suffixes, single labels."""
    for name in dict.fromkeys((host.lower(), mapped_host(host))):
        name = name.rstrip(".")
        if not name or name in _LOCAL_NAMES or name.endswith(_LOCAL_SUFFIXES) or "." not in name:
            return True
    return False


def private_reason(host: str) -> str | None:
    """Why a URL host must not be fetched without resolving it (``private/ip``,
    ``private/local_name``), or None if only its resolution can tell."""
    ip = host_ip(host)
    if ip is not None:
        return None if is_public_ip(ip) else "private/ip"
    if is_local_name(host):
        return "private/local_name"
    return None


class PrivateAddressMiddleware(FilterMiddleware):
    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PrivateAddressMiddleware:
        if crawler.settings.getbool("GEOFOCUS_ALLOW_PRIVATE"):
            raise NotConfigured("GEOFOCUS_ALLOW_PRIVATE is on")
        return cls(crawler)

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        spider = spider or self.crawler.spider
        host = urlparse_cached(request).hostname or ""
        reason = private_reason(host)
        if reason:
            self.reject(request, reason, spider)
        if host_ip(host) is not None:
            return
        if request.meta.get("proxy"):
            # The proxy resolves the name; names that public DNS points at private addresses
            # (DNS rebinding, wildcard services) are the proxy's policy to refuse.
            return
        from twisted.internet import reactor

        try:
            address = await maybe_deferred_to_future(reactor.resolve(host))  # type: ignore[arg-type]  # zope method: no self
        except Exception:
            return  # an unresolvable name fails in the download, with its own error
        if not is_public_ip(address):
            self.reject(request, "private/resolved", spider, detail=f"({host} -> {address})")
