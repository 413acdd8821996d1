"""The URL filters as downloader middlewares of a real crawler (get_crawler + build_from_crawler)."""

from __future__ import annotations

import pytest
import pytest_twisted
from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from geofocus.downloadermiddlewares.contenttype import ContentTypeFilterMiddleware
from geofocus.downloadermiddlewares.language import LanguageFilterMiddleware
from geofocus.downloadermiddlewares.private import PrivateAddressMiddleware
from geofocus.downloadermiddlewares.tld import TldFilterMiddleware
from geofocus.downloadermiddlewares.traps import TrapFilterMiddleware
from geofocus.spiders.geo import GeoSpider
from tests.conftest import project_settings


def make(mw_cls, **settings):
    crawler = get_crawler(GeoSpider, project_settings(GEOFOCUS_ALLOW_PRIVATE=False, **settings))
    crawler.spider = GeoSpider.from_crawler(crawler, region="oldenburg", seeds="http://a.de/")
    crawler.stats.open_spider()
    return build_from_crawler(mw_cls, crawler), crawler


@pytest.mark.parametrize(
    "url, reason",
    [
        ("http://www.cafe.de/kontakt", None),
        ("http://example.com/", None),
        ("http://192.168.0.1/", None),
        ("http://www.restaurant.fr/", "tld/fr"),
        ("http://www.shop.co.uk/", "tld/uk"),
    ],
)
def test_tld_filter(url, reason):
    mw, crawler = make(TldFilterMiddleware)
    if reason is None:
        assert mw.process_request(Request(url)) is None
    else:
        with pytest.raises(IgnoreRequest):
            mw.process_request(Request(url))
        assert crawler.stats.get_value(f"geofocus/filtered/{reason}") == 1
        assert crawler.stats.get_value("geofocus/filtered") == 1


@pytest.mark.parametrize(
    "url, reason",
    [
        ("http://www.cafe.de/kontakt", None),
        ("http://www.cafe.de/2026/11/veranstaltungen", None),
        ("http://www.cafe.de/shop?page=3", None),
        ("http://www.cafe.de/a/b/a/b/a/b", "repeated_segment"),
        ("http://www.cafe.de/kalender?date=2071-05-01", "calendar"),
        ("http://www.cafe.de/events/1987/02/14", "calendar"),
        ("http://www.cafe.de/" + "x" * 300, "long_url"),
        ("http://www.cafe.de/(S(abcdefabcdefabcdef12))/kontakt", "session_id"),
        ("http://www.cafe.de/page?sessid=0123456789abcdef0123456789abcdef", "session_id"),
        ("http://tiles.karte.de/14/8716/5402.png", "map_tile"),
        ("http://www.karte.de/map?lat=53.14&lon=8.21&zoom=14", "map_variant"),
        ("http://www.filialen.de/suche?plz=26122&page=57", "locator_page"),
    ],
)
def test_trap_filter(url, reason):
    mw, crawler = make(TrapFilterMiddleware)
    if reason is None:
        assert mw.process_request(Request(url)) is None
    else:
        with pytest.raises(IgnoreRequest):
            mw.process_request(Request(url))
        assert crawler.stats.get_value(f"geofocus/filtered/trap/{reason}") == 1


def test_trap_filter_caps_urls_per_host_pattern():
    mw, crawler = make(TrapFilterMiddleware, GEOFOCUS_TRAP_MAX_PER_PATTERN=5)
    for i in range(5):
        mw.process_request(Request(f"http://www.shop.de/liste?farbe={i}&groesse={i}"))
    with pytest.raises(IgnoreRequest):
        mw.process_request(Request("http://www.shop.de/liste?farbe=9&groesse=9"))
    assert mw.process_request(Request("http://www.other.de/liste?farbe=9&groesse=9")) is None
    assert crawler.stats.get_value("geofocus/filtered/trap/pattern") == 1


def test_seeds_are_never_trap_filtered():
    mw, _ = make(TrapFilterMiddleware)
    request = Request("http://www.cafe.de/a/b/a/b/a/b", meta={"geofocus": {"seed": True}})
    assert mw.process_request(request) is None


@pytest.mark.parametrize(
    "url, blocked",
    [
        ("http://127.0.0.1/", True),
        ("http://10.1.2.3:8080/admin", True),
        ("http://169.254.169.254/latest/meta-data", True),
        ("http://[::1]/", True),
        ("http://localhost:6379/", True),
        ("http://printer.local/", True),
        ("http://8.8.8.8/", False),
    ],
)
@pytest_twisted.ensureDeferred
async def test_private_addresses_are_refused(url, blocked):
    mw, crawler = make(PrivateAddressMiddleware)
    if blocked:
        with pytest.raises(IgnoreRequest):
            await mw.process_request(Request(url))
        assert crawler.stats.get_value("geofocus/filtered") == 1
    else:
        assert await mw.process_request(Request(url)) is None


def test_private_filter_is_off_when_allowed():
    crawler = get_crawler(GeoSpider, project_settings(GEOFOCUS_ALLOW_PRIVATE=True))
    with pytest.raises(NotConfigured):
        build_from_crawler(PrivateAddressMiddleware, crawler)


@pytest.mark.parametrize(
    "content_type, kept",
    [
        ("text/html; charset=utf-8", True),
        ("application/xhtml+xml", True),
        ("application/pdf", False),
        ("image/png", False),
    ],
)
def test_content_type_filter_on_responses(content_type, kept):
    mw, crawler = make(ContentTypeFilterMiddleware)
    request = Request("http://www.cafe.de/datei")
    response = Response(request.url, headers={"Content-Type": content_type}, request=request)
    if kept:
        assert mw.process_response(request, response) is response
    else:
        with pytest.raises(IgnoreRequest):
            mw.process_response(request, response)


@pytest.mark.parametrize(
    "body, headers, kept",
    [
        (b'<html lang="de"><body>Hallo</body></html>', {}, True),
        (b'<html lang="de-DE"><body>Hallo</body></html>', {}, True),
        (b"<html><body>no declaration</body></html>", {}, True),
        (b'<html lang="fr"><body>Bonjour</body></html>', {}, False),
        (b"<html><body>Hello</body></html>", {"Content-Language": "en-US"}, False),
    ],
)
def test_language_filter(body, headers, kept):
    mw, crawler = make(LanguageFilterMiddleware)
    request = Request("http://www.cafe.de/")
    response = HtmlResponse(request.url, body=body, headers=headers, request=request)
    if kept:
        assert mw.process_response(request, response) is response
    else:
        with pytest.raises(IgnoreRequest):
            mw.process_response(request, response)
