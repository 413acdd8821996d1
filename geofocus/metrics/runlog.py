"""Reading run directories (the format is the shared contract in COMMON.md).

``RUN_DIR/run.json`` (metadata), ``RUN_DIR/crawl.jsonl`` (one line per fetched page, in
fetch order), ``RUN_DIR/series.jsonl`` (periodic counts) and, when the series extension
wrote it, ``RUN_DIR/stats.json`` (the crawler's final stats). Only crawl.jsonl is
required; what else is missing or malformed becomes a note on the :class:`Run`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from geofocus.metrics.base import read_jsonl

logger = logging.getLogger(__name__)

CRAWL_LOG = "crawl.jsonl"
RUN_META = "run.json"
SERIES = "series.jsonl"
STATS = "stats.json"


class RunDirError(ValueError):
    """A path is not a usable run directory (the message says why)."""


@dataclass
class Run:
    """One crawl's run directory, loaded. ``pages`` are normalised crawl.jsonl records."""

    path: Path
    meta: dict[str, Any]
    pages: list[dict[str, Any]]
    series: list[dict[str, Any]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    name: str | None = None  # set to tell apart runs whose default labels are the same

    @property
    def strategy(self) -> str:
        return str(self.meta.get("strategy") or "unknown")

    @property
    def region(self) -> str | None:
        region = self.meta.get("region")
        return str(region) if region else None

    @property
    def label(self) -> str:
        """Short name for charts and tables: the strategy, plus node and directory name."""
        if self.name:
            return self.name
        parts = [self.strategy]
        if self.meta.get("node"):
            parts.append(f"node {self.meta['node']}")
        parts.append(f"({self.path.name})")
        return " ".join(parts)

    @property
    def fetched(self) -> int:
        return len(self.pages)

    @property
    def relevant(self) -> int:
        return sum(1 for p in self.pages if p["relevant"])


def _read_jsonl(path: Path, notes: list[str]) -> Iterator[dict[str, Any]]:
    bad = 0
    for record in read_jsonl(path):
        if record is None:
            bad += 1
        else:
            yield record
    if bad:
        notes.append(f"{path.name}: skipped {bad} malformed line(s)")


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return int(value)
    return None


def _as_float(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return None


def normalise_page(record: dict[str, Any]) -> dict[str, Any] | None:
    """A crawl.jsonl record with the types the metrics expect, or None without a URL.

    Missing fields get neutral values (``addresses`` [], ``parent`` None, numbers None), so
    logs written by older or partial crawlers still load.
    """
    url = record.get("url")
    if not isinstance(url, str) or not url:
        return None
    addresses = record.get("addresses")
    if not isinstance(addresses, list):
        addresses = []
    addresses = [a for a in addresses if isinstance(a, dict)]
    parent = record.get("parent")
    node = record.get("node")
    page = dict(record)
    page.update(
        url=url,
        relevant=bool(record.get("relevant")),
        addresses=addresses,
        parent=parent if isinstance(parent, str) and parent else None,
        dist=_as_int(record.get("dist")),
        seed_dist=_as_int(record.get("seed_dist")),
        depth=_as_int(record.get("depth")),
        time=_as_float(record.get("time")),
        node=str(node) if node not in (None, "") else None,
    )
    return page


def read_pages(path: Path, notes: list[str] | None = None) -> list[dict[str, Any]]:
    """All page records of a crawl.jsonl file, normalised; malformed lines are skipped."""
    notes = notes if notes is not None else []
    pages = []
    no_url = 0
    for record in _read_jsonl(path, notes):
        page = normalise_page(record)
        if page is None:
            no_url += 1
        else:
            pages.append(page)
    if no_url:
        notes.append(f"{path.name}: skipped {no_url} record(s) without a url")
    return pages


def load_run(path: str | Path) -> Run:
    """Load a run directory; raises :class:`RunDirError` if it has no crawl log."""
    path = Path(path)
    if not path.exists():
        raise RunDirError(f"{path}: no such run directory")
    if not path.is_dir():
        raise RunDirError(f"{path}: not a directory (give the run directory, not a file in it)")
    log = path / CRAWL_LOG
    if not log.is_file():
        raise RunDirError(
            f"{path}: no {CRAWL_LOG} here; a run directory is what `scrapy crawl geo` writes "
            f"(setting GEOFOCUS_RUN_DIR)"
        )
    notes: list[str] = []
    meta: dict[str, Any] = {}
    meta_path = path / RUN_META
    if meta_path.is_file():
        try:
            loaded = json.loads(meta_path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                meta = loaded
            else:
                notes.append(f"{RUN_META} is not a JSON object; ignored")
        except (OSError, ValueError) as exc:
            notes.append(f"{RUN_META} unreadable ({exc}); strategy and region unknown")
    else:
        notes.append(f"no {RUN_META}: strategy and region unknown")
    pages = read_pages(log, notes)
    if not pages:
        notes.append(f"{CRAWL_LOG} has no pages")
    series: list[dict[str, Any]] = []
    series_path = path / SERIES
    if series_path.is_file():
        series = list(_read_jsonl(series_path, notes))
    stats: dict[str, Any] = {}
    stats_path = path / STATS
    if stats_path.is_file():
        try:
            loaded = json.loads(stats_path.read_text(encoding="utf-8"))
            stats = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            notes.append(f"{STATS} unreadable; ignored")
    return Run(path=path, meta=meta, pages=pages, series=series, stats=stats, notes=notes)
