"""Ablation of the link-prediction directions on simweb's link graph, in process (no HTTP, no Scrapy).

    python bench/ablation.py --pages 50000 --budget 5000 --seeds 1,2 --json bench/results/ablation.json

Crawls the generator's graph the way ``geofocus.simweb.graphcrawl`` does (its ``follow``:
redirects, TLD and trap filters; then robots.txt and content types), with a best-first
frontier whose priorities come from the product's own code: ``features.link_terms`` (through
``graphcrawl.features``), ``model.BridgeNaiveBayes`` (the paper's ``adaptive``) and ``online.OnlineLinkModel``
(the ``online`` strategy).  Each variant switches one direction on or off:

* ``rescore``: re-score the whole frontier every N fetches (0: never; priorities
  stay as computed when a link was found);
* ``learner``: ``nb`` (naive Bayes, priority = score + prediction (1 - score)) or
  ``logistic`` (hashed online logistic regression, priority = prediction);
* ``host_yield``: the target host's fetched/relevant counts as a learned feature;
* ``dist``: the bridge distance as a learned feature (logistic only);
* ``epsilon``: share of pops that take a random link among the best 200 (exploration);
* ``blend``: at re-scoring, keep this share of the priority a link was found with
  (``blend_with="discovery"``, what ``online`` does: ``GEOFOCUS_ONLINE_FOUND_WEIGHT``) or of
  its decay score (``blend_with="decay"``), the rest being the current model's prediction;
  ``blend_half_life``: that share halves every so many fetches (0: constant);
* ``ucb``: add ``ucb`` x the mean of 1 / sqrt(1 + depth-1 examples seen) over a link's ids
  (optimism for features the model has not learned about);
* ``average``: score with an average of the learner's weights taken at each re-scoring:
  uniform (Polyak, 0.0) or exponential with that rate;
* ``oracle``: not a strategy but a bound: ``online`` plus 1 for every queued link whose
  target (after redirects) is relevant by the ground truth, i.e. a crawler that knows,
  before fetching, which of its queued links are relevant pages and fetches those first.

Relevance is simweb's ground truth.  The real crawler (bench/harvest.py) adds
concurrency, politeness and the scheduler's partial re-scoring; this bench
isolates the ranking.
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from geofocus.prediction.model import BridgeNaiveBayes  # noqa: E402
from geofocus.prediction.online import OnlineLinkModel  # noqa: E402
from geofocus.simweb.graphcrawl import features, follow, split_url  # noqa: E402
from geofocus.simweb.params import WebParams  # noqa: E402
from geofocus.simweb.web import Resolved, SimWeb  # noqa: E402

DECAY = 0.5
DEPTH = 3

VARIANTS = {
    "bfs": {"learner": "bfs"},
    "distance": {"learner": None},
    "adaptive": {"learner": "nb", "rescore": 0},
    "adaptive+rescore": {"learner": "nb", "rescore": 200},
    "logistic": {"learner": "logistic", "rescore": 0, "host_yield": False},
    "logistic+rescore": {"learner": "logistic", "rescore": 200, "host_yield": False},
    "logistic+hostyield": {"learner": "logistic", "rescore": 0, "host_yield": True},
    "logistic+rescore+hostyield (online)": {"learner": "logistic", "rescore": 200, "host_yield": True},
    "online, no dist feature": {"learner": "logistic", "rescore": 200, "host_yield": True, "dist": False},
    "online, rescore every 1000": {"learner": "logistic", "rescore": 1000, "host_yield": True},
    "online + epsilon 0.03": {"learner": "logistic", "rescore": 200, "host_yield": True, "epsilon": 0.03},
    "oracle (bound)": {"learner": "logistic", "rescore": 200, "host_yield": True, "oracle": True},
    "online + ucb 0.1": {"learner": "logistic", "rescore": 200, "host_yield": True, "ucb": 0.1},
    "online + ucb 0.3": {"learner": "logistic", "rescore": 200, "host_yield": True, "ucb": 0.3},
    "online + blend 0.5": {"learner": "logistic", "rescore": 200, "host_yield": True, "blend": 0.5},
    "online + blend 0.3": {"learner": "logistic", "rescore": 200, "host_yield": True, "blend": 0.3},
    "online + blend 0.7": {"learner": "logistic", "rescore": 200, "host_yield": True, "blend": 0.7},
    "online + blend decay 0.3": {"learner": "logistic", "rescore": 200, "host_yield": True, "blend": 0.3,
                                 "blend_with": "decay"},
    "online + blend 0": {"learner": "logistic", "rescore": 200, "host_yield": True, "blend": 0.0},
    "online + blend 0.3 halving / 1000": {"learner": "logistic", "rescore": 200, "host_yield": True,
                                          "blend": 0.3, "blend_half_life": 1000},
    "online + blend 0.3 halving / 3000": {"learner": "logistic", "rescore": 200, "host_yield": True,
                                          "blend": 0.3, "blend_half_life": 3000},
    "online + polyak": {"learner": "logistic", "rescore": 200, "host_yield": True, "average": 0.0},
    "online + ema 0.1": {"learner": "logistic", "rescore": 200, "host_yield": True, "average": 0.1},
    "online + ema 0.3": {"learner": "logistic", "rescore": 200, "host_yield": True, "average": 0.3},
    "adaptive+rescore+hostyield-free nb, logistic fusion": None,
}
VARIANTS.pop("adaptive+rescore+hostyield-free nb, logistic fusion")


def crawl(web: SimWeb, budget: int, learner: str | None, rescore: int = 0, host_yield: bool = True,
          dist: bool = True, epsilon: float = 0.0, lr: float = 0.3, seed: int = 0, oracle: bool = False,
          ucb: float = 0.0, blend: float = 0.0, average: float | None = None,
          blend_with: str = "discovery", blend_half_life: int = 0) -> dict:
    nb = BridgeNaiveBayes(DEPTH) if learner == "nb" else None
    lg = OnlineLinkModel(DEPTH, 20, lr) if learner == "logistic" else None
    rnd = random.Random(seed)
    seen: set[str] = set()
    info: dict[str, tuple] = {}
    heap: list = []
    counter = 0
    fetched = relevant_count = 0
    started = time.process_time()

    known_relevant: dict[str, float] = {}
    seen_ids = np.zeros(1 << 20, dtype=np.float32)  # depth-1 examples each id was in
    discovery: dict[str, float] = {}
    learner_model = lg
    snapshots = 0
    if average is not None and lg is not None:
        avg_model = OnlineLinkModel(DEPTH, 20, lr)

    def take_snapshot() -> None:
        """Fold the learner's weights into the scoring model: a uniform (Polyak) or exponential average."""
        nonlocal snapshots
        snapshots += 1
        rate = average if average else 1.0 / snapshots
        avg_model.weights += rate * (learner_model.weights - avg_model.weights)
        avg_model.bias += rate * (learner_model.bias - avg_model.bias)
        avg_model.docs[:] = learner_model.docs
        avg_model.hosts = learner_model.hosts
        avg_model._trained = None

    def uncertainty(ids: list[int]) -> float:
        if not ucb or not ids:
            return 0.0
        return ucb * float(np.mean(1.0 / np.sqrt(1.0 + seen_ids[ids])))

    def bonus(url: str) -> float:
        """1 if the page ``url`` leads to (redirects followed) is relevant, with ``oracle``; else 0."""
        if not oracle:
            return 0.0
        value = known_relevant.get(url)
        if value is None:
            value = known_relevant[url] = float(is_relevant_target(web, url))
        return value

    def dyn(d: int, host: str) -> list[int]:
        return lg.dynamic_ids(d if dist else None, host if host_yield else None)

    def priority(url: str) -> float:
        d, sdist, path, host = info[url]
        score = DECAY ** d
        if learner == "bfs":
            return 1.0 / (1 + sdist)
        if learner is None:
            return score
        if nb is not None:
            return score + nb.prediction(path[0], DECAY) * (1 - score)
        if not lg.examples():
            discovery.setdefault(url, score)
            return score
        p = lg.prediction([*path[0], *dyn(d, host)], DECAY) + uncertainty(path[0])
        discovery.setdefault(url, p)
        return p + bonus(url)

    def push(url: str, d: int, sdist: int, path: list, host: str) -> None:
        nonlocal counter
        if url in seen:
            return
        seen.add(url)
        counter += 1
        info[url] = (d, sdist, path, host)
        heapq.heappush(heap, (-priority(url) if sdist else -2.0, counter, url))

    for s in web.seeds():
        push(s, 0, 0, [[]], split_url(s)[0])
    pops = 0
    while heap and fetched < budget:
        if rescore and learner in ("nb", "logistic") and pops and pops % rescore == 0:
            if average is not None and lg is not None and learner_model.examples():
                take_snapshot()
                lg = avg_model
            if lg is not None and lg.examples():
                urls = [u for _, _, u in heap]
                preds = lg.score_many([[*info[u][2][0], *dyn(info[u][0], info[u][3])] for u in urls], DECAY)
                if ucb:
                    preds = preds + np.array([uncertainty(info[u][2][0]) for u in urls])
                share = blend * 0.5 ** (fetched / blend_half_life) if blend_half_life else blend
                if share:
                    if blend_with == "decay":
                        other = np.array([DECAY ** info[u][0] for u in urls])
                    else:
                        other = np.array([discovery.get(u, 0.0) for u in urls])
                    preds = (1 - share) * preds + share * other
                heap = [(-(p + bonus(u)) if info[u][1] else -2.0, c, u)
                        for p, (_, c, u) in zip(preds.tolist(), heap, strict=True)]
            else:
                heap = [(-priority(u) if info[u][1] else -2.0, c, u) for _, c, u in heap]
            heapq.heapify(heap)
        pops += 1
        if epsilon and len(heap) > 10 and rnd.random() < epsilon:
            i = rnd.randrange(min(len(heap), 200))
            item = heap[i]
            heap[i] = heap[-1]
            heap.pop()
            heapq.heapify(heap)
        else:
            item = heapq.heappop(heap)
        url = item[2]
        d, sdist, path, qhost = info.pop(url)
        followed = follow(web, url, seen)
        if followed is None:
            continue
        url, target, r = followed
        if web.disallowed(r.host, target):
            continue
        if r.kind == "page" and not r.page.is_html:
            continue
        fetched += 1
        relevant = fetched_relevant(url, r)
        relevant_count += relevant
        if sdist:
            for k, x in enumerate(path[:DEPTH], start=1):
                if nb is not None:
                    nb.learn(x, k, relevant)
                elif lg is not None:
                    learner_model.learn([*x, *dyn(d, qhost)] if k == 1 else x, k, relevant)
                    if k == 1 and ucb:
                        seen_ids[x] += 1
        if lg is not None and host_yield:
            learner_model.observe_host(qhost, relevant)
        ndist = 0 if relevant or sdist == 0 else d
        for link in web.outlinks(r):
            if link.url in seen:
                continue
            terms = features(link, url)
            feats = lg.ids(terms) if lg is not None else terms
            push(link.url, ndist + 1, sdist + 1, [feats, *path[: DEPTH - 1]], split_url(link.url)[0])
    return {"fetched": fetched, "relevant": relevant_count,
            "harvest_rate": round(relevant_count / fetched, 4) if fetched else 0.0,
            "cpu_seconds": round(time.process_time() - started, 1)}


def is_relevant_target(web: SimWeb, url: str) -> bool:
    """Would fetching ``url`` now count as a relevant page (the oracle's knowledge)?  The crawl's
    own ``follow`` (redirects, TLD and trap filters) with a throwaway seen-set, robots.txt, and
    the crawl's own test."""
    followed = follow(web, url, set())
    if followed is None:
        return False
    url, target, r = followed
    return not web.disallowed(r.host, target) and fetched_relevant(url, r)


def fetched_relevant(url: str, r: Resolved) -> bool:
    """A fetched page counts as relevant when it is a relevant HTML page and this is its own URL."""
    return r.kind == "page" and r.page.is_html and r.page.relevant and url == r.page.url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=50_000)
    parser.add_argument("--budget", type=int, default=5_000)
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--region", default="oldenburg")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--variants", default="", help="names separated by ';' (default: all)")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    names = [v for v in args.variants.split(";") if v] or list(VARIANTS)
    seeds = [int(s) for s in args.seeds.split(",")]
    results: dict[str, dict] = {n: {"options": VARIANTS[n], "per_seed": {}} for n in names}
    for seed in seeds:
        params = WebParams(pages=args.pages, seed=seed, region=args.region)
        web = SimWeb(params.replace(dict(p.split("=", 1) for p in args.param)))
        for name in names:
            r = crawl(web, args.budget, seed=seed, **VARIANTS[name])
            results[name]["per_seed"][seed] = r
            print(f"seed {seed}  {name:<40} {r['fetched']:>6} {r['relevant']:>6} {100 * r['harvest_rate']:6.2f} %"
                  f"  ({r['cpu_seconds']} s CPU)", flush=True)
    for name in names:
        rates = [r["harvest_rate"] for r in results[name]["per_seed"].values()]
        results[name]["harvest_rate"] = round(sum(rates) / len(rates), 4)
    dist = results.get("distance", {}).get("harvest_rate")
    bfs = results.get("bfs", {}).get("harvest_rate")
    print(f"\nmean of seeds {args.seeds}: {args.pages} pages ({args.region}), {args.budget} fetches")
    for name in names:
        rate = results[name]["harvest_rate"]
        vs_dist = f"{rate / dist:.2f}x" if dist else "-"
        vs_bfs = f"{rate / bfs:.2f}x" if bfs else "-"
        print(f"{name:<40} {100 * rate:6.2f} %  {vs_dist} distance  {vs_bfs} bfs")
    summary = {"pages": args.pages, "region": args.region, "budget": args.budget, "seeds": seeds,
               "params": args.param, "variants": results}
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
