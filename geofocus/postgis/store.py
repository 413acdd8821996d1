"""Idempotent batched writes of pages and their addresses.

One transaction per batch: upsert the pages (``ON CONFLICT (url) DO UPDATE``),
then replace their addresses.  The page upsert locks each page's row first, so
two workers writing the same page one after the other leave one page row and
one set of addresses; a resumed crawl that writes a page again replaces it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import psycopg

from geofocus.postgis.rows import ADDRESS_COLUMNS, PAGE_COLUMNS, address_rows, latest_per_url, page_row

_UPDATES = ", ".join(f"{c} = EXCLUDED.{c}" for c in PAGE_COLUMNS if c != "url")
UPSERT_PAGE = (
    f"INSERT INTO pages ({', '.join(PAGE_COLUMNS)}, written_at) VALUES "
    f"(%s, to_timestamp(%s), {', '.join(['%s'] * (len(PAGE_COLUMNS) - 2))}, now()) "
    f"ON CONFLICT (url) DO UPDATE SET {_UPDATES}, written_at = now()"
)
DELETE_ADDRESSES = "DELETE FROM addresses WHERE page_url = ANY(%s)"
_ADDRESS_TARGET = [c for c in ADDRESS_COLUMNS if c not in ("lon", "lat")]
_ADDRESS_TARGET.insert(_ADDRESS_TARGET.index("precision"), "geom")
INSERT_ADDRESS = (
    f"INSERT INTO addresses ({', '.join(_ADDRESS_TARGET)}) VALUES "
    "(%s, %s, %s, %s, %s, %s, %s, ST_SetSRID(ST_MakePoint(%s, %s), 4326), %s, %s, %s)"
)


def write_records(conn: psycopg.Connection, records: Iterable[dict[str, Any]],
                  run_id: str | None = None, region: str | None = None) -> tuple[int, int]:
    """Write crawl-log records in one transaction; returns (pages, addresses) written."""
    batch = latest_per_url(records)
    if not batch:
        return 0, 0
    pages = [page_row(r, run_id, region) for r in batch]
    addresses = [row for r in batch for row in address_rows(r)]
    with conn.transaction(), conn.cursor() as cur:
        cur.executemany(UPSERT_PAGE, pages)
        cur.execute(DELETE_ADDRESSES, ([p[0] for p in pages],))
        if addresses:
            cur.executemany(INSERT_ADDRESS, addresses)
    return len(pages), len(addresses)
