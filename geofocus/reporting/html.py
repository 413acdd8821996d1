"""The report page: one HTML file with inline CSS that opens from disk without the Internet.

It references only the PNG and GeoJSON files written beside it. A few lines of inline
script flag an image that failed to load (so a broken report says so on screen).
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence
from typing import Any

from geofocus.metrics import NotAvailable
from geofocus.metrics.addresses import AddressRecord
from geofocus.reporting.webmap import describe_split, precision_split

CSS = """
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#24394d;color:#fff;padding:18px 32px}
header h1{margin:0;font-size:26px} header p{margin:4px 0 0;color:#cfd8e3}
main{padding:8px 32px 40px;max-width:1250px}
h2{border-bottom:2px solid #24394d;padding-bottom:4px;margin-top:34px}
table{border-collapse:collapse;margin:10px 0;font-size:13px;background:#fff}
th,td{border:1px solid #ccd;padding:4px 8px;text-align:right;vertical-align:top}
th{background:#e8edf3} td.l,th.l{text-align:left}
.na{color:#888;font-size:11px;text-align:left}
img{max-width:100%;border:1px solid #ddd;background:#fff;margin:6px 0}
.charts{display:flex;flex-wrap:wrap;gap:12px} .charts img{max-width:585px}
.note{color:#555;font-size:13px} .error{color:#b00;font-weight:bold}
code{background:#eef;padding:1px 4px}
iframe.map{width:100%;height:560px;border:1px solid #ccd;background:#fff}
"""

CHECK_IMAGES = """
window.addEventListener('load', function () {
  var bad = [];
  document.querySelectorAll('img').forEach(function (img) {
    if (!img.complete || !img.naturalWidth) { bad.push(img.getAttribute('src')); }
  });
  document.body.setAttribute('data-images', bad.length ? 'missing' : 'ok');
  if (bad.length) {
    var p = document.createElement('p');
    p.className = 'error';
    p.textContent = 'Missing images: ' + bad.join(', ');
    document.querySelector('main').prepend(p);
  }
});
"""


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def cell(value: Any, kind: str = "num", digits: int = 3) -> str:
    """A table cell for a metric value; NotAvailable shows its reason."""
    if isinstance(value, NotAvailable):
        return f'<td class="na">{esc(value)}</td>'
    if value is None:
        return "<td>&ndash;</td>"
    if kind == "pct" and isinstance(value, (int, float)):
        return f"<td>{100 * value:.{max(digits - 2, 1)}f} %</td>"
    if isinstance(value, float):
        return f"<td>{value:.{digits}f}</td>"
    if kind == "text":
        return f'<td class="l">{esc(value)}</td>'
    return f"<td>{esc(value)}</td>"


def table(headers: Sequence[str], rows: Sequence[str], left: int = 1) -> str:
    ths = "".join(f'<th class="{"l" if i < left else ""}">{esc(h)}</th>'
                  for i, h in enumerate(headers))
    return f"<table><tr>{ths}</tr>{''.join(rows)}</table>"


def _runs_table(per_run: Sequence[dict]) -> str:
    rows = []
    for r in per_run:
        duration = r["duration_s"]
        rows.append(
            "<tr>" + cell(r["label"], "text") + cell(r["region"] or "?", "text")
            + cell(r["strategy"], "text") + cell(r["node"] or "", "text") + cell(r["seeds"])
            + cell(r["fetched"]) + cell(r["relevant"])
            + cell(r["relevant"] / r["fetched"] if r["fetched"] else None, "pct")
            + cell(r["distinct_addresses"])
            + cell((f"{duration:.0f} s" if duration >= 10 else f"{duration:.1f} s")
                   if duration is not None else None)
            + cell(r["pages_per_second"], digits=1) + "</tr>")
    return table(["run", "region", "strategy", "node", "seeds", "pages", "relevant",
                  "harvest rate", "distinct addresses", "duration", "pages/s"], rows, left=4)


def _ahlers_table(per_run: Sequence[dict]) -> str:
    rows = []
    for r in per_run:
        ab = r["ahlers_boll"]
        b, t, s = ab["bridge"], ab["tails"], ab["seed"]
        rows.append(
            "<tr>" + cell(r["label"], "text") + cell(ab["harvest_rate"], "pct")
            + cell(ab.get("vs_bfs"), digits=2)
            + cell(b["n"]) + cell(b["mean"], digits=2) + cell(b["median"]) + cell(b["max"])
            + cell(ab["bridged_share"], "pct") + cell(ab["relevant_without_relevant_ancestor"])
            + cell(t["n"]) + cell(t["mean"], digits=2) + cell(t["max"])
            + cell(s["mean"], digits=2) + cell(s["median"]) + cell(s["max"]) + "</tr>")
    return table(["run", "harvest rate", "harvest rate / bfs's",
                  "relevant pages below a relevant one",
                  "bridge distance mean", "median", "max", "reached through bridges",
                  "relevant without relevant ancestor", "tails", "tail length mean", "max",
                  "seed distance mean", "median", "max"], rows)


def _focus_cell(focus: Any) -> str:
    if isinstance(focus, NotAvailable):
        return cell(focus)
    parts = []
    for node, value in sorted(focus.items()):
        text = str(value) if isinstance(value, NotAvailable) else f"{100 * value:.1f} %"
        parts.append(f"{esc(node)}: {esc(text)}")
    return f'<td class="l">{"<br>".join(parts)}</td>'


def _gao_table(gao: Sequence[dict], k: int, m: float) -> str:
    rows = []
    for g in gao:
        rows.append(
            "<tr>" + cell(g["crawl"], "text") + cell(", ".join(g["nodes"]), "text")
            + cell(g["pages"]) + cell(g["geo_coverage"], "pct")
            + cell(f'{g["distinct_entities"]} / {g["entities"]}') + cell(g["entity_ratio"])
            + cell(g["geo_centrality"], digits=4) + cell(g["diversity"], digits=4)
            + cell(g["overlap"], digits=4) + cell(g["communication_overhead"], digits=2)
            + _focus_cell(g["geo_focus"]) + cell(g["locality_linked"], digits=3)
            + cell(g["locality_unlinked"], digits=3) + "</tr>")
    return table(["crawl", "nodes", "pages", "geo-coverage", "distinct / all entities",
                  "ratio", f"geo-centrality GCt_{k} (m={m:g})", "diversity S/N",
                  "overlap (N-I)/N", "communication overhead", "geo-focus per node",
                  "locality: linked same city", "unlinked same city"], rows, left=2)


def _truth_table(per_run: Sequence[dict]) -> str:
    rows = []
    for r in per_run:
        t = r["tsikrika"]
        s, le, g = t["strict"], t["lenient"], t["geoparser"]
        rows.append(
            "<tr>" + cell(r["label"], "text")
            + cell(s["precision"]) + cell(s["recall"]) + cell(s["f1"])
            + cell(f'{s["relevant_fetched"]} / {s["relevant_total"]}')
            + cell(le["precision"]) + cell(le["recall"]) + cell(le["f1"])
            + cell(f'{le["relevant_fetched"]} / {le["relevant_total"]}')
            + cell(g["precision"]) + cell(g["recall"]) + "</tr>")
    return table(["run", "strict precision", "strict recall", "strict F1",
                  "relevant fetched / all", "lenient precision", "lenient recall", "lenient F1",
                  "relevant+partial fetched / all", "geoparser precision",
                  "geoparser recall"], rows)


def _filters_table(per_run: Sequence[dict]) -> str:
    reasons = sorted({reason for r in per_run for reason in r["filters"]})
    if not reasons:
        return ""
    rows = ["<tr>" + cell(reason, "text")
            + "".join(cell(r["filters"].get(reason, 0)) for r in per_run) + "</tr>"
            for reason in reasons]
    return ("<h2>Filtered URLs</h2><p class=\"note\">Requests rejected by the filters, by "
            "reason (from each run's stats.json).</p>"
            + table(["reason", *[r["label"] for r in per_run]], rows))


def _addresses_table(addresses: Sequence[AddressRecord], limit: int = 25) -> str:
    ranked = sorted(addresses, key=lambda a: (-len(a.urls), a.first_seen or 0))[:limit]
    rows = []
    for a in ranked:
        f = a.fields
        where = f"{f.get('street') or ''} {f.get('house_number') or ''}, " \
                f"{f.get('postcode') or ''} {f.get('city') or ''}"
        first = (time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(a.first_seen))
                 if a.first_seen else None)
        example = a.urls[0] if a.urls else ""
        rows.append("<tr>" + cell(where, "text") + cell(len(a.urls))
                    + cell(", ".join(a.runs), "text") + cell(first or "", "text")
                    + cell(example, "text") + "</tr>")
    return table(["address", "pages", "found by", "first seen (UTC)", "a page carrying it"],
                 rows)


def render_page(*, series: bool = False, per_run: Sequence[dict], gao: Sequence[dict],
                addresses: Sequence[AddressRecord], notes: Sequence[str], truth: Any,
                truth_path: str | None, region: dict, k: int, m: float, live: float = 0) -> str:
    located = sum(1 for a in addresses if a.located())
    generated = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    pages = sum(r["fetched"] for r in per_run)
    refresh = f'<meta http-equiv="refresh" content="{max(1, int(round(live)))}">' if live else ""
    status = (f'<p id="live" data-live="1" data-pages="{pages}">Live: the crawl is running; this page '
              f"reloads every {max(1, int(round(live)))} s.</p>" if live
              else f'<p id="live" data-live="0" data-pages="{pages}">Final: the crawl has stopped.</p>')
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8">{refresh}',
        "<title>geofocus crawl report</title>",
        f"<style>{CSS}</style></head><body>",
        "<header><h1>geofocus crawl report</h1>",
        f"<p>{len(per_run)} run(s) &middot; region {esc(region.get('title') or '?')} "
        f"&middot; {pages} pages &middot; generated {esc(generated)}</p>{status}</header><main>",
        '<h2 id="runs">Runs</h2>', _runs_table(per_run),
        '<h2 id="harvest">Harvest rate</h2>',
        '<p class="note">Share of fetched pages that carry an address of the region '
        "(Ahlers &amp; Boll, Fig. 8) and the number of relevant pages retrieved (Fig. 7), "
        "over the pages fetched.</p>",
        '<div class="charts"><img src="harvest.png" alt="harvest rate over pages fetched">'
        '<img src="relevant.png" alt="relevant pages over pages fetched"></div>',
        ('<h2 id="series">Throughput and frontier</h2><p class="note">From each run\'s '
         "series.jsonl (a line every GEOFOCUS_SERIES_EVERY pages).</p>"
         '<img src="series.png" alt="pages per second and frontier size over pages fetched">'
         if series else ""),
        '<h2 id="distances">Bridge distances, tails and seed distances</h2>',
        '<p class="note">Bridge distance: non-relevant pages between a relevant page and the '
        "nearest relevant page above it in the crawl tree (0: linked directly). Tail: a branch "
        "below a relevant page that never reached another relevant page (its length in pages). "
        "Seed distance: links from the seeds to a relevant page.</p>",
        '<img src="distances.png" alt="bridge distances, tail lengths and seed distances">',
        _ahlers_table(per_run),
        '<h2 id="map">Addresses</h2>',
        f'<p id="precision">{len(addresses)} distinct address(es): '
        f"{esc(describe_split(precision_split(addresses)))}. One marker per address, clustered; "
        "green: placed at its street, orange: at its postcode's centroid (many addresses share "
        "one such point), red: at the city centre. Click a marker for its pages.</p>",
        '<iframe class="map" src="map.html" title="map of the addresses found"></iframe>',
        '<p class="note">Exports: <a href="addresses.csv">addresses.csv</a> (one row per address '
        "and page: url, street, house number, postcode, city, country, lat, lon, precision, "
        'fetched at), <a href="addresses.geojson">addresses.geojson</a> (one feature per '
        'address with the pages carrying it), a static <a href="map.png">map.png</a>; '
        f"{located} of the addresses have coordinates.</p>",
        (f'<p class="note">The {min(25, len(addresses))} addresses found on most pages:</p>'
         if addresses else ""),
        _addresses_table(addresses),
        '<h2 id="gao">Geographic measures (Gao et al.)</h2>',
        '<p class="note">Geo-coverage: pages with an address of the region / all pages. '
        "Distinct / all entities: how often the same addresses recur. Geo-centrality: mean "
        f"over pages of the sum of m<sup>-d</sup> over pages with addresses at most {k} links "
        "below (crawl tree). Diversity: hosts / pages. Overlap, communication overhead and "
        "geo-focus need several crawling nodes (runs with the same crawl_id); geographic "
        "locality needs pages of more than one city.</p>",
        _gao_table(gao, k, m),
        '<h2 id="truth">Precision and recall (Tsikrika et al.)</h2>',
    ]
    if truth is not None:
        parts += [
            f'<p class="note">Against the ground truth {esc(truth_path)} ({truth.pages} pages). '
            "Strict: only pages graded relevant count; lenient: relevant and partial. "
            "Geoparser precision/recall: the crawler's own relevance verdicts on the fetched "
            "pages against the strict truth.</p>",
            _truth_table(per_run),
        ]
    else:
        parts.append('<p class="note">Not available: no ground truth given. Crawl simweb and '
                     "pass its truth file: <code>scrapy report RUN_DIR ... -o OUT --truth "
                     "truth.jsonl</code>.</p>")
    parts.append(_filters_table(per_run))
    if notes:
        parts.append('<h2 id="notes">Notes</h2><ul>'
                     + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>")
    parts += [
        '<p class="note">Every number of this page is also in '
        '<a href="metrics.json">metrics.json</a>.</p>',
        f"</main><script>{CHECK_IMAGES}</script></body></html>",
    ]
    return "\n".join(parts)
