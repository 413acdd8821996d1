"""Ground truth and seed files of a simweb Web (streamed: a 1,000,000-page Web works)."""

from __future__ import annotations

import json
from pathlib import Path

from geofocus.simweb.images import page_images
from geofocus.simweb.web import SimWeb


def write_truth(web: SimWeb, path: str | Path) -> dict[str, int]:
    """Write one JSON line per page: {url, relevant, grade, addresses}; return counts by grade."""
    counts = {"pages": 0, "relevant": 0, "partial": 0, "none": 0}
    with open(path, "w", encoding="utf-8") as out:
        buf: list[str] = []
        for pid in range(web.p.pages):
            page = web.page(pid)
            rec = web.truth_record(page)
            images = page_images(web, page)
            if images:  # which images (and map embeds) the page shows, and which are maps
                rec["images"] = [im.to_dict() for im in images]
            counts["pages"] += 1
            counts[rec["grade"]] += 1
            buf.append(json.dumps(rec, ensure_ascii=False))
            if len(buf) >= 2000:
                out.write("\n".join(buf) + "\n")
                buf.clear()
        if buf:
            out.write("\n".join(buf) + "\n")
    return counts


def write_seeds(web: SimWeb, path: str | Path) -> list[str]:
    """Write the seed URLs, one per line: the ODP category page, then its listed sites."""
    seeds = web.seeds()
    Path(path).write_text("\n".join(seeds) + "\n", encoding="utf-8")
    return seeds
