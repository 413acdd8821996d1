"""``RUN_DIR/postgis-spool.jsonl``: rows waiting for PostgreSQL, one JSON record per line.

Appended to while PostgreSQL is away and the in-memory buffer is full, read
back in batches once it answers again, and removed when all of it is written.
JSON only: nothing in it is ever loaded as code.  A line cut short by a crash
is skipped (its page is still in crawl.jsonl, which ``scrapy postgis-load`` reads).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from geofocus.postgis.rows import valid

logger = logging.getLogger(__name__)

SPOOL_NAME = "postgis-spool.jsonl"


class Spool:
    def __init__(self, path: Path):
        self.path = Path(path)

    def __len__(self) -> int:
        if not self.path.exists():
            return 0
        with open(self.path, "rb") as f:
            return sum(1 for _ in f)

    def exists(self) -> bool:
        return self.path.exists() and self.path.stat().st_size > 0

    def append(self, records: list[dict[str, Any]]) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
            f.flush()

    def batches(self, size: int) -> Iterator[list[dict[str, Any]]]:
        if not self.path.exists():
            return
        yield from batched(self._records(), size)

    def _records(self) -> Iterator[dict[str, Any]]:
        with open(self.path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                try:
                    record = json.loads(line)
                except ValueError:
                    logger.warning("Skipping unreadable line %(n)d of %(path)s", {"n": number, "path": self.path})
                    continue
                if valid(record):
                    yield record

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


def batched(records: Iterable[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    """Lists of up to ``size`` records, in order."""
    batch: list[dict[str, Any]] = []
    for record in records:
        batch.append(record)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
