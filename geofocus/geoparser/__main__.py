"""Command line: ``python -m geofocus.geoparser --region NAME [--all]``.

Reads JSON Lines ``{"id": ..., "text": ...}`` (text may be HTML; ``"html"`` or
``"body"`` are read when there is no ``"text"``, and ``"url"`` stands in for a
missing ``"id"``) on stdin and writes one JSON line per input line, in order,
on stdout::

    {"id": ..., "relevant": bool, "addresses": [{street, house_number, postcode,
     city, country, lat, lon, precision}, ...]}

``addresses`` holds the addresses of the region; with ``--all`` every address
found, each with ``in_region``.  A line that is not a JSON object with a page
text yields ``{"id": ..., "error": "..."}`` on stdout (so that output lines stay
aligned with input lines), the same message with its line number on stderr, and
the run goes on.  The crawl's own outputs (``crawl.jsonl``, the ``-O`` feed)
hold the addresses found already, not the page text, and are reported as such.
Exit status: 0; 1 when any line was bad; 2 for an unknown region or a
malformed pack.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from geofocus.geoparser.parser import GeoParser
from geofocus.regions import RegionError, load_region

_TEXT_FIELDS = ("text", "html", "body")


def process_line(parser: GeoParser, line: str, lineno: int, all_addresses: bool) -> dict[str, Any]:
    """The output record of one input line; never raises for bad input."""
    try:
        record = json.loads(line.lstrip("\ufeff"))
    except ValueError as exc:
        return {"id": None, "line": lineno, "error": f"invalid JSON: {exc}"}
    if not isinstance(record, dict):
        return {"id": None, "line": lineno, "error": "expected a JSON object with 'id' and 'text'"}
    ident = record.get("id", record.get("url"))
    text = next((record[k] for k in _TEXT_FIELDS if isinstance(record.get(k), str)), None)
    if text is None:
        if "addresses" in record and "url" in record:
            return {"id": ident, "line": lineno, "error": "a crawl record (crawl.jsonl or feed item) has no page "
                    "text: its 'addresses' are the geoparser's result already; give {'id', 'text'}"}
        return {"id": ident, "line": lineno, "error": "no page text: expected a string in 'text' ('html', 'body')"}
    try:
        result = parser.parse(text, url=record.get("url") if isinstance(record.get("url"), str) else None)
    except Exception as exc:  # the contract is one output line per input line, whatever happens
        return {"id": ident, "line": lineno, "error": f"parser failed: {exc!r}"}
    if all_addresses:
        found = [a.to_dict(with_region=True) for a in result.all_addresses]
    else:
        found = [a.to_dict() for a in result.addresses]
    return {"id": ident, "relevant": result.relevant, "addresses": found}


def run(region: str, all_addresses: bool, stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    try:
        parser = GeoParser(load_region(region))
    except RegionError as exc:
        print(f"geoparser: {exc}", file=stderr)
        return 2
    bad = 0
    for lineno, line in enumerate(stdin, 1):
        if not line.strip():
            out: dict[str, Any] = {"id": None, "line": lineno, "error": "empty line"}
        else:
            out = process_line(parser, line, lineno, all_addresses)
        if "error" in out:
            bad += 1
            print(f"geoparser: line {lineno}: {out['error']}", file=stderr)
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        stdout.flush()  # a consumer may feed one line and wait for its answer
    if bad:
        print(f"geoparser: {bad} bad line(s) of {lineno}", file=stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m geofocus.geoparser",
        description="Find the street addresses of a region in JSON Lines {id, text} from stdin.",
    )
    ap.add_argument("--region", required=True, help="region pack name (e.g. oldenburg, us-top100)")
    ap.add_argument("--all", action="store_true", help="output every address found, with in_region")
    args = ap.parse_args(argv)
    # Undecodable bytes must not end the run: they become U+FFFD in the text.
    stdin = open(sys.stdin.fileno(), encoding="utf-8", errors="replace", closefd=False)
    return run(args.region, args.all, stdin, sys.stdout, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
