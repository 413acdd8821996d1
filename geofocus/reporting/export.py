"""Flat exports for people and tools: one CSV row per address found on a page.

Columns: url, street, house_number, postcode, city, country, lat, lon, precision (what the
coordinate stands for: point or street = the address itself, postcode = the postcode's
centroid, city = the city centre), fetched_at (ISO 8601, UTC).  Used by ``scrapy report``
(OUT_DIR/addresses.csv), by the crawl's live report (RUN_DIR/report/addresses.csv) and as
the CSV feed exporter, so that ``-o addresses.csv`` writes these rows instead of Python
reprs of the address lists and epoch floats.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

from itemadapter import ItemAdapter
from scrapy.exporters import BaseItemExporter

CSV_COLUMNS = ("url", "street", "house_number", "postcode", "city", "country", "lat", "lon",
               "precision", "fetched_at")


def iso_time(value: Any) -> str:
    """An epoch time (or an ISO string) as ISO 8601 UTC; '' when unknown."""
    if isinstance(value, bool) or value in (None, ""):
        return ""
    if isinstance(value, (int, float)):
        return dt.datetime.fromtimestamp(float(value), dt.UTC).isoformat(timespec="seconds").replace(
            "+00:00", "Z")
    return str(value)


def _cell(value: Any) -> Any:
    return "" if value is None else value


def page_rows(url: str, addresses: Iterable[Any], fetched_at: Any) -> Iterator[dict[str, Any]]:
    """One row per address of one page."""
    when = iso_time(fetched_at)
    for address in addresses or ():
        if not isinstance(address, Mapping):
            continue
        row = {column: _cell(address.get(column)) for column in CSV_COLUMNS[1:-1]}
        yield {"url": url, **row, "fetched_at": when}


def pages_rows(pages: Iterable[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """Rows of crawl-log pages ({"url", "addresses", "time"}) or items ({"fetched_at"})."""
    for page in pages:
        when = page.get("fetched_at", page.get("time"))
        yield from page_rows(str(page.get("url") or ""), page.get("addresses") or (), when)


def write_csv(rows: Iterable[Mapping[str, Any]], stream: IO[str]) -> int:
    writer = csv.DictWriter(stream, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    n = 0
    for row in rows:
        writer.writerow(row)
        n += 1
    return n


class AddressCsvItemExporter(BaseItemExporter):
    """The CSV feed exporter of the project (FEED_EXPORTERS["csv"]): one row per address."""

    def __init__(self, file: IO[bytes], **kwargs: Any):
        super().__init__(dont_fail=True, **kwargs)
        encoding: str = kwargs.get("encoding") or "utf-8"
        self.encoding = encoding
        self.stream = io.TextIOWrapper(file, encoding=encoding, newline="", write_through=True)
        self.writer = csv.DictWriter(self.stream, fieldnames=CSV_COLUMNS, lineterminator="\n")
        try:  # appending to a CSV that has its header already (-o on a resumed crawl)
            self.header_written = file.tell() > 0
        except (OSError, AttributeError):
            self.header_written = False

    def start_exporting(self) -> None:
        if not self.header_written:
            self.writer.writeheader()
            self.header_written = True

    def export_item(self, item: Any) -> None:
        record = ItemAdapter(item).asdict()
        for row in page_rows(str(record.get("url") or ""), record.get("addresses") or (),
                             record.get("fetched_at")):
            self.writer.writerow(row)

    def finish_exporting(self) -> None:
        self.stream.flush()
        self.stream.detach()  # the feed storage closes the file itself
