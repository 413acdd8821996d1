"""Whole-frontier re-scoring with the ``online`` link model: CPU seconds per 1,000,000 queued links.

    python bench/rescore.py --queued 1000000 --json bench/results/rescore.json

Builds a trained ``OnlineLinkModel`` and a frontier-like layout (per queued link:
its hashed feature ids as CSR row lengths + concatenated ids, its bridge distance,
its target host as an index into a host table), then times ``score_queued``, the
call a frontier makes after each model update to re-score everything it holds.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from geofocus.frontier import FrontierEntry, SqliteFrontier  # noqa: E402
from geofocus.prediction.online import OnlineLinkModel, QueuedLinks  # noqa: E402


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queued", type=int, default=1_000_000)
    parser.add_argument("--ids-per-link", type=int, default=20)
    parser.add_argument("--hosts", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", default="")
    parser.add_argument("--whole-pass", action="store_true",
                        help="also time the crawl's whole-queue pass: SqliteFrontier.queued_priorities, "
                             "QueuedLinks.rescore (records -> CSR -> score_queued), bulk update_priorities "
                             "and the heap rebuild at the next pop")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    model = OnlineLinkModel(depth=3)
    for _ in range(5000):  # some training so that the weights are not all zero
        ids = rng.integers(0, 1 << model.bits, args.ids_per_link).tolist()
        for d in (1, 2, 3):
            model.learn(ids, d, bool(rng.random() < 0.1))
    host_names = [f"host{i}.de" for i in range(args.hosts)]
    for h in host_names[::3]:
        model.observe_host(h, bool(rng.random() < 0.2))
    n = args.queued
    lengths = rng.integers(args.ids_per_link // 2, args.ids_per_link * 3 // 2 + 1, n)
    indices = rng.integers(0, 1 << model.bits, int(lengths.sum()), dtype=np.int32)
    dists = rng.integers(1, 8, n)
    hosts = rng.integers(0, args.hosts, n)
    times = []
    for _ in range(args.repeat):
        started = cpu()
        preds = model.score_queued(lengths, indices, dists, hosts, host_names)
        times.append(cpu() - started)
    assert preds.shape == (n,)
    best = min(times)
    result = {"queued": n, "ids": int(lengths.sum()), "cpu_seconds": [round(t, 3) for t in times],
              "cpu_seconds_per_million": round(best * 1e6 / n, 3)}
    print(f"score_queued: {n} queued links, {int(lengths.sum())} ids: best {best:.3f} CPU s "
          f"({result['cpu_seconds_per_million']} s per million)")
    if args.whole_pass:
        result["whole_pass"] = whole_pass(model, lengths, indices, dists, hosts, host_names, args.repeat)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2))


def whole_pass(model, lengths, indices, dists, hosts, host_names, repeat) -> dict:
    import tempfile

    n = len(lengths)
    queued = QueuedLinks()
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    with tempfile.TemporaryDirectory() as tmp:
        frontier = SqliteFrontier(Path(tmp) / "f.sqlite", seed=1)
        frontier.open()
        for r in range(n):
            fp = f"{r:040x}"
            host = host_names[hosts[r]]
            frontier.push(FrontierEntry(fp, 0.5, host, {"url": f"http://{host}/{r}"}))
            queued.add(fp, indices[offsets[r]:offsets[r + 1]].tolist(), int(dists[r]), host)
        frontier.flush()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        parts: dict[str, list[float]] = {"list": [], "score": [], "write_back": [], "rebuild": []}
        for i in range(repeat):
            t0 = cpu()
            fps, priorities = frontier.queued_priorities()
            t1 = cpu()
            new = queued.rescore(model, fps, priorities, min_change=0.002)
            t2 = cpu()
            rows = np.flatnonzero(np.isfinite(new)).tolist()
            values = new.tolist()
            frontier.update_priorities([(fps[j], values[j], None) for j in rows])
            t3 = cpu()
            frontier.pop()
            t4 = cpu()
            for key, t in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                parts[key].append(round(t, 3))
            model.learn(indices[: lengths[0]].tolist(), 1, bool(i % 2))  # the model moves between passes
        frontier.close()
    best = {k: min(v) for k, v in parts.items()}
    total = sum(best.values())
    out = {"cpu_seconds": parts, "best_total": round(total, 3),
           "cpu_seconds_per_million": round(total * 1e6 / n, 3),
           "feature_bytes_per_queued_link": round(queued.nbytes() / len(queued), 1),
           "max_rss_mb_after_fill": round(rss / 1024, 1)}
    print(f"whole pass over {n} queued: {total:.3f} CPU s ({out['cpu_seconds_per_million']} s per million; "
          f"per part and pass {parts}); {out['feature_bytes_per_queued_link']} bytes of features per queued link")
    return out


if __name__ == "__main__":
    main()
