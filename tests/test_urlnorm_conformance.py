"""URL identity against the URL-normalisation tables of w3lib, crawler-commons and RFC 3986
(tests/data/urlnorm/, sources and licences in its README), and the identity rules of issue 14
item 5: dot segments, the host browsers go to, escaped dots in hosts, credentials, IDNA
mapping, idempotence.

``python tests/test_urlnorm_conformance.py`` prints the pass figures per table.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geofocus.urlnorm import InvalidURL, canonical_url, normalize_url, redact_url  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "urlnorm"
TABLES = ("w3lib.jsonl", "crawler-commons.jsonl", "rfc3986.jsonl")


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


ALL = [(name, row) for name in TABLES for row in rows(name)]


def key(url: str) -> str | None:
    try:
        return normalize_url(url)
    except InvalidURL:
        return None


def row_id(item) -> str:
    name, row = item
    return f"{name.split('.')[0]}:{row['url'][:60]}"


@pytest.mark.parametrize("table, row", ALL, ids=[row_id(i) for i in ALL])
def test_conformance_pair(table, row):
    a, b = key(row["url"]), key(row["same_as"])
    if row["verdict"] == "same":
        assert a is not None and a == b, f"{row['origin']}: {row['url']!r} and {row['same_as']!r} -> {a!r} vs {b!r}"
    else:
        assert a is None or b is None or a != b, f"deliberately different ({row['reason']}), got one key {a!r}"


@pytest.mark.parametrize("table, row", ALL, ids=[row_id(i) for i in ALL])
def test_normalising_twice_changes_nothing_on_the_tables(table, row):
    for url in (row["url"], row["same_as"]):
        try:
            once = canonical_url(url)
        except InvalidURL:
            continue
        assert canonical_url(once) == once
        assert normalize_url(once) == normalize_url(normalize_url(url)) == normalize_url(url)


def test_the_tables_are_large_enough_to_mean_something():
    same = [r for _, r in ALL if r["verdict"] == "same"]
    assert len(same) >= 150 and len({r["source"] for _, r in ALL}) == 3


# ---- the rules of issue 14 item 5 --------------------------------------------------------

@pytest.mark.parametrize(
    "url, same_as",
    [
        ("http://foo.com/aa/bb/../", "http://foo.com/aa/"),
        ("http://foo.com/aa/./foo.html", "http://foo.com/aa/foo.html"),
        ("http://foo.com/../../foo.html", "http://foo.com/foo.html"),
        ("http://foo.com/a/%2E%2E/b", "http://foo.com/b"),
        ("https://example%2Ecom/", "https://example.com/"),
        ("http://ＥＸＡＭＰＬＥ．com/", "http://example.com/"),
        ("http://2130706433/", "http://127.0.0.1/"),
        ("http://user:pw@a.de/x", "http://user:pw@A.DE:80/x#top"),
    ],
)
def test_same_resource_same_key(url, same_as):
    assert normalize_url(url) == normalize_url(same_as)


@pytest.mark.parametrize(
    "url",
    ["https://evil.com\\@good.com/", "https://evil.com\\\\@good.com/x", "http://evil.com\\.good.com/",
     "http://a.de\\b\\c", "http://user@evil.com\\@good.com/"],
)
def test_identity_and_target_agree_on_the_host(url):
    from scrapy import Request
    from scrapy.utils.httpobj import urlparse_cached

    target = urlparse_cached(Request(url)).hostname  # where Scrapy (and browsers) connect
    assert urlsplit(canonical_url(url)).hostname == target
    assert urlsplit(normalize_url(url)).hostname == target


def test_credentials_are_part_of_the_identity_but_not_of_the_log():
    plain, with_login = normalize_url("http://a.de/x"), normalize_url("http://user:secret@a.de/x")
    assert plain != with_login
    assert normalize_url("http://other:secret@a.de/x") != with_login
    assert "secret" not in redact_url(canonical_url("http://user:secret@a.de/x"))
    assert redact_url("http://user:secret@a.de/x") == "http://user:***@a.de/x"


@pytest.mark.parametrize("host", ["a\u3000b.com", "example.com\u3000", "a\u00a0b.de", "a\u2000b.de", "ex%20ample.com",
                                  "a\ufe64b.de"])
def test_hosts_that_map_to_forbidden_characters_are_invalid_as_in_browsers(host):
    # UTS 46 maps U+3000 to a space (browsers then refuse the URL); before, the key held a
    # space and no longer parsed.
    with pytest.raises(InvalidURL):
        canonical_url(f"http://{host}/")


@pytest.mark.parametrize(
    "url, expected",
    [
        ("http://www.0xzz/", "http://www.0xzz/"),
        ("http://0x7f.1/", "http://127.0.0.1/"),
        ("http://a.0x10/", None),
        ("http://1.2.3.4.5/", None),
        ("http://x.123/", None),
    ],
)
def test_hosts_ending_in_a_number_are_ipv4_addresses_or_invalid(url, expected):
    if expected is None:
        with pytest.raises(InvalidURL):
            canonical_url(url)
    else:
        assert canonical_url(url) == expected


@pytest.mark.parametrize(
    "host, ascii_host",
    [
        ("ｅｘａｍｐｌｅ．ｃｏｍ", "example.com"),
        ("bücher.de", "xn--bcher-kva.de"),
        ("BÜCHER.de", "xn--bcher-kva.de"),
        ("faß.de", "xn--fa-hia.de"),
        ("example。com", "example.com"),
    ],
)
def test_idna_mapped_hosts_become_the_host_browsers_use(host, ascii_host):
    assert urlsplit(canonical_url(f"http://{host}/")).hostname == ascii_host


_URL_CHARS = st.sampled_from(list("abc/./..%2e%2E%41%7e%zz?&=#@:\\ \u3000é.ß;~+-_") + ["%", "..", "/../", "/./", "//"])


@settings(max_examples=400, deadline=None)
@given(
    scheme=st.sampled_from(["http", "https", "HTTP"]),
    userinfo=st.sampled_from(["", "u@", "u:p@", "u:%26@", "@"]),
    host=st.sampled_from(["example.com", "EXAMPLE.com.", "bücher.de", "example%2Ecom", "127.1", "[::1]", "a\u3000b.com",
                          "ｅｘａｍｐｌｅ.com", "0x7f.1", "x.de:80", "x.de:8080"]),
    rest=st.lists(_URL_CHARS, max_size=25).map("".join),
)
def test_normalising_twice_changes_nothing(scheme, userinfo, host, rest):
    url = f"{scheme}://{userinfo}{host}/{rest}"
    try:
        once = canonical_url(url)
    except InvalidURL:
        return
    assert canonical_url(once) == once
    key_once = normalize_url(url)
    assert normalize_url(key_once) == key_once
    parts = urlsplit(key_once)  # the key still parses, with the host intact
    assert parts.hostname and " " not in key_once


def figures() -> None:
    for name in TABLES:
        table = rows(name)
        same = [r for r in table if r["verdict"] == "same"]
        ok = sum(1 for r in same if key(r["url"]) is not None and key(r["url"]) == key(r["same_as"]))
        differ = [r for r in table if r["verdict"] != "same"]
        kept = sum(1 for r in differ if key(r["url"]) is None or key(r["url"]) != key(r["same_as"]))
        print(f"{name}: meaning-preserving pairs sharing a key {ok}/{len(same)}; "
              f"deliberately different kept apart {kept}/{len(differ)}")


if __name__ == "__main__":
    figures()
