"""``scrapy postgis-load RUN_DIR [RUN_DIR ...] --dsn DSN``: finished crawls into the PostGIS tables.

Reads each run's crawl.jsonl (and its postgis-spool.jsonl, which is removed
once written) and writes the pages and addresses with the same idempotent
upserts as the crawl's writer, so loading a run twice, or a run that was
already written during the crawl, changes nothing.  Unreadable lines are
skipped and counted.  The run id is the run's crawl id (run.json) or the run
directory's name.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import psycopg
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from geofocus.postgis.dsn import PostgisUnavailableError, connect, redact, scrub
from geofocus.postgis.rows import valid
from geofocus.postgis.schema import SchemaError, ensure_schema
from geofocus.postgis.spool import SPOOL_NAME, Spool, batched
from geofocus.postgis.store import write_records

CRAWL_LOG = "crawl.jsonl"


def read_records(path: Path, skipped: list[int]) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                skipped[0] += 1
                continue
            if not valid(record):
                skipped[0] += 1
                continue
            yield record


def run_description(run_dir: Path) -> tuple[str, str | None]:
    try:
        info = json.loads((run_dir / "run.json").read_text())
    except (OSError, ValueError):
        info = {}
    if not isinstance(info, dict):
        info = {}
    return str(info.get("crawl_id") or run_dir.resolve().name), info.get("region")


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "RUN_DIR [RUN_DIR ...] [--dsn DSN]"

    def short_desc(self) -> str:
        return "Load finished crawls' pages and addresses into PostgreSQL/PostGIS"

    def long_desc(self) -> str:
        return (
            "Write the pages and addresses of each run directory's crawl.jsonl (and of a leftover "
            "postgis-spool.jsonl) into the PostGIS tables of DSN (default GEOFOCUS_POSTGIS_DSN; password "
            "in the DSN or in $GEOFOCUS_POSTGIS_PASSWORD). Idempotent: loading twice changes nothing."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--dsn", help="PostgreSQL DSN (default: GEOFOCUS_POSTGIS_DSN)")
        parser.add_argument("--batch", type=int, default=None,
                            help="rows per transaction (default GEOFOCUS_POSTGIS_BATCH)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        if not args:
            raise UsageError("give at least one run directory")
        dsn = opts.dsn or self.settings.get("GEOFOCUS_POSTGIS_DSN")
        if not dsn:
            raise UsageError("give the database with --dsn DSN (or -s GEOFOCUS_POSTGIS_DSN=DSN)", print_help=False)
        batch_size = max(1, opts.batch or self.settings.getint("GEOFOCUS_POSTGIS_BATCH"))
        runs = [Path(a) for a in args]
        for run in runs:
            if not (run / CRAWL_LOG).is_file() and not (run / SPOOL_NAME).is_file():
                raise UsageError(f"{run}: no crawl log ({run / CRAWL_LOG} not found)", print_help=False)
        started = time.perf_counter()
        summary: dict[str, Any] = {"dsn": redact(dsn), "runs": []}
        try:
            with connect(dsn, self.settings.getfloat("GEOFOCUS_POSTGIS_TIMEOUT")) as conn:
                ensure_schema(conn)
                for run in runs:
                    summary["runs"].append(self.load_run(conn, run, batch_size))
        except (PostgisUnavailableError, SchemaError) as exc:
            raise UsageError(str(exc), print_help=False) from None
        except psycopg.Error as exc:
            raise UsageError(f"PostgreSQL at {redact(dsn)}: {scrub(str(exc), dsn)}", print_help=False) from None
        summary["seconds"] = round(time.perf_counter() - started, 3)
        print(json.dumps(summary, indent=2))

    def load_run(self, conn: psycopg.Connection, run: Path, batch_size: int) -> dict[str, Any]:
        run_id, region = run_description(run)
        skipped = [0]
        pages = addresses = 0
        log = run / CRAWL_LOG
        if log.is_file():
            for batch in batched(read_records(log, skipped), batch_size):
                p, a = write_records(conn, batch, run_id, region)
                pages, addresses = pages + p, addresses + a
        spool = Spool(run / SPOOL_NAME)
        spooled = 0
        if spool.exists():
            for batch in spool.batches(batch_size):
                write_records(conn, batch, run_id, region)
                spooled += len(batch)
            spool.remove()
        return {"run": str(run), "run_id": run_id, "pages": pages, "addresses": addresses,
                "spooled_rows": spooled, "skipped_lines": skipped[0]}
