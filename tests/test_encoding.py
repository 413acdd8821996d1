"""Pages declared UTF-16 that are not (issue 14, item 7): their address and links are found."""

from __future__ import annotations

import json

import pytest
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from geofocus.downloadermiddlewares.encoding import EncodingSniffMiddleware
from geofocus.spiders.geo import GeoSpider
from tests.conftest import project_settings
from tests.crawling import crawl_log, run_crawl
from tests.forwardproxy import ForwardProxy

PAGE = ('<html lang="de"><head><title>Café Müller</title></head><body><p>Kaffee und Kuchen, täglich.</p>'
        "<address>Café Müller<br>Schloßplatz 12<br>26122 Oldenburg</address>"
        '<p><a href="/kontakt">Anfahrt & Kontakt</a> <a href="/speisekarte">Speisekarte</a></p></body></html>')


@pytest.mark.parametrize(
    "encoding, content_type, expected",
    [
        ("latin-1", "text/html; charset=utf-16", "cp1252"),
        ("cp1252", "text/html; charset=UTF-16", "cp1252"),
        ("utf-8", "text/html; charset=utf-16", "utf-8"),
        ("ascii", "text/html; charset=utf-16le", "utf-8"),
        ("utf-16-le", "text/html; charset=utf-16", "utf-16-le"),  # real UTF-16, no BOM, little-endian
        ("utf-16-be", "text/html; charset=utf-16le", "utf-16-be"),
        ("utf-16-be", "text/html; charset=utf-16", "utf-16"),  # as declared: nothing to change
        ("latin-1", "text/html; charset=iso-8859-1", "cp1252"),  # not our business: Scrapy's own choice
    ],
)
def test_pages_declared_utf16_decode_as_what_they_are(encoding, content_type, expected):
    body = (
        PAGE.replace("ü", "u").replace("ä", "a").replace("é", "e").replace("ß", "ss") if encoding == "ascii" else PAGE
    )
    crawler = get_crawler(GeoSpider, project_settings())
    crawler.stats.open_spider()
    mw = build_from_crawler(EncodingSniffMiddleware, crawler)
    response = HtmlResponse("http://laden.de/", body=body.encode(encoding), headers={"Content-Type": content_type})
    fixed = mw.process_response(response.request, response)
    assert fixed.encoding == expected
    assert "26122 Oldenburg" in fixed.text and "/kontakt" in fixed.text
    assert ("Schloßplatz" in fixed.text) or encoding == "ascii"


def test_a_meta_tag_declaring_utf16_on_a_latin1_page():
    body = ('<html><head><meta charset="utf-16"></head><body>' + PAGE + "</body></html>").encode("latin-1")
    crawler = get_crawler(GeoSpider, project_settings())
    crawler.stats.open_spider()
    mw = build_from_crawler(EncodingSniffMiddleware, crawler)
    response = HtmlResponse("http://laden.de/", body=body, headers={"Content-Type": "text/html"})
    fixed = mw.process_response(response.request, response)
    assert "Schloßplatz 12" in fixed.text
    assert crawler.stats.get_value("geofocus/encoding/not_utf16") == 1


def test_a_crawl_finds_the_address_and_links_of_a_latin1_page_declared_utf16(tmp_path):
    proxy = ForwardProxy({
        "http://laden.de/": {"body": PAGE.encode("latin-1"), "type": "text/html; charset=utf-16"},
        "http://laden.de/kontakt": {"body": "<html lang=de><body>Kontakt</body></html>"},
        "http://laden.de/speisekarte": {"body": "<html lang=de><body>Karte</body></html>"},
        "http://utf16.de/": {"body": PAGE.replace("/kontakt", "http://laden.de/kontakt").encode("utf-16-le"),
                             "type": "text/html; charset=utf-16"},
    })
    try:
        run_dir = tmp_path / "run"
        result = run_crawl(run_dir, "http://laden.de/,http://utf16.de/", proxy.url)
        assert result.returncode == 0, result.stderr[-3000:]
    finally:
        proxy.stop()
    by_url = {r["url"]: r for r in crawl_log(run_dir)}
    assert {"http://laden.de/", "http://laden.de/kontakt", "http://laden.de/speisekarte", "http://utf16.de/"} <= set(
        by_url
    )
    for url in ("http://laden.de/", "http://utf16.de/"):
        assert by_url[url]["relevant"] is True, by_url[url]
        assert any(a.get("street", "").startswith("Schloßplatz") or "Schloßplatz" in json.dumps(a, ensure_ascii=False)
                   for a in by_url[url]["addresses"])
    stats = json.loads((run_dir / "stats.json").read_text())
    assert stats["geofocus/encoding/not_utf16"] == 1 and stats["geofocus/encoding/utf16_byte_order"] == 1
