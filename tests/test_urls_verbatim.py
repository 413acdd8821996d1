"""The geo spider builds its links' Requests with ``meta["verbatim_url"]`` (no ``safe_url_string``)
only for canonical URLs that ``safe_url_string`` leaves unchanged, and the frontier does not store
the flag: the URL fetched is the URL Scrapy would have made."""

import random

import pytest
from scrapy import Request
from w3lib.url import safe_url_string

from geofocus.pagemeta import FINGERPRINT_META
from geofocus.scheduler import _compact
from geofocus.spiders.geo import _verbatim
from geofocus.urlnorm import InvalidURL, canonical_url

HOSTS = ["a.de", "Ä.de", "xn--4ca.de", "b.de:8080", "user:p@c.de", "u%20s:p'w@c.de", "[::1]", "1.2.3.4",
         "ex.com:443", "日本.jp", "B.DE."]
CHARS = "abcXYZ09-._~:/?#[]@!$&'()*+,;=% äöü€日本\\\t|^`{}\"<>\x7f\x01\u00a0"


def canonical_urls(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        url = rng.choice(["http://", "https://", "HTTP://"]) + rng.choice(HOSTS) + "/" + "".join(
            rng.choice(CHARS) for _ in range(rng.randint(0, 30)))
        try:
            yield canonical_url(url)
        except InvalidURL:
            continue


@pytest.mark.parametrize("seed", range(4))
def test_verbatim_only_where_safe_url_string_changes_nothing(seed):
    taken = 0
    for url in canonical_urls(20_000, seed):
        if _verbatim(url):
            taken += 1
            assert safe_url_string(url) == url
    assert taken > 5_000  # most canonical URLs skip it


@pytest.mark.parametrize("url", ["http://a.de/x?q='1'", "http://user:pw@a.de/", "http://a.de/ä b"])
def test_other_urls_still_go_through_it(url):
    canonical = canonical_url(url)
    request = Request(canonical, meta={"verbatim_url": _verbatim(canonical)})
    assert request.url == safe_url_string(canonical)


def test_the_flag_of_a_spider_link_is_not_stored_but_another_requests_is():
    url = "http://a.de/p"
    link = {"url": url, "meta": {"verbatim_url": True, FINGERPRINT_META: (url, "ab"), "geofocus": {}}}
    _compact(link)
    assert link["meta"] == {"geofocus": {}}
    own = {"url": url, "meta": {"verbatim_url": True}}
    _compact(own)
    assert own["meta"] == {"verbatim_url": True}
