"""In-process crawls over the generator's link graph (no HTTP), for calibration.

``crawl(web, seeds, limit)`` walks the Web the way a polite crawler with the
geofocus filters would: it follows redirects (counting the target, not the
redirect), skips URLs robots.txt disallows, skips non-HTML resources (decided
on the content type, as on response headers), skips error responses, drops
country-code TLDs outside the region's list, and counts every HTML page it
fetches (trap pages included). It is what the calibration test and
``bench/simweb.py`` use; a real crawl through the proxy sees the same pages.
"""

from __future__ import annotations

import heapq
from collections import Counter, deque
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from geofocus.simweb.web import SimWeb


@dataclass
class CrawlResult:
    fetched: int = 0
    relevant: int = 0
    partial: int = 0
    relevant_by_host: Counter = field(default_factory=Counter)
    bridge: Counter = field(default_factory=Counter)     # bridges between relevant pages
    seed_dist: Counter = field(default_factory=Counter)  # seed distance of relevant pages
    order: list = field(default_factory=list)            # (url, relevant) in fetch order

    @property
    def harvest_rate(self) -> float:
        return self.relevant / self.fetched if self.fetched else 0.0

    @property
    def max_host_share(self) -> float:
        if not self.relevant:
            return 0.0
        return max(self.relevant_by_host.values()) / self.relevant


def _split(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return parts.hostname or "", target


def tld_allowed(web: SimWeb, host: str) -> bool:
    tld = host.rsplit(".", 1)[-1]
    return len(tld) != 2 or tld in web.region.tlds


def crawl(web: SimWeb, seeds: list[str], limit: int = 20_000, strategy: str = "bfs",
          decay: float = 0.5, keep_order: bool = False) -> CrawlResult:
    """Crawl ``limit`` HTML pages from ``seeds``: ``bfs`` or ``distance`` (decay score)."""
    res = CrawlResult()
    seen: set[str] = set()
    counter = 0
    # Entries: (-priority, counter, url, dist, seed_dist); for bfs priority = -depth.
    heap: list = []
    fifo: deque = deque()

    def push(url: str, dist: int, sdist: int, prio: float) -> None:
        nonlocal counter
        if url in seen:
            return
        seen.add(url)
        counter += 1
        if strategy == "bfs":
            fifo.append((url, dist, sdist))
        else:
            heapq.heappush(heap, (-prio, counter, url, dist, sdist))

    for s in seeds:
        push(s, 0, 0, 1.0)
    while (fifo or heap) and res.fetched < limit:
        if strategy == "bfs":
            url, dist, sdist = fifo.popleft()
        else:
            _, _, url, dist, sdist = heapq.heappop(heap)
        hostname, target = _split(url)
        if not tld_allowed(web, hostname):
            continue
        r = web.resolve(hostname, target)
        hops = 0
        while r.kind == "redirect" and hops < 5:
            hops += 1
            loc = r.location
            if loc in seen and hops > 0 and loc != url:
                r = None
                break
            seen.add(loc)
            hostname, target = _split(loc)
            if not tld_allowed(web, hostname):
                r = None
                break
            url = loc
            r = web.resolve(hostname, target)
        if r is None or r.kind not in ("page", "trap"):
            continue
        if web.disallowed(r.host, target):
            continue
        if r.kind == "page" and not r.page.is_html:
            continue
        res.fetched += 1
        relevant = r.kind == "page" and r.page.relevant
        if relevant:
            res.relevant += 1
            res.relevant_by_host[r.host.name] += 1
            if sdist > 0:
                res.bridge[dist] += 1
            res.seed_dist[sdist] += 1
        elif r.kind == "page" and r.page.grade == "partial":
            res.partial += 1
        if keep_order:
            res.order.append((url, relevant))
        ndist = 0 if relevant or sdist == 0 else dist + 1
        for link in web.outlinks(r):
            push(link.url, ndist, sdist + 1, decay ** ndist)
    return res
