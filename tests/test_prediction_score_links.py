"""Links scored before their Requests exist (``LinkPredictionMiddleware.score_links``, used by the
geo spider) get the page state the decay and prediction middlewares give a Request, and are not
scored twice; ``link_scorer`` hands the middleware out only for a chain where that holds."""

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from geofocus.pagemeta import FINGERPRINT_META, PageMeta
from geofocus.prediction.features import link_terms
from geofocus.spidermiddlewares.decay import BridgeDistanceMiddleware
from geofocus.spidermiddlewares.prediction import link_scorer

PARENT = "http://www.portal.de/branchen"
LINKS = [
    ("http://firma1.de/kontakt", "Kontakt"),
    ("http://firma2.de/agb", "AGB"),
    ("http://www.portal.de/impressum", "Impressum"),
    ("http://firma3.de/", "Start"),
]


def link(url, anchor):
    return {"url": url, "source_url": PARENT, "anchor": anchor, "title": "", "context": "Oldenburg"}


def parent_response(path):
    request = Request(PARENT, meta={"geofocus": {"dist": 1, "seed_dist": 2, "score": 0.5, "priority": 0.5,
                                                 "relevant": False, "path": path}})
    return HtmlResponse(PARENT, body=b"<html><body>x</body></html>", encoding="utf-8", request=request)


def train(mw):
    """Pages reached by 'Kontakt' links are relevant, those reached by 'AGB' links are not."""
    for i in range(8):
        for anchor, relevant in (("Kontakt", True), ("AGB", False)):
            url = f"http://firma{i}.de/{anchor.lower()}"
            terms = link_terms(link(url, anchor))
            path = [mw.online_model.ids(terms)] if mw.online else [terms]
            request = Request(url, meta={"geofocus": {"relevant": relevant, "path": path, "dist": 1}})
            mw.process_spider_input(HtmlResponse(url, body=b"<html></html>", request=request))


def trained(prediction_mw, run_dir, strategy):
    crawler, mw = prediction_mw(run_dir, strategy_arg=strategy)
    train(mw)
    return crawler, mw


def parent_path(mw):
    ids = mw.online_model.ids if mw.online else list
    return [ids(["anchor:branchen"]), ids(["anchor:portal"])]


@pytest.mark.parametrize("strategy", ["adaptive", "online"])
def test_scored_links_get_the_page_state_of_the_middleware_chain(tmp_path, prediction_mw, strategy):
    crawler_a, chain_mw = trained(prediction_mw, tmp_path / "a", strategy)
    crawler_b, early_mw = trained(prediction_mw, tmp_path / "b", strategy)
    response = parent_response(parent_path(chain_mw))

    # The chain: the spider's Requests through the decay middleware, then the prediction middleware.
    decay = build_from_crawler(BridgeDistanceMiddleware, crawler_a)
    requests = [Request(url, meta={"geofocus": PageMeta(link=link(url, anchor))}) for url, anchor in LINKS]
    out = list(chain_mw.process_spider_output(response, decay.process_spider_output(response, requests)))
    chain = [PageMeta.of(r).to_dict() for r in out]

    scored = list(early_mw.score_links(response, PageMeta.of(response),
                                       ((f"fp{i}", link(url, anchor)) for i, (url, anchor) in enumerate(LINKS))))
    assert [fp for fp, _link, _page in scored] == [f"fp{i}" for i in range(len(LINKS))]
    assert [page.to_dict() for _fp, _link, page in scored] == chain
    assert len({page["priority"] for page in chain}) > 1  # the model ranks them: not just the decay score
    buckets = [f"geofocus/prediction/score_bucket/{b}" for b in range(10)]
    chain_mw.flush_stats()
    early_mw.flush_stats()
    assert [crawler_b.stats.get_value(k) for k in buckets] == [crawler_a.stats.get_value(k) for k in buckets]


@pytest.mark.parametrize("strategy", ["adaptive", "online"])
def test_a_request_carrying_its_scored_page_state_is_not_scored_again(tmp_path, prediction_mw, strategy):
    _crawler, mw = trained(prediction_mw, tmp_path, strategy)
    response = parent_response(parent_path(mw))
    (fp, found, page), = mw.score_links(response, PageMeta.of(response), [("fp0", link(*LINKS[0]))])
    page.priority = page.prediction = 0.123  # what it was scored with, as far as the test can tell
    url = found["url"]
    kept = Request(url, meta={"geofocus": page, FINGERPRINT_META: (url, fp, page)})
    assert PageMeta.of(list(mw.process_spider_output(response, [kept]))[0]).priority == 0.123

    # Another page state, or the meta of another URL: scored as any other Request.
    for meta in ({"geofocus": PageMeta(**{**page.to_dict(), "link": found}), FINGERPRINT_META: (url, fp, page)},
                 {"geofocus": page, FINGERPRINT_META: ("http://other.de/", fp, page)}):
        other = list(mw.process_spider_output(response, [Request(url, meta=meta)]))[0]
        assert PageMeta.of(other).priority != 0.123


def project_crawler(tmp_path, strategy, **settings):
    """A crawler with the project's settings and its real engine (so its spider middleware chain)."""
    import geofocus.settings as project
    from geofocus.spiders.geo import GeoSpider

    base = {name: getattr(project, name) for name in dir(project) if name.isupper()}
    middlewares = {**project.SPIDER_MIDDLEWARES, **settings.pop("SPIDER_MIDDLEWARES", {})}
    crawler = get_crawler(GeoSpider, {**base, "SPIDER_MIDDLEWARES": middlewares, "GEOFOCUS_RUN_DIR": str(tmp_path),
                                      "GEOFOCUS_STRATEGY": strategy, **settings})
    crawler.spider = crawler._create_spider(region="oldenburg", seeds="http://a.de/")
    crawler.engine = crawler._create_engine()
    return crawler


@pytest.mark.parametrize(("strategy", "settings", "early"), [
    ("adaptive", {}, True),
    ("online", {}, True),
    ("distance", {}, False),  # the spider's bound is exact already: nothing to score
    ("bfs", {}, False),
    # a component between the spider and the prediction that could read or change a link
    ("online", {"SPIDER_MIDDLEWARES": {"scrapy.spidermiddlewares.base.BaseSpiderMiddleware": 575}}, False),
    # no decay middleware: links would have no score for the prediction to build on
    ("adaptive", {"SPIDER_MIDDLEWARES": {"geofocus.spidermiddlewares.decay.BridgeDistanceMiddleware": None}}, False),
])
def test_links_are_scored_early_only_for_the_chain_that_allows_it(tmp_path, strategy, settings, early):
    from geofocus.spidermiddlewares.prediction import LinkPredictionMiddleware

    crawler = project_crawler(tmp_path, strategy, **settings)
    scorer = link_scorer(crawler)
    assert (scorer is not None) == early
    if early:
        assert isinstance(scorer, LinkPredictionMiddleware)
