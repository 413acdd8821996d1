"""``scrapy report RUN_DIR [RUN_DIR ...] -o OUT_DIR [--truth FILE]``: the crawl report."""

from __future__ import annotations

import argparse
import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from geofocus.commands import CheckedSettings


class Command(CheckedSettings, ScrapyCommand):
    command_name = "report"
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "RUN_DIR [RUN_DIR ...] -o OUT_DIR [--truth FILE]"

    def short_desc(self) -> str:
        return "Compare crawls: harvest curves, distances, the papers' metrics, map, GeoJSON"

    def long_desc(self) -> str:
        return (
            "Write OUT_DIR/index.html (a self-contained page that opens from disk), the charts "
            "harvest.png, relevant.png, distances.png and map.png, addresses.geojson and "
            "metrics.json for the run directories given (what `scrapy crawl geo` writes under "
            "GEOFOCUS_RUN_DIR). With --truth (simweb's truth file), add precision, recall "
            "and F1."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("-o", "--output", dest="output", metavar="OUT_DIR",
                            help="directory to write the report into (created if missing)")
        parser.add_argument("--truth", metavar="FILE",
                            help="simweb truth file (JSON lines) for precision and recall")
        parser.add_argument("--geo-centrality-k", dest="k", type=int, default=2,
                            help="link distance k of the geo-centrality GCt_k (default 2)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("give at least one run directory")
        if not opts.output:
            raise UsageError("give the output directory with -o OUT_DIR")
        from geofocus.reporting import ReportError, build_report  # matplotlib and folium: only when run

        try:
            result = build_report(args, opts.output, truth_path=opts.truth, k=opts.k)
        except ReportError as exc:
            print(f"report: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        for note in result.notes:
            print(f"note: {note}", file=sys.stderr)
        for run in result.runs:
            rate = run.relevant / run.fetched if run.fetched else 0.0
            print(f"{run.label}: {run.fetched} pages, {run.relevant} relevant "
                  f"({100 * rate:.1f} %)")
        print(f"report written to {result.index}")
