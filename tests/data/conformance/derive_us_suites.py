"""Derive us_suites.jsonl from the US address test cases of other address-parser projects.

    python tests/data/conformance/derive_us_suites.py MIRRORS > tests/data/conformance/us_suites.jsonl

MIRRORS is a directory holding bare git snapshots named ``owner+name/repo`` (as the
search tool's ``fetch`` leaves them); each file is read with ``git show COMMIT:PATH``
at the commit listed in SUITES below, so the output does not depend on the snapshot's
newest commit.  Only data is derived (input strings and their expected fields), no code.

Kept: the strings written the way web pages write an address -- house number, street,
city and state, a ZIP code if any (no bare streets, no street without a city or
state, no intersections).  PO box strings with a city, state and ZIP are kept as
*non-addresses* (``"number": null``): geofocus must find no street address in them.
Each line: {"text", "number", "street", "unit", "line", "city", "state", "zip",
"usps", "suite", "source"} (pyap's cases label no fields: only "text" and "number"):

- ``street`` is the street as the suite labels it (directionals and type included);
  for suites labelling number, street and unit as one line (iLib's ``streetAddress``)
  ``street`` is null and ``line`` holds it.
- ``usps``: the suite states its fields in USPS abbreviations (Geo::StreetAddress::US
  ports: "Highway" is expected as "Hwy", "North" as "N"), the scorer folds both sides.
- ``suite``: short name of the source; ``source``: repo, path and case.

Duplicates (same text) are kept once, the first suite in SUITES order wins.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

# (suite, repo, commit, path, licence)
SUITES = [
    ("libpostal", "openvenues/libpostal", "4c030d8ff2fcf59c26510f68823c28a2346034d4", "test/test_parser.c", "MIT"),
    ("pelias", "pelias/parser", "b4494c2a979dd16683c7604258131a55cdf8668a", "test/address.usa.test.js", "MIT"),
    ("pelias", "pelias/parser", "b4494c2a979dd16683c7604258131a55cdf8668a", "test/addressit.usa.test.js", "MIT"),
    ("pelias", "pelias/parser", "b4494c2a979dd16683c7604258131a55cdf8668a", "test/libpostal.test.js", "MIT"),
    ("pelias", "pelias/parser", "b4494c2a979dd16683c7604258131a55cdf8668a", "test/functional.test.js", "MIT"),
    ("street-address", "derrek/street-address", "ab8935dec1c76653ecd878cbee4873579c2c8fb2",
     "test/street_address_test.rb", "MIT"),
    ("parse-address", "hassansin/parse-address", "0e09672012c09380cff6c65b4dc52942f63d3394", "test.js", "ISC"),
    ("address-formatting", "OpenCageData/address-formatting", "28c47f9daeaeb55213c439ec7c31c247bfe76321",
     "testcases/countries/us.yaml", "MIT"),
    ("ilib", "iLib-js/ilib-mono", "33a512e91d33f50024fa9e7e3b122e0c02a2cf6c",
     "packages/ilib-address/test/testaddress.js", "Apache-2.0"),
    ("pyap", "vladimarius/pyap", "34e33739be46e084becae73980d945af068ae699", "test_parser_us.py", "MIT"),
]


def show(mirrors: Path, repo: str, commit: str, path: str) -> str:
    git_dir = mirrors / repo.replace("/", "+") / "repo"
    return subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def record(text, number, street, unit, city, state, zip_code, *, line=None, usps=False) -> dict:
    return {"text": text, "number": number, "street": street, "unit": unit or None, "line": line, "city": city,
            "state": state, "zip": zip_code or None, "usps": usps}


def _c_string(literal: str) -> str:
    return literal.encode("latin-1", "backslashreplace").decode("unicode_escape")


def libpostal(source: str):
    """test_us_parses of test/test_parser.c: input, then {label, component} pairs (lower case)."""
    body = source[source.index("TEST test_us_parses"):]
    body = body[:body.index("\n}\n")]
    for index, block in enumerate(body.split("CHECK_CALL(")[1:]):
        block = "\n".join(line for line in block.splitlines() if not line.strip().startswith("//"))
        text = _c_string(re.search(r'"((?:[^"\\]|\\.)*)"', block).group(1))
        labels: dict[str, str] = {}
        for label, value in re.findall(r'\{"(\w+)", "((?:[^"\\]|\\.)*)"\}', block):
            labels[label] = _c_string(value)
        # libpostal names New York's boroughs city_district; geofocus (and the other suites) call them the city
        city = labels.get("city") or labels.get("city_district")
        unit = " ".join(v for k, v in labels.items() if k in ("unit", "level")) or None
        if "po_box" in labels and city and "state" in labels and "postcode" in labels:
            yield index, record(text, None, None, None, city, labels["state"], labels["postcode"])
        elif {"house_number", "road", "state"} <= set(labels) and city:
            yield index, record(text, labels["house_number"], labels["road"], unit, city, labels["state"],
                                labels.get("postcode"))


def _js_string(literal: str) -> str:
    return json.loads('"' + literal.replace('\\\'', "'").replace('"', '\\"') + '"')


def pelias(source: str):
    """assert('TEXT', [ {field: 'value'}, ... ]) outside comments; a list of solutions: the first."""
    source = "\n".join(line for line in source.splitlines() if not line.strip().startswith("//"))
    for index, found in enumerate(re.finditer(r"assert\('((?:[^'\\]|\\.)*)',\s*\[", source)):
        rest = source[found.end():].lstrip()
        if rest.startswith("["):
            rest = rest[1:]
        fields = re.findall(r"\{\s*(\w+):\s*'((?:[^'\\]|\\.)*)'\s*\}", rest[:rest.index("]")])
        labels = dict(fields)
        if {"housenumber", "street", "locality", "region"} <= set(labels) and len(labels) == len(fields):
            yield index, record(_js_string(found.group(1)), labels["housenumber"], labels["street"], None,
                                labels["locality"], labels["region"], labels.get("postcode"))


# The Geo::StreetAddress::US ports also label a type already written in the name ("County Road 43" with
# type "Rd", "State Highway 116" with "Hwy"; the gem's own test_street_type_is_nil_for_road_redundant_street_types
# expects no type there): such a type is not appended a second time.
_SAME_TYPE = {"rd": {"road", "rd"}, "hwy": {"highway", "hwy"}}


def _street(labels: dict, prefix: str, name: str, kind: str, suffix: str) -> str:
    words = {w.lower().rstrip(".") for w in labels.get(name, "").split()}
    parts = [prefix, name, kind, suffix]
    if labels.get(kind) and words & _SAME_TYPE.get(labels[kind].lower().rstrip("."), {labels[kind].lower()}):
        parts.remove(kind)
    return " ".join(labels[k] for k in parts if labels.get(k))


def _number_first(text: str, number: str) -> bool:
    """The string begins with its house number, or with words and then the number ("Acme, 12 Main St"):
    not with a unit glued to a number ("lt42 99 Some Road") or a grid number written short ("48S 400E")."""
    first = text.split()[0]
    return first == number or not any(ch.isdigit() for ch in first)


def street_address(source: str):
    """The ADDRESSES hash of the Ruby gem's test: "TEXT" => { :field => 'value', ... } (USPS forms)."""
    block = source[source.index("ADDRESSES = {"):source.index("INTERSECTIONS = {")]
    for index, found in enumerate(re.finditer(r'^    "([^"]+)" => \{(.*?)^    \}', block, re.M | re.S)):
        labels = {k: v for k, v in re.findall(r":(\w+)\s*=>\s*['\"]([^'\"]*)['\"]", found.group(2))}
        if ({"number", "street", "city", "state"} <= set(labels) and "street2" not in labels
                and _number_first(found.group(1), labels["number"])):
            unit = " ".join(labels[k] for k in ("unit_prefix", "unit") if labels.get(k))
            yield index, record(found.group(1), labels["number"],
                                _street(labels, "prefix", "street", "street_type", "suffix"), unit,
                                labels["city"], labels["state"], labels.get("postal_code"), usps=True)


def parse_address(source: str):
    """The address object of test.js: 'TEXT': { field: 'value', ... } (USPS forms)."""
    for index, found in enumerate(re.finditer(r"^  '([^']+)': \{(.*?)^  \}", source, re.M | re.S)):
        labels = dict(re.findall(r"(\w+): '([^']*)'", found.group(2)))
        if ({"number", "street", "city", "state"} <= set(labels) and "street1" not in labels
                and _number_first(found.group(1), labels["number"])):
            unit = " ".join(labels[k] for k in ("sec_unit_type", "sec_unit_num") if labels.get(k))
            yield index, record(found.group(1), labels["number"], _street(labels, "prefix", "street", "type", "suffix"),
                                unit, labels["city"], labels["state"], labels.get("zip"), usps=True)


def address_formatting(source: str):
    """Formatter cases: the expected output is the text; its components the fields."""
    for index, case in enumerate(source.split("\n---\n")):
        components = dict(re.findall(r"^    (\w+): (.+)$", case, re.M))
        expected = re.search(r"expected:\s*\|\n((?:    .*\n?)+)", case)
        city = components.get("city") or components.get("town") or components.get("village")
        if expected and {"house_number", "road", "state"} <= set(components) and city:
            text = "\n".join(line[4:] for line in expected.group(1).splitlines()).strip()
            if city not in text or components["road"] not in text:
                continue
            yield index, record(text, components["house_number"], components["road"], None, city,
                                components["state"], components.get("postcode"))


def ilib(source: str):
    """en-US parse tests: new Address("TEXT", {locale: 'en-US'}) then test.equal(parsedAddress.F, "V")."""
    for index, found in enumerate(re.finditer(r'new Address\("((?:[^"\\]|\\.)*)", \{locale: \'en-US\'\}\);'
                                              r'(.*?)test\.done\(\)', source, re.S)):
        labels = dict(re.findall(r'test\.equal\(parsedAddress\.(\w+), "((?:[^"\\]|\\.)*)"\)', found.group(2)))
        if labels.get("countryCode") != "US" or not {"streetAddress", "locality", "region"} <= set(labels):
            continue
        line = _js_string(labels["streetAddress"])
        number = line.split()[0]
        if not number[0].isdigit():
            if line.lower().replace(".", "").startswith("po box") and labels.get("postalCode"):
                yield index, record(_js_string(found.group(1)), None, None, None, labels["locality"],
                                    labels["region"], labels["postalCode"])
            continue
        yield index, record(_js_string(found.group(1)), number, None, None, _js_string(labels["locality"]),
                            labels["region"], labels.get("postalCode"), line=line)


def pyap(source: str):
    """test_full_address: ("TEXT", True) for a whole address, ("TEXT", False) for none.  pyap labels no fields:
    a positive keeps its house number (the first word) only, so it scores found and number; a negative is a
    non-address (``"number": null``)."""
    block = source[:source.index("def test_full_address")]
    block = block[block.rindex("@pytest.mark.parametrize"):]
    for index, (text, positive) in enumerate(re.findall(r'\("((?:[^"\\]|\\.)*)", (True|False)\)', block)):
        first = text.split()[0]
        if positive == "False":
            yield index, {"text": text, "number": None}
        elif re.fullmatch(r"\d+(?:-\d+)?[A-Za-z]?", first):
            yield index, {"text": text, "number": first}


READERS = {"libpostal": libpostal, "pelias": pelias, "street-address": street_address,
           "parse-address": parse_address, "address-formatting": address_formatting, "ilib": ilib, "pyap": pyap}


def main(mirrors: str) -> None:
    seen: set[str] = set()
    for suite, repo, commit, path, licence in SUITES:
        for index, rec in READERS[suite](show(Path(mirrors), repo, commit, path)):
            if rec["text"] in seen:
                continue
            seen.add(rec["text"])
            rec.update(suite=suite, source=f"{repo}@{commit[:8]} {path}#{index} ({licence})")
            print(json.dumps(rec, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
