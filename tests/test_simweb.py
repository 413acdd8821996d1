"""simweb served over HTTP: determinism, truth vs. pages, robots.txt, redirects, errors."""

from __future__ import annotations

import html
import http.client
import json
import re
import subprocess
import sys
from urllib.parse import urlsplit

from protego import Protego

from geofocus.simweb import SimWeb, WebParams
from geofocus.simweb.resolve import ROBOTS_DISALLOW
from tests.simweb_server import ROOT, running_simweb

PAGES = 5000


class Client:
    """A keep-alive HTTP client that talks to simweb as to a forward proxy."""

    def __init__(self, proxy_url: str):
        split = urlsplit(proxy_url)
        self.conn = http.client.HTTPConnection(split.hostname, split.port, timeout=20)

    def get(self, url: str, method: str = "GET") -> tuple[int, dict, bytes]:
        self.conn.request(method, url, headers={"Host": urlsplit(url).netloc})
        resp = self.conn.getresponse()
        body = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, body

    def close(self) -> None:
        self.conn.close()


def decode(headers: dict, body: bytes) -> str:
    m = re.search(r"charset=([\w-]+)", headers.get("content-type", ""))
    charset = m.group(1).lower() if m else "utf-8"
    # Browsers (and Scrapy) read a declared ISO-8859-1 as windows-1252.
    return body.decode("cp1252" if charset == "iso-8859-1" else charset, "replace")


def crawl_urls(client: Client, seeds: list[str], n: int) -> list[str]:
    """The first ``n`` URLs of a breadth-first walk (for comparing two servers)."""
    queue, seen, out = list(seeds), set(seeds), []
    while queue and len(out) < n:
        url = queue.pop(0)
        status, headers, body = client.get(url)
        out.append(url)
        if status == 200 and headers.get("content-type", "").startswith("text/html"):
            for href in re.findall(r'href="(http://[^"]+)"', decode(headers, body)):
                href = html.unescape(href)
                if href not in seen:
                    seen.add(href)
                    queue.append(href)
    return out


def test_two_servers_with_the_same_seed_serve_identical_pages(tmp_path):
    with running_simweb(tmp_path / "a", pages=3000, seed=7) as a, \
            running_simweb(tmp_path / "b", pages=3000, seed=7) as b, \
            running_simweb(tmp_path / "c", pages=3000, seed=8) as c:
        assert a.seeds() == b.seeds()
        ca, cb, cc = Client(a.proxy_url), Client(b.proxy_url), Client(c.proxy_url)
        urls = crawl_urls(ca, a.seeds(), 150)
        assert len(urls) == 150
        for url in urls:
            assert ca.get(url) == cb.get(url), url
        assert a.truth_file.read_bytes() == b.truth_file.read_bytes()
        # Another seed is another Web.
        assert a.truth_file.read_bytes() != c.truth_file.read_bytes()
        differ = sum(ca.get(u)[2] != cc.get(u)[2] for u in urls[:40])
        assert differ > 20
        for cl in (ca, cb, cc):
            cl.close()


def test_truth_file_has_every_page_and_relevant_pages_carry_their_address(simweb):
    records = [json.loads(line) for line in simweb.truth_file.read_text().splitlines()]
    assert len(records) == PAGES
    assert len({r["url"] for r in records}) == PAGES
    relevant = [r for r in records if r["relevant"]]
    assert relevant and all(r["grade"] == "relevant" and r["addresses"] for r in relevant)
    assert all(not r["addresses"] for r in records if not r["relevant"])
    assert {r["grade"] for r in records} == {"relevant", "partial", "none"}
    client = Client(simweb.proxy_url)
    for rec in relevant[:: max(1, len(relevant) // 40)]:
        status, headers, body = client.get(rec["url"])
        assert status == 200, rec["url"]
        text = html.unescape(decode(headers, body))
        for addr in rec["addresses"]:
            assert addr["street"] in text, (rec["url"], addr)
            assert addr["house_number"] in text
            assert addr["postcode"] in text
            assert addr["city"] in text
    # A page the truth calls irrelevant is served too (not an error page).
    none = next(r for r in records if r["grade"] == "none" and r["url"].endswith("/impressum"))
    assert client.get(none["url"])[0] in (200, 500, 503)
    client.close()


def _web() -> SimWeb:
    return SimWeb(WebParams(pages=PAGES, seed=1))


def test_robots_txt_per_host(simweb):
    web = _web()
    client = Client(simweb.proxy_url)
    by_style: dict[int, object] = {}
    for hid in range(web.n_hosts):
        host = web.host(hid)
        if not host.dead:
            by_style.setdefault(host.robots, host)
    # A host that disallows its downloads, one without robots.txt, one open to all.
    assert 2 in by_style and 3 in by_style
    for style in (2, 3):
        host = by_style[style]
        status, headers, body = client.get(host.base + "/robots.txt")
        assert status == 200 and headers["content-type"].startswith("text/plain")
        rp = Protego.parse(body.decode())
        prefix = ROBOTS_DISALLOW[style][0]
        assert not rp.can_fetch(host.base + prefix + "x", "geofocus")
        assert rp.can_fetch(host.base + "/", "geofocus")
    assert 1 in by_style
    assert client.get(by_style[1].base + "/robots.txt")[0] == 404
    status, _, body = client.get(by_style[0].base + "/robots.txt")
    assert status == 200 and Protego.parse(body.decode()).can_fetch(by_style[0].base + "/x", "geofocus")
    client.close()


def test_redirects_errors_and_content_types(simweb):
    web = _web()
    client = Client(simweb.proxy_url)
    # Canonical host: the alias answers 301 with the canonical URL.
    hid, alias = next((h, a) for h, a in web.alias_of.items() if not web.host(h).dead)
    host = web.host(hid)
    status, headers, _ = client.get(f"http://{alias}/")
    assert status == 301 and headers["location"] == host.base + "/"
    # A directory URL without its slash: 301 to the slash.
    page = next(p for p in web.iter_pages() if p.path.endswith("/") and p.path != "/"
                and p.status == 200 and p.path != "/de/" and not p.host.dead)
    status, headers, _ = client.get(page.host.base + page.path[:-1])
    assert status == 301 and headers["location"] == page.url
    # Tracking redirects of portals: 302 to the target.
    status, headers, _ = client.get(f"{host.base}/redirect?url=http%3A%2F%2Fwww.example.org%2F")
    assert status == 302 and headers["location"] == "http://www.example.org/"
    # 404 for unknown paths, 502 for unknown hosts, 5xx where the Web has them.
    assert client.get(host.base + "/gibt-es-nicht-123456.html")[0] == 404
    assert client.get("http://no-such-host.invalid/")[0] == 502
    dead = next((web.host(h) for h in range(web.n_hosts) if web.host(h).dead), None)
    if dead is not None:
        assert client.get(dead.base + "/")[0] == 503
    # Binary resources, some without an extension, some with a misleading one.
    binaries = [p for p in web.iter_pages() if not p.is_html and p.status == 200]
    assert binaries
    for p in binaries[:10]:
        status, headers, body = client.get(p.url)
        assert status == 200 and headers["content-type"] == p.ctype and body
    assert any(p.path.startswith("/dl/") for p in binaries)
    # HEAD gives headers only.
    status, headers, body = client.get(host.base + "/", method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0
    client.close()


def test_traps_are_endless(simweb):
    web = _web()
    client = Client(simweb.proxy_url)
    cal_host = next(web.host(h) for h in range(web.n_hosts)
                    if web.host(h).calendar and not web.host(h).dead and web.host(h).cat == 0)
    url = f"{cal_host.base}/termine/kalender/2024-05.html"
    for _ in range(30):                      # thirty months into the future and counting
        status, headers, body = client.get(url)
        assert status == 200
        nxt = re.findall(r'href="([^"]+)">Nächster Monat', body.decode())
        assert nxt
        url = html.unescape(nxt[0])
    assert "/2026-" in url or "/2027-" in url
    # Repeated path segments: a relative link that nests itself forever.
    rep = next(web.host(h) for h in range(web.n_hosts)
               if web.host(h).repeat_trap and not web.host(h).dead)
    url = rep.base + "/aktuelles/"
    for _ in range(1, 6):
        status, _, body = client.get(url)
        assert status == 200 and 'href="aktuelles/"' in body.decode()
        url += "aktuelles/"
    assert url.count("/aktuelles") == 6
    # Session ids: the same page under ever new URLs.
    forum = next(web.host(h) for h in range(web.n_hosts) if web.host(h).sid_trap and not web.host(h).dead)
    status, _, body = client.get(forum.base + "/?sid=0123456789ab")
    assert status == 200
    sids = set(re.findall(r"sid=([0-9a-f]{12})", body.decode()))
    assert len(sids) > 3 and "0123456789ab" not in sids
    # Faceted search: every combination of filters is another page.
    shop = next(web.host(h) for h in range(web.n_hosts) if web.host(h).facets and not web.host(h).dead)
    url, seen = shop.base + "/suche?kategorie=service", set()
    for _ in range(4):
        status, _, body = client.get(url)
        assert status == 200
        facets = [html.unescape(u) for u in re.findall(r'href="([^"]*/suche\?[^"]*)"', body.decode())]
        assert facets and not set(facets) & seen
        seen.update(facets)
        url = facets[-1]
    client.close()


def test_status_page_port_zero_and_clean_shutdown(tmp_path):
    with running_simweb(tmp_path, pages=1000) as sw:
        assert sw.port > 0
        client = Client(sw.proxy_url)
        status, _, body = client.get(f"http://127.0.0.1:{sw.port}/seeds.txt")
        assert status == 200 and body.decode().split() == sw.seeds()
        client.close()


def test_unknown_region_fails_with_the_list_of_packs(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "scrapy", "simweb", "--port", "0", "--pages", "1000",
                           "--region", "atlantis", "--nolog"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode != 0
    assert "atlantis" in proc.stderr and "oldenburg" in proc.stderr
