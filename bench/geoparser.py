"""Geoparser throughput: megabytes of HTML and pages per second on one core.

    python bench/geoparser.py [--region oldenburg] [--pages FILE_OR_DIR | --simweb N] [--repeat 3] [--json OUT]
                              [--baseline GIT_REF]

Without --pages it parses a deterministic mix of realistic pages (20-60 KB:
navigation, scripts, styles, prose, footers, imprint tables, directory
listings, JSON-LD, microdata and hCard, confusable addresses).  --pages takes
a JSON Lines file of {"text": html} records (the geoparser CLI's input, e.g.
pages dumped from simweb) or a directory of .html files.  --simweb N renders N pages of a simweb Web of the
region (geofocus.simweb) and also scores relevance against simweb's truth.
The figure printed is the best of --repeat passes, on one core; results are
printed, not asserted.  --baseline GIT_REF (e.g. c808e0a, the parser before
issue 10) also times the geoparser of that commit on the same pages, its passes
interleaved with the current one's, and prints the ratio of the two rates: on a
shared machine only a ratio measured in one run means anything.

Then the adversarial cases (skip them with --no-adversarial): "<" followed by
a megabyte of letters, thousands of postcode anchors, pages of nothing but
addresses, city names or state/ZIP pairs, 5 MB without a line break.  Each is
parsed at two sizes (1x and 4x); the CPU time (resource.getrusage) gives MB/s
at each size, and the ratio of the two rates shows whether the time grows
linearly (a ratio near 1) or worse (a ratio well below 1).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geofocus.geoparser import GeoParser  # noqa: E402
from geofocus.regions import load_region  # noqa: E402

WORDS = (
    "die der und in zu den das nicht von sie ist des sich mit dem dass er es ein ich auf so eine auch als "
    "an nach wie im für man aber aus durch wenn nur war noch werden bei hat wir was wird sein einen welche "
    "sind oder zur um haben einer mir über ihm diese einem ihr uns da zum kann doch vor dieser mich ihn du "
    "hatte seine mehr am denn nun unter sehr selbst schon hier bis habe ihre dann ihnen seiner alle wieder "
    "Angebot Service Team Kunden Qualität Beratung Termin Öffnungszeiten Stadt Oldenburg Innenstadt Jahre "
    "Erfahrung Familie Betrieb Handwerk Meister Leistungen Preise Produkte Neuigkeiten Veranstaltung Woche"
).split()
STREETS = ("Achternstraße", "Heidbrinkweg", "Am Quellkamp", "Lange Straße", "Rüstringerring",
           "Zum Wiesengrund", "An der Moorkatenallee", "Hermann-Ehlers-Straße", "Staulinie", "Schloßplatz")
CITIES = ("Oldenburg", "Oldenburg (Oldb)", "Oldenburg i. O.", "Oldenburg/Oldb.")
CODES = ("26121", "26122", "26123", "26125", "26127", "26129", "26131", "26133", "26135")


def _prose(r: random.Random, n_words: int) -> str:
    out = []
    for _ in range(max(1, n_words // 12)):
        sentence = " ".join(r.choice(WORDS) for _ in range(12))
        out.append(f"<p>{sentence.capitalize()}. Seit {r.randint(1950, 2024)} für Sie da, "
                   f"ab {r.randint(5, 99)},{r.randint(10, 99)} €.</p>")
    return "\n".join(out)


def _address(r: random.Random, in_region: bool = True) -> tuple[str, str, str]:
    street = r.choice(STREETS)
    number = r.choice((str(r.randint(1, 180)), f"{r.randint(1, 99)}a", f"{r.randint(1, 50)}-{r.randint(51, 99)}"))
    if in_region:
        return f"{street} {number}", r.choice(CODES), r.choice(CITIES)
    return (
        f"Oldenburger Straße {number}",
        r.choice(("28195", "23758", "26203")),
        r.choice(("Bremen", "Oldenburg in Holstein", "Wardenburg")),
    )


def make_page(r: random.Random, kind: str) -> str:
    nav = "".join(
        f'<li><a href="/seite/{i}" title="Seite {i}">Menüpunkt {i}</a></li>' for i in range(r.randint(20, 60))
    )
    head = ("<head><meta charset='utf-8'><title>Seite</title><style>" + "body{margin:0} .c{color:#333} " * 40
            + "</style><script>" + "window.dataLayer=window.dataLayer||[];function g(){dataLayer.push(arguments)} " * 30
            + "</script></head>")
    street, code, city = _address(r, in_region=r.random() < 0.8)
    extra = ""
    if kind == "footer":
        extra = (
            f"<footer><p>© 2024 Firma</p><p>{street} · {code} {city} · Tel. 0441 {r.randint(10000, 99999)}</p></footer>"
        )
    elif kind == "imprint":
        extra = (f"<table><tr><th>Anschrift</th><td>{street}</td></tr><tr><th>PLZ/Ort</th><td>{code} {city}</td></tr>"
                 f"<tr><th>Handelsregister</th><td>HRB {r.randint(1000, 99999)}</td></tr></table>")
    elif kind == "listing":
        items = []
        for _ in range(10):
            s, c, t = _address(r, in_region=r.random() < 0.6)
            items.append(f"<li><strong>Betrieb {r.randint(1, 999)}</strong><br>{s}<br>{c} {t}</li>")
        extra = "<ul class='eintraege'>" + "".join(items) + "</ul>"
    elif kind == "jsonld":
        data = {"@context": "https://schema.org", "@type": "LocalBusiness", "name": "Betrieb",
                "address": {"@type": "PostalAddress", "streetAddress": street, "postalCode": code,
                            "addressLocality": city}}
        extra = f'<script type="application/ld+json">{json.dumps(data, ensure_ascii=False)}</script>'
    elif kind == "microdata":
        extra = (
            f'<div itemscope itemtype="https://schema.org/Organization"><div itemprop="address" itemscope '
            f'itemtype="https://schema.org/PostalAddress"><span itemprop="streetAddress">{street}</span> '
            f'<span itemprop="postalCode">{code}</span> <span itemprop="addressLocality">{city}</span></div></div>'
        )
    elif kind == "hcard":
        extra = (
            f'<div class="vcard"><span class="fn">Praxis</span><div class="adr"><span class="street-address">'
            f'{street}</span>, <span class="postal-code">{code}</span> <span class="locality">{city}</span></div></div>'
        )
    body = _prose(r, r.randint(2500, 7000))
    return f"<!DOCTYPE html><html>{head}<body><nav><ul>{nav}</ul></nav><main>{body}</main>{extra}</body></html>"


MIX = (("article", 30), ("footer", 35), ("imprint", 10), ("listing", 5), ("jsonld", 10), ("microdata", 5), ("hcard", 5))


def builtin_pages(n: int, seed: int = 7) -> list[str]:
    r = random.Random(seed)
    kinds = [k for k, w in MIX for _ in range(w)]
    return [make_page(r, r.choice(kinds)) for _ in range(n)]


def load_pages(source: Path) -> list[str]:
    if source.is_dir():
        return [p.read_text(encoding="utf-8", errors="replace") for p in sorted(source.glob("**/*.htm*"))]
    pages = []
    with source.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            text = record.get("text") or record.get("html") or record.get("body")
            if isinstance(text, str):
                pages.append(text)
    return pages


def simweb_pages(region_name: str, n: int, seed: int = 1) -> tuple[list[str], list[bool]]:
    """N rendered HTML pages of a simweb Web and whether each is relevant by its truth."""
    from geofocus.simweb.links import page_links
    from geofocus.simweb.params import WebParams
    from geofocus.simweb.render import render_page
    from geofocus.simweb.web import SimWeb

    size = max(n * 4, 1000)
    web = SimWeb(WebParams(pages=size, region=region_name, seed=seed), load_region(region_name))
    pages, truth = [], []
    for pid in range(0, size, max(1, size // n)):
        page = web.page(pid)
        if page.status != 200 or not page.is_html:
            continue
        pages.append(render_page(web, page, page_links(web, page)))
        truth.append(page.relevant)
    return pages, truth


def _adversarial(size: int) -> list[tuple[str, str, str]]:
    """(name, region, text) of about ``size`` characters each."""
    prose = "Wir sind seit vielen Jahren für Sie da, in der Innenstadt und im Umland, mit Rat und Tat. "
    return [
        ("lt_then_letters", "oldenburg", "<" + "a" * size),
        ("lt_runs_of_1000", "oldenburg", ("<" + "a" * 999) * (size // 1000)),
        ("lt_a_repeated", "oldenburg", "<a" * (size // 2)),
        # The shape: ~120 characters per postcode anchor, one line each.
        ("postcode_anchors", "oldenburg",
         "".join(f"Eintrag {i}: Firma Nummer {i} GmbH, Inhaber Max M. {i}, Ruf 0441 {i:05d}, 26122 Oldenburg\n"
                 for i in range(size // 100))),
        ("addresses_only", "oldenburg", "Große Straße 1, 26122 Oldenburg; " * (size // 33)),
        ("capitals_before_postcode", "oldenburg", ("A" * 100 + " 1 26122 Oldenburg ") * (size // 118)),
        ("city_mentions", "oldenburg", "Oldenburg, " * (size // 11)),
        ("no_newline_prose", "oldenburg", (prose + "Lange Straße 5, 26122 Oldenburg. ") * (size // 124)),
        ("us_state_zip_pairs", "us-top100", ", TX 78701" * (size // 10)),
        ("us_addresses_only", "us-top100", "100 Main Street Suite 200, Austin, TX 78701; " * (size // 46)),
        ("digits", "oldenburg", "1" * size),
        ("postcode_like_numbers", "oldenburg", "12345 " * (size // 6)),
        ("zip_like_numbers", "us-top100", "12345 " * (size // 6)),
        # Session 5: labelled fields and the second readings (data syntax, links, iCalendar), repeated,
        # and the same with a different house number on each line (no repeated context to reuse).
        ("street_then_plz_label", "oldenburg", "Lange Straße 4\nPLZ: 26121\n" * (size // 26)),
        ("labelled_fields", "oldenburg", "Straße: Lange Straße 4\nPLZ: 26121\nOrt: Oldenburg\n" * (size // 50)),
        ("labelled_fields_numbered", "oldenburg",
         "".join(f"Straße: Lange Straße {i % 9000 + 1}\nPLZ: 26121\nOrt: Oldenburg\n" for i in range(size // 52))),
        ("tab_separated_fields", "oldenburg", "Straße\tLange Straße 4\nPLZ\t26121\nOrt\tOldenburg\n" * (size // 47)),
        ("us_json_keys", "us-top100",
         '{"street1": "100 Main St", "city": "Austin", "state": "TX", "zip": "78701"}, ' * (size // 78)),
        ("us_markdown_links", "us-top100", "- [801 18th St NW](http://x.org/a), Washington, DC 20006\n" * (size // 58)),
        ("city_street_spaced_prose", "oldenburg", "in Oldenburg Lange Straße 4 Jahre lang " * (size // 39)),
        ("us_icalendar_folded", "us-top100",
         "LOCATION:Foo\\, Inc. (1333 14th Street Northwest\\, Washington\n D.C.\\, DC 20005)\n" * (size // 78)),
        # Session 8: the shown attributes (title, alt, aria-label) and quoted-printable mail text.
        ("title_attribute_runs", "us-top100", "<a " + 'title="1 ' * (size // 9) + ">"),
        ("title_quotes_mixed", "us-top100", "<img " + "title=\"1 alt='2 " * (size // 16) + ">"),
        ("title_addresses", "us-top100", '<a title="100 Main St, Austin, TX 78701">Map</a> ' * (size // 48)),
        ("qp_escape_runs", "oldenburg", "=3D" * (size // 3)),
        ("qp_mail", "oldenburg", "Deelb=F6genkamp 4=0D=0A22297 Hamburg, Gr=FC=DFe s=\nchnell\n" * (size // 54)),
        # Session 10: escaped markup in data strings, addresses in small letters, place and postcode before the
        # street, a place between the state and the ZIP.
        ("escaped_br_runs", "us-top100", "\\u003cbr/\\u003e" * (size // 14)),
        ("escaped_lt_runs", "oldenburg", "&lt;" * (size // 4)),
        ("escaped_br_addresses", "us-top100",
         '{"d": "Room 5\\u003cbr/\\u003e100 Main St\\u003cbr/\\u003eAustin, TX 78701"}, ' * (size // 74)),
        ("small_letter_lines", "oldenburg", "lange straße 5\n26122 oldenburg\n" * (size // 31)),
        ("place_postcode_street", "oldenburg", "Oldenburg, 26122, Lange Straße 5\n" * (size // 33)),
        ("state_place_runs", "us-top100", "Kirkland, WA, Seattle Tacoma Bellevue " * (size // 38)),
    ]


def baseline_parser(ref: str, region_name: str):
    """A GeoParser of the geoparser package as it was at git ``ref`` (imported under another name)."""
    import importlib
    import subprocess
    import tempfile

    root = Path(__file__).resolve().parent.parent
    target = Path(tempfile.mkdtemp(prefix="geoparser-baseline-"))
    listing = subprocess.run(["git", "-C", str(root), "ls-tree", "-r", "--name-only", ref, "geofocus/geoparser/"],
                             check=True, capture_output=True, text=True).stdout.split()
    package = target / "geoparser_baseline"
    package.mkdir()
    for name in listing:
        if not name.endswith(".py"):
            continue
        source = subprocess.run(["git", "-C", str(root), "show", f"{ref}:{name}"], check=True, capture_output=True,
                                text=True).stdout
        (package / Path(name).name).write_text(source.replace("geofocus.geoparser", "geoparser_baseline"))
    sys.path.insert(0, str(target))
    module = importlib.import_module("geoparser_baseline")
    return module.GeoParser(load_region(region_name))


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_adversarial(base: int = 500_000, baseline: str | None = None, repeat: int = 1) -> list[dict]:
    """Each adversarial case at ``base`` and 4 x ``base`` characters (and 5 MB without newlines); with
    ``baseline`` (a git ref) the large size is also parsed by that commit's geoparser, right after; with
    ``repeat`` > 1 each time is the least of that many passes, the two trees' passes alternating."""
    parsers = {name: GeoParser(load_region(name)) for name in ("oldenburg", "us-top100")}
    bases = {name: baseline_parser(baseline, name) for name in parsers} if baseline else {}
    small, large = _adversarial(base), _adversarial(4 * base)
    small.append(("no_newline_5mb", "oldenburg", small[7][2][: base]))
    large.append(("no_newline_5mb", "oldenburg", (large[7][2] * 3)[: 5_000_000]))
    rows = []
    for (name, region, text_small), (_n, _r, text_large) in zip(small, large, strict=True):
        rates = []
        base_times = []
        for text in (text_small, text_large):
            seconds = base_seconds = float("inf")
            for _ in range(repeat):
                t0 = _cpu()
                result = parsers[region].parse(text)
                seconds = min(seconds, max(_cpu() - t0, 1e-6))
                if bases and repeat > 1:
                    t0 = _cpu()
                    bases[region].parse(text)
                    base_seconds = min(base_seconds, max(_cpu() - t0, 1e-6))
            rates.append((len(text.encode("utf-8")) / 1e6, seconds, len(result.all_addresses)))
            base_times.append(base_seconds)
        (mb1, s1, _a1), (mb4, s4, a4) = rates
        base_seconds = base_times[1]
        row = {"case": name, "region": region, "megabytes": round(mb4, 3), "seconds_cpu": round(s4, 4),
               "mb_per_second": round(mb4 / s4, 2), "mb_per_second_at_quarter_size": round(mb1 / s1, 2),
               "linearity": round((mb4 / s4) / (mb1 / s1), 2), "addresses": a4}
        baseline_note = ""
        if bases:
            if repeat == 1:
                t0 = _cpu()
                bases[region].parse(text_large)
                base_seconds = max(_cpu() - t0, 1e-6)
            row["baseline_mb_per_second"] = round(mb4 / base_seconds, 2)
            baseline_note = f"; {baseline}: {row['baseline_mb_per_second']:.2f} MB/s"
            if repeat > 1:
                row["baseline_mb_per_second_at_quarter_size"] = round(mb1 / base_times[0], 2)
                baseline_note += f" ({row['baseline_mb_per_second_at_quarter_size']:.2f} at a quarter)"
        rows.append(row)
        print(f"  {name:26s} {mb4:6.2f} MB in {s4:6.3f} s: {row['mb_per_second']:7.2f} MB/s "
              f"({row['mb_per_second_at_quarter_size']:.2f} MB/s at a quarter of the size; ratio {row['linearity']}), "
              f"{a4} addresses{baseline_note}", flush=True)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--region", default="oldenburg")
    ap.add_argument("--pages", type=Path, help="JSON Lines {text} or a directory of .html files")
    ap.add_argument("--simweb", type=int, metavar="N", help="N pages rendered by geofocus.simweb, scored by its truth")
    ap.add_argument("-n", type=int, default=300, help="built-in pages to generate")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    ap.add_argument("--no-adversarial", action="store_true", help="skip the adversarial cases")
    ap.add_argument("--adversarial-repeat", type=int, default=1, metavar="N",
                    help="time each adversarial case N times and keep the least (with --baseline: alternating)")
    ap.add_argument("--baseline", metavar="GIT_REF",
                    help="also time the geoparser of this commit, interleaved (adversarial cases: right after)")
    args = ap.parse_args()
    parser = GeoParser(load_region(args.region))
    truth: list[bool] | None = None
    if args.simweb:
        pages, truth = simweb_pages(args.region, args.simweb)
    else:
        pages = load_pages(args.pages) if args.pages else builtin_pages(args.n)
    if not pages:
        print("no pages", file=sys.stderr)
        return 1
    size = sum(len(p.encode("utf-8")) for p in pages)
    best = best_base = float("inf")
    relevant = relevant_base = 0
    base = baseline_parser(args.baseline, args.region) if args.baseline else None
    for _ in range(args.repeat):
        if base is not None:
            t0 = time.process_time()
            relevant_base = sum(base.parse(p).relevant for p in pages)
            best_base = min(best_base, time.process_time() - t0)
        t0 = time.process_time()
        relevant = sum(parser.parse(p).relevant for p in pages)
        best = min(best, time.process_time() - t0)
    best = max(best, 1e-9)
    per_page = sorted(_time_each(parser, pages))
    result = {
        "region": args.region,
        "source": (f"simweb ({len(pages)} pages)" if args.simweb else str(args.pages) if args.pages
                   else f"built-in mix of {len(pages)} pages"),
        "pages": len(pages),
        "megabytes": round(size / 1e6, 3),
        "mean_page_kb": round(size / len(pages) / 1e3, 1),
        "relevant_pages": relevant,
        "seconds_cpu": round(best, 4),
        "mb_per_second": round(size / 1e6 / best, 2),
        "pages_per_second": round(len(pages) / best, 1),
        "ms_per_page_median": round(per_page[len(per_page) // 2] * 1e3, 3),
        "ms_per_page_p95": round(per_page[int(len(per_page) * 0.95)] * 1e3, 3),
        "python": platform.python_version(),
    }
    print(f"geoparser on {result['source']} ({result['megabytes']} MB, {result['mean_page_kb']} KB/page, "
          f"{relevant} relevant): {result['mb_per_second']} MB/s, {result['pages_per_second']} pages/s per core; "
          f"median {result['ms_per_page_median']} ms, p95 {result['ms_per_page_p95']} ms per page")
    if base is not None:
        result["baseline"] = {"ref": args.baseline, "mb_per_second": round(size / 1e6 / best_base, 2),
                              "relevant_pages": relevant_base, "ratio": round(best_base / best, 3)}
        print(f"baseline {args.baseline} on the same pages, passes interleaved: "
              f"{result['baseline']['mb_per_second']} MB/s ({relevant_base} relevant); "
              f"current / baseline rate: {result['baseline']['ratio']}")
    if truth is not None:
        verdicts = [parser.parse(p).relevant for p in pages]
        tp = sum(v and t for v, t in zip(verdicts, truth, strict=True))
        fp = sum(v and not t for v, t in zip(verdicts, truth, strict=True))
        fn = sum(t and not v for v, t in zip(verdicts, truth, strict=True))
        result["truth_relevant"] = sum(truth)
        result["relevance_accuracy"] = round(sum(v == t for v, t in zip(verdicts, truth, strict=True)) / len(pages), 4)
        result["relevance_precision"] = round(tp / (tp + fp), 4) if tp + fp else 1.0
        result["relevance_recall"] = round(tp / (tp + fn), 4) if tp + fn else 1.0
        print(f"against simweb truth ({sum(truth)} relevant): accuracy {result['relevance_accuracy']}, "
              f"precision {result['relevance_precision']}, recall {result['relevance_recall']}")
    if not args.no_adversarial:
        print("adversarial input (CPU time, one core):")
        result["adversarial"] = run_adversarial(baseline=args.baseline, repeat=args.adversarial_repeat)
        result["adversarial_min_mb_per_second"] = min(r["mb_per_second"] for r in result["adversarial"])
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


def _time_each(parser: GeoParser, pages: list[str]) -> list[float]:
    out = []
    for page in pages:
        t0 = time.perf_counter()
        parser.parse(page)
        out.append(time.perf_counter() - t0)
    return out


if __name__ == "__main__":
    sys.exit(main())
