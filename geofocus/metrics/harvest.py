"""Ahlers & Boll (2009), section 5: harvest rate and the shape of the crawl tree.

- Fig. 7: relevant pages retrieved against all pages retrieved (:func:`harvest_curve`).
- Fig. 8: accumulated relative harvest rate, relevant / fetched (:func:`relative_harvest_rate`).
- Fig. 9: bridge distances, the number of non-relevant pages between a relevant page and the
  nearest relevant page above it in the crawl tree (0: directly linked), and tail lengths,
  branches that leave a relevant page and never reach another one
  (:func:`bridge_distances`, :func:`tail_lengths`).
- Fig. 10: seed distances of relevant pages (:func:`seed_distances`).

The crawl tree is the one the crawler traversed: each page's ``parent`` in crawl.jsonl. A page
whose parent is not in the log (a seed, or a log cut short) is a root.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Page = Mapping[str, Any]


def harvest_curve(pages: Sequence[Page]) -> list[tuple[int, int]]:
    """(pages fetched, relevant pages so far) after every page, in fetch order (Fig. 7)."""
    points = []
    relevant = 0
    for i, page in enumerate(pages, 1):
        relevant += 1 if page.get("relevant") else 0
        points.append((i, relevant))
    return points


def relative_harvest_rate(pages: Sequence[Page]) -> list[tuple[int, float]]:
    """(pages fetched, relevant / fetched so far) after every page (Fig. 8)."""
    return [(n, rel / n) for n, rel in harvest_curve(pages)]


def windowed_harvest_rate(pages: Sequence[Page], window: int = 100) -> list[tuple[int, float]]:
    """(pages fetched, share of relevant pages among the last ``window`` pages)."""
    if window < 1:
        raise ValueError("window must be >= 1")
    points = []
    flags = [1 if p.get("relevant") else 0 for p in pages]
    running = 0
    for i, flag in enumerate(flags):
        running += flag
        if i >= window:
            running -= flags[i - window]
        points.append((i + 1, running / min(i + 1, window)))
    return points


def downsample(points: Sequence[tuple[int, float]], max_points: int = 2000) -> list:
    """At most ``max_points`` of ``points``, evenly spaced, always keeping the last one."""
    if len(points) <= max_points:
        return list(points)
    step = len(points) / max_points
    picked = [points[int(i * step)] for i in range(max_points)]
    if picked[-1] != points[-1]:
        picked[-1] = points[-1]
    return picked


class CrawlTree:
    """The crawl tree of a log: parent links between fetched pages.

    A URL fetched twice (several nodes) counts once, at its first fetch. Parent links that
    point to a URL not in the log, or that would close a cycle, are treated as absent.
    """

    def __init__(self, pages: Sequence[Page]):
        self.urls: list[str] = []
        self.relevant: list[bool] = []
        self.records: list[Page] = []
        index: dict[str, int] = {}
        parent_urls: list[str | None] = []
        for page in pages:
            url = page.get("url")
            if not isinstance(url, str) or url in index:
                continue
            index[url] = len(self.urls)
            self.urls.append(url)
            self.relevant.append(bool(page.get("relevant")))
            self.records.append(page)
            parent_urls.append(page.get("parent"))
        self.index = index
        n = len(self.urls)
        self.parent: list[int | None] = [None] * n
        self.children: list[list[int]] = [[] for _ in range(n)]
        for i, purl in enumerate(parent_urls):
            p = index.get(purl) if isinstance(purl, str) else None
            if p is None or p == i:
                continue
            self.parent[i] = p
        self._break_cycles()
        for i, p in enumerate(self.parent):
            if p is not None:
                self.children[p].append(i)

    def _break_cycles(self) -> None:
        # Logs of a well-behaved crawler have no cycles (a parent is fetched before its
        # child); a hand-edited or merged log might, and a cycle would hang the walks below.
        state = [0] * len(self.parent)  # 0 new, 1 on the current path, 2 done
        for start in range(len(self.parent)):
            path = []
            node: int | None = start
            while node is not None and state[node] == 0:
                state[node] = 1
                path.append(node)
                node = self.parent[node]
            if node is not None and state[node] == 1:
                self.parent[node] = None  # cut the cycle at the node where it closed
            for visited in path:
                state[visited] = 2

    def __len__(self) -> int:
        return len(self.urls)

    def roots(self) -> list[int]:
        return [i for i, p in enumerate(self.parent) if p is None]

    def postorder(self) -> list[int]:
        """Every node after all of its descendants."""
        order: list[int] = []
        for root in self.roots():
            stack: list[tuple[int, bool]] = [(root, False)]
            while stack:
                node, expanded = stack.pop()
                if expanded:
                    order.append(node)
                    continue
                stack.append((node, True))
                stack.extend((child, False) for child in self.children[node])
        return order

    def preorder(self) -> list[int]:
        """Every node after its parent."""
        order: list[int] = []
        for root in self.roots():
            stack = [root]
            while stack:
                node = stack.pop()
                order.append(node)
                stack.extend(self.children[node])
        return order

    def depths(self) -> list[int]:
        """Number of links from the page's root (0 for a root)."""
        depth = [0] * len(self)
        for node in self.preorder():
            p = self.parent[node]
            if p is not None:
                depth[node] = depth[p] + 1
        return depth


@dataclass
class BridgeStats:
    """Fig. 9, left: bridge distances between relevant pages.

    ``distances[k]``: relevant pages with k non-relevant pages between them and the nearest
    relevant page above them. ``without_relevant_ancestor``: relevant pages reached from a
    seed without any relevant page on the way (they have no bridge distance).
    """

    distances: Counter
    without_relevant_ancestor: int

    @property
    def linked(self) -> int:
        return sum(self.distances.values())

    def share_bridged(self) -> float | None:
        """Share of linked relevant pages reached through at least one bridge page."""
        if not self.linked:
            return None
        return 1 - self.distances.get(0, 0) / self.linked


def bridge_distances(pages: Sequence[Page] | CrawlTree) -> BridgeStats:
    tree = pages if isinstance(pages, CrawlTree) else CrawlTree(pages)
    # bridges[i]: non-relevant pages strictly between i and its nearest relevant ancestor,
    # None if it has none.
    bridges: list[int | None] = [None] * len(tree)
    for node in tree.preorder():
        p = tree.parent[node]
        if p is None:
            bridges[node] = None
        elif tree.relevant[p]:
            bridges[node] = 0
        elif (above := bridges[p]) is not None:
            bridges[node] = above + 1
    distances: Counter = Counter()
    orphans = 0
    for node in range(len(tree)):
        if not tree.relevant[node]:
            continue
        if bridges[node] is None:
            orphans += 1
        else:
            distances[bridges[node]] += 1
    return BridgeStats(distances=distances, without_relevant_ancestor=orphans)


def tail_lengths(pages: Sequence[Page] | CrawlTree) -> Counter:
    """Fig. 9, right: lengths of the tails of relevant pages.

    A tail is a branch that leaves a relevant page through a non-relevant child and contains
    no relevant page at all; its length is the number of pages on its longest path (1: a
    single non-relevant page below the relevant one, fetched and never followed further).
    Returns {length: number of tails}.
    """
    tree = pages if isinstance(pages, CrawlTree) else CrawlTree(pages)
    height = [0] * len(tree)
    has_relevant = [False] * len(tree)
    for node in tree.postorder():
        kids = tree.children[node]
        height[node] = 1 + max((height[c] for c in kids), default=0)
        has_relevant[node] = tree.relevant[node] or any(has_relevant[c] for c in kids)
    tails: Counter = Counter()
    for node in range(len(tree)):
        if not tree.relevant[node]:
            continue
        for child in tree.children[node]:
            if not has_relevant[child]:
                tails[height[child]] += 1
    return tails


def seed_distances(pages: Sequence[Page] | CrawlTree) -> Counter:
    """Fig. 10: {seed distance: number of relevant pages}.

    The crawler's ``seed_dist`` (links from the nearest seed) where the log has it, else the
    page's depth in the crawl tree.
    """
    tree = pages if isinstance(pages, CrawlTree) else CrawlTree(pages)
    depths: list[int] | None = None
    counts: Counter = Counter()
    for node, page in enumerate(tree.records):
        if not tree.relevant[node]:
            continue
        dist = page.get("seed_dist")
        if not isinstance(dist, int) or isinstance(dist, bool):
            if depths is None:
                depths = tree.depths()
            dist = depths[node]
        counts[dist] += 1
    return counts


def distribution_summary(counts: Mapping[int, int]) -> dict[str, float | int | None]:
    """n, mean, median and max of a {value: count} distribution (None when empty)."""
    n = sum(counts.values())
    if not n:
        return {"n": 0, "mean": None, "median": None, "max": None}
    mean = sum(k * c for k, c in counts.items()) / n
    running = 0
    median = None
    for k in sorted(counts):
        running += counts[k]
        if running * 2 >= n:
            median = k
            break
    return {"n": n, "mean": mean, "median": median, "max": max(counts)}
