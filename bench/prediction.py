"""Micro-benchmark of the link prediction: links scored per second, examples learned per second.

    python bench/prediction.py [--links 20000] [--train 200000] [--json OUT]

Synthetic but realistically shaped links (German words from a Zipfian
vocabulary, hosts, paths, anchors, 10-20 words of context).  Measures, on one
core: feature extraction (link_terms), the model query (prediction), both
together, the spider middleware's output path with real Scrapy Requests
(features + prediction + meta), learning, and saving/loading the trained model.
Rates are per CPU-second of this process (time.process_time), so that a busy
machine does not distort them.  Results are printed, not asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geofocus.prediction.features import link_terms  # noqa: E402
from geofocus.prediction.model import BridgeNaiveBayes  # noqa: E402

SYLLABLES = (
    "ber gen stadt haus wald feld burg dorf bach berg markt kir che schul rat hof platz "
    "weg garten bau werk land see holz stein bruck muehl ander lin ost west nord sued"
).split()
SPECIAL = ["Kontakt", "Impressum", "Anfahrt", "Standorte", "Öffnungszeiten", "AGB", "Jobs",
           "Datenschutz", "Presse", "Produkte", "Über uns", "Kontaktformular", "Wegbeschreibung"]


def vocabulary(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))) for _ in range(n)]


def make_links(rng: random.Random, n: int, vocab: list[str]) -> list[tuple[dict, bool]]:
    """(link, label) pairs; labels depend on a few terms so the model has something to learn."""
    def word() -> str:
        # Skewed towards the first words (a few frequent, a long tail of rare ones).
        return vocab[int(len(vocab) * rng.random() ** 3)]

    out = []
    for _ in range(n):
        host = f"www.{word()}-{word()}.de"
        special = rng.random() < 0.3
        anchor = rng.choice(SPECIAL) if special else " ".join(word().capitalize() for _ in range(rng.randint(1, 3)))
        path = "/" + "/".join(word() for _ in range(rng.randint(0, 3)))
        if special:
            path += "/" + anchor.lower().replace(" ", "-")
        link = {
            "url": f"http://{host}{path}" + (f"?id={rng.randint(1, 99999)}" if rng.random() < 0.2 else ""),
            "source_url": f"http://www.{word()}.de/{word()}" if rng.random() < 0.5 else f"http://{host}/",
            "anchor": anchor,
            "title": " ".join(word() for _ in range(rng.randint(0, 4))),
            "context": " ".join(word() for _ in range(rng.randint(10, 20)))
            + (f" {rng.randint(26100, 26199)} Oldenburg" if rng.random() < 0.1 else ""),
        }
        label = rng.random() < (0.6 if anchor in ("Kontakt", "Impressum", "Anfahrt", "Kontaktformular") else 0.05)
        out.append((link, label))
    return out


def make_pages(
    rng: random.Random, n_pages: int, vocab: list[str], links_per_page: int, nav: int
) -> list[list[dict]]:
    """Pages of links: ``nav`` navigation links repeat on every page of a site (as on the Web),
    the rest are the page's own."""
    pages: list[list[dict]] = []
    per_site = 20
    for site in range(0, n_pages, per_site):
        home = f"http://www.site{site}.de/"
        site_nav = [link for link, _ in make_links(rng, nav, vocab)]
        for link in site_nav:
            link["source_url"] = home
        for p in range(min(per_site, n_pages - site)):
            url = f"{home}seite{p}"
            own = [link for link, _ in make_links(rng, links_per_page - nav, vocab)]
            for link in own:
                link["source_url"] = url
            pages.append([dict(link, source_url=url) for link in site_nav] + own)
    return pages


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def timed(fn, *args, repeat: int = 1):
    """(result, best CPU time of ``repeat`` runs).

    CPU time of this process, not wall-clock time: the machine is shared, and
    other processes' load must not count as the prediction's cost.
    """
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        result = fn(*args)
        best = min(best, time.process_time() - start)
    return result, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--links", type=int, default=20000, help="links to score")
    ap.add_argument("--train", type=int, default=200000, help="training examples before scoring")
    ap.add_argument("--pages", type=int, default=400, help="pages of links for the per-page figures")
    ap.add_argument("--links-per-page", type=int, default=50)
    ap.add_argument("--nav", type=int, default=15, help="navigation links per page, repeated site-wide")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="OUT", help="also write the results as JSON to OUT")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    vocab = vocabulary(rng, 50000)
    train_links = make_links(rng, min(args.train, 50000), vocab)
    score_links = make_links(rng, args.links, vocab)
    pages = make_pages(rng, args.pages, vocab, args.links_per_page, args.nav)

    # Features: first pass has cold per-token caches, the second is the steady state of a crawl.
    _, t_cold = timed(lambda: [link_terms(link) for link, _ in score_links])
    terms_list, t_feat = timed(lambda: [link_terms(link) for link, _ in score_links], repeat=3)
    train_terms = [(link_terms(link), label) for link, label in train_links]

    # Learning: each example is one link's terms at one depth, as the crawl produces them.
    model = BridgeNaiveBayes(args.depth)
    examples = [(train_terms[i % len(train_terms)], 1 + i % args.depth) for i in range(args.train)]

    def learn_all() -> None:
        for (terms, label), d in examples:
            model.learn(terms, d, label)

    _, t_learn = timed(learn_all)

    _, t_pred = timed(lambda: [model.prediction(t) for t in terms_list], repeat=3)
    _, t_both = timed(lambda: [model.prediction(link_terms(link)) for link, _ in score_links], repeat=3)

    # The middleware's output path, with real Scrapy Requests, page by page.
    from scrapy import Request, Spider
    from scrapy.http import HtmlResponse
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from geofocus.spidermiddlewares.prediction import LinkPredictionMiddleware

    class BenchSpider(Spider):
        name = "bench"

    run_dir = tempfile.mkdtemp(prefix="bench-prediction-")
    crawler = get_crawler(BenchSpider, {"GEOFOCUS_PREDICTION_DEPTH": args.depth, "GEOFOCUS_STRATEGY": "adaptive",
                                        "GEOFOCUS_RUN_DIR": run_dir})
    crawler.spider = crawler._create_spider()
    mw = build_from_crawler(LinkPredictionMiddleware, crawler)
    mw.model = model
    parent_path = [train_terms[0][0], train_terms[1][0]]

    def page_input(links: list[dict]) -> tuple[HtmlResponse, list[Request]]:
        src = links[-1]["source_url"]
        resp = HtmlResponse(
            src, body=b"", request=Request(src, meta={"geofocus": {"relevant": False, "path": parent_path}})
        )
        reqs = [
            Request(link["url"], meta={"geofocus": {"score": 0.5, "priority": 0.5, "link": link}}) for link in links
        ]
        return resp, reqs

    def run_pages() -> None:
        for resp, reqs in inputs:
            for _ in mw.process_spider_output(resp, reqs):
                pass

    from geofocus.prediction import features

    features._terms.cache_clear()  # the per-page figures start with a cold link cache
    inputs = [page_input(links) for links in pages]
    _, t_pages_cold = timed(run_pages)
    inputs = [page_input(links) for links in pages]
    _, t_pages = timed(run_pages, repeat=3)
    shutil.rmtree(run_dir, ignore_errors=True)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.json")
        _, t_save = timed(model.save, path)
        size = os.path.getsize(path)
        _, t_load = timed(BridgeNaiveBayes.load, path)

    n = len(score_links)
    avg_terms = sum(map(len, terms_list)) / n
    results = {
        "links": n,
        "train_examples": args.train,
        "depth": args.depth,
        "avg_terms_per_link": round(avg_terms, 1),
        "features_links_per_s_cold": round(rate(n, t_cold)),
        "features_links_per_s": round(rate(n, t_feat)),
        "prediction_links_per_s": round(rate(n, t_pred)),
        "scored_links_per_s": round(rate(n, t_both)),
        "pages": len(pages),
        "links_per_page": args.links_per_page,
        "nav_links_per_page": args.nav,
        "middleware_pages_per_s_cold": round(rate(len(pages), t_pages_cold)),
        "middleware_pages_per_s": round(rate(len(pages), t_pages)),
        "middleware_ms_per_page": round(1000 * t_pages / len(pages), 3),
        "learned_examples_per_s": round(rate(args.train, t_learn)),
        "model_terms": model.n_terms,
        "model_json_bytes": size,
        "model_save_s": round(t_save, 3),
        "model_load_s": round(t_load, 3),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    width = max(map(len, results))
    for k, v in results.items():
        print(f"{k:<{width}}  {v:,}" if isinstance(v, (int, float)) else f"{k:<{width}}  {v}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
