"""The classifier strategy on simweb's graph, in process (no HTTP): training data and depth-limited crawls.

The paper's experiments (Tsikrika et al., section 5) are crawls limited to a
depth of 1, 2 or 3 from the seeds and without a page budget, so the pages a
crawl fetches are the closure of its selection policy over the link graph: the
order of fetching does not matter.  :func:`closure` computes that closure
level by level, seeing each page as the crawler does (the served HTML,
:func:`geofocus.linkextract.extract_links` for the links and their a+s text,
the classifiers on the served image bytes), which makes a 9 x 9 threshold
grid affordable; ``bench/classifier.py`` checks it against real crawls.

:func:`link_examples` gives (a+s text, label) pairs of a Web's links labelled
by their target's grade, for training a link SVM without crawling.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from random import Random
from typing import Any

from lxml import html as lxml_html

from geofocus.classifier.image import ImageRejected, MapImageClassifier
from geofocus.classifier.policy import DROP, EXPLORE, ClassifierPolicy
from geofocus.classifier.text import LinkTextClassifier, link_text
from geofocus.linkextract import extract_links
from geofocus.simweb.graphcrawl import looks_like_trap, split_url, tld_allowed
from geofocus.simweb.images import image_bytes, page_images
from geofocus.simweb.render import page_html
from geofocus.simweb.web import Page, SimWeb


@dataclass
class SeenPage:
    url: str
    page: Page
    links: list[dict[str, Any]]


@dataclass
class Visit:
    url: str
    depth: int
    trail: int
    grade: str
    score_t: float | None
    score_v: float


class SimView:
    """Pages of a simweb Web as the crawler sees them (cached)."""

    def __init__(self, web: SimWeb, image: MapImageClassifier | None = None, max_images: int = 20):
        self.web = web
        self.image = image
        self.max_images = max_images
        self._pages: dict[str, SeenPage | None] = {}
        self._image_scores: dict[str, float | None] = {}

    def fetch(self, url: str) -> SeenPage | None:
        if url in self._pages:
            return self._pages[url]
        seen = self._fetch(url)
        self._pages[url] = seen
        return seen

    def _fetch(self, url: str) -> SeenPage | None:
        web = self.web
        for _ in range(6):
            host, target = split_url(url)
            if not tld_allowed(web, host) or looks_like_trap(url):
                return None
            r = web.resolve(host, target)
            if r.kind == "redirect":
                url = r.location
                continue
            if r.kind != "page" or r.page is None or r.host is None or not r.page.is_html \
                    or web.disallowed(r.host, target):
                return None
            # Session-id copies are not the canonical page: the truth counts the canonical URL only.
            if r.sid:
                return None
            root = lxml_html.document_fromstring(page_html(web, r.page))
            links = [link for link in extract_links(root, url) if not link.pop("nofollow")]
            return SeenPage(url, r.page, links)
        return None

    def score_v(self, page: Page) -> float:
        """max P(map) over the page's images (1 with a map embed), as the middleware computes it."""
        if self.image is None:
            return 0.0
        images = page_images(self.web, page)
        if any(im.kind == "embed" for im in images):
            return 1.0
        best = 0.0
        fetched = [im for im in images if im.width >= 100 and im.height >= 50][: self.max_images]
        for im in fetched:
            if im.url not in self._image_scores:
                _, body = image_bytes(self.web.seed, im.url, im.kind, im.served)
                try:
                    self._image_scores[im.url] = self.image.score_bytes(body)
                except ImageRejected:
                    self._image_scores[im.url] = None
            score = self._image_scores[im.url]
            if score is not None:
                best = max(best, score)
        return best


def closure(view: SimView, seeds: Iterable[str], max_depth: int, policy: ClassifierPolicy | None = None,
            text: LinkTextClassifier | None = None) -> list[Visit]:
    """The pages a crawl limited to ``max_depth`` fetches: every link (``policy`` None, breadth-first)
    or the links ``policy`` selects or explores, with score_T from ``text``."""
    level: dict[str, tuple[int, float | None]] = {}
    for s in seeds:
        level.setdefault(s, (0, None))
    queued: set[str] = set(level)
    visits: list[Visit] = []
    fetched: set[str] = set()
    score_cache: dict[int, float] = {}
    for depth in range(max_depth + 1):
        nxt: dict[str, tuple[int, float | None]] = {}
        for url, (trail, score_t) in level.items():
            seen = view.fetch(url)
            if seen is None or seen.url in fetched:
                continue
            fetched.add(seen.url)
            score_v = view.score_v(seen.page) if policy is not None and policy.uses_images else 0.0
            visits.append(Visit(seen.url, depth, trail, seen.page.grade, score_t, score_v))
            if depth == max_depth:
                continue
            for link in seen.links:
                target = link["url"]
                if policy is None:
                    if target not in queued:
                        queued.add(target)
                        nxt[target] = (0, None)
                    continue
                assert text is not None
                key = hash(link_text(link))
                st = score_cache.get(key)
                if st is None:
                    st = score_cache[key] = text.score(link)
                decision = policy.decide(st, score_v, trail)
                if decision == DROP:
                    continue
                new_trail = trail + 1 if decision == EXPLORE else 0
                if target in queued:
                    # Found again: a selection beats an exploration (the frontier re-prioritises it).
                    if target in nxt and nxt[target][0] > new_trail:
                        nxt[target] = (new_trail, st)
                    continue
                queued.add(target)
                nxt[target] = (new_trail, st)
        level = nxt
    return visits


def link_examples(web: SimWeb, pages: int, seed: int = 0, lenient: bool = False) -> tuple[list[str], list[bool]]:
    """(a+s text, target relevant) of the links of ``pages`` random HTML pages of ``web``."""
    view = SimView(web)
    wanted = ("relevant", "partial") if lenient else ("relevant",)
    rng = Random(seed)
    texts: list[str] = []
    labels: list[bool] = []
    tried = 0
    while tried < pages:
        pid = rng.randrange(web.p.pages)
        seen = view.fetch(web.url(pid))
        if seen is None:
            continue
        tried += 1
        for link in seen.links:
            host, target = split_url(link["url"])
            r = web.resolve(host, target)
            for _ in range(5):
                if r.kind != "redirect":
                    break
                h2, t2 = split_url(r.location)
                r = web.resolve(h2, t2)
            grade = r.page.grade if r.kind == "page" and r.page is not None else "none"
            texts.append(link_text(link))
            labels.append(grade in wanted)
    return texts, labels
