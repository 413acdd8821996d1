"""canonical_url remembers its results: the same answers, refusals every time, bounded."""

from __future__ import annotations

import pytest

from geofocus import urlnorm
from geofocus.urlnorm import InvalidURL, canonical_url, normalize_url

URLS = [
    "HTTP://Example.COM:80/a/./b/../c?jsessionid=1&x=%7e",
    "http://example.com/dir/index.html",
    "https://EXAMPLE.com:443//x//y/",
    "http://user:p%40ss@example.com/",
    "http://2130706433/",
    "http://example.com/caf\u00e9?q=a b",
]


@pytest.mark.parametrize("url", URLS)
def test_remembered_result_is_the_computed_one(url: str) -> None:
    urlnorm._CANONICAL.clear()
    first = canonical_url(url)
    assert urlnorm._CANONICAL[url] == first
    assert canonical_url(url) == first == urlnorm._canonical_url(url)
    assert canonical_url(first) == first  # normalising a normalised URL changes nothing
    assert normalize_url(url) == normalize_url(first)


@pytest.mark.parametrize("url", ["ftp://example.com/", "http:///x", "http://[::1/", "mailto:a@b"])
def test_refusals_are_raised_every_time(url: str) -> None:
    for _ in range(2):
        with pytest.raises(InvalidURL):
            canonical_url(url)
    assert url not in urlnorm._CANONICAL


def test_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(urlnorm, "_CACHE_SIZE", 4)
    urlnorm._CANONICAL.clear()
    urls = [f"http://example.com/{i}" for i in range(10)]
    assert [canonical_url(u) for u in urls] == urls
    assert len(urlnorm._CANONICAL) <= 4
    assert canonical_url("HTTP://EXAMPLE.COM/9") == "http://example.com/9"


@pytest.mark.parametrize("url", [
    "http://example.com/dir/index.html", "http://example.com/dir/INDEX.PHP?x=1", "http://example.com/dir//",
    "http://example.com/", "http://example.com", "http://u:p@example.com:8080/a/b/?q=1/", "http://[::1]/x/",
    "http://example.com/a%3F/index.htm?b=/index.html", "http://example.com/a;sid=2/default.aspx",
    "http://example.com/index.html/", "http://example.com/x/y.html",
])
def test_normalize_url_cuts_only_the_path(url: str) -> None:
    """The key's path edits (index page, trailing slashes) as urlsplit/urlunsplit of the canonical URL gives them."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(canonical_url(url))
    path = urlnorm._INDEX_PAGE.sub("/", parts.path)
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    assert normalize_url(url) == urlunsplit(parts._replace(path=path))
