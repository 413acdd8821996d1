"""Build a crawl report from run directories: charts, tables, GeoJSON and one HTML page.

:func:`build_report` is the whole job of ``scrapy report``; it needs no Scrapy. Output:

- ``index.html``: one self-contained page (inline CSS, no remote resources) that shows all
  of the following;
- ``harvest.png`` (harvest rate over pages fetched, Fig. 8 of Ahlers & Boll),
  ``relevant.png`` (relevant pages over pages fetched, Fig. 7), ``distances.png`` (bridge
  distances, tail lengths, seed distances, Fig. 9 and 10), ``map.png`` (the addresses within
  the region's bounding box);
- ``addresses.geojson``: one feature per distinct address;
- ``metrics.json``: every number of the tables, for scripts.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from geofocus.metrics import NotAvailable, collab
from geofocus.metrics.addresses import collect_addresses, count_entities, to_geojson
from geofocus.metrics.harvest import (
    CrawlTree,
    bridge_distances,
    distribution_summary,
    downsample,
    harvest_curve,
    relative_harvest_rate,
    seed_distances,
    tail_lengths,
)
from geofocus.metrics.runlog import Run, RunDirError, load_run
from geofocus.metrics.truth import Truth, TruthError, effectiveness, geoparser_agreement, load_truth
from geofocus.partition import plan_for_region
from geofocus.regions import load_region
from geofocus.reporting import charts, export, webmap
from geofocus.reporting.html import render_page

logger = logging.getLogger(__name__)


class ReportError(Exception):
    """The report cannot be built (no usable run, unreadable truth, unwritable output)."""


@dataclass
class ReportResult:
    out_dir: Path
    files: list[Path]
    runs: list[Run]
    notes: list[str] = field(default_factory=list)

    @property
    def index(self) -> Path:
        return self.out_dir / "index.html"


def _region_info(runs: Sequence[Run]) -> dict[str, Any]:
    """Bounding box, labelled places and coordinates for addresses without any, from the
    region pack of the first run that names a loadable region."""
    info: dict[str, Any] = {"name": None, "title": None, "bbox": None, "landmarks": [],
                            "reference": [], "fallback": {}, "aliases": {}}
    for run in runs:
        if not run.region:
            continue
        try:
            region = load_region(run.region)
        except Exception as exc:  # unknown or broken pack: the map frames the points instead
            info["note"] = f"region {run.region!r}: {exc}"
            continue
        info.update(name=region.name, title=region.title, bbox=region.bbox)
        for city in sorted(region.cities, key=lambda c: -c.population):
            if city.lat is not None and city.lon is not None:
                info["landmarks"].append((city.name, city.lon, city.lat))
                info["fallback"][city.name.lower()] = (city.lat, city.lon)
            for alias in (city.name, *city.aliases):
                info["aliases"][alias.strip().lower()] = city.name.lower()
        for code, (lat, lon, _name) in region.postcodes.items():
            info["reference"].append((code, lon, lat))
            info["fallback"][code] = (lat, lon)
        break
    return info


def _duration(run: Run) -> float | None:
    times = [p["time"] for p in run.pages if p.get("time") is not None]
    start = run.meta.get("started")
    if isinstance(start, (int, float)) and times:
        return max(times) - min(float(start), min(times))
    if len(times) >= 2:
        return max(times) - min(times)
    return None


def _ahlers_boll(run: Run, tree: CrawlTree) -> dict[str, Any]:
    bridges = bridge_distances(tree)
    tails = tail_lengths(tree)
    seeds = seed_distances(tree)
    return {
        "harvest_rate": run.relevant / run.fetched if run.fetched else NotAvailable(
            "no pages fetched"),
        "bridge_distances": {str(k): v for k, v in sorted(bridges.distances.items())},
        "bridge": distribution_summary(bridges.distances),
        "bridged_share": bridges.share_bridged(),
        "relevant_without_relevant_ancestor": bridges.without_relevant_ancestor,
        "tail_lengths": {str(k): v for k, v in sorted(tails.items())},
        "tails": distribution_summary(tails),
        "seed_distances": {str(k): v for k, v in sorted(seeds.items())},
        "seed": distribution_summary(seeds),
        "_bridges": bridges.distances, "_tails": tails, "_seeds": seeds,
    }


def _group_runs(runs: Sequence[Run]) -> list[tuple[str, list[Run]]]:
    """Runs of one collaborative crawl (same crawl_id) together; every other run alone."""
    groups: dict[str, list[Run]] = {}
    order: list[str] = []
    for run in runs:
        crawl_id = run.meta.get("crawl_id")
        key = f"crawl {crawl_id}" if crawl_id else run.label
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(run)
    return [(key, groups[key]) for key in order]


def _assignment(group: Sequence[Run]) -> dict[str, list[str]] | None:
    """node -> the cities it owns: from run.json ("assignment": {node: [cities]}, or a node's
    own "cities"), else from the default node plan of the region (geofocus.partition) when the
    runs' node names are that plan's."""
    assignment: dict[str, list[str]] = {}
    for run in group:
        if isinstance(run.meta.get("assignment"), dict):
            for node, cities in run.meta["assignment"].items():
                if isinstance(cities, list):
                    assignment[str(node)] = [str(c) for c in cities]
        node, cities = run.meta.get("node"), run.meta.get("cities")
        if node and isinstance(cities, list):
            assignment[str(node)] = [str(c) for c in cities]
    if assignment:
        return assignment
    nodes = {str(p["node"]) for r in group for p in r.pages if p.get("node")}
    nodes |= {str(r.meta["node"]) for r in group if r.meta.get("node")}
    region_name = next((r.region for r in group if r.region), None)
    if len(nodes) < 2 or not region_name:
        return None
    try:
        plan = plan_for_region(load_region(region_name))
    except Exception:  # no such region pack or plan: geo-focus says it lacks the assignment
        return None
    if not nodes <= set(plan.nodes):
        return None
    for city, node in plan.city_node.items():
        assignment.setdefault(node, []).append(city.name)
    return assignment or None


#: Stats keys (in RUN_DIR/stats.json) of the URLs a node sent to other nodes, in total or per
#: receiving node (``.../sent/<node>``); summed over the nodes of a crawl they give the
#: communication overhead, else the crawl log gives a lower bound.
EXCHANGED_STAT = "geofocus/partition/sent"


def _exchanged(run: Run) -> int | None:
    total = run.stats.get(EXCHANGED_STAT)
    if isinstance(total, (int, float)):
        return int(total)
    per_node = [v for k, v in run.stats.items()
                if k.startswith(EXCHANGED_STAT + "/") and isinstance(v, (int, float))]
    return int(sum(per_node)) if per_node else None


def _gao(label: str, group: Sequence[Run], k: int, m: float, canonical) -> dict[str, Any]:
    pages = [p if p.get("node") or not r.meta.get("node") else dict(p, node=r.meta["node"])
             for r in group for p in r.pages]
    tree = CrawlTree(pages)
    sent = [x for x in map(_exchanged, group) if x is not None]
    exchanged = sum(sent) if sent else None
    distinct, total = count_entities(pages)
    locality = collab.geographic_locality(tree, canonical)
    focus = collab.geo_focus(pages, _assignment(group), canonical)
    return {
        "crawl": label,
        "runs": [r.label for r in group],
        "nodes": [n for n in collab.nodes_of(pages) if n] or ["(one)"],
        "pages": len(pages),
        "geo_coverage": collab.geo_coverage(pages),
        "distinct_entities": distinct,
        "entities": total,
        "entity_ratio": collab.entity_ratio(pages),
        "geo_centrality": collab.geo_centrality(tree, k=k, m=m),
        "overlap": collab.overlap(pages),
        "diversity": collab.diversity(pages),
        "communication_overhead": collab.communication_overhead(pages, exchanged),
        "overhead_source": "stats" if exchanged is not None else "crawl log (lower bound)",
        "geo_focus": focus,
        "locality_linked": locality if isinstance(locality, NotAvailable) else locality[0],
        "locality_unlinked": locality if isinstance(locality, NotAvailable) else locality[1],
    }


def _tsikrika(run: Run, truth: Truth) -> dict[str, Any]:
    urls = [p["url"] for p in run.pages]
    strict = effectiveness(urls, truth, lenient=False)
    lenient = effectiveness(urls, truth, lenient=True)
    return {
        "strict": strict.__dict__,
        "lenient": lenient.__dict__,
        "geoparser": geoparser_agreement(run.pages, truth),
    }


def _filters(run: Run) -> dict[str, int]:
    prefix = "geofocus/filtered/"
    return {k[len(prefix):]: v for k, v in run.stats.items()
            if k.startswith(prefix) and isinstance(v, int)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, NotAvailable):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items() if not str(k).startswith("_")}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def build_report(run_dirs: Sequence[str | Path], out_dir: str | Path,
                 truth_path: str | Path | None = None, k: int = 2, m: float = 10.0,
                 max_points: int = 2000, live: float = 0) -> ReportResult:
    """Write the report of ``run_dirs`` into ``out_dir``; raises :class:`ReportError`.

    A run directory that cannot be read is skipped with a note, as long as one is usable.
    ``live``: the crawl is still running; the page reloads itself every ``live`` seconds.
    """
    if not run_dirs:
        raise ReportError("no run directory given")
    notes: list[str] = []
    runs: list[Run] = []
    for path in run_dirs:
        try:
            run = load_run(path)
        except RunDirError as exc:
            notes.append(f"skipped: {exc}")
            continue
        runs.append(run)
        notes.extend(f"{run.label}: {note}" for note in run.notes)
    if not runs:
        raise ReportError("no usable run directory: " + "; ".join(n[9:] for n in notes))
    seen: dict[str, int] = {}
    for run in runs:  # runs/a/bfs and runs/b/bfs would share a label
        label = run.label
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            run.name = f"{label} #{seen[label]}"
    truth = None
    if truth_path:
        try:
            truth = load_truth(truth_path)
        except TruthError as exc:
            raise ReportError(str(exc)) from exc
        if truth.skipped:
            notes.append(f"truth file: skipped {truth.skipped} malformed line(s)")
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot create {out}: {exc}") from exc

    region = _region_info(runs)
    if region.get("note"):
        notes.append(region["note"])
    aliases = region["aliases"]

    def canonical(city: str) -> str:
        name = city.strip().lower()
        return aliases.get(name, name)

    labels = [r.label for r in runs]
    per_run = []
    for run in runs:
        tree = CrawlTree(run.pages)
        distinct, total = count_entities(run.pages)
        duration = _duration(run)
        row: dict[str, Any] = {
            "label": run.label, "path": str(run.path), "region": run.region,
            "strategy": run.strategy, "node": run.meta.get("node"),
            "crawl_id": run.meta.get("crawl_id"), "seeds": len(run.meta.get("seeds") or []),
            "fetched": run.fetched, "relevant": run.relevant, "distinct_addresses": distinct,
            "address_occurrences": total, "duration_s": duration,
            "pages_per_second": run.fetched / duration if duration else None,
            "series_lines": len(run.series), "filters": _filters(run),
            "ahlers_boll": _ahlers_boll(run, tree),
        }
        if truth is not None:
            row["tsikrika"] = _tsikrika(run, truth)
        per_run.append(row)
    gao = [_gao(label, group, k, m, canonical) for label, group in _group_runs(runs)]
    baseline = next((r for r in per_run if r["strategy"] == "bfs" and r["fetched"]), None)
    for row in per_run:
        rate = row["ahlers_boll"]["harvest_rate"]
        if baseline is None:
            row["ahlers_boll"]["vs_bfs"] = NotAvailable("no bfs run to compare with")
        elif not baseline["relevant"]:
            row["ahlers_boll"]["vs_bfs"] = NotAvailable("the bfs run found no relevant page")
        elif isinstance(rate, NotAvailable):
            row["ahlers_boll"]["vs_bfs"] = rate
        else:
            row["ahlers_boll"]["vs_bfs"] = rate / (baseline["relevant"] / baseline["fetched"])

    files: list[Path] = []
    try:
        files.append(charts.line_chart(
            [(r.label, downsample(relative_harvest_rate(r.pages), max_points)) for r in runs],
            out / "harvest.png", "Harvest rate (Ahlers & Boll, Fig. 8)", "pages fetched",
            "relevant / fetched", percent=True))
        files.append(charts.line_chart(
            [(r.label, downsample(harvest_curve(r.pages), max_points)) for r in runs],
            out / "relevant.png", "Relevant pages retrieved (Ahlers & Boll, Fig. 7)",
            "pages fetched", "relevant pages"))
        # A live report is rebuilt every few seconds while the crawl runs: the two slowest
        # charts that change least (distances, the static map) are drawn only once there.
        slow_ok = not live or not (out / "distances.png").is_file() or not (out / "map.png").is_file()
        if slow_ok:
            files.append(charts.distance_charts([
              ("Bridge distances (Fig. 9)", "non-relevant pages between relevant ones",
               [(lab, row["ahlers_boll"]["_bridges"]) for lab, row in zip(labels, per_run, strict=True)]),
              ("Tail lengths (Fig. 9)", "pages in a dead branch below a relevant page",
               [(lab, row["ahlers_boll"]["_tails"]) for lab, row in zip(labels, per_run, strict=True)]),
              ("Seed distances of relevant pages (Fig. 10)", "links from the seeds",
               [(lab, row["ahlers_boll"]["_seeds"]) for lab, row in zip(labels, per_run, strict=True)]),
            ], out / "distances.png"))
        with_series = [r for r in runs if r.series]
        if with_series:
            files.append(charts.series_chart(
                [(r.label, r.series) for r in with_series], out / "series.png"))
        addresses = collect_addresses([(r.label, r.pages) for r in runs], region["fallback"])
        layers = [(lab, [(a.lon, a.lat) for a in addresses
                         if lab in a.runs and a.lon is not None and a.lat is not None])
                  for lab in labels]
        if slow_ok:
            files.append(charts.address_map(
                layers, out / "map.png", region["bbox"], region["landmarks"], region["reference"],
                title=f"Addresses found in {region['title'] or 'the crawl'}"))
        files.append(webmap.write_map(addresses, out / "map.html", region["bbox"],
                                      title=f"Addresses found in {region['title'] or 'the crawl'}"))
        csv_path = out / "addresses.csv"
        with csv_path.open("w", encoding="utf-8", newline="") as stream:
            export.write_csv(export.pages_rows(p for r in runs for p in r.pages if p.get("addresses")), stream)
        files.append(csv_path)
        geojson_path = out / "addresses.geojson"
        geojson_path.write_text(json.dumps(to_geojson(addresses), ensure_ascii=False, indent=1),
                                encoding="utf-8")
        files.append(geojson_path)
        unlocated = sum(1 for a in addresses if not a.located())
        if unlocated:
            notes.append(f"{unlocated} address(es) without coordinates are in "
                         f"addresses.geojson (geometry null) but not on the map")
        metrics = {"generated": time.time(), "runs": per_run, "gao": gao,
                   "truth": str(truth_path) if truth_path else None,
                   "distinct_addresses": len(addresses), "notes": notes}
        metrics_path = out / "metrics.json"
        metrics_path.write_text(json.dumps(_jsonable(metrics), indent=1, default=str),
                                encoding="utf-8")
        files.append(metrics_path)
        page = render_page(series=bool(with_series), per_run=per_run, gao=gao, addresses=addresses, notes=notes,
                           truth=truth, truth_path=str(truth_path) if truth_path else None,
                           region=region, k=k, m=m, live=live)
        index = out / "index.html"
        partial = out / "index.html.part"  # a browser reloading the live page never sees half of it
        partial.write_text(page, encoding="utf-8")
        os.replace(partial, index)
        files.append(index)
    except OSError as exc:
        raise ReportError(f"cannot write the report into {out}: {exc}") from exc
    return ReportResult(out_dir=out, files=files, runs=runs, notes=notes)
