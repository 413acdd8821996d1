"""Hand-made crawl logs with known answers, shared by the metrics and report tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

BASE_TIME = 1_700_000_000.0


def addr(street: str, number: str, postcode: str = "26122", city: str = "Oldenburg",
         lat: float | None = 53.14, lon: float | None = 8.22) -> dict[str, Any]:
    return {"street": street, "house_number": number, "postcode": postcode, "city": city,
            "country": "DE", "lat": lat, "lon": lon, "precision": "street"}


def page(url: str, parent: str | None, relevant: bool = False, addresses=None,
         node: str | None = None, seed_dist: int | None = None, t: float = 0.0) -> dict:
    return {"url": url, "status": 200, "relevant": relevant, "priority": 0.5, "score": 0.5,
            "prediction": 0.0, "dist": 0, "seed_dist": seed_dist, "depth": 0,
            "parent": parent, "time": BASE_TIME + t, "addresses": addresses or [],
            "node": node}


def u(name: str, host: str = "www.a.de") -> str:
    return f"http://{host}/{name}"


def tree_log() -> list[dict]:
    """The crawl tree used throughout (fetch order S A H B D F I C E G):

        S (seed)
        +- A*            relevant, no relevant ancestor
        |  +- B -- C*    C: bridge distance 1
        |  +- D -- E     tail of length 2 below A
        |  +- F*         bridge distance 0
        |     +- G       tail of length 1 below F
        +- H -- I*       I: no relevant ancestor
    """
    a1 = addr("Haarenstraße", "1")
    a1_again = addr("haarenstraße ", " 1")  # same address, other spelling
    a2 = addr("Achternstraße", "12")
    a3 = addr("Markt", "5", postcode="26121")
    return [
        page(u("S"), None, t=0),
        page(u("A"), u("S"), True, [a1, a2], t=1),
        page(u("H", "www.h.de"), u("S"), t=2),
        page(u("B"), u("A"), t=3),
        page(u("D"), u("A"), t=4),
        page(u("F"), u("A"), True, [a1_again], t=5),
        page(u("I", "www.h.de"), u("H", "www.h.de"), True, [a3], t=6),
        page(u("C", "www.c.de"), u("B"), True, [a2], t=7),
        page(u("E"), u("D"), t=8),
        page(u("G"), u("F"), t=9),
    ]


def write_run(path: Path, pages: list[dict], strategy: str = "bfs", region: str = "oldenburg",
              node: str | None = None, crawl_id: str | None = None, series_every: int = 2,
              **meta: Any) -> Path:
    """A run directory as the crawler writes it (run.json, crawl.jsonl, series.jsonl)."""
    path.mkdir(parents=True, exist_ok=True)
    run = {"region": region, "strategy": strategy, "decay": 0.5, "prediction_depth": 3,
           "started": BASE_TIME, "seeds": [pages[0]["url"]] if pages else [], "node": node,
           "crawl_id": crawl_id}
    run.update(meta)
    (path / "run.json").write_text(json.dumps(run))
    with (path / "crawl.jsonl").open("w") as fh:
        for p in pages:
            fh.write(json.dumps(p) + "\n")
    with (path / "series.jsonl").open("w") as fh:
        relevant = 0
        for i, p in enumerate(pages, 1):
            relevant += p["relevant"]
            if i % series_every == 0:
                fh.write(json.dumps({"fetched": i, "relevant": relevant,
                                     "harvest_rate": relevant / i, "frontier_size": 10,
                                     "pages_per_second": 1.0, "time": p["time"]}) + "\n")
    return path
