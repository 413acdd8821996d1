"""In-process crawls over the generator's link graph (no HTTP), for calibration.

``crawl(web, seeds, limit)`` walks the Web the way a polite crawler with the
geofocus filters would: it follows redirects (counting the target, not the
redirect), skips URLs robots.txt disallows, skips non-HTML resources (decided
on the content type, as on response headers), skips error responses, drops
country-code TLDs outside the region's list, and counts every HTML page it
fetches. Like the crawler's trap filter it drops session-id URLs and paths
that repeat a segment three times; endless calendars and faceted searches
stay in (a crawler only catches those by counting). It is what the calibration test and
``bench/simweb.py`` use; a real crawl through the proxy sees the same pages.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter, deque
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from geofocus.prediction.features import link_terms
from geofocus.prediction.model import BridgeNaiveBayes, priority
from geofocus.simweb.entities import Link, Resolved
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
    # keep_tree: per fetched page, in fetch order, (url, relevant, seed distance, index of the
    # fetched page whose link queued it first; -1 for a seed): the crawl tree
    tree: list = field(default_factory=list)

    @property
    def harvest_rate(self) -> float:
        return self.relevant / self.fetched if self.fetched else 0.0

    @property
    def max_host_share(self) -> float:
        if not self.relevant:
            return 0.0
        return max(self.relevant_by_host.values()) / self.relevant


def split_url(url: str) -> tuple[str, str]:
    """(host, path with query) of a URL, as simweb's server looks pages up."""
    parts = urlsplit(url)
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return parts.hostname or "", target


def tld_allowed(web: SimWeb, host: str) -> bool:
    tld = host.rsplit(".", 1)[-1]
    return len(tld) != 2 or tld in web.region.tlds


_SESSION = re.compile(r"(?:^|[?&;])(?:sid|jsessionid|phpsessid|sessionid)=", re.I)


def looks_like_trap(url: str) -> bool:
    """The simplest of geofocus's trap filters: session ids, a path segment repeated 3 times."""
    parts = urlsplit(url)
    if _SESSION.search(parts.query) or ";jsessionid=" in parts.path.lower():
        return True
    segments = [s for s in parts.path.split("/") if s]
    return any(n >= 3 for n in Counter(segments).values())


def follow(web: SimWeb, url: str, seen: set[str], max_hops: int = 5) -> tuple[str, str, Resolved] | None:
    """Fetch ``url`` as the crawler would: (final URL, its path with query, what it is) of a page or trap.

    None where the TLD or trap filter drops the URL, where it does not lead to a page or a
    trap page, or where a redirect leaves the region's TLDs or leads to a URL already in
    ``seen`` (which collects every redirect target, as the scheduler's dedupe does).
    """
    hostname, target = split_url(url)
    if not tld_allowed(web, hostname) or looks_like_trap(url):
        return None
    r = web.resolve(hostname, target)
    hops = 0
    while r.kind == "redirect" and hops < max_hops:
        hops += 1
        loc = r.location
        if loc in seen and loc != url:
            return None
        seen.add(loc)
        hostname, target = split_url(loc)
        if not tld_allowed(web, hostname):
            return None
        url = loc
        r = web.resolve(hostname, target)
    if r.kind not in ("page", "trap"):
        return None
    return url, target, r


def features(link: Link, source_url: str) -> list[str]:
    """The product's link terms (``prediction.features.link_terms``) of a simweb link, with the
    context the spider's link extractor builds (the text before and after the anchor)."""
    return link_terms({"url": link.url, "source_url": source_url, "anchor": link.anchor, "title": link.title,
                       "context": f"{link.before} {link.after}".strip()})


def crawl(web: SimWeb, seeds: list[str], limit: int = 20_000, strategy: str = "bfs",
          decay: float = 0.5, keep_order: bool = False, depth: int = 3, keep_tree: bool = False) -> CrawlResult:
    """Crawl ``limit`` HTML pages from ``seeds``: ``bfs``, ``distance`` (decay score) or
    ``adaptive`` (decay + the product's bridge-aware naive Bayes, ``prediction.model``, over the
    product's link terms, ``prediction.features``: Ahlers & Boll 4.5)."""
    nb = BridgeNaiveBayes(depth) if strategy == "adaptive" else None
    chain: dict[str, tuple] = {}          # url -> (terms of the links above it, nearest first)
    res = CrawlResult()
    seen: set[str] = set()
    counter = 0
    # Entries: (-priority, counter, url, dist, seed_dist, parent index); bfs keeps a FIFO instead.
    heap: list = []
    fifo: deque = deque()

    def push(url: str, dist: int, sdist: int, prio: float, par: int, terms: tuple = ()) -> None:
        nonlocal counter
        if url in seen:
            return
        seen.add(url)
        if nb is not None:
            chain[url] = terms
        counter += 1
        if strategy == "bfs":
            fifo.append((url, dist, sdist, par))
        else:
            heapq.heappush(heap, (-prio, counter, url, dist, sdist, par))

    for s in seeds:
        push(s, 0, 0, 1.0, -1)
    while (fifo or heap) and res.fetched < limit:
        if strategy == "bfs":
            url, dist, sdist, par = fifo.popleft()
        else:
            _, _, url, dist, sdist, par = heapq.heappop(heap)
        fetched = follow(web, url, seen)
        if fetched is None:
            continue
        url, target, r = fetched
        above = chain.pop(url, ()) if nb is not None else ()
        host = r.require_host()
        if web.disallowed(host, target):
            continue
        page = r.require_page() if r.kind == "page" else None
        if page is not None and not page.is_html:
            continue
        me = res.fetched
        res.fetched += 1
        # Relevance as the ground truth counts it: canonical URLs only (not session-id copies).
        relevant = page is not None and page.relevant and url == page.url
        if relevant:
            res.relevant += 1
            res.relevant_by_host[host.name] += 1
            if sdist > 0:
                res.bridge[dist] += 1
            res.seed_dist[sdist] += 1
        elif page is not None and page.grade == "partial":
            res.partial += 1
        if keep_order:
            res.order.append((url, relevant))
        if keep_tree:
            res.tree.append((url, relevant, sdist, par))
        ndist = 0 if relevant or sdist == 0 else dist + 1
        if nb is not None:
            for k, terms in enumerate(above[:depth]):
                nb.learn(terms, k + 1, relevant)
        score = decay ** (ndist + 1)          # a child of a relevant page has dist 1
        for link in web.outlinks(r):
            if link.url in seen:
                continue
            if nb is None:
                push(link.url, ndist, sdist + 1, score, me)
            else:
                terms = features(link, url)
                prio = priority(score, nb.prediction(terms, decay))
                push(link.url, ndist, sdist + 1, prio, me, (terms,) + above[: depth - 1])
    return res
