"""Link extraction per page on simweb pages: this tree against another copy, and the parse alone.

    python bench/linkextract.py [--pages 600] [--module FILE] [--json F]

Renders ``--pages`` HTML pages of a simweb (100,000 pages, seed 21: the web of
``bench/speed.py``, every 97th page), parses each once with parsel (as the
spider gets it) and times, per page and in CPU time (best of 5 passes), the
link extraction of the crawl (:func:`page_events` and :func:`iter_links` with
a SHA-1 fingerprint of :func:`normalize_url` as the key) on the first pass
(nothing remembered yet) and on a later pass (every page's links seen
before), and the parse with lxml.  ``--module FILE`` runs the same passes with
another copy of ``geofocus/linkextract.py`` (an A/B against an older version)
and checks that both give the same links.  If selectolax is importable, the
Lexbor parse of the same pages and a bare walk over its nodes are timed too:
the most a Lexbor-based extraction could save (it would still need the
context windows and the URL work).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geofocus.urlnorm import normalize_url  # noqa: E402


def simweb_pages(count: int) -> list[tuple[str, str]]:
    from geofocus.simweb.params import WebParams
    from geofocus.simweb.render import render_page
    from geofocus.simweb.web import SimWeb

    web = SimWeb(WebParams(pages=100_000, seed=21, region="oldenburg", latency_scale=0.0))
    pages = []
    for pid in range(0, 100_000, 97):
        url = web.url(pid)
        parts = urlsplit(url)
        res = web.resolve(parts.hostname or "", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""))
        if res.kind == "page" and res.page is not None and res.page.is_html:
            pages.append((url, render_page(web, res.page, web.outlinks(res))))
        if len(pages) >= count:
            break
    return pages


class Fingerprints:
    """A request fingerprint as a crawl's key (a method of a living object, like the scheduler's)."""

    def key(self, url: str) -> str:
        return hashlib.sha1(b"GET\0" + normalize_url(url).encode() + b"\0").hexdigest()


def best_of(passes: int, run) -> float:
    best = float("inf")
    for _ in range(passes):
        t0 = time.process_time()
        run()
        best = min(best, time.process_time() - t0)
    return best


def measure(module: ModuleType, roots: list) -> tuple[dict[str, float], list]:
    def run(fingerprints: Fingerprints) -> list:
        out = []
        for url, html, root in roots:
            events, _ = module.page_events(root, html)
            out.append(list(module.iter_links(root, url, key=fingerprints.key, events=events)))
        return out

    n = len(roots)
    cold = []
    for _ in range(5):  # a new key owner each time: nothing remembered
        fingerprints = Fingerprints()
        getattr(module, "_RESOLVED", {}).clear()
        t0 = time.process_time()
        links = run(fingerprints)
        cold.append(time.process_time() - t0)
    warm = best_of(5, lambda: run(fingerprints))
    return {"first_pass_ms_per_page": round(1000 * min(cold) / n, 3),
            "later_pass_ms_per_page": round(1000 * warm / n, 3)}, links


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--module", default="", help="another linkextract.py to compare with")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    from parsel import Selector

    import geofocus.linkextract as current

    pages = simweb_pages(args.pages)
    roots = [(url, html, Selector(text=html).root) for url, html in pages]
    n = len(roots)
    links = sum(len(r[2].xpath("//a[@href]")) for r in roots)
    results: dict = {"pages": n, "avg_chars": round(sum(len(h) for _, h in pages) / n),
                     "a_href_per_page": round(links / n, 1)}

    def parse_lxml() -> None:
        for _, h in pages:
            Selector(text=h).root  # noqa: B018

    results["lxml_parse_ms_per_page"] = round(1000 * best_of(5, parse_lxml) / n, 3)
    results["this_tree"], ours = measure(current, roots)
    if args.module:
        spec = importlib.util.spec_from_file_location("linkextract_under_test", args.module)
        other = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(other)
        results["other"], theirs = measure(other, roots)
        results["same_links"] = ours == theirs
    try:
        from selectolax.lexbor import LexborHTMLParser
    except ImportError:
        pass
    else:
        def parse_lexbor() -> None:
            for _, h in pages:
                LexborHTMLParser(h)

        results["lexbor_parse_ms_per_page"] = round(1000 * best_of(5, parse_lexbor) / n, 3)

        def walk() -> None:
            for _, h in pages:
                for _node in LexborHTMLParser(h).root.traverse(include_text=True):
                    pass

        results["lexbor_parse_and_walk_ms_per_page"] = round(1000 * best_of(5, walk) / n, 3)
    for key, value in results.items():
        print(f"{key:>34}: {value}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
