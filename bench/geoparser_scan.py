"""Addresses the geoparser finds in local text nobody on the project wrote: a precision check.

    python bench/geoparser_scan.py OUT.json [--ref GIT_REF] [--root DIR ...]

Reads every text file under the roots (default: /usr/share/doc and this checkout's virtualenv
lib, i.e. READMEs, licences, copyright files, Python sources; files under 2 MB, UTF-8 only),
parses each with both packs and writes every address found (path, pack, house number, street,
unit, postcode, city, in region) to OUT.json.  Almost none of that text holds a street address
besides licence headers (the Free Software Foundation's, companies' and universities'), so what
it finds is mostly either such a notice or a false find.  --ref GIT_REF parses with the geoparser
of that commit (as ``bench/geoparser.py --baseline`` does), so two runs compare before and after.
Results are printed, not asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from geofocus.regions import load_region  # noqa: E402

EXTENSIONS = {".txt", ".md", ".rst", ".py", ".html", ".htm", ""}
NAMES = ("readme", "copyright", "license", "authors")


def text_files(roots: list[str]) -> list[str]:
    files = []
    for root in roots:
        for directory, _dirs, names in os.walk(os.path.realpath(root)):
            for name in names:
                path = os.path.join(directory, name)
                if os.path.splitext(name)[1] in EXTENSIONS or name.lower().startswith(NAMES):
                    try:
                        if os.path.isfile(path) and os.path.getsize(path) < 2_000_000:
                            files.append(path)
                    except OSError:
                        pass
    return sorted(files)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--ref", help="parse with the geoparser of this git commit")
    ap.add_argument("--root", action="append", help="directories to read (repeatable)")
    args = ap.parse_args()
    regions = ("oldenburg", "us-top100")
    if args.ref:
        import geoparser as bench  # bench/geoparser.py

        parsers = {r: bench.baseline_parser(args.ref, r) for r in regions}
    else:
        from geofocus.geoparser import GeoParser

        parsers = {r: GeoParser(load_region(r)) for r in regions}
    roots = args.root or ["/usr/share/doc", str(ROOT / ".venv" / "lib")]
    found, size, read = [], 0, 0
    for path in text_files(roots):
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        size += len(text)
        read += 1
        for region, parser in parsers.items():
            for a in parser.parse(text).all_addresses:
                found.append([path, region, a.house_number, a.street, a.unit, a.postcode, a.city, a.in_region])
    args.out.write_text(json.dumps({"ref": args.ref or "worktree", "characters": size, "files": read,
                                    "found": found}, indent=0) + "\n")
    print(f"{args.ref or 'worktree'}: {size / 1e6:.1f} M characters in {read} files, {len(found)} addresses")
    return 0


if __name__ == "__main__":
    sys.exit(main())
