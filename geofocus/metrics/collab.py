"""Gao, Lee & Miao (2006), sections 4 and 5.3: measures of (collaborative) geo crawls.

Every function takes the page records of one crawl (all its nodes together: the pages of
several run directories of one collaborative crawl, or one run directory) and returns a
number or :class:`NotAvailable` with the reason (e.g. overlap of a crawl with one node).

A page is *geographically aware* when it carries at least one address of the target region
(its ``relevant`` flag, or a non-empty ``addresses`` list). The crawl graph is the crawl
tree of the log (parent -> child links the crawler followed): the log records the link that
found each page, not every link of the Web.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from geofocus.metrics.addresses import count_entities
from geofocus.metrics.base import NotAvailable, ratio
from geofocus.metrics.harvest import CrawlTree

Page = Mapping[str, Any]


def is_geo_aware(page: Page) -> bool:
    return bool(page.get("relevant")) or bool(page.get("addresses"))


def nodes_of(pages: Iterable[Page]) -> list[str]:
    """The distinct crawling nodes named in the pages (None counts as one unnamed node)."""
    return sorted({str(p.get("node")) if p.get("node") else "" for p in pages})


def geo_coverage(pages: Sequence[Page]) -> float | NotAvailable:
    """Pages with at least one geographic entity of the targets / all retrieved pages."""
    return ratio(sum(1 for p in pages if is_geo_aware(p)), len(pages), "no pages fetched")


def entity_ratio(pages: Sequence[Page]) -> float | NotAvailable:
    """Distinct geographic entities / all entity occurrences (Table 5): 1 = no repeats."""
    distinct, total = count_entities(pages)
    return ratio(distinct, total, "no addresses found")


def page_cities(page: Page, canonical: Callable[[str], str] | None = None) -> list[str]:
    """The cities of a page's addresses, canonicalised (lower-cased by default)."""
    canon = canonical or (lambda c: c.strip().lower())
    cities = []
    for address in page.get("addresses") or ():
        if isinstance(address, Mapping) and address.get("city"):
            cities.append(canon(str(address["city"])))
    return cities


def main_city(page: Page, canonical: Callable[[str], str] | None = None) -> str | None:
    """The page's most probable city: the most frequent city among its addresses.

    Ties go to the alphabetically first city, so the choice is deterministic.
    """
    counts = Counter(page_cities(page, canonical))
    if not counts:
        return None
    return min(counts, key=lambda c: (-counts[c], c))


def geo_focus(
    pages: Sequence[Page],
    assignment: Mapping[str, Iterable[str]] | None,
    canonical: Callable[[str], str] | None = None,
) -> dict[str, float | NotAvailable] | NotAvailable:
    """Per node: share of its geographically aware pages that carry an address of one of
    the cities assigned to it (Table 4).

    ``assignment`` maps node name -> its cities. Without one (a single-node crawl, or a
    crawl that did not record its partition), the measure is not available.
    """
    nodes = [n for n in nodes_of(pages) if n]
    if len(nodes) < 2:
        return NotAvailable("one crawling node only (it owns every target city)")
    if not assignment:
        return NotAvailable("the runs do not record which cities each node owns")
    canon = canonical or (lambda c: c.strip().lower())
    result: dict[str, float | NotAvailable] = {}
    for node in nodes:
        owned = {canon(c) for c in assignment.get(node, ())}
        if not owned:
            result[node] = NotAvailable(f"no cities assigned to node {node} (general node)")
            continue
        aware = [p for p in pages if p.get("node") == node and page_cities(p, canon)]
        hits = sum(1 for p in aware if owned.intersection(page_cities(p, canon)))
        result[node] = ratio(hits, len(aware), f"node {node} found no addresses")
    return result


def geo_centrality_scores(
    pages: Sequence[Page] | CrawlTree, k: int = 2, m: float = 10.0
) -> list[float]:
    """GCt_k(p) for every page of the crawl tree, in the tree's order (first fetches).

    GCt_k(p) = sum of m ** -GD(p, q) over geographically aware pages q with GD(p, q) <= k,
    GD the number of links followed from p (0 for q = p). This follows the paper's Example 3
    (w_0 = 1, w_1 = 0.1, w_2 = 0.01 with Omega_2 reaching distance 2): m = 10 and distances
    up to k inclusive.
    """
    if k < 0 or m <= 0:
        raise ValueError("k must be >= 0 and m > 0")
    tree = pages if isinstance(pages, CrawlTree) else CrawlTree(pages)
    aware = [is_geo_aware(r) for r in tree.records]
    total = [1.0 if a else 0.0 for a in aware]
    # level[i]: geo-aware pages exactly d links below i (a tree: each is reached once).
    level = [1 if a else 0 for a in aware]
    for d in range(1, k + 1):
        level = [sum(level[c] for c in kids) if kids else 0 for kids in tree.children]
        weight = m**-d
        for i, count in enumerate(level):
            if count:
                total[i] += weight * count
    return total


def geo_centrality(
    pages: Sequence[Page] | CrawlTree, k: int = 2, m: float = 10.0
) -> float | NotAvailable:
    """Mean GCt_k over the pages of the crawl graph (the paper's Table 6 figure)."""
    scores = geo_centrality_scores(pages, k, m)
    return ratio(sum(scores), len(scores), "no pages fetched")


def overlap(pages: Sequence[Page]) -> float | NotAvailable:
    """(N - I) / N: N pages downloaded by all nodes, I of them distinct (Table 7)."""
    if len([n for n in nodes_of(pages) if n]) < 2:
        return NotAvailable("one crawling node only")
    n = len(pages)
    distinct = len({p.get("url") for p in pages})
    return ratio(n - distinct, n, "no pages fetched")


def host_of(url: str) -> str:
    """The lower-cased host name of an absolute URL ("" if it has none)."""
    # A plain split, not urlsplit: diversity looks at every page of a crawl.
    _, sep, rest = url.partition("//")
    if not sep:
        return ""
    netloc = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rsplit("@", 1)[-1]
    if netloc.startswith("["):  # IPv6 literal
        return netloc.split("]", 1)[0].lstrip("[").lower()
    return netloc.split(":", 1)[0].lower()


def diversity(pages: Sequence[Page]) -> float | NotAvailable:
    """S / N: distinct domain names (hosts) of downloaded pages / pages downloaded (Table 8)."""
    hosts = {host_of(str(p.get("url", ""))) for p in pages}
    hosts.discard("")
    return ratio(len(hosts), len(pages), "no pages fetched")


def communication_overhead(
    pages: Sequence[Page], exchanged: int | None = None
) -> float | NotAvailable:
    """URLs exchanged between nodes per downloaded page (Table 9).

    ``exchanged``: the count the nodes recorded (URLs sent to another node). Without it, the
    log gives a lower bound: pages fetched by one node whose parent was fetched by another
    (every such URL was handed over; URLs handed over but never fetched are not in the log).
    """
    if len([n for n in nodes_of(pages) if n]) < 2:
        return NotAvailable("one crawling node only: no URLs are exchanged")
    if not pages:
        return NotAvailable("no pages fetched")
    if exchanged is None:
        node_of: dict[str | None, Any] = {}
        for p in pages:
            node_of.setdefault(p.get("url"), p.get("node"))
        handed_over = [
            p for p in pages if p.get("parent") in node_of and node_of[p.get("parent")] != p.get("node")
        ]
        exchanged = len(handed_over)
    return exchanged / len(pages)


def geographic_locality(
    pages: Sequence[Page] | CrawlTree, canonical: Callable[[str], str] | None = None
) -> tuple[float, float] | NotAvailable:
    """(delta, delta~): the share of linked pairs / of unlinked pairs of pages that are
    pertinent to the same city (section 5.3, Table 11).

    Pairs are unordered pairs of distinct pages that carry at least one address (a page's
    city is its most probable one, :func:`main_city`); "linked" means one page was found
    through a link of the other in the crawl tree.
    """
    tree = pages if isinstance(pages, CrawlTree) else CrawlTree(pages)
    city: list[str | None] = [main_city(r, canonical) for r in tree.records]
    located = [i for i, c in enumerate(city) if c is not None]
    n = len(located)
    if n < 2:
        return NotAvailable("fewer than two pages with addresses")
    per_city = Counter(city[i] for i in located)
    if len(per_city) < 2:
        return NotAvailable("all pages with addresses are in one city")
    linked = linked_same = 0
    for i in located:
        p = tree.parent[i]
        if p is not None and city[p] is not None:
            linked += 1
            linked_same += city[p] == city[i]
    if not linked:
        return NotAvailable("no two pages with addresses are linked in the crawl tree")
    all_pairs = n * (n - 1) // 2
    same_pairs = sum(c * (c - 1) // 2 for c in per_city.values())
    unlinked = all_pairs - linked
    if not unlinked:
        return NotAvailable("every pair of pages with addresses is linked")
    return linked_same / linked, (same_pairs - linked_same) / unlinked


def group_by_node(pages: Sequence[Page]) -> dict[str, list[Page]]:
    groups: dict[str, list[Page]] = defaultdict(list)
    for p in pages:
        groups[str(p.get("node") or "")].append(p)
    return dict(groups)
