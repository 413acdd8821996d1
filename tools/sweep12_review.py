"""List what session 12's sweep reviewed by hand (docs/geoparser.md, "Session 12").

    python tools/sweep12_review.py finds REGION INPUT FOUND [N [SEED]]    # the finds, a sample of N (200)
    python tools/sweep12_review.py misses REGION INPUT FOUND [N [SEED]]   # pattern hits without a find (150)

INPUT is what ``tools/sweep12_input.py`` writes; FOUND is the geoparser's output for it
(``python -m geofocus.geoparser --region us-top100|oldenburg --all``).  REGION is ``us`` or ``de``.
Samples are drawn with ``random.Random(SEED)`` (12, the first sweep's; the second used 13) when
there are more than N; each item is printed with
the text lines around it, for a reader to judge.  The patterns are deliberately simple and
independent of the parser: a US state code before a ZIP, a number before a capitalised street with
a type word; a German postcode before a capitalised word, a street with a street word before a
number.  A hit counts as found when the window has a find with that ZIP, postcode or house number.
"""

from __future__ import annotations

import json
import random
import re
import sys

from geofocus.geoparser.text import html_to_text

STATES = ("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY "
          "NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY").split()
US_ZIP = re.compile(r"\b(?:" + "|".join(STATES) + r")\.?,?\s+(\d{5})(?:-\d{4})?\b")
US_STREET = re.compile(r"\b(\d{1,6}) (?:[NSEW]\.? |North |South |East |West )?(?:[A-Z0-9][\w.'-]*\s){1,3}"
                       r"(?:St|Street|Ave|Avenue|Blvd|Boulevard|Road|Rd|Dr|Drive|Way|Lane|Ln|Ct|Court|Pl|Place|"
                       r"Pkwy|Parkway|Hwy|Highway)\b\.?")
DE_POSTCODE = re.compile(r"\b(\d{5}) [A-ZÄÖÜ][\wäöüß]+")
DE_STREET = re.compile(r"\b([A-ZÄÖÜ][\wäöüß-]*(?:straße|strasse|str\.|weg|platz|allee|ring|damm|gasse|ufer)) "
                       r"(\d{1,4}[a-z]?)\b")


def _read(path: str) -> dict:
    with open(path, encoding="utf-8") as lines:
        return {record["id"]: record for record in map(json.loads, lines)}


def _page_text(text: str) -> str:
    return html_to_text(text) if "<" in text else text


def finds(region: str, texts: dict, found: dict, n: int, seed: int = 12) -> list[str]:
    items = [(ident, a) for ident, record in found.items() for a in record.get("addresses", [])]
    print(f"{len(items)} finds", file=sys.stderr)
    if len(items) > n:
        items = random.Random(seed).sample(items, n)
    out = []
    for ident, a in items:
        lines = _page_text(texts[ident]["text"]).split("\n")
        around = ""
        for key in (a.get("postcode"), a.get("house_number")):
            at = [i for i, line in enumerate(lines) if key and key in line
                  and a["street"].split()[0][:4] in " ".join(lines[max(0, i - 3):i + 3])]
            if at:
                around = " / ".join(x.strip()[:160] for x in lines[max(0, at[0] - 1):at[0] + 2])
                break
        out.append(f"{ident}\n   found: {a['street']} | {a['house_number']} | unit={a.get('unit')} | {a['postcode']} | "
                   f"{a['city']} | in={a['in_region']}\n   text: {around[:420]}")
    return out


def misses(region: str, texts: dict, found: dict, n: int, seed: int = 12) -> list[str]:
    patterns = ([(US_ZIP, "postcode", 1), (US_STREET, "house_number", 1)] if region == "us"
                else [(DE_POSTCODE, "postcode", 1), (DE_STREET, "house_number", 2)])
    hits = []
    for ident, record in texts.items():
        text = _page_text(record["text"])
        lines = text.split("\n")
        got = found.get(ident, {}).get("addresses", [])
        seen = set()
        for pattern, field, group in patterns:
            have = {a.get(field) for a in got}
            for match in pattern.finditer(text):
                line_no = text.count("\n", 0, match.start())
                key = match.group(group)
                if key in have or (line_no, key) in seen:
                    continue
                seen.add((line_no, key))
                around = " / ".join(x.strip()[:200] for x in lines[max(0, line_no - 2):line_no + 2])
                hits.append(f"{ident}\n   hit: {match.group(0)[:80]}\n   text: {around[:500]}")
    print(f"{len(hits)} pattern hits without a find", file=sys.stderr)
    return random.Random(seed).sample(hits, n) if len(hits) > n else hits


def main(argv: list[str]) -> int:
    if len(argv) not in (5, 6, 7) or argv[1] not in ("finds", "misses") or argv[2] not in ("us", "de"):
        print(__doc__, file=sys.stderr)
        return 2
    n = int(argv[5]) if len(argv) >= 6 else (200 if argv[1] == "finds" else 150)
    seed = int(argv[6]) if len(argv) == 7 else 12
    listing = (finds if argv[1] == "finds" else misses)(argv[2], _read(argv[3]), _read(argv[4]), n, seed)
    for number, item in enumerate(listing):
        print(f"#{number} {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
