"""A crawl of simweb with plain Scrapy through its proxy (``http_proxy``), in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from urllib.parse import urlsplit

from tests.simweb_server import running_simweb

SPIDER = textwrap.dedent('''
    import json, sys
    import scrapy
    from scrapy.crawler import CrawlerProcess

    seeds_file, items_file, stats_file = sys.argv[1:4]

    class Tiny(scrapy.Spider):
        name = "tiny"
        start_urls = open(seeds_file).read().split()

        def parse(self, response):
            yield {"url": response.url, "status": response.status,
                   "proxy": response.meta.get("proxy"),
                   "type": response.headers.get("Content-Type", b"").decode()}
            if "text/html" in response.headers.get("Content-Type", b"").decode():
                for href in response.css("a::attr(href)").getall():
                    yield response.follow(href, callback=self.parse)

        def closed(self, reason):
            stats = {k: v for k, v in self.crawler.stats.get_stats().items() if isinstance(v, int)}
            with open(stats_file, "w") as out:
                json.dump(stats, out)

    process = CrawlerProcess(settings={
        "FEEDS": {items_file: {"format": "jsonlines"}},
        "CLOSESPIDER_PAGECOUNT": 300,
        "ROBOTSTXT_OBEY": True,
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "CONCURRENT_REQUESTS": 16,
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
    })
    process.crawl(Tiny)
    process.start()
''')


def test_plain_scrapy_crawls_simweb_through_the_proxy(tmp_path):
    script = tmp_path / "tiny.py"
    script.write_text(SPIDER)
    items, stats = tmp_path / "items.jsonl", tmp_path / "stats.json"
    with running_simweb(tmp_path / "web", pages=5000) as sw:
        env = {k: v for k, v in os.environ.items()
               if k not in ("SCRAPY_SETTINGS_MODULE", "no_proxy", "NO_PROXY")}
        env["http_proxy"] = sw.proxy_url
        proc = subprocess.run([sys.executable, str(script), str(sw.seeds_file), str(items), str(stats)],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stderr[-3000:]
        truth = {json.loads(line)["url"]: json.loads(line) for line in sw.truth_file.read_text().splitlines()}
    rows = [json.loads(line) for line in items.read_text().splitlines()]
    st = json.loads(stats.read_text())
    assert len(rows) >= 150
    assert all(r["proxy"] == sw.proxy_url for r in rows)
    # Real-looking hosts, served by simweb (Scrapy never resolved them itself).
    hosts = {urlsplit(r["url"]).hostname for r in rows}
    assert len(hosts) > 20 and not any(h.startswith("127.") for h in hosts)
    html_pages = [r for r in rows if r["status"] == 200 and r["type"].startswith("text/html")]
    known = [r for r in html_pages if r["url"] in truth]
    assert len(known) > 0.6 * len(html_pages)
    assert any(truth[r["url"]]["relevant"] for r in known)
    assert st["robotstxt/request_count"] >= len(hosts) // 2
    assert st.get("downloader/response_status_count/301", 0) + st.get("downloader/response_status_count/302", 0) > 0
