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
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from geofocus.prediction.online import OnlineLinkModel  # noqa: E402


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
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
