"""Classifier-guided crawling on simweb, evaluated as Tsikrika et al. (section 5) evaluate theirs.

    .venv/bin/python bench/classifier.py --pages 20000 --seed 1 --json bench/results/classifier.json \
        --figure docs/classifier.png

1. Models: the link SVM is trained on the links of *another* simweb Web
   (``--train-seed``, labelled by that Web's truth), the map classifier on
   simweb images drawn with another seed (``--image-seed``).
2. Grids (the paper's Tables 3-6, Fig. 6, 8, 9): depth-limited crawls without
   a page budget fetch the closure of their selection policy, computed in
   process over the Web as the crawler sees it (geofocus.classifier.simgraph):
   f'_S (text) for t1 0.1..0.9 at depths 1..3; f_S (both) for t1 0.1..0.9 and
   t2 0..t1-0.1, f''_S (visual) and f'''_S (product) at depth 3; skip-one
   exploration f'_E, f''_E, f'''_E with f'_S (t1 0.1..0.9, t3 < t1) and with
   f_S (t3 = 0.2, t1 and t2 0.3..0.9), depth 3.
3. Real crawls through Scrapy and the simweb proxy (``--real``): a few of the
   grid's settings with DEPTH_LIMIT=3, compared with the in-process closure
   (the check that the grid measures what the crawler does), and bfs,
   distance and adaptive crawls with the same page budget as the classifier
   crawl (the comparison rows).

Precision, recall and F1 are strict (grade ``relevant``) and lenient
(``relevant`` or ``partial``), over the pages a crawl selected at depths
1..d (seeds and exploration pages excluded); recall's denominator is the
relevant pages a breadth-first crawl to the same depth reaches.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simwebproc import run_crawl, start_simweb  # noqa: E402

from geofocus.classifier.image import MapImageClassifier, features_of_bytes  # noqa: E402
from geofocus.classifier.policy import ClassifierPolicy  # noqa: E402
from geofocus.classifier.simgraph import SimView, Visit, closure, link_examples  # noqa: E402
from geofocus.classifier.text import LinkTextClassifier, region_geo_terms  # noqa: E402
from geofocus.metrics.truth import load_truth  # noqa: E402
from geofocus.regions import load_region  # noqa: E402
from geofocus.simweb import SimWeb, WebParams  # noqa: E402
from geofocus.simweb.images import training_set  # noqa: E402

GRID = [round(0.1 * i, 1) for i in range(1, 10)]


def prf(selected: int, hits: int, total: int) -> tuple[float, float, float]:
    p = hits / selected if selected else 0.0
    r = hits / total if total else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def evaluate(grades: list[str], totals: dict[str, int]) -> dict:
    """Metrics of the selected pages' grades against the breadth-first totals."""
    strict = sum(g == "relevant" for g in grades)
    lenient = sum(g in ("relevant", "partial") for g in grades)
    ps, rs, fs = prf(len(grades), strict, totals["strict"])
    pl, rl, fl = prf(len(grades), lenient, totals["lenient"])
    return {
        "pages": len(grades), "relevant_strict": strict, "relevant_lenient": lenient,
        "precision_strict": round(ps, 4), "recall_strict": round(rs, 4), "f1_strict": round(fs, 4),
        "precision_lenient": round(pl, 4), "recall_lenient": round(rl, 4), "f1_lenient": round(fl, 4),
    }


def row(visits: list[Visit], depth: int, totals: dict[int, dict[str, int]], **config) -> dict:
    selected = [v.grade for v in visits if 1 <= v.depth <= depth and v.trail == 0]
    explored = sum(1 for v in visits if 1 <= v.depth <= depth and v.trail > 0)
    return {**config, "depth": depth, **evaluate(selected, totals[depth]), "exploration_pages": explored}


def train_models(args: argparse.Namespace, out: Path) -> tuple[Path, Path, dict]:
    started = time.process_time()
    train_web = SimWeb(WebParams(pages=args.pages, seed=args.train_seed, region=args.region))
    texts, labels = link_examples(train_web, args.train_pages, seed=1)
    link = LinkTextClassifier.train(texts, labels, region_geo_terms(load_region(args.region)), region=args.region)
    link.save(out / "link_svm.json")
    sample = training_set(args.image_seed, 40)
    image = MapImageClassifier.train([features_of_bytes(b) for _, b, _ in sample], [m for _, _, m in sample])
    image.save(out / "image_svm.json")
    info = {"link_examples": len(labels), "link_positives": sum(labels), "link_terms": len(link.vocabulary),
            "images": len(sample), "train_cpu_s": round(time.process_time() - started, 1)}
    return out / "link_svm.json", out / "image_svm.json", info


def grids(view: SimView, seeds: list[str], text: LinkTextClassifier, totals: dict, max_depth: int) -> list[dict]:
    runs: list[dict] = []

    def add(policy: ClassifierPolicy, depths: tuple[int, ...], **extra) -> None:
        visits = closure(view, seeds, max(depths), policy, text)
        for d in depths:
            runs.append(row(visits, d, totals, selection=policy.selection, exploration=policy.exploration,
                            t1=policy.t1, t2=policy.t2 if policy.selection == "both" else None,
                            t3=policy.t3 if policy.exploration != "none" else None, **extra))

    depths = tuple(range(1, max_depth + 1))
    for t1 in GRID:                                           # f'_S, Fig. 5-6
        add(ClassifierPolicy(t1=t1, t2=0.0, selection="text"), depths)
    add(ClassifierPolicy(t1=0.5, t2=0.0, selection="visual"), depths)   # f''_S: no threshold
    for t1 in GRID:                                           # f_S, Tables 3-6; f'''_S
        for t2 in [round(0.1 * i, 1) for i in range(0, int(round(t1 * 10)))]:
            add(ClassifierPolicy(t1=t1, t2=t2, selection="both"), (max_depth,))
        add(ClassifierPolicy(t1=t1, t2=0.0, selection="product"), (max_depth,))
    for exploration in ("text", "visual", "product"):        # skip-one with f'_S, Fig. 8
        for t1 in GRID:
            for t3 in [t for t in GRID if t < t1]:
                add(ClassifierPolicy(t1=t1, t2=0.0, t3=t3, selection="text", exploration=exploration,
                                     skip_k=1), (max_depth,))
    for exploration in ("text", "visual", "product"):        # skip-one with f_S, t3 = 0.2, Fig. 9
        for t1 in GRID[2:]:
            for t2 in [t for t in GRID[2:] if t < t1]:
                add(ClassifierPolicy(t1=t1, t2=t2, t3=0.2, selection="both", exploration=exploration,
                                     skip_k=1), (max_depth,))
    return runs


# -- real crawls ------------------------------------------------------------------------


def real_crawl(label: str, strategy: str, settings: dict, out: Path, proxy: str, seeds: Path) -> Path:
    run_dir = out / label
    arguments = ["-a", f"seeds={seeds}", "-a", f"strategy={strategy}", "-s", f"GEOFOCUS_RUN_DIR={run_dir}",
                 "-s", "CONCURRENT_REQUESTS=8", "-s", "GEOFOCUS_FRONTIER_SEED=1"]
    for name, value in settings.items():
        arguments += ["-s", f"{name}={value}"]
    seconds = run_crawl(label, proxy, out / (label + ".log"), arguments)
    print(f"  {label}: {seconds:.0f} s", flush=True)
    return run_dir


def real_row(run_dir: Path, truth, totals: dict, depth: int | None, **config) -> dict:
    explored: set[str] = set()
    log = run_dir / "classifier.jsonl"
    if log.exists():
        for line in log.read_text().splitlines():
            record = json.loads(line)
            if record.get("explore"):
                explored.add(record["url"])
    grades = []
    for line in (run_dir / "crawl.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record.get("parent") is None or record["url"] in explored:
            continue  # seeds and exploration pages are not selections
        if depth is not None and int(record.get("depth", 0)) > depth:
            continue
        grades.append(truth.grade(record["url"]) or "none")
    stats = json.loads((run_dir / "stats.json").read_text())
    return {**config, "depth": depth, **evaluate(grades, totals), "exploration_pages": len(explored),
            "fetched": stats.get("geofocus/fetched"), "images_requested": stats.get("geofocus/images/requested", 0),
            "real": True}


# -- summary ----------------------------------------------------------------------------


def findings(runs: list[dict], depth: int) -> dict:
    sim = [r for r in runs if not r.get("real") and r["depth"] == depth]
    text = {r["t1"]: r for r in sim if r["selection"] == "text" and r["exploration"] == "none"}
    both = [r for r in sim if r["selection"] == "both" and r["exploration"] == "none"]
    explore = [r for r in sim if r["selection"] == "text" and r["exploration"] == "text"]
    min_pages = 10  # precision of a handful of pages says little

    def best(rows, key):
        rows = [r for r in rows if r["pages"] >= min_pages]
        return max(rows, key=lambda r: r[key]) if rows else None

    out: dict = {"min_pages": min_pages}
    for kind in ("strict", "lenient"):
        key = f"precision_{kind}"
        bt, bb = best(text.values(), key), best(both, key)
        same_t1 = []
        for t1, tr in text.items():
            cand = [r for r in both if r["t1"] == t1 and r["pages"] >= min_pages]
            if tr["pages"] >= min_pages and cand:
                b = max(cand, key=lambda r: r[key])
                same_t1.append({"t1": t1, "text": tr[key], "both": b[key], "t2": b["t2"], "pages_text": tr["pages"],
                                "pages_both": b["pages"]})
        out[f"visual_{kind}"] = {
            "best_text": bt and {k: bt[k] for k in ("t1", "pages", key)},
            "best_both": bb and {k: bb[k] for k in ("t1", "t2", "pages", key)},
            "same_t1": same_t1,
            "both_better_at": [s["t1"] for s in same_t1 if s["both"] > s["text"]],
        }
        be = best([r for r in explore if r["t3"] <= 0.2 and r["t1"] >= 0.7], key)
        out[f"skip_one_{kind}"] = {
            "best_text": bt and {k: bt[k] for k in ("t1", "pages", key)},
            "best_explore_high_t1_low_t3": be and {k: be[k] for k in ("t1", "t3", "pages", key)},
            "text_at_same_t1": be and text.get(be["t1"], {}).get(key),
        }
    return out


def figure(runs: list[dict], depth: int, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sim = [r for r in runs if not r.get("real")]
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    ax = axes[0]
    for d in sorted({r["depth"] for r in sim}):
        rows = sorted((r for r in sim if r["selection"] == "text" and r["exploration"] == "none" and r["depth"] == d),
                      key=lambda r: r["t1"])
        ax.plot([r["t1"] for r in rows], [r["precision_strict"] for r in rows], "o-", label=f"strict, depth {d}")
        ax.plot([r["t1"] for r in rows], [r["precision_lenient"] for r in rows], "s--", label=f"lenient, depth {d}")
    ax.set(title="f'_S (text): precision by t1 (Fig. 6)", xlabel="t1", ylabel="precision", ylim=(0, 1))
    ax.legend(fontsize=7)
    ax = axes[1]
    text = {r["t1"]: r for r in sim if r["selection"] == "text" and r["exploration"] == "none" and r["depth"] == depth}
    for t2 in (0.0, 0.1, 0.2, 0.3):
        rows = sorted((r for r in sim if r["selection"] == "both" and r["exploration"] == "none" and r["t2"] == t2
                       and r["depth"] == depth), key=lambda r: r["t1"])
        ax.plot([r["t1"] for r in rows], [r["precision_strict"] for r in rows], "o-", label=f"f_S, t2={t2}")
    ax.plot(sorted(text), [text[t]["precision_strict"] for t in sorted(text)], "k--", lw=2, label="f'_S (text)")
    ax.set(title=f"visual evidence: strict precision, depth {depth} (Table 3)", xlabel="t1", ylim=(0, 1))
    ax.legend(fontsize=7)
    ax = axes[2]
    for t3 in (0.1, 0.2, 0.3):
        rows = sorted((r for r in sim if r["selection"] == "text" and r["exploration"] == "text" and r["t3"] == t3
                       and r["depth"] == depth), key=lambda r: r["t1"])
        ax.plot([r["t1"] for r in rows], [r["precision_lenient"] for r in rows], "o-", label=f"f'_E skip-one, t3={t3}")
    ax.plot(sorted(text), [text[t]["precision_lenient"] for t in sorted(text)], "k--", lw=2, label="f'_S (text)")
    ax.set(title=f"skip-one exploration: lenient precision, depth {depth} (Fig. 8)", xlabel="t1", ylim=(0, 1))
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--train-seed", type=int, default=2)
    ap.add_argument("--train-pages", type=int, default=1500, help="pages of the training Web whose links are examples")
    ap.add_argument("--image-seed", type=int, default=7)
    ap.add_argument("--region", default="oldenburg")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--real", action="store_true", help="also run real crawls through Scrapy (validation, comparison)")
    ap.add_argument("--out", default="bench/runs/classifier", help="models, real crawls")
    ap.add_argument("--reuse", default="", help="take the grid rows from this earlier --json output")
    ap.add_argument("--json", default="", help="write the runs and findings here")
    ap.add_argument("--figure", default="", help="write the figure here (PNG)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    link_path, image_path, train_info = train_models(args, out)
    print(f"models: {train_info}", flush=True)
    web = SimWeb(WebParams(pages=args.pages, seed=args.seed, region=args.region))
    view = SimView(web, MapImageClassifier.load(image_path))
    text = LinkTextClassifier.load(link_path)
    seeds = web.seeds()
    if args.reuse:  # the grid of an earlier run on the same web and models: only the real crawls are new
        earlier = json.loads(Path(args.reuse).read_text())
        totals = {int(d): t for d, t in earlier["breadth_first"].items()}
        runs = [r for r in earlier["runs"] if not r.get("real")]
        print(f"reusing {len(runs)} grid rows of {args.reuse}", flush=True)
    else:
        started = time.process_time()
        bfs = closure(view, seeds, args.depth)
        totals = {
            d: {"strict": sum(v.grade == "relevant" for v in bfs if 1 <= v.depth <= d),
                "lenient": sum(v.grade in ("relevant", "partial") for v in bfs if 1 <= v.depth <= d),
                "pages": sum(1 for v in bfs if 1 <= v.depth <= d)}
            for d in range(1, args.depth + 1)
        }
        print(f"breadth-first closure: {totals} ({time.process_time() - started:.0f} CPU s)", flush=True)
        started = time.process_time()
        runs = grids(view, seeds, text, totals, args.depth)
        print(f"{len(runs)} grid rows in {time.process_time() - started:.0f} CPU s", flush=True)

    if args.real:
        proc, proxy = start_simweb(args.pages, args.seed, args.region, out, latency_scale=0)
        try:
            truth = load_truth(out / "truth.jsonl")
            models = {"GEOFOCUS_LINK_SVM": link_path, "GEOFOCUS_IMAGE_SVM": image_path, "DEPTH_LIMIT": args.depth}
            checks = [
                ("text-t1-0.7", dict(GEOFOCUS_CLASSIFIER_SELECTION="text", GEOFOCUS_CLASSIFIER_T1=0.7)),
                (
                    "both-t1-0.7-t2-0.3",
                    dict(GEOFOCUS_CLASSIFIER_SELECTION="both", GEOFOCUS_CLASSIFIER_T1=0.7, GEOFOCUS_CLASSIFIER_T2=0.3),
                ),
                (
                    "text-t1-0.8-explore-t3-0.2",
                    dict(
                        GEOFOCUS_CLASSIFIER_SELECTION="text",
                        GEOFOCUS_CLASSIFIER_T1=0.8,
                        GEOFOCUS_CLASSIFIER_EXPLORATION="text",
                        GEOFOCUS_CLASSIFIER_T3=0.2,
                    ),
                ),
            ]
            budget = 0
            for label, settings in checks:
                run_dir = real_crawl(label, "classifier", {**models, **settings}, out, proxy, out / "seeds.txt")
                r = real_row(run_dir, truth, totals[args.depth], args.depth,
                             selection=settings["GEOFOCUS_CLASSIFIER_SELECTION"],
                             exploration=settings.get("GEOFOCUS_CLASSIFIER_EXPLORATION", "none"),
                             t1=settings["GEOFOCUS_CLASSIFIER_T1"], t2=settings.get("GEOFOCUS_CLASSIFIER_T2"),
                             t3=settings.get("GEOFOCUS_CLASSIFIER_T3"), label=label)
                runs.append(r)
                budget = max(budget, r["fetched"] or 0)
                print(f"  {label}: {r}", flush=True)
            for strategy in ("bfs", "distance", "adaptive"):
                run_dir = real_crawl(strategy, strategy, {"GEOFOCUS_MAX_PAGES": budget}, out, proxy, out / "seeds.txt")
                r = real_row(run_dir, truth, totals[args.depth], None, selection=strategy, exploration="none",
                             t1=None, t2=None, t3=None, label=f"{strategy}, budget {budget}")
                runs.append(r)
                print(f"  {strategy}: {r}", flush=True)
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    result = {"web": {"pages": args.pages, "seed": args.seed, "region": args.region, "train_seed": args.train_seed},
              "models": train_info, "breadth_first": totals, "findings": findings(runs, args.depth), "runs": runs}
    print(json.dumps(result["findings"], indent=1))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=1))
    if args.figure:
        figure(runs, args.depth, Path(args.figure))


if __name__ == "__main__":
    main()
