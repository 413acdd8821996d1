import json

import pytest
from lxml import html

from geofocus.linkextract import extract_links
from geofocus.urlnorm import InvalidURL, canonical_url, normalize_url


@pytest.mark.parametrize(
    "url, expected",
    [
        ("HTTP://WWW.Example.DE/", "http://www.example.de/"),
        ("http://example.de:80/a", "http://example.de/a"),
        ("https://example.de:443/a", "https://example.de/a"),
        ("http://example.de:8080/a", "http://example.de:8080/a"),
        ("http://example.de/a%2fb%7e", "http://example.de/a%2Fb~"),
        ("http://example.de/%41%42c", "http://example.de/ABc"),
        ("http://example.de/index.html", "http://example.de/"),
        ("http://example.de/dir/index.php", "http://example.de/dir"),
        ("http://example.de/a?", "http://example.de/a"),
        ("http://example.de/a#kontakt", "http://example.de/a"),
        ("http://example.de//a///b/", "http://example.de/a/b"),
        ("http://example.de/a?b=1&PHPSESSID=abc&c=2", "http://example.de/a?b=1&c=2"),
        ("http://example.de/a;jsessionid=XYZ", "http://example.de/a"),
        ("http://bücher.de/", "http://xn--bcher-kva.de/"),
    ],
)
def test_normalisation(url, expected):
    assert normalize_url(url) == expected


@pytest.mark.parametrize(
    "url, expected",
    [
        ("HTTP://WWW.Example.DE:80//a//b/", "http://www.example.de/a/b/"),
        ("http://example.de/dir/index.php?", "http://example.de/dir/index.php"),
        ("http://example.de/a/?PHPSESSID=1#x", "http://example.de/a/"),
    ],
)
def test_the_fetched_url_keeps_what_servers_may_tell_apart(url, expected):
    # Trailing slashes and index pages are dropped only from the deduplication key.
    assert canonical_url(url) == expected
    assert normalize_url(url) == normalize_url(expected.rstrip("/"))


def test_fingerprint_treats_slash_and_index_variants_as_one_page():
    from scrapy import Request

    from geofocus.fingerprint import NormalizedURLFingerprinter

    fp = NormalizedURLFingerprinter().fingerprint
    assert fp(Request("http://a.de/dir/")) == fp(Request("http://a.de/dir")) == fp(Request("http://A.de/dir/index.html"))
    assert fp(Request("http://a.de/dir")) != fp(Request("http://a.de/dir", method="POST"))
    assert fp(Request("http://a.de/dir")) != fp(Request("http://a.de/other"))


@pytest.mark.parametrize("url", ["mailto:a@b.de", "ftp://x.de/", "http://", "http://exa mple.de/", "http://[::1/"])
def test_invalid_urls_raise(url):
    with pytest.raises(InvalidURL):
        normalize_url(url)


def test_links_carry_anchor_title_and_context_bounded_by_neighbouring_links():
    doc = html.fromstring(
        """<html><head><script>var a = '<a href="/js">x</a>';</script></head><body>
        <p>Besuchen Sie unser Café in der Innenstadt. Hier finden Sie die
        <a href="/kontakt.html" title="So erreichen Sie uns">Anfahrt und Kontakt</a> zu unserem Haus.
        <a href="/menu">Speisekarte</a></p>
        <a href="mailto:x@y.de">Mail</a> <a href="/bild.jpg">Bild</a> <a href="/kontakt.html">again</a>
        <a href="http://other.de/" rel="nofollow">Partner</a></body></html>"""
    )
    links = extract_links(doc, "http://www.cafe.de/start")
    by_url = {link["url"]: link for link in links}
    assert list(by_url) == ["http://www.cafe.de/kontakt.html", "http://www.cafe.de/menu", "http://other.de/"]
    kontakt = by_url["http://www.cafe.de/kontakt.html"]
    assert kontakt["anchor"] == "Anfahrt und Kontakt"
    assert kontakt["title"] == "So erreichen Sie uns"
    assert kontakt["source_url"] == "http://www.cafe.de/start"
    assert kontakt["context"].endswith("Hier finden Sie die zu unserem Haus.")
    assert len(kontakt["context"]) <= 101
    assert by_url["http://www.cafe.de/menu"]["context"] == "zu unserem Haus."
    assert by_url["http://other.de/"]["nofollow"] is True


def test_a_crawl_identifies_urls_as_browsers_do_and_never_logs_the_password(tmp_path):
    from tests.crawling import MiniSite, crawl_log, page, run_crawl

    web = MiniSite(tmp_path, {
        "http://portal.de/": page("Portal", [
            "http://editor:s3cr3tpw@cafe.de/kontakt", "http://cafe.de/kontakt", "http://cafe.de/team/../kontakt",
            "http://cafe.de/./team/%2E%2E/kontakt", "http://cafe.de\\@portal.de/"]),
        "http://cafe.de/kontakt": page("Cafe"),
        "http://editor:s3cr3tpw@cafe.de/kontakt": page("Cafe, editor's view"),  # Scrapy sends the userinfo
    })
    try:
        run_dir = tmp_path / "run"
        result = run_crawl(run_dir, "http://portal.de/", web.proxy, "-s", "LOG_LEVEL=DEBUG")
        assert result.returncode == 0, result.stderr[-3000:]
    finally:
        web.stop()
    fetched = [r["url"] for r in crawl_log(run_dir)]
    assert "http://cafe.de/kontakt" in fetched
    assert any(u.startswith("http://editor:") and u.endswith("@cafe.de/kontakt") for u in fetched), fetched
    assert "http://editor:s3cr3tpw@cafe.de/kontakt" in web.requests()  # fetched as the link said
    # dot segments removed: the page is fetched once; a backslash ends the authority (host cafe.de)
    assert web.requests().count("http://cafe.de/kontakt") == 1
    assert not [u for u in web.requests() if ".." in u or "%2E" in u.upper()]
    assert "http://cafe.de/@portal.de/" in web.requests()
    assert "s3cr3tpw" not in result.stderr
    assert "editor:***@cafe.de" in result.stderr


def deep_page(depth: int) -> str:
    return ("<html><body><p>Start <a href='/top'>Top</a></p>" + "<div>" * depth
            + "<p>Unser Laden: <a href='/deep' title='Tief'>Anfahrt</a> hier</p>" + "</div>" * depth
            + "<script>var x = '<a href=\"/js\">';</script><a href='/after'>Danach</a></body></html>")


@pytest.mark.parametrize("depth, cut", [(100, False), (2000, False), (2100, True), (10000, True)])
def test_links_deeper_than_lxml_parses_are_recovered(depth, cut):
    from scrapy.http import HtmlResponse

    from geofocus.linkextract import extract_page_links

    response = HtmlResponse("http://laden.de/", body=deep_page(depth).encode(), encoding="utf-8")
    if cut:  # what lxml alone gives: the tree stops at the nesting limit
        assert [link["url"] for link in extract_links(response.selector.root, response.url)] == ["http://laden.de/top"]
    links, too_deep = extract_page_links(response.selector.root, response.text, response.url)
    assert too_deep is cut
    by_url = {link["url"]: link for link in links}
    assert list(by_url) == ["http://laden.de/top", "http://laden.de/deep", "http://laden.de/after"]
    deep = by_url["http://laden.de/deep"]
    assert (deep["anchor"], deep["title"], deep["context"]) == ("Anfahrt", "Tief", "Unser Laden: hier")


def test_a_crawl_follows_links_nested_too_deep_for_lxml_and_counts_them(tmp_path):
    from tests.crawling import MiniSite, crawl_log, run_crawl

    web = MiniSite(tmp_path, {
        "http://laden.de/": deep_page(3000),
        "http://laden.de/top": "<html lang=de><body>Top</body></html>",
        "http://laden.de/deep": "<html lang=de><body>Anfahrt: Schlossplatz 12, 26122 Oldenburg</body></html>",
        "http://laden.de/after": "<html lang=de><body>Danach</body></html>",
    })
    try:
        run_dir = tmp_path / "run"
        result = run_crawl(run_dir, "http://laden.de/", web.proxy)
        assert result.returncode == 0, result.stderr[-3000:]
    finally:
        web.stop()
    fetched = {r["url"] for r in crawl_log(run_dir)}
    assert {"http://laden.de/deep", "http://laden.de/after"} <= fetched
    stats = json.loads((run_dir / "stats.json").read_text())
    assert stats["geofocus/linkextract/too_deep"] == 1
    assert result.stderr.count("deeper than lxml parses") == 1
