"""``online`` drops a link found again while it is queued (session 14): no page is lost, and a page's
parent stays the page it was first found on (``GEOFOCUS_ONLINE_RESCORE_FOUND_AGAIN=True`` scores such
a link again, as before).  Real ``scrapy crawl geo`` runs on a hand-made web through a proxy."""

from __future__ import annotations

import json

import pytest

from tests.crawling import MiniSite, crawl_log, page, run_crawl

HUBS = [f"http://hub{n}.de/" for n in range(1, 6)]
SHARED = [f"http://shared.de/s{n}" for n in range(1, 9)]


def hub(n: int) -> str:
    own = [f"http://hub{n}.de/a", f"http://hub{n}.de/b"]
    # Every hub links every shared page.  The hubs are the seeds, fetched first (priority 1): each shared
    # page is found on the first hub, then again on each of the four others while it waits in the queue.
    address = f"Achternstraße {n}, 26122 Oldenburg" if n % 2 else ""
    return page(f"Hub {n}", [*SHARED, *own], address=address)


WEB = {
    **{url: hub(n) for n, url in enumerate(HUBS, start=1)},
    **{url: page("Geteilt", [HUBS[0], url], address="Markt 1, 26122 Oldenburg") for url in SHARED},
    **{f"http://hub{n}.de/{p}": page("Seite", [f"http://hub{n}.de/"]) for n in range(1, 6) for p in "ab"},
}
LINKS_TO = {url: [src for src in WEB if f'href="{url}"' in WEB[src] and src != url] for url in WEB}


@pytest.fixture
def web(tmp_path):
    site = MiniSite(tmp_path, WEB)
    yield site
    site.stop()


def crawl(web, run_dir, *settings):
    result = run_crawl(
        run_dir, ",".join(HUBS), web.proxy, "-a", "strategy=online",
        # one page at a time, its links queued before the next pop: a repeatable order
        "-s", "CONCURRENT_REQUESTS=1", "-s", "SCRAPER_SLOT_MAX_ACTIVE_SIZE=1", "-s", "GEOFOCUS_FRONTIER_SEED=1",
        *settings, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return crawl_log(run_dir), json.loads((run_dir / "stats.json").read_text())


@pytest.mark.timeout(600)
def test_links_found_again_are_dropped_yet_every_page_is_fetched_once_from_its_first_finder(web, tmp_path):
    log, stats = crawl(web, tmp_path / "default")
    order = [r["url"] for r in log]
    assert sorted(order) == sorted(WEB)  # every page of the web, none twice
    assert stats["geofocus/relevant"] == 3 + len(SHARED)
    position = {url: i for i, url in enumerate(order)}
    for record in log[len(HUBS):]:
        # The page that found it first: the earliest fetched of the pages linking to it.
        first = min(LINKS_TO[record["url"]], key=position.__getitem__)
        assert record["parent"] == first, record
    assert sorted(order[: len(HUBS)]) == HUBS
    # Each shared page was found on five hubs and scored once: a link a page, 8 shared + 10 own pages.
    scored = sum(v for k, v in stats.items() if k.startswith("geofocus/prediction/score_bucket/"))
    assert scored == len(WEB) - len(HUBS)


@pytest.mark.timeout(600)
def test_the_setting_scores_links_found_again_with_their_new_page(web, tmp_path):
    log, stats = crawl(web, tmp_path / "again", "-s", "GEOFOCUS_ONLINE_RESCORE_FOUND_AGAIN=True")
    assert sorted(r["url"] for r in log) == sorted(WEB)
    scored = sum(v for k, v in stats.items() if k.startswith("geofocus/prediction/score_bucket/"))
    # each shared page is scored on every hub: the first finds it, the four others find it queued
    assert scored == len(WEB) - len(HUBS) + (len(HUBS) - 1) * len(SHARED)
