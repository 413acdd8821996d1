"""PageRefererMiddleware sets the Referer header Scrapy's RefererMiddleware sets, for every policy
source (setting, response header, request meta) and every page/link scheme combination."""

import itertools

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.spidermiddlewares.referer import RefererMiddleware
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from geofocus.spidermiddlewares.referer import PageRefererMiddleware

PAGES = ["http://user:pw@a.de/page?q=1#frag", "https://a.de/secure/page#x", "file:///tmp/page.html"]
LINKS = ["http://a.de/other", "https://a.de/x", "http://b.de/", "https://b.de/y?z=1", "ftps://c.de/f"]
POLICIES = [None, "scrapy-default", "no-referrer-when-downgrade", "same-origin", "origin",
            "strict-origin-when-cross-origin", "unsafe-url", "no-referrer"]


def referrers(middleware_cls, page_url, header, setting, meta_policy):
    settings = {"REFERRER_POLICY": setting} if setting else {}
    mw = build_from_crawler(middleware_cls, get_crawler(settings_dict=settings))
    headers = {"Referrer-Policy": header} if header else {}
    response = HtmlResponse(page_url, body=b"<html></html>", headers=headers, request=Request(page_url))
    # the same page yields links with and without a policy of their own
    requests = [Request(url, meta={"referrer_policy": meta_policy} if meta_policy and i % 2 else {})
                for i, url in enumerate(LINKS)]
    out = list(mw.process_spider_output(response, iter([*requests, {"item": 1}])))
    assert out[-1] == {"item": 1}
    return [r.headers.get("Referer") for r in out[:-1]]


@pytest.mark.parametrize(("page_url", "header", "setting", "meta_policy"), [
    *itertools.product(PAGES, [None], [None], [None, "origin"]),
    *itertools.product(PAGES, POLICIES, [None], [None]),
    *itertools.product(PAGES[:2], [None], ["no-referrer-when-downgrade", "same-origin", "unsafe-url"], [None]),
    # an unknown header falls back to the setting (Scrapy warns; once per page here, once per link there)
    pytest.param("https://a.de/p", "no-such-policy", None, None,
                 marks=pytest.mark.filterwarnings("ignore:Could not load referrer policy")),
    ("https://a.de/p", "unsafe-url", None, "no-referrer"),
])
def test_same_referer_headers_as_scrapy(page_url, header, setting, meta_policy):
    expected = referrers(RefererMiddleware, page_url, header, setting, meta_policy)
    assert referrers(PageRefererMiddleware, page_url, header, setting, meta_policy) == expected


def test_a_tls_page_sends_no_referrer_to_a_plain_http_link():
    got = referrers(PageRefererMiddleware, "https://a.de/p#f", None, None, None)
    assert got == [None, b"https://a.de/p", None, b"https://a.de/p", b"https://a.de/p"]


def test_the_project_installs_it_in_place_of_scrapys():
    import geofocus.settings as project

    assert project.SPIDER_MIDDLEWARES["scrapy.spidermiddlewares.referer.RefererMiddleware"] is None
    assert project.SPIDER_MIDDLEWARES["geofocus.spidermiddlewares.referer.PageRefererMiddleware"] == 700
