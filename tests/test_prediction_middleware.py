"""LinkPredictionMiddleware inside a real Scrapy crawler (the ``prediction_mw`` fixture of conftest.py), with real
Request/HtmlResponse objects."""

import json

import pytest
from scrapy import Request, signals
from scrapy.http import HtmlResponse

from geofocus.pagemeta import PageMeta
from geofocus.prediction.features import link_terms
from geofocus.prediction.model import BridgeNaiveBayes, priority

SOURCE = "http://www.portal.de/branchen"


def link(url, anchor, source=SOURCE):
    return {"url": url, "source_url": source, "anchor": anchor, "title": "", "context": ""}


def response(url, geofocus):
    req = Request(url, meta={"geofocus": geofocus})
    return HtmlResponse(url, body=b"<html><body>x</body></html>", encoding="utf-8", request=req)


def child(url, anchor, score=0.5, source=SOURCE):
    # As the decay middleware leaves it: score, dist, priority = score, link context.
    return Request(
        url,
        meta={"geofocus": {"score": score, "dist": 1, "seed_dist": 1, "parent": source,
                           "priority": score, "link": link(url, anchor, source)}},
    )


def gf(request):
    """A request's page state as the dict a frontier stores."""
    return PageMeta.of(request).to_dict()


def run_output(mw, resp, requests):
    return list(mw.process_spider_output(resp, requests))


def train(mw, n=10):
    """Pages reached by 'Kontakt' links are relevant, pages reached by 'AGB' links are not."""
    for i in range(n):
        for anchor, relevant in (("Kontakt", True), ("AGB", False)):
            url = f"http://firma{i}.de/{anchor.lower()}"
            terms = link_terms(link(url, anchor))
            mw.process_spider_input(response(url, {"relevant": relevant, "path": [terms]}))


def test_learns_one_example_per_depth(tmp_path, prediction_mw):
    crawler, mw = prediction_mw(tmp_path)
    path = [["anchor:kontakt"], ["anchor:firmen"], ["anchor:branchen"], ["anchor:extra"]]
    mw.process_spider_input(response("http://a.de/k", {"relevant": True, "path": path}))
    stats = crawler.stats
    assert stats.get_value("geofocus/prediction/examples") == 3  # bounded by the depth
    for d in (1, 2, 3):
        assert stats.get_value(f"geofocus/prediction/examples/depth_{d}") == 1
    mw.process_spider_input(response("http://a.de/j", {"relevant": False, "path": [["anchor:agb"], ["anchor:jobs"]]}))
    assert stats.get_value("geofocus/prediction/examples") == 5
    assert [mw.model.examples(d) for d in (1, 2, 3)] == [2, 2, 1]
    # path[k-1] is the depth-k example: "anchor:firmen" is positive at depth 2 only.
    assert [t for t, _ in mw.model.top_terms(depth=2, k=2)] == ["anchor:firmen", "anchor:jobs"]
    assert [t for t, _ in mw.model.top_terms(depth=1, k=2)] == ["anchor:kontakt", "anchor:agb"]
    p = mw.model.probabilities(["anchor:firmen"])
    assert p[1] > 0.5 and p[0] == pytest.approx(0.5)  # unseen at depth 1: the prior (1+1)/(2+2)


def test_unevaluated_pages_and_bad_paths_teach_nothing(tmp_path, prediction_mw):
    crawler, mw = prediction_mw(tmp_path)
    mw.process_spider_input(response("http://a.de/1", {"path": [["anchor:x"]]}))  # no "relevant"
    mw.process_spider_input(response("http://a.de/2", {"relevant": True}))  # seed: no path
    mw.process_spider_input(response("http://a.de/3", {"relevant": True, "path": "junk"}))
    mw.process_spider_input(response("http://a.de/4", {"relevant": False, "path": [[1, 2]]}))
    mw.process_spider_input(HtmlResponse("http://a.de/5", body=b"", request=Request("http://a.de/5")))
    assert mw.model.examples() == 0
    assert crawler.stats.get_value("geofocus/prediction/bad_path") == 2


def test_output_sets_path_prediction_and_priority(tmp_path, prediction_mw):
    crawler, mw = prediction_mw(tmp_path)
    train(mw)
    parent_path = [["anchor:a"], ["anchor:b"], ["anchor:c"]]
    resp = response(SOURCE, {"relevant": False, "path": parent_path, "score": 0.5})
    good, bad = child("http://neu.de/kontakt", "Kontakt"), child("http://neu.de/agb", "AGB")
    out = run_output(mw, resp, [good, {"item": 1}, bad])
    assert out[1] == {"item": 1}  # items pass through
    g, b = gf(good), gf(bad)
    assert g["path"] == [link_terms(g["link"]), ["anchor:a"], ["anchor:b"]]  # n = 3 entries
    assert g["prediction"] > 0.5 > b["prediction"]
    assert g["priority"] == pytest.approx(priority(0.5, g["prediction"]))
    assert b["priority"] >= 0.5  # the prediction never lowers a link below its decay score
    assert g["priority"] > b["priority"]
    json.dumps(g)  # still JSON-serialisable
    crawler.signals.send_catch_log(signals.spider_closed, spider=crawler.spider, reason="finished")
    buckets = sum(crawler.stats.get_value(f"geofocus/prediction/score_bucket/{i}", 0) for i in range(10))
    assert buckets == 2


def test_untrained_model_keeps_decay_order(tmp_path, prediction_mw):
    _, mw = prediction_mw(tmp_path)
    resp = response(SOURCE, {"relevant": False, "score": 0.5})
    reqs = [child(f"http://x.de/{i}", "Kontakt", score=s) for i, s in enumerate([0.25, 1.0, 0.5])]
    run_output(mw, resp, reqs)
    assert [gf(r)["priority"] for r in reqs] == [0.25, 1.0, 0.5]
    assert all(gf(r)["prediction"] == 0.0 for r in reqs)


@pytest.mark.parametrize(("setting", "attr"), [("distance", None), ("adaptive", "bfs")])
def test_other_strategies_pay_nothing_and_leave_priority(tmp_path, setting, attr, prediction_mw):
    crawler, mw = prediction_mw(tmp_path, strategy_arg=attr, GEOFOCUS_STRATEGY=setting)
    train(mw)
    assert mw.model.examples() == 0  # no learning
    req = child("http://neu.de/kontakt", "Kontakt", score=0.25)
    run_output(mw, response(SOURCE, {"relevant": False, "path": [["anchor:x"]]}), [req])
    page = PageMeta.of(req)
    assert page.prediction is None and page.priority == 0.25
    assert page.path is None  # no features extracted
    assert mw.rescore(page) is None
    crawler.signals.send_catch_log(signals.spider_closed, spider=crawler.spider, reason="finished")
    assert not (tmp_path / "model.json").exists()


def test_spider_argument_overrides_setting(tmp_path, prediction_mw):
    _, mw = prediction_mw(tmp_path, strategy_arg="adaptive", GEOFOCUS_STRATEGY="distance")
    train(mw)
    req = child("http://neu.de/kontakt", "Kontakt", score=0.25)
    run_output(mw, response(SOURCE, {"relevant": False}), [req])
    assert PageMeta.of(req).priority > 0.25


def test_requests_without_geofocus_meta_pass_untouched(tmp_path, prediction_mw):
    _, mw = prediction_mw(tmp_path)
    plain = Request("http://x.de/")
    nolink = Request("http://x.de/2", meta={"geofocus": {"score": 1.0, "priority": 1.0}})
    out = run_output(mw, response(SOURCE, {}), [plain, nolink])
    assert out == [plain, nolink]
    assert "geofocus" not in plain.meta and gf(nolink) == {"score": 1.0, "priority": 1.0}


def test_rescore_uses_current_model(tmp_path, prediction_mw):
    _, mw = prediction_mw(tmp_path)
    req = child("http://neu.de/kontakt", "Kontakt", score=0.25)
    run_output(mw, response(SOURCE, {"relevant": False}), [req])
    page = PageMeta.from_dict(json.loads(json.dumps(gf(req))))  # as stored in a frontier
    assert page.priority == 0.25  # found before anything was learned
    train(mw)
    new = mw.rescore(page)
    assert new is not None and new > 0.25
    assert page.priority == new and page.prediction > 0.5
    # A page with only the link (no path yet) is scored from its link.
    bare = PageMeta(score=0.25, link=link("http://neu2.de/kontakt", "Kontakt"))
    assert mw.rescore(bare) == pytest.approx(new, rel=0.05)
    assert mw.rescore(PageMeta(score=0.5)) is None
    assert mw.rescore(PageMeta(path=[["anchor:kontakt"]])) is None  # no score


def test_saved_on_close_and_reloaded_on_resume(tmp_path, prediction_mw):
    crawler, mw = prediction_mw(tmp_path)
    train(mw)
    crawler.signals.send_catch_log(signals.spider_closed, spider=crawler.spider, reason="finished")
    saved = tmp_path / "model.json"
    assert saved.exists()
    # Same run directory: the new crawler starts with what the first one learned.
    _, resumed = prediction_mw(tmp_path)
    assert resumed.model.examples() == 20
    terms = link_terms(link("http://neu.de/kontakt", "Kontakt"))
    assert resumed.model.probabilities(terms) == pytest.approx(mw.model.probabilities(terms))


def test_starts_from_geofocus_model_and_resizes(tmp_path, prediction_mw):
    warm = BridgeNaiveBayes(depth=2)
    for _ in range(5):
        warm.learn(["anchor:kontakt"], 1, True)
        warm.learn(["anchor:agb"], 1, False)
    warm_path = tmp_path / "warm.json"
    warm.save(warm_path)
    run_dir = tmp_path / "run"
    _, mw = prediction_mw(run_dir, GEOFOCUS_MODEL=str(warm_path))
    assert mw.model.depth == 3 and mw.model.examples() == 10
    assert mw.model.prediction(["anchor:kontakt"]) > 0.5


def test_bad_geofocus_model_is_a_clear_error(tmp_path, prediction_mw):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(ValueError, match="bad.json"):
        prediction_mw(tmp_path / "run", GEOFOCUS_MODEL=str(bad))


def test_periodic_save(tmp_path, prediction_mw):
    _, mw = prediction_mw(tmp_path, GEOFOCUS_MODEL_SAVE_INTERVAL=0)
    train(mw, n=1)
    assert (tmp_path / "model.json").exists()
    assert BridgeNaiveBayes.load(tmp_path / "model.json").examples() == 2


def test_scheduler_rescore_signal(tmp_path, prediction_mw):
    """The scheduler's rescore_requested signal gets one new priority (or None) per queued page."""
    from geofocus import signals as geo_signals

    crawler, mw = prediction_mw(tmp_path)
    train(mw)
    pages = [
        PageMeta(score=0.25, path=[link_terms(link("http://n.de/kontakt", "Kontakt"))]),
        PageMeta(score=0.25, path=[link_terms(link("http://n.de/agb", "AGB"))]),
        PageMeta.seed_page(),  # a seed: nothing to predict
    ]
    responses = crawler.signals.send_catch_log(geo_signals.rescore_requested, pages=pages)
    (_, priorities), = [r for r in responses if r[0] == mw.rescore_requested]
    assert priorities[0] > priorities[1] > 0.25 and priorities[2] is None
    assert crawler.stats.get_value("geofocus/prediction/rescored") == 2
