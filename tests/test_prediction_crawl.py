"""The prediction middleware in a real Scrapy crawl of a real (local) HTTP server.

The geo evaluation (550) and decay (580) middlewares of the crawl loop are
stood in for by the two small classes below, which honour the same meta
contract; the Scrapy engine, spider middleware chain, downloader and HTTP
server are real.
"""

import json

import pytest_twisted
from scrapy import Request, Spider
from scrapy.utils.test import get_crawler
from twisted.internet import reactor
from twisted.web.resource import Resource
from twisted.web.server import Site

from geofocus.pagemeta import PageMeta
from geofocus.prediction.features import link_terms
from geofocus.prediction.model import BridgeNaiveBayes

FIRMS = 8


class Page(Resource):
    isLeaf = True

    def __init__(self, pages):
        super().__init__()
        self.pages = pages

    def render_GET(self, request):
        body = self.pages.get(request.path.decode())
        if body is None:
            request.setResponseCode(404)
            return b"not found"
        request.setHeader(b"content-type", b"text/html; charset=utf-8")
        return body.encode()


def small_web() -> dict[str, str]:
    """Seed -> firm pages -> (Kontakt: address page | AGB, Jobs: no address)."""
    firms = "".join(f'<a href="/firma{i}/">Firma {i}</a>' for i in range(FIRMS))
    pages = {"/": f"<html><body>{firms}</body></html>"}
    for i in range(FIRMS):
        pages[f"/firma{i}/"] = (
            f'<html><body><a href="/firma{i}/kontakt">Kontakt</a>'
            f'<a href="/firma{i}/agb">AGB</a><a href="/firma{i}/jobs">Jobs</a></body></html>'
        )
        pages[f"/firma{i}/kontakt"] = "<html><body>ADDRESS Schlossplatz 1, 26122 Oldenburg</body></html>"
        pages[f"/firma{i}/agb"] = "<html><body>Allgemeine Geschaeftsbedingungen</body></html>"
        pages[f"/firma{i}/jobs"] = "<html><body>Stellenangebote</body></html>"
    return pages


class FakeGeoEvaluation:
    """Stands in for the geo evaluation middleware (550): sets the page state's relevant."""

    def process_spider_input(self, response):
        PageMeta.ensure(response).relevant = b"ADDRESS" in response.body


class FakeDecay:
    """Stands in for the decay middleware (580): score, dist and priority of each new request."""

    async def process_spider_output(self, response, result):
        parent = PageMeta.of(response) or PageMeta()
        dist = 0 if parent.relevant else (parent.dist or 0)
        async for r in result:
            page = PageMeta.of(r)
            if isinstance(r, Request) and page is not None:
                page.score, page.dist, page.parent = 0.5 ** (dist + 1), dist + 1, response.url
                page.priority = 0.5 ** (dist + 1)
            yield r


class SiteSpider(Spider):
    name = "site"
    seen_meta: list = []

    async def start(self):
        yield Request(self.base + "/", meta={"geofocus": {"score": 1.0, "dist": 0, "priority": 1.0}})

    def parse(self, response):
        for a in response.css("a"):
            url = response.urljoin(a.attrib["href"])
            ctx = {"url": url, "source_url": response.url, "anchor": a.css("::text").get(""),
                   "title": a.attrib.get("title", ""), "context": ""}
            yield Request(url, meta={"geofocus": {"link": ctx}})
        self.seen_meta.append(json.loads(json.dumps(PageMeta.of(response).to_dict())))


@pytest_twisted.inlineCallbacks
def test_crawl_learns_and_saves_model(tmp_path):
    port = reactor.listenTCP(0, Site(Page(small_web())), interface="127.0.0.1")
    base = f"http://127.0.0.1:{port.getHost().port}"
    run_dir = tmp_path / "run"
    settings = {
        "SPIDER_MIDDLEWARES": {
            f"{__name__}.FakeGeoEvaluation": 550,
            "geofocus.spidermiddlewares.prediction.LinkPredictionMiddleware": 570,
            f"{__name__}.FakeDecay": 580,
        },
        "GEOFOCUS_RUN_DIR": str(run_dir),
        "GEOFOCUS_STRATEGY": "adaptive",
        "GEOFOCUS_PREDICTION_DEPTH": 2,
        "ROBOTSTXT_OBEY": False,
        "LOG_LEVEL": "WARNING",
    }
    SiteSpider.seen_meta = []
    crawler = get_crawler(SiteSpider, settings)
    try:
        yield crawler.crawl(base=base)
    finally:
        yield port.stopListening()
    stats = crawler.stats
    pages = 1 + FIRMS * 4
    assert stats.get_value("response_received_count") == pages
    # Firm pages have a 1-link path (depth-1 example), their children a 2-link path.
    assert stats.get_value("geofocus/prediction/examples/depth_1") == pages - 1
    assert stats.get_value("geofocus/prediction/examples/depth_2") == FIRMS * 3
    # Every fetched page's meta carried a path of at most n term lists, each a JSON list of str.
    paths = [m["path"] for m in SiteSpider.seen_meta if "path" in m]
    assert sorted(len(p) for p in paths) == [1] * FIRMS + [2] * (FIRMS * 3)
    assert all(isinstance(t, str) for p in paths for terms in p for t in terms)
    # The model is saved on close and tells Kontakt links from AGB links.
    model = BridgeNaiveBayes.load(run_dir / "model.json")
    assert model.depth == 2 and model.examples() == stats.get_value("geofocus/prediction/examples")
    kontakt = link_terms({"url": f"{base}/firma99/kontakt", "source_url": f"{base}/firma99/", "anchor": "Kontakt"})
    agb = link_terms({"url": f"{base}/firma99/agb", "source_url": f"{base}/firma99/", "anchor": "AGB"})
    assert model.prediction(kontakt) > 0.5 > model.prediction(agb)
