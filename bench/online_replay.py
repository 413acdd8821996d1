"""CPU of the ``online`` middleware's own work per page, replayed in process from a captured crawl.

    PYTHONPATH=TREE python bench/online_replay.py LINKS.jsonl [--reps 2]

Steadier than a crawl on a loaded machine: it runs only the middleware's code, on the same pages
every time.  ``LINKS.jsonl`` has one JSON object per page of a crawl, in crawl order: ``url``, the
page's ``dist``, ``score``, relevance ``rel``, ``parent_path`` (the first depth - 1 entries of its
path: lists of hashed ids) and ``links``, the (fingerprint, link dict) pairs the geo spider handed to
``LinkPredictionMiddleware.score_links`` (docs/performance.md, "Session 9: online per page", says how
one was captured).  For each page it runs, as a crawl does: learning (``process_spider_input``), the
batch score of its links (``score_links``), remembering them for whole-queue re-scoring
(``QueuedLinks.add``), and every 200 pages a whole-queue pass (``QueuedLinks.rescore``) over the last
12,000 links found.  It prints CPU milliseconds per page of each part and a SHA-1 digest of every
path, priority and prediction, of every re-scored priority and of the final weights: two trees whose
digests agree made the same decisions on these pages.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import tempfile
import time

from scrapy import Request, Spider, signals
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from geofocus.context import CrawlContext, set_crawl_context
from geofocus.pagemeta import PageMeta
from geofocus.spidermiddlewares.prediction import LinkPredictionMiddleware


class GeoSpider(Spider):
    name = "geo"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("links")
    parser.add_argument("--reps", type=int, default=2, help="replays (the digest is of the first)")
    args = parser.parse_args()
    pages = [json.loads(line) for line in open(args.links)]
    total = {"learn": 0.0, "score": 0.0, "remember": 0.0, "rescore": 0.0}
    digest = hashlib.sha1()
    clock = time.process_time
    for rep in range(args.reps):
        crawler = get_crawler(GeoSpider, {"GEOFOCUS_RUN_DIR": tempfile.mkdtemp(), "GEOFOCUS_PREDICTION_DEPTH": 3,
                                          "GEOFOCUS_STRATEGY": "online"})
        crawler.spider = crawler._create_spider()
        set_crawl_context(crawler, CrawlContext.from_settings(crawler.settings, strategy="online"))
        mw = build_from_crawler(LinkPredictionMiddleware, crawler)
        crawler.signals.send_catch_log(signals.spider_opened, spider=crawler.spider)
        found: list[str] = []
        priorities: dict[str, float] = {}
        gc.collect()
        gc.freeze()  # as the GcTuning extension does when a crawl opens
        for n, page in enumerate(pages):
            state = PageMeta(dist=page["dist"], seed_dist=1, score=page["score"], relevant=page["rel"],
                             path=page["parent_path"], link={"url": page["url"]})
            response = HtmlResponse(page["url"], body=b"<html></html>",
                                    request=Request(page["url"], meta={"geofocus": state}))
            t0 = clock()
            if page["parent_path"]:
                mw.process_spider_input(response)
            t1 = clock()
            out = list(mw.score_links(response, state, ((fp, dict(link)) for fp, link in page["links"])))
            t2 = clock()
            for fp, link, link_page in out:
                mw.queued.add(fp, link_page.path[0], link_page.dist if type(link_page.dist) is int else None,
                              link["url"].split("/")[2], float(link_page.priority or 0.0))
                if fp not in priorities:
                    found.append(fp)
                priorities[fp] = float(link_page.priority or 0.0)
            t3 = clock()
            if rep == 0:
                for fp, _link, link_page in out:
                    digest.update(repr((fp, link_page.path, link_page.priority, link_page.prediction)).encode())
            if n % 200 == 199:
                queued = found[-12000:]
                new = mw.queued.rescore(mw.online_model, queued, [priorities[f] for f in queued], mw.decay, 0.002)
                if rep == 0:
                    digest.update(new.tobytes())
            t4 = clock()
            total["learn"] += t1 - t0
            total["score"] += t2 - t1
            total["remember"] += t3 - t2
            total["rescore"] += t4 - t3
        gc.unfreeze()
        if rep == 0:
            model = mw.online_model
            for array in (model.weights, model._g2, model.bias):
                digest.update(array.tobytes())
    per_page = len(pages) * args.reps
    result = {k: round(1000 * v / per_page, 4) for k, v in total.items()}
    result["total"] = round(1000 * sum(total.values()) / per_page, 4)
    result["digest"] = digest.hexdigest()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
