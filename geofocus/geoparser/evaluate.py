"""Precision, recall and relevance accuracy of the geoparser on a labelled corpus.

    python -m geofocus.geoparser.evaluate [CORPUS ...] [--verbose] [--json]

Without arguments it reads the corpus shipped with the tests
(tests/data/geoparser_*.txt: the development corpus and the held-out sets).  Corpus format: cases separated by blank
lines; a case is "@ REGION [note]", the text (one or more lines, HTML or
plain), then one "= street | number | postcode | in/out" line per address a
careful reader finds.  A found address is correct when street, house number,
postcode and region membership all match a labelled one.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from geofocus.geoparser.gazetteer import normalise_street
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


def _norm_number(number: str) -> str:
    return number.lower().replace(" ", "").replace("–", "-")


def address_key(street: str, number: str, postcode: str | None, in_region: bool) -> tuple[str, str, str, bool]:
    return (normalise_street(street), _norm_number(number), postcode or "", in_region)


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
        found = {address_key(a.street, a.house_number, a.postcode, a.in_region) for a in result.all_addresses}
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m geofocus.geoparser.evaluate", description=__doc__.split("\n")[0])
    ap.add_argument("corpus", nargs="*", type=Path, help="corpus files (default: the test corpus)")
    ap.add_argument("--verbose", action="store_true", help="list every case with a difference")
    ap.add_argument("--json", action="store_true", help="print the scores as JSON")
    args = ap.parse_args(argv)
    cases: list[Case] = []
    for path in args.corpus or DEFAULT_CORPORA:
        cases.extend(read_corpus(path))
    scores = evaluate(cases)
    if args.verbose:
        print("\n".join(scores.errors), file=sys.stderr)
    if args.json:
        print(json.dumps(scores.as_dict()))
    else:
        d = scores.as_dict()
        print(f"{d['cases']} cases, {d['expected']} labelled addresses, {d['found']} found: "
              f"precision {d['precision']:.3f}, recall {d['recall']:.3f}, "
              f"relevance accuracy {d['accuracy'] if 'accuracy' in d else d['relevance_accuracy']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
