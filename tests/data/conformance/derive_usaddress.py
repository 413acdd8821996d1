"""Derive usaddress.jsonl from the labelled XML of datamade/usaddress (MIT).

    python tests/data/conformance/derive_usaddress.py CHECKOUT > tests/data/conformance/usaddress.jsonl

Reads measure_performance/test_data/*.xml and training/*.xml of a checkout and
keeps the strings written the way web pages write an address: house number
first, then the street, then the place, then the state (a ZIP code may
follow); no PO boxes, intersections or strings marked NotAddress.  Each line:
{"text", "number", "street", "unit", "city", "state", "zip", "source"} with
the labelled tokens joined (trailing commas dropped).  Duplicates (same text)
are kept once.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

STREET = ("StreetNamePreDirectional", "StreetNamePreModifier", "StreetNamePreType", "StreetName",
          "StreetNamePostType", "StreetNamePostDirectional", "StreetNamePostModifier")
UNIT = ("OccupancyType", "OccupancyIdentifier", "SubaddressType", "SubaddressIdentifier")
EXCLUDE = {"USPSBoxType", "USPSBoxID", "USPSBoxGroupType", "USPSBoxGroupID", "IntersectionSeparator", "NotAddress",
           "SecondStreetName", "SecondStreetNamePostType"}


def tokens(element, tags) -> str:
    return " ".join((t.text or "").strip() for t in element if t.tag in tags).strip(" ,")


def main(checkout: str) -> None:
    root = Path(checkout)
    seen: set[str] = set()
    files = sorted(root.glob("measure_performance/test_data/*.xml")) + sorted(root.glob("training/*.xml"))
    for path in files:
        try:
            collection = ET.parse(path).getroot()
        except ET.ParseError:
            continue  # some training files are stored as Git LFS pointers
        for index, element in enumerate(collection):
            seq = [t.tag for t in element]
            need = {"AddressNumber", "StreetName", "PlaceName", "StateName"}
            if not need <= set(seq) or EXCLUDE & set(seq) or seq[0] != "AddressNumber":
                continue
            first = {k: seq.index(k) for k in need}
            last = {k: len(seq) - 1 - seq[::-1].index(k) for k in need}
            if not (last["AddressNumber"] < first["StreetName"] and last["StreetName"] < first["PlaceName"]
                    and last["PlaceName"] < first["StateName"]):
                continue
            text = " ".join((t.text or "").strip() for t in element)
            if text in seen:
                continue
            seen.add(text)
            record = {
                "text": text,
                "number": tokens(element, ("AddressNumber", "AddressNumberSuffix")),
                "street": tokens(element, STREET),
                "unit": tokens(element, UNIT) or None,
                "city": tokens(element, ("PlaceName",)),
                "state": tokens(element, ("StateName",)),
                "zip": tokens(element, ("ZipCode",)) or None,
                "source": f"{path.relative_to(root)}#{index}",
            }
            print(json.dumps(record, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
