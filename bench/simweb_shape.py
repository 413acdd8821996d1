"""simweb's shape against the papers' figures: bridge distances, tails, seed distances, harvest rates, locality.

    python bench/simweb_shape.py --pages 200000 --budget 20000 --json bench/results/simweb_shape.json
    python bench/simweb_shape.py --pages 50000 --budget 5000 --param preset=paper-shape

Measures, on simweb, the quantities Ahlers & Boll (CIKM 2009) and Gao, Lee & Miao (WWW 2006)
report about the Web's shape, and prints them next to what the papers say:

* from in-process crawls of the link graph (``graphcrawl.follow``: redirects, robots.txt, TLD and
  trap filters, HTML only; relevance by simweb's ground truth), per strategy (bfs, distance,
  adaptive), the crawl tree (each page's parent is the fetched page whose link queued it first):
  * bridge distances (Fig. 9): for every relevant page not a seed, the number of irrelevant pages
    between it and the nearest relevant page (or seed) above it on its crawl path; 0 = directly
    successive relevant pages;
  * tail lengths (Fig. 9): every crawl-tree branch that starts at an irrelevant child of a relevant
    page and holds no relevant page is a tail; its length is its height in pages (1 = a leaf);
  * seed distances of relevant pages (Fig. 10): their depth in the crawl tree;
  * harvest rate (Fig. 7): relevant pages / fetched HTML pages;
* from the link graph itself (no crawl):
  * linkage locality: the share of relevant targets among the links of relevant pages, against
    the share among the links of irrelevant pages (sampled pages; redirects followed);
  * Gao et al.'s geographic locality (Table 11) on a Web of the ``us-top100`` region: the share of
    linked pairs of city pages (local sites, portals, newspapers) that share a city, against the
    same share for pairs drawn at random (``--locality-pages``; 0 skips it).

The crawls are ``graphcrawl.crawl``'s, with its crawl tree kept.
Nothing is asserted; ``tests/test_simweb_shape.py`` asserts the preset's shape.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from geofocus.simweb.entities import LOCAL, NEWS, PORTAL  # noqa: E402
from geofocus.simweb.graphcrawl import crawl as graph_crawl  # noqa: E402
from geofocus.simweb.graphcrawl import follow  # noqa: E402
from geofocus.simweb.params import WebParams  # noqa: E402
from geofocus.simweb.web import SimWeb  # noqa: E402

# What the papers say, verbatim where they give no number (the figures are plots; see docs/simweb.md).
PAPER = {
    "harvest": "A&B Fig. 7/8, ~1,000,000 documents: adaptive ~12 %, distance 5.5 %, bfs 4 % "
               "(distance/bfs 1.375, adaptive/bfs 3.0, adaptive/distance 2.2)",
    "bridge0": "A&B 5.2.2: 'In more than half the cases, the cohesion is only achieved by intermediate "
               "bridge pages': share of bridge distance 0 < 0.5",
    "bridge_long": "A&B 5.2.2: 'pages on the crawl which were only reached through long bridge page "
                   "streaks'; 3: 'Many geospatial pages tend to be linked with only a small number of "
                   "bridge pages between them'",
    "tails": "A&B 5.2.2: 'The graph shows only few longer tails'",
    "seed_dist": "A&B 5.2.2 (Fig. 10): 'their distance from the seed reaches rather high values'",
    "gao": "Gao et al. Table 11: delta(linked) 0.416 vs delta(unlinked) 0.026 (URL based), 0.263 vs 0.012 "
           "(full content), 0.044 vs 0.009 (classification)",
}


def shape_crawl(web: SimWeb, seeds: list[str], limit: int, strategy: str, decay: float = 0.5,
                depth: int = 3, keep: dict | None = None) -> dict:
    """``graphcrawl.crawl`` with its crawl tree, in figures (``keep``: the raw lists, for inspection)."""
    res = graph_crawl(web, seeds, limit=limit, strategy=strategy, decay=decay, depth=depth, keep_tree=True)
    urls = [url for url, _, _, _ in res.tree]
    rel = [relevant for _, relevant, _, _ in res.tree]
    sdists = [sdist for _, _, sdist, _ in res.tree]
    parent = [par for _, _, _, par in res.tree]
    if keep is not None:
        keep.update(parent=parent, rel=rel, sdist=sdists, url=urls)
    return tree_figures(parent, rel, sdists, res.bridge)


def tree_figures(parent: list[int], rel: list[bool], sdists: list[int], bridge: Counter) -> dict:
    n = len(rel)
    has_rel = list(rel)                 # the subtree holds a relevant page
    height = [1] * n                    # pages on the longest downward path
    children: list[list[int]] = [[] for _ in range(n)]
    for i in range(n - 1, -1, -1):      # children are fetched after their parent
        p = parent[i]
        if p >= 0:
            children[p].append(i)
            has_rel[p] = has_rel[p] or has_rel[i]
            height[p] = max(height[p], height[i] + 1)
    tails: Counter = Counter()
    for i in range(n):
        if rel[i]:
            for c in children[i]:
                if not has_rel[c]:
                    tails[height[c]] += 1
    seed_dist = Counter(sdists[i] for i in range(n) if rel[i])
    relevant = sum(rel)
    return {"fetched": n, "relevant": relevant, "harvest_rate": round(relevant / n, 4) if n else 0.0,
            "bridge": dict(sorted(bridge.items())), "tails": dict(sorted(tails.items())),
            "seed_dist": dict(sorted(seed_dist.items())), **summarise(bridge, tails, seed_dist)}


def share(c: Counter, pred) -> float:
    total = sum(c.values())
    return round(sum(v for k, v in c.items() if pred(k)) / total, 3) if total else 0.0


def quantile(c: Counter, q: float) -> int:
    total = sum(c.values())
    acc = 0
    for k in sorted(c):
        acc += c[k]
        if acc >= q * total:
            return k
    return 0


def summarise(bridge: Counter, tails: Counter, seed_dist: Counter) -> dict:
    return {
        "bridge0_share": share(bridge, lambda d: d == 0),
        "bridge_0to3_share": share(bridge, lambda d: d <= 3),
        "bridge_ge4_share": share(bridge, lambda d: d >= 4),
        "bridge_max": max((d for d, v in bridge.items() if v), default=0),
        "tail_1_share": share(tails, lambda d: d == 1),
        "tail_ge4_share": share(tails, lambda d: d >= 4),
        "tail_max": max((d for d, v in tails.items() if v), default=0),
        "seed_dist_median": quantile(seed_dist, 0.5),
        "seed_dist_p90": quantile(seed_dist, 0.9),
        "seed_dist_max": max((d for d, v in seed_dist.items() if v), default=0),
    }


def linkage_locality(web: SimWeb, sample: int, seed: int = 7) -> dict:
    """Share of relevant link targets from relevant vs irrelevant HTML pages (random sample of pages)."""
    rnd = random.Random(seed)
    counts = {True: [0, 0], False: [0, 0]}   # source relevant -> [links, relevant targets]
    ext = {True: [0, 0], False: [0, 0]}      # links to other hosts only
    drawn = 0
    while drawn < sample:
        page = web.page(rnd.randrange(web.p.pages))
        if not page.is_html or page.status != 200:
            continue
        drawn += 1
        res = web.resolve(page.host.name, page.path)
        for link in web.outlinks(res):
            got = follow(web, link.url, set())
            if got is None:
                continue
            url, _, r = got
            target_rel = r.kind == "page" and r.require_page().is_html and r.require_page().relevant \
                and url == r.require_page().url
            counts[page.relevant][0] += 1
            counts[page.relevant][1] += target_rel
            if r.require_host().hid != page.host.hid:
                ext[page.relevant][0] += 1
                ext[page.relevant][1] += target_rel

    def ratio(c: list[int]) -> float:
        return round(c[1] / c[0], 4) if c[0] else 0.0

    return {"pages_sampled": sample,
            "p_rel_target_from_relevant": ratio(counts[True]), "p_rel_target_from_irrelevant": ratio(counts[False]),
            "p_rel_target_from_relevant_external": ratio(ext[True]),
            "p_rel_target_from_irrelevant_external": ratio(ext[False]),
            "links_from_relevant": counts[True][0], "links_from_irrelevant": counts[False][0]}


def gao_locality(pages: int, seed: int, overrides: dict[str, str], sample: int = 20_000) -> dict:
    """Gao et al.'s delta(linked) and delta(unlinked) on a ``us-top100`` Web: city pages are the pages of
    local sites, portals and newspapers (each host has one city); ``sample`` of them drawn uniformly,
    every link of theirs to another city page is a linked pair (links within a host left out)."""
    web = SimWeb(WebParams(pages=pages, seed=seed, region="us-top100").replace(overrides))
    city_hosts = [hid for hid in range(web.n_hosts) if web.cat[hid] in (LOCAL, PORTAL, NEWS)]
    city_of = {hid: web.place_idx[hid] for hid in city_hosts}
    sizes = [web.size[hid] for hid in city_hosts]
    rnd = random.Random(seed)
    same = linked = 0
    for hid in rnd.choices(city_hosts, weights=sizes, k=sample):
        host = web.host(hid)
        page = web.page(host.start + rnd.randrange(host.size))
        if not page.is_html:
            continue
        for link in web.outlinks(web.resolve(host.name, page.path)):
            name = link.url.split("/")[2]
            other = web.by_name.get(name, web.aliases.get(name))
            if other is not None and other != hid and other in city_of:
                linked += 1
                same += city_of[other] == city_of[hid]
    # Unlinked pairs: two city pages drawn at random share a city with probability sum of squared shares.
    pages_of: Counter = Counter()
    for hid, n in zip(city_hosts, sizes, strict=True):
        pages_of[city_of[hid]] += n
    total = sum(pages_of.values())
    return {"pages": pages, "sample": sample, "linked_pairs": linked,
            "delta_linked": round(same / linked, 4) if linked else 0.0,
            "delta_unlinked": round(sum((n / total) ** 2 for n in pages_of.values()), 4)}


def measure(pages: int, budget: int, seed: int, region: str, overrides: dict[str, str],
            strategies: list[str]) -> dict:
    web = SimWeb(WebParams(pages=pages, seed=seed, region=region).replace(overrides))
    seeds = web.seeds()
    out: dict = {}
    for s in strategies:
        t0 = time.process_time()
        fig = shape_crawl(web, seeds, budget, s)
        fig["cpu_seconds"] = round(time.process_time() - t0, 1)
        out[s] = fig
    return out


def fmt_row(name: str, values: list, paper: str) -> str:
    return f"{name:<26}" + "".join(f"{v!s:>11}" for v in values) + f"   {paper}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=200_000)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--seeds", default="1", help="Web seeds, comma-separated")
    parser.add_argument("--region", default="oldenburg")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a simweb parameter (repeatable), e.g. preset=paper-shape")
    parser.add_argument("--strategies", default="bfs,distance,adaptive")
    parser.add_argument("--locality-sample", type=int, default=3000, help="pages sampled for linkage locality")
    parser.add_argument("--locality-pages", type=int, default=60_000, help="us-top100 Web size for Gao's delta "
                        "(0: skip)")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    overrides = dict(p.split("=", 1) for p in args.param)
    strategies = [s for s in args.strategies.split(",") if s]
    result: dict = {"pages": args.pages, "budget": args.budget, "region": args.region, "params": args.param,
                    "paper": PAPER, "per_seed": {}}
    for seed in (int(s) for s in args.seeds.split(",")):
        crawls = measure(args.pages, args.budget, seed, args.region, overrides, strategies)
        web = SimWeb(WebParams(pages=args.pages, seed=seed, region=args.region).replace(overrides))
        entry = {"crawls": crawls}
        if args.locality_sample:
            entry["linkage_locality"] = linkage_locality(web, args.locality_sample)
        result["per_seed"][seed] = entry
        print(f"\nseed {seed}: {args.pages} pages ({args.region}), {args.budget} fetches, params {args.param or '-'}")
        print(fmt_row("measure", strategies, "paper"))
        rows = [
            ("harvest rate", "harvest_rate", PAPER["harvest"][:60]),
            ("bridge 0 share", "bridge0_share", "< 0.5 (A&B 5.2.2)"),
            ("bridge 0-3 share", "bridge_0to3_share", "'mostly a small number' (A&B 3)"),
            ("bridge >= 4 share", "bridge_ge4_share", "'long bridge page streaks' exist"),
            ("bridge max", "bridge_max", "plot only"),
            ("tail length 1 share", "tail_1_share", "'only few longer tails'"),
            ("tail >= 4 share", "tail_ge4_share", "'only few longer tails'"),
            ("tail max", "tail_max", "plot only"),
            ("seed dist median", "seed_dist_median", "'reaches rather high values' (Fig. 10)"),
            ("seed dist p90", "seed_dist_p90", ""),
            ("seed dist max", "seed_dist_max", ""),
        ]
        for label, key, paper in rows:
            print(fmt_row(label, [crawls[s][key] for s in strategies], paper))
        if "bfs" in crawls and crawls["bfs"]["harvest_rate"]:
            b = crawls["bfs"]["harvest_rate"]
            print(fmt_row("ratio to bfs", [round(crawls[s]["harvest_rate"] / b, 2) for s in strategies],
                          "distance 1.375, adaptive 3.0"))
        if "linkage_locality" in entry:
            loc = entry["linkage_locality"]
            print(f"linkage locality: P(relevant target | relevant source) {loc['p_rel_target_from_relevant']}"
                  f" vs {loc['p_rel_target_from_irrelevant']} from irrelevant pages; other hosts only: "
                  f"{loc['p_rel_target_from_relevant_external']} vs {loc['p_rel_target_from_irrelevant_external']}"
                  " (no figure in the papers)")
    if args.locality_pages:
        gao = gao_locality(args.locality_pages, 1, overrides)
        result["gao_locality"] = gao
        print(f"\nGao et al. locality on us-top100 ({args.locality_pages} pages): delta(linked) "
              f"{gao['delta_linked']} vs delta(unlinked) {gao['delta_unlinked']} over {gao['linked_pairs']} "
              f"linked pairs; paper (URL based) 0.416 vs 0.026")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2))
        print(f"written to {args.json}")


if __name__ == "__main__":
    main()
