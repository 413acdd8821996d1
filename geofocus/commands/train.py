"""``scrapy train RUN_DIR [RUN_DIR ...] -o MODEL``: a link model from earlier crawls.

Reads each run's crawl.jsonl (see geofocus.prediction.training), learns the
depth-1..n examples of every page, and saves the model as JSON; start a crawl
warm with ``-s GEOFOCUS_MODEL=MODEL``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from geofocus.commands import CheckedSettings
from geofocus.prediction.model import BridgeNaiveBayes
from geofocus.prediction.training import crawl_log_path, evaluate, train


class Command(CheckedSettings, ScrapyCommand):
    command_name = "train"
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "RUN_DIR [RUN_DIR ...] -o MODEL"

    def short_desc(self) -> str:
        return "Train the link prediction model from earlier crawls' logs"

    def long_desc(self) -> str:
        return (
            "Build a link prediction model (bridge-aware naive Bayes) from the crawl.jsonl "
            "of one or more run directories, and save it as JSON to MODEL. A crawl started "
            "with -s GEOFOCUS_MODEL=MODEL begins with what it holds."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("-o", "--output", metavar="MODEL", help="where to save the model (JSON)")
        parser.add_argument(
            "--depth", type=int, default=None,
            help="prediction depth n (default from GEOFOCUS_PREDICTION_DEPTH)",
        )
        parser.add_argument(
            "--alpha", type=float, default=None,
            help="Laplace smoothing (default from GEOFOCUS_PREDICTION_ALPHA)",
        )
        parser.add_argument(
            "--update", action="store_true",
            help="add to the model already at MODEL instead of starting empty",
        )
        parser.add_argument(
            "--holdout", type=float, default=0.0, metavar="FRACTION",
            help="keep this fraction of pages out of training and report ROC AUC on them",
        )  # fmt: skip
        # The classifier strategy's models (geofocus/classifier/training.py).
        parser.add_argument("--link-svm", action="store_true",
                            help="train the link SVM of strategy classifier from the runs' crawl logs")
        parser.add_argument("--truth", metavar="FILE", help="--link-svm: label pages by this truth file")
        parser.add_argument("--lenient", action="store_true", help="--link-svm: 'partial' pages count as relevant")
        parser.add_argument("--region", metavar="NAME", help="--link-svm: region pack (default: the runs' own)")
        parser.add_argument("--image-svm", metavar="FOLDER",
                            help="train the map image SVM from FOLDER (map/ sub-folder: maps; the rest: not)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if getattr(opts, "link_svm", False) or getattr(opts, "image_svm", None):
            from geofocus.classifier.command import run_train

            self.exitcode = run_train(args, opts)
            return
        if not args:
            raise UsageError("give at least one run directory (or crawl.jsonl file)")
        if not opts.output:
            raise UsageError("-o MODEL is required")
        if not 0.0 <= opts.holdout < 1.0:
            raise UsageError("--holdout must be in [0, 1)")
        assert self.settings is not None
        depth = opts.depth or self.settings.getint("GEOFOCUS_PREDICTION_DEPTH")
        alpha = opts.alpha or self.settings.getfloat("GEOFOCUS_PREDICTION_ALPHA")
        if depth < 1 or alpha <= 0:
            raise UsageError("--depth must be >= 1 and --alpha > 0")
        for run in args:
            if not crawl_log_path(run).is_file():
                raise UsageError(f"{run}: no crawl log ({crawl_log_path(run)} not found)")
        output = Path(opts.output)
        model = None
        if opts.update and output.exists():
            try:
                model = BridgeNaiveBayes.load(output)
            except ValueError as e:
                raise UsageError(str(e)) from e
            if model.depth != depth:
                model = model.resized(depth)

        started = time.perf_counter()
        model, stats, held = train(args, depth, alpha, model=model, holdout=opts.holdout)
        elapsed = time.perf_counter() - started
        model.save(output)
        summary: dict[str, Any] = {
            "model": str(output),
            "runs": len(args),
            "pages": stats.pages,
            "skipped_lines": stats.skipped_lines,
            "pages_without_link": stats.pages_without_link,
            "examples": {f"depth_{d}": stats.examples.get(d, 0) for d in range(1, depth + 1)},
            "positives": {f"depth_{d}": stats.positives.get(d, 0) for d in range(1, depth + 1)},
            "model_examples": model.examples(),
            "terms": model.n_terms,
            "seconds": round(elapsed, 3),
        }
        if opts.holdout:
            summary["holdout_pages"] = len(held)
            summary["holdout_auc"] = evaluate(
                model, held, self.settings.getfloat("GEOFOCUS_DECAY")
            )
        print(json.dumps(summary, indent=2))
        if not model.examples():
            self.exitcode = 1
