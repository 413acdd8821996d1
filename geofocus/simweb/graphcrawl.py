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
import math
import re
from collections import Counter, deque
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from geofocus.simweb.web import Link, SimWeb

_TOKEN = re.compile(r"[a-zäöüß0-9]+")


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


def link_terms(link: Link, src_host: str) -> list[str]:
    """The link features of Ahlers & Boll, section 4.4, as prefixed terms."""
    parts = urlsplit(link.url)
    host = parts.hostname or ""
    terms = ["h:" + t for t in _TOKEN.findall(host) if t not in ("www", "de", "com")]
    terms += ["p:" + t for t in _TOKEN.findall((parts.path + " " + parts.query).lower()) if not t.isdigit()]
    terms += ["a:" + t for t in _TOKEN.findall(link.anchor.lower())]
    terms += ["t:" + t for t in _TOKEN.findall(link.title.lower())]
    terms += ["s:" + t for t in _TOKEN.findall((link.before + " " + link.after).lower())]
    terms.append("d:switch" if host != src_host else "d:same")
    return terms


class NaiveBayes:
    """Bridge-aware naive Bayes link predictor (a reference for calibration, not the product's)."""

    def __init__(self, depth: int = 3, decay: float = 0.5):
        self.depth = depth
        self.decay = decay
        self.counts = [[Counter(), Counter()] for _ in range(depth)]
        self.totals = [[0, 0] for _ in range(depth)]
        self.docs = [[0, 0] for _ in range(depth)]
        self.vocab: set[str] = set()

    def learn(self, terms: list[str], depth: int, label: bool) -> None:
        d, c = depth - 1, int(label)
        self.counts[d][c].update(terms)
        self.totals[d][c] += len(terms)
        self.docs[d][c] += 1
        self.vocab.update(terms)

    def predict(self, terms: list[str]) -> float:
        num = den = 0.0
        v = len(self.vocab) + 1
        for d in range(self.depth):
            n0, n1 = self.docs[d]
            if n0 == 0 or n1 == 0:
                continue
            logp = [math.log(n0 / (n0 + n1)), math.log(n1 / (n0 + n1))]
            for c in (0, 1):
                cnt, tot = self.counts[d][c], self.totals[d][c] + v
                logp[c] += sum(math.log((cnt[t] + 1) / tot) for t in terms)
            diff = max(-50.0, min(50.0, logp[0] - logp[1]))
            w = self.decay ** (d + 1)
            num += w / (1.0 + math.exp(diff))
            den += w
        return num / den if den else 0.0


_SESSION = re.compile(r"(?:^|[?&;])(?:sid|jsessionid|phpsessid|sessionid)=", re.I)


def looks_like_trap(url: str) -> bool:
    """The simplest of geofocus's trap filters: session ids, a path segment repeated 3 times."""
    parts = urlsplit(url)
    if _SESSION.search(parts.query) or ";jsessionid=" in parts.path.lower():
        return True
    segments = [s for s in parts.path.split("/") if s]
    return any(n >= 3 for n in Counter(segments).values())


def crawl(web: SimWeb, seeds: list[str], limit: int = 20_000, strategy: str = "bfs",
          decay: float = 0.5, keep_order: bool = False, depth: int = 3) -> CrawlResult:
    """Crawl ``limit`` HTML pages from ``seeds``: ``bfs``, ``distance`` (decay score) or
    ``adaptive`` (decay + a bridge-aware naive Bayes link prediction, Ahlers & Boll 4.5)."""
    nb = NaiveBayes(depth, decay) if strategy == "adaptive" else None
    chain: dict[str, tuple] = {}          # url -> (terms of the links above it, nearest first)
    res = CrawlResult()
    seen: set[str] = set()
    counter = 0
    # Entries: (-priority, counter, url, dist, seed_dist); for bfs priority = -depth.
    heap: list = []
    fifo: deque = deque()

    def push(url: str, dist: int, sdist: int, prio: float, terms: tuple = ()) -> None:
        nonlocal counter
        if url in seen:
            return
        seen.add(url)
        if nb is not None:
            chain[url] = terms
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
        hostname, target = split_url(url)
        if not tld_allowed(web, hostname) or looks_like_trap(url):
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
            hostname, target = split_url(loc)
            if not tld_allowed(web, hostname):
                r = None
                break
            url = loc
            r = web.resolve(hostname, target)
        if r is None or r.kind not in ("page", "trap"):
            continue
        above = chain.pop(url, ()) if nb is not None else ()
        if web.disallowed(r.host, target):
            continue
        if r.kind == "page" and not r.page.is_html:
            continue
        res.fetched += 1
        # Relevance as the ground truth counts it: canonical URLs only (not session-id copies).
        relevant = r.kind == "page" and r.page.relevant and url == r.page.url
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
        if nb is not None:
            for k, terms in enumerate(above[:depth]):
                nb.learn(terms, k + 1, relevant)
        score = decay ** (ndist + 1)          # a child of a relevant page has dist 1
        for link in web.outlinks(r):
            if link.url in seen:
                continue
            if nb is None:
                push(link.url, ndist, sdist + 1, score)
            else:
                terms = link_terms(link, hostname)
                prio = score + nb.predict(terms) * (1 - score)
                push(link.url, ndist, sdist + 1, prio, (terms,) + above[: depth - 1])
    return res
