"""``scrapy train --link-svm RUN_DIR... -o FILE`` and ``scrapy train --image-svm FOLDER -o FILE``."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from scrapy.exceptions import UsageError

from geofocus.classifier.training import run_region, train_image_svm, train_link_svm
from geofocus.metrics.truth import TruthError, load_truth
from geofocus.prediction.training import crawl_log_path
from geofocus.regions import RegionError, load_region


def run_train(args: list[str], opts: argparse.Namespace) -> int:
    if not opts.output:
        raise UsageError("-o FILE is required")
    started = time.perf_counter()
    if opts.image_svm:
        folder = Path(opts.image_svm)
        if not folder.is_dir():
            raise UsageError(f"{folder}: not a folder of labelled images")
        try:
            image_model, counts = train_image_svm(folder)
        except ValueError as exc:
            raise UsageError(f"{folder}: {exc} (maps go in a map/ sub-folder)") from None
        image_model.save(opts.output)
        summary = {"image_svm": opts.output, **counts, "seconds": round(time.perf_counter() - started, 2)}
        print(json.dumps(summary, indent=2))
        return 0
    if not args:
        raise UsageError("give at least one run directory (or crawl.jsonl file)")
    for run in args:
        if not crawl_log_path(run).is_file():
            raise UsageError(f"{run}: no crawl log ({crawl_log_path(run)} not found)")
    region_name = opts.region or run_region(args[0]) or "oldenburg"
    try:
        region = load_region(region_name)
        truth = load_truth(opts.truth) if opts.truth else None
    except (RegionError, TruthError) as exc:
        raise UsageError(str(exc)) from None
    try:
        model, examples = train_link_svm(args, region, truth, lenient=opts.lenient)
    except ValueError as exc:
        raise UsageError(f"cannot train the link SVM: {exc}") from None
    model.save(opts.output)
    summary = {
        "link_svm": opts.output,
        "region": region.name,
        "labels": "truth" + (" (lenient)" if opts.lenient else "") if truth else "eval(page)",
        "pages": examples.pages,
        "examples": len(examples.labels),
        "positives": sum(examples.labels),
        "terms": len(model.vocabulary),
        "seconds": round(time.perf_counter() - started, 2),
    }
    print(json.dumps(summary, indent=2))
    return 0
