"""Precision, recall and relevance accuracy of the geoparser on a labelled corpus.

    python -m geofocus.geoparser.evaluate [CORPUS ...] [--verbose] [--json]

Without arguments it prints one table with every corpus shipped with the
tests: the labelled corpora (tests/data/geoparser_*.txt, the development
corpus and the held-out sets; tests/data/realtext/, excerpts of public files with
source, commit and licence: development parts and four held-out parts), scored per region; and the
conformance corpora of other projects (tests/data/conformance/), scored on
the fields of the addresses found.  Corpus format: cases separated by blank
lines; a case is "@ REGION [note]", the text (one or more lines, HTML or
plain), then one "= street | number | postcode | in/out" line per address a
careful reader finds.  A found address is correct when street, house number,
postcode and region membership all match a labelled one.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from geofocus.geoparser import us, usfields
from geofocus.geoparser.gazetteer import fold, normalise_street
from geofocus.geoparser.model import address_key as identity_key
from geofocus.geoparser.parser import GeoParser
from geofocus.regions import load_region

DEFAULT_CORPORA = sorted((Path(__file__).resolve().parents[2] / "tests" / "data").glob("geoparser_*.txt"))


@dataclass
class Case:
    region: str
    note: str
    text: str
    expected: list[tuple[str, str, str, bool]] = field(default_factory=list)
    source: str = ""

    @property
    def relevant(self) -> bool:
        return any(e[3] for e in self.expected)


def address_key(street: str, number: str, postcode: str | None, in_region: bool) -> tuple[str, str, str, bool]:
    """The corpus's match key: the address identity (``model.address_key``) with streets folded as
    ``normalise_street`` does ("Straße" = "Str."), an en dash in the number read as a hyphen, no city
    (the corpus does not record it), and whether the address is in the region."""
    street_key, number_key, postcode_key, _ = identity_key(normalise_street(street), number.replace("–", "-"),
                                                           postcode, None)
    return (street_key, number_key, postcode_key, in_region)


def read_corpus(path: Path) -> list[Case]:
    cases: list[Case] = []
    current: Case | None = None
    text_lines: list[str] = []

    def finish() -> None:
        nonlocal current
        if current is not None:
            current.text = "\n".join(text_lines)
            cases.append(current)
        current = None

    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#") and current is None:
            continue
        if line.startswith("@ "):
            finish()
            text_lines = []
            region, _, note = line[2:].partition(" ")
            current = Case(region=region, note=note, text="", source=f"{path.name}:{lineno}")
        elif current is None:
            continue
        elif line.startswith("= "):
            parts = [p.strip() for p in line[2:].split("|")]
            if len(parts) != 4 or parts[3] not in ("in", "out"):
                raise ValueError(f"{path}:{lineno}: expected '= street | number | postcode | in/out'")
            current.expected.append(address_key(parts[0], parts[1], parts[2], parts[3] == "in"))
        elif line.strip() == "" and (text_lines or current.expected):
            finish()
        elif line.strip():
            text_lines.append(line)
    finish()
    return cases


@dataclass
class Scores:
    found: int = 0
    expected: int = 0
    correct: int = 0
    cases: int = 0
    relevance_correct: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.expected if self.expected else 1.0

    @property
    def accuracy(self) -> float:
        return self.relevance_correct / self.cases if self.cases else 1.0

    def as_dict(self) -> dict:
        return {
            "cases": self.cases, "expected": self.expected, "found": self.found,
            "correct": self.correct, "precision": round(self.precision, 4),
            "recall": round(self.recall, 4), "relevance_accuracy": round(self.accuracy, 4),
        }


def evaluate(cases: list[Case]) -> Scores:
    parsers: dict[str, GeoParser] = {}
    scores = Scores()
    for case in cases:
        parser = parsers.get(case.region)
        if parser is None:
            parser = parsers[case.region] = GeoParser(load_region(case.region))
        result = parser.parse(case.text)
        # The corpus writes a US unit as part of the street line ("Main St Ste 200").
        found = {address_key(f"{a.street} {a.unit}" if a.unit else a.street, a.house_number, a.postcode, a.in_region)
                 for a in result.all_addresses}
        expected = set(case.expected)
        scores.cases += 1
        scores.found += len(found)
        scores.expected += len(expected)
        scores.correct += len(found & expected)
        if result.relevant == case.relevant:
            scores.relevance_correct += 1
        if found != expected or result.relevant != case.relevant:
            scores.errors.append(
                f"{case.source} [{case.note}]\n  missed: {sorted(expected - found)}\n"
                f"  wrong:  {sorted(found - expected)}"
            )
    return scores


# -- conformance corpora (tests/data/conformance) ---------------------------

CONFORMANCE = Path(__file__).resolve().parents[2] / "tests" / "data" / "conformance"
_PUNCT = re.compile(r"[^0-9a-z#/ -]+")


def _norm(text: str | None) -> str:
    """Comparison form of a field: folded case and accents, no punctuation, single spaces."""
    return " ".join(_PUNCT.sub(" ", fold(text or "")).split()).replace("# ", "#")


def _same_number(a: str, b: str) -> bool:
    return _norm(a).replace(" ", "") == _norm(b).replace(" ", "")


@dataclass
class FieldScores:
    """How often an address is found, and how often each field of a found one is right.

    Region membership is not scored: the corpora's places lie mostly outside the
    region packs, so the address found may be in the region or not."""

    name: str
    cases: int = 0
    found: int = 0
    false: int = 0  # addresses found in a case that has none
    right: dict[str, int] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)
    scored: dict[str, int] = field(default_factory=dict)  # found addresses whose record labels the field

    @property
    def found_rate(self) -> float:
        expected = self.cases
        return self.found / expected if expected else 1.0

    def count_false(self, record: dict, found: list, shown: str) -> None:
        """Addresses ``found`` in a record that has none: each a false find, listed with ``shown``."""
        self.false += len(found)
        if found:
            self.misses.append(f"{record['source']}: {record['text']!r}\n  {shown}")

    def field_rate(self, name: str) -> float:
        scored = self.scored.get(name, 0)
        return self.right.get(name, 0) / scored if scored else 1.0

    def as_dict(self) -> dict:
        return {"corpus": self.name, "cases": self.cases, "found": round(self.found_rate, 4), "false_finds": self.false,
                **{f: round(self.field_rate(f), 4) for f in sorted(self.right)}}


def _score_fields(scores: FieldScores, record: dict, address, checks: dict[str, tuple[str | None, str | None]],
                  norm=_norm) -> None:
    ok = True
    for name, (want, got) in checks.items():
        scores.right.setdefault(name, 0)
        scores.scored[name] = scores.scored.get(name, 0) + 1
        if norm(want) == norm(got):
            scores.right[name] += 1
        else:
            ok = False
    if not ok:
        scores.misses.append(f"{record.get('source')}: {record['text']!r}\n  " + ", ".join(
            f"{n}: {w!r} != {g!r}" for n, (w, g) in checks.items() if norm(w) != norm(g)))


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate_us_fields(records: list[dict], parser: GeoParser, name: str = "usaddress") -> FieldScores:
    """usaddress labelled strings: found (house number matched), then street, unit, city, state, ZIP."""
    scores = FieldScores(name)
    for record in records:
        scores.cases += 1
        found = parser.parse(record["text"]).all_addresses
        address = next((a for a in found if _same_number(a.house_number, record["number"])), None)
        if address is None:
            scores.misses.append(f"{record['source']}: {record['text']!r}\n  not found; got "
                                 f"{[(a.house_number, a.street) for a in found]}")
            continue
        scores.found += 1
        _score_fields(scores, record, address, {
            "street": (record["street"], address.street),
            "unit": (record.get("unit"), address.unit),
            "city": (record["city"], address.city),
            "state": (us.state_code(record["state"]), address.state),
            "zip": ((record.get("zip") or "")[:5] or None, address.postcode),  # geofocus keeps the ZIP5
        })
    return scores


# USPS abbreviations (Publication 28, C1/C2 and the secondary unit designators) of the words the
# Geo::StreetAddress::US ports write short in their expected fields ("Highway" -> "Hwy", "North" -> "N").
_USPS = {
    "street": "st", "avenue": "ave", "av": "ave", "road": "rd", "highway": "hwy", "boulevard": "blvd", "drive": "dr",
    "lane": "ln", "court": "ct", "place": "pl", "parkway": "pkwy", "circle": "cir", "terrace": "ter", "trail": "trl",
    "plaza": "plz", "square": "sq", "common": "cmn", "commons": "cmns", "crossroad": "xrd", "crossroads": "xrds",
    "falls": "fls", "expressway": "expy", "freeway": "fwy", "crossing": "xing", "heights": "hts", "point": "pt",
    "north": "n", "south": "s", "east": "e", "west": "w", "northeast": "ne", "northwest": "nw", "southeast": "se",
    "southwest": "sw", "suite": "ste", "apartment": "apt", "floor": "fl", "room": "rm", "building": "bldg",
}


def _usps_norm(text: str | None) -> str:
    """``_norm`` with the USPS abbreviations folded and no spaces ("Gravenstein Highway North" =
    "Gravenstein Hwy N", "County Hwy 60E" = "County Hwy 60 E")."""
    return "".join(_USPS.get(w, w) for w in _norm(text).split())


def _drop_fraction(number: str) -> str:
    return re.sub(r"\s+\d/\d$", "", number)


def evaluate_us_suites(records: list[dict], parser: GeoParser, name: str = "US suites") -> FieldScores:
    """tests/data/conformance/us_suites.jsonl: the US test cases of other parsers.

    found: an address is found (the one whose house number matches if several); then number, street,
    unit, city, state, ZIP are scored among those found.  A record with ``"number": null`` (a PO box)
    has no street address: every address found in it is a false find.  The suites' conventions are
    normalised here, not in the data: ``line`` records (iLib labels number, street and unit as one
    ``streetAddress``) score "street" as that line and no unit; ``usps`` records (the
    Geo::StreetAddress::US ports state street, unit and city in USPS abbreviations and drop a
    fraction of the house number) are compared with ``_usps_norm`` and the number without its fraction.
    The city: geofocus names a place of a region city by the city's name (Brooklyn -> New York, NYC ->
    New York, as ``us.membership`` decides with the state and ZIP); the suites keep the borough or alias
    written, so a place whose region city is the city found counts as right."""
    scores = FieldScores(name)
    for record in records:
        found = parser.parse(record["text"]).all_addresses
        if record["number"] is None:
            scores.count_false(record, found, f"no address, found {[(a.house_number, a.street) for a in found]}")
            continue
        scores.cases += 1
        usps = record.get("usps", False)
        number = (lambda n: _drop_fraction(n or "")) if usps else (lambda n: n or "")
        address = next((a for a in found if _same_number(number(a.house_number), record["number"])),
                       found[0] if found else None)
        if address is None:
            scores.misses.append(f"{record['source']}: {record['text']!r}\n  not found")
            continue
        scores.found += 1
        checks: dict[str, tuple[str | None, str | None]] = {"number": (record["number"], number(address.house_number))}
        if record.get("line"):
            checks["street"] = (record["line"], " ".join(p for p in (address.house_number, address.street,
                                                                      address.unit) if p))
        elif "street" in record:
            checks["street"] = (record["street"], address.street)
            checks["unit"] = (record.get("unit"), address.unit)
        if "city" in record:  # pyap's cases label no fields but the house number
            city = record["city"]
            if address.city and us.membership(parser.gazetteer, city, us.state_code(record["state"]),
                                              (record.get("zip") or "")[:5] or None)[0] == address.city:
                city = address.city
            checks.update({
                "city": (city, address.city),
                "state": (us.state_code(record["state"]), address.state),
                "zip": ((record.get("zip") or "")[:5] or None, address.postcode),
            })
        _score_fields(scores, record, address, checks, _usps_norm if usps else _norm)
    return scores


def evaluate_de_fields(records: list[dict], parser: GeoParser, name: str = "german suites") -> FieldScores:
    """German suites: found (postcode matched), then street, number and city."""
    scores = FieldScores(name)
    for record in records:
        found = parser.parse(record["text"]).all_addresses
        if record["postcode"] is None:
            scores.count_false(record, found, f"found {found}")
            continue
        scores.cases += 1
        address = next((a for a in found if a.postcode == record["postcode"]), None)
        if address is None:
            scores.misses.append(f"{record['source']}: {record['text']!r}\n  not found; got {found}")
            continue
        scores.found += 1
        _score_fields(scores, record, address, {
            "street": (record["street"], address.street),
            "number": (record["number"], address.house_number),
            "city": (record["city"], address.city),
        })
    return scores


def conformance_scores() -> list[FieldScores]:
    out = []
    us_path, de_path = CONFORMANCE / "usaddress.jsonl", CONFORMANCE / "german_suites.jsonl"
    suites_path = CONFORMANCE / "us_suites.jsonl"
    if us_path.exists():
        records = read_jsonl(us_path)
        parser = GeoParser(load_region("us-top100"))
        out.append(evaluate_us_fields(records, parser))
        # usaddress was trained on training/*.xml: compare the two field splitters on its
        # test split only (measure_performance/test_data), with and without usaddress.
        test_split = [r for r in records if r["source"].startswith("measure_performance/")]
        if usfields.ENABLED:
            out.append(evaluate_us_fields(test_split, parser, "usaddress test split"))
            usfields.ENABLED = False
            try:
                out.append(evaluate_us_fields(test_split, parser, "  same, hand-written fields"))
            finally:
                usfields.ENABLED = True
    if suites_path.exists():
        records = read_jsonl(suites_path)
        parser = GeoParser(load_region("us-top100"))
        out.append(evaluate_us_suites(records, parser))
        for suite in sorted({r["suite"] for r in records}):
            out.append(evaluate_us_suites([r for r in records if r["suite"] == suite], parser, f"  {suite}"))
    if de_path.exists():
        out.append(evaluate_de_fields(read_jsonl(de_path), GeoParser(load_region("oldenburg"))))
    return out


def labelled_corpora() -> dict[str, list[Path]]:
    """The labelled corpora by name: the development corpus, the held-out sets, real text."""
    data = Path(__file__).resolve().parents[2] / "tests" / "data"
    groups = {
        "geofocus corpus (dev)": sorted(data.glob("geoparser_corpus_*.txt")),
        "geofocus held-out": sorted(data.glob("geoparser_heldout*.txt")),
        "real text (dev)": sorted((data / "realtext").glob("dev_*.txt")),
        "real text (dev 2)": sorted((data / "realtext").glob("dev2_*.txt")),
        "real text (held-out)": sorted((data / "realtext").glob("heldout_*.txt")),
        "real text (held-out 2)": sorted((data / "realtext").glob("heldout2_*.txt")),
        "real text (held-out 3)": sorted((data / "realtext").glob("heldout3_*.txt")),
        "real text (held-out 4)": sorted((data / "realtext").glob("heldout4_*.txt")),
        "real text (held-out 5)": sorted((data / "realtext").glob("heldout5_*.txt")),
        "real text (held-out 6)": sorted((data / "realtext").glob("heldout6_*.txt")),
        "real text (held-out 7)": sorted((data / "realtext").glob("heldout7_*.txt")),
        "real text (held-out 8)": sorted((data / "realtext").glob("heldout8_*.txt")),
        "real text (held-out 9)": sorted((data / "realtext").glob("heldout9_*.txt")),
        "real text (held-out 10)": sorted((data / "realtext").glob("heldout10_*.txt")),
        "real text (held-out 11)": sorted((data / "realtext").glob("heldout11_*.txt")),
        "real text (held-out 12)": sorted((data / "realtext").glob("heldout12_*.txt")),
        "real text (held-out 13)": sorted((data / "realtext").glob("heldout13_*.txt")),
        "real text (held-out 14)": sorted((data / "realtext").glob("heldout14_*.txt")),
        "real text (held-out 15)": sorted((data / "realtext").glob("heldout15_*.txt")),
        "real text (held-out 16)": sorted((data / "realtext").glob("heldout16_*.txt")),
        "real text (held-out 17)": sorted((data / "realtext").glob("heldout17_*.txt")),
        "real text (held-out 18)": sorted((data / "realtext").glob("heldout18_*.txt")),
        "real text (held-out 19)": sorted((data / "realtext").glob("heldout19_*.txt")),
        "real text (held-out 20)": sorted((data / "realtext").glob("heldout20_*.txt")),
        "real text (held-out 21)": sorted((data / "realtext").glob("heldout21_*.txt")),
        "real text (held-out 22)": sorted((data / "realtext").glob("heldout22_*.txt")),
        "real text (held-out 23)": sorted((data / "realtext").glob("heldout23_*.txt")),
        "real text (held-out 24)": sorted((data / "realtext").glob("heldout24_*.txt")),
        "real text (held-out 25)": sorted((data / "realtext").glob("heldout25_*.txt")),
        "real text (held-out 26)": sorted((data / "realtext").glob("heldout26_*.txt")),
        "real text (held-out 27)": sorted((data / "realtext").glob("heldout27_*.txt")),
        "real text (held-out 28)": sorted((data / "realtext").glob("heldout28_*.txt")),
        "real text (held-out 29)": sorted((data / "realtext").glob("heldout29_*.txt")),
        "real text (held-out 30)": sorted((data / "realtext").glob("heldout30_*.txt")),
        "real text (held-out 31)": sorted((data / "realtext").glob("heldout31_*.txt")),
        "real text (held-out 32)": sorted((data / "realtext").glob("heldout32_*.txt")),
        "real text (held-out 33)": sorted((data / "realtext").glob("heldout33_*.txt")),
        "real text (held-out 34)": sorted((data / "realtext").glob("heldout34_*.txt")),
        "real text (held-out 37)": sorted((data / "realtext").glob("heldout37_*.txt")),
        "real text (held-out 38)": sorted((data / "realtext").glob("heldout38_*.txt")),
        "real text (held-out 42)": sorted((data / "realtext").glob("heldout42_*.txt")),
        "real text (held-out 45)": sorted((data / "realtext").glob("heldout45_*.txt")),
        "real text (held-out 46)": sorted((data / "realtext").glob("heldout46_*.txt")),
        "real text (held-out 47)": sorted((data / "realtext").glob("heldout47_*.txt")),
        "real text (held-out 48)": sorted((data / "realtext").glob("heldout48_*.txt")),
        "real text (held-out 49)": sorted((data / "realtext").glob("heldout49_*.txt")),
        "real text (held-out 50)": sorted((data / "realtext").glob("heldout50_*.txt")),
        "real text (held-out 35)": sorted((data / "realtext").glob("heldout35_*.txt")),
        "real text (held-out 36)": sorted((data / "realtext").glob("heldout36_*.txt")),
        "real text (held-out 39)": sorted((data / "realtext").glob("heldout39_*.txt")),
        "real text (held-out 40)": sorted((data / "realtext").glob("heldout40_*.txt")),
        "real text (held-out 43)": sorted((data / "realtext").glob("heldout43_*.txt")),
        "real text (held-out 44)": sorted((data / "realtext").glob("heldout44_*.txt")),
    }
    return {k: v for k, v in groups.items() if v}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m geofocus.geoparser.evaluate", description=__doc__.split("\n")[0])
    ap.add_argument("corpus", nargs="*", type=Path, help="corpus files (default: the test corpus)")
    ap.add_argument("--verbose", action="store_true", help="list every case with a difference")
    ap.add_argument("--json", action="store_true", help="print the scores as JSON")
    args = ap.parse_args(argv)
    if args.corpus:
        groups = {str(p): [p] for p in args.corpus}
    else:
        groups = labelled_corpora()
    rows: list[dict] = []
    for name, paths in groups.items():
        cases = [case for path in paths for case in read_corpus(path)]
        for region in sorted({c.region for c in cases}):
            scores = evaluate([c for c in cases if c.region == region])
            rows.append({"corpus": name, "region": region, **scores.as_dict()})
            if args.verbose and scores.errors:
                print(f"== {name} / {region}\n" + "\n".join(scores.errors), file=sys.stderr)
    fields = conformance_scores() if not args.corpus else []
    if args.verbose:
        for f in fields:
            print(f"== {f.name}\n" + "\n".join(f.misses), file=sys.stderr)
    if args.json:
        print(json.dumps({"labelled": rows, "conformance": [f.as_dict() for f in fields]}, indent=1))
        return 0
    print("Labelled corpora: an address is right when street, number, postcode and region membership match.")
    print(f"{'corpus':28s} {'region':10s} {'cases':>5s} {'labels':>6s} {'precision':>9s} {'recall':>7s} "
          f"{'relevance acc.':>14s}")
    for r in rows:
        print(f"{r['corpus']:28s} {r['region']:10s} {r['cases']:5d} {r['expected']:6d} {r['precision']:9.3f} "
              f"{r['recall']:7.3f} {r['relevance_accuracy']:14.3f}")
    if fields:
        print("\nConformance corpora (tests/data/conformance): parsing only, region membership not scored;")
        print("found = the address was found, each field = share right among those found.")
        for f in fields:
            d = f.as_dict()
            extra = "  ".join(f"{k} {d[k]:.3f}" for k in sorted(f.right))
            print(f"{f.name:28s} {f.cases:5d} cases  found {f.found_rate:.3f}  {extra}"
                  + (f"  false finds {f.false}" if f.false else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
