"""List the finds that differ between two geoparser runs over one sweep input (docs/geoparser.md, "Session 13:
sweep of this session's changes").

    python tools/sweep13_diff.py OLD NEW INPUT [N [SEED]]

OLD and NEW are the output of ``python -m geofocus.geoparser --region R --all`` for INPUT (what
``tools/sweep12_input.py`` writes), run from two trees.  Per window, a find present in both runs with
every field equal is the same; of the rest, an old and a new find that share the house number and the
street's last word or the postcode are one find *changed*; a new find left over is *new*, an old one
*lost*.  Each kind is listed in full when it has at most 200 items, else as a ``random.Random(SEED)``
sample of N (150; seed 13), each with both readings and the text lines around it, for a reader to judge.
"""

from __future__ import annotations

import json
import random
import sys

from geofocus.geoparser.text import html_to_text

FIELDS = ("street", "house_number", "unit", "postcode", "city", "state", "country", "in_region")
FULL_LISTING = 200


def _read(path: str) -> dict:
    with open(path, encoding="utf-8") as lines:
        return {record["id"]: record for record in map(json.loads, lines)}


def _fields(address: dict) -> tuple:
    return tuple(address.get(field) for field in FIELDS)


def _likeness(old: dict, new: dict) -> int:
    """How surely two readings are of one address: 0 when the house numbers differ."""
    if old.get("house_number") != new.get("house_number"):
        return 0
    score = 1
    if old.get("postcode") and old.get("postcode") == new.get("postcode"):
        score += 2
    if old.get("street") and new.get("street") and old["street"].split()[-1] == new["street"].split()[-1]:
        score += 2
    return score + (old.get("city") == new.get("city"))


def compare(old: list[dict], new: list[dict]) -> tuple[list[tuple[dict, dict]], list[dict], list[dict]]:
    """The changed pairs, the new finds and the lost finds of one window."""
    old_fields = {_fields(a) for a in old}
    new_fields = {_fields(a) for a in new}
    lost = [a for a in old if _fields(a) not in new_fields]
    added = [a for a in new if _fields(a) not in old_fields]
    changed = []
    while lost and added:
        score, i, j = max((_likeness(a, b), i, j) for i, a in enumerate(lost) for j, b in enumerate(added))
        if score < 3:  # a house number alone does not make two readings one address
            break
        changed.append((lost.pop(i), added.pop(j)))
    return changed, added, lost


def _show(address: dict | None) -> str:
    if address is None:
        return "-"
    return " | ".join(f"{field}={address.get(field)}" for field in FIELDS)


def _around(text: str, address: dict) -> str:
    lines = (html_to_text(text) if "<" in text else text).split("\n")
    for key in (address.get("house_number"), address.get("postcode")):
        at = [i for i, line in enumerate(lines) if key and key in line]
        if at:
            return " / ".join(line.strip()[:200] for line in lines[max(0, at[0] - 2):at[0] + 3])[:700]
    return ""


def main(argv: list[str]) -> int:
    if len(argv) not in (4, 5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    old, new, texts = _read(argv[1]), _read(argv[2]), _read(argv[3])
    n = int(argv[4]) if len(argv) >= 5 else 150
    seed = int(argv[5]) if len(argv) == 6 else 13
    kinds: dict[str, list[tuple[str, dict | None, dict | None]]] = {"new": [], "changed": [], "lost": []}
    for ident, record in new.items():
        changed, added, lost = compare(old.get(ident, {}).get("addresses", []), record.get("addresses", []))
        kinds["changed"] += [(ident, a, b) for a, b in changed]
        kinds["new"] += [(ident, None, b) for b in added]
        kinds["lost"] += [(ident, a, None) for a in lost]
    for kind, items in kinds.items():
        print(f"== {kind}: {len(items)}")
        if len(items) > FULL_LISTING:
            items = random.Random(seed).sample(items, n)
        for number, (ident, before, after) in enumerate(items):
            shown = after or before
            assert shown is not None
            print(f"#{kind[0]}{number} {ident}\n   old: {_show(before)}\n   new: {_show(after)}\n"
                  f"   text: {_around(texts[ident]['text'], shown)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
