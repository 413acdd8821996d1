"""OnlineLinkModel (hashed logistic + host yield) and the ``online`` strategy in the prediction middleware."""

import json
import subprocess
import sys

import numpy as np
import pytest
from scrapy import Request, signals
from test_prediction_middleware import link, response

from geofocus import signals as geo_signals
from geofocus.pagemeta import PageMeta
from geofocus.prediction.features import link_terms
from geofocus.prediction.online import OnlineLinkModel, term_ids

SOURCE = "http://www.portal.de/branchen"


def trained(n=30, depth=2):
    m = OnlineLinkModel(depth=depth, bits=16)
    good, bad = m.ids(["anchor:kontakt", "path:kontakt"]), m.ids(["anchor:agb", "path:agb"])
    for _ in range(n):
        m.learn(good, 1, True)
        m.learn(bad, 1, False)
    return m, good, bad


def test_term_ids_are_stable_sorted_and_in_range():
    ids = term_ids(["anchor:kontakt", "path:kontakt", "anchor:kontakt"], bits=12)
    assert ids == sorted(set(ids)) and len(ids) == 2 and all(0 <= i < 4096 for i in ids)
    # CRC-32, not Python's salted hash: the same ids in every process (a saved model stays valid).
    import zlib

    assert term_ids(["anchor:kontakt"], bits=20) == [zlib.crc32(b"anchor:kontakt") & 0xFFFFF]
    assert term_ids(["anchor:kontakt"], 20) == term_ids(["anchor:kontakt"], 20)


def test_untrained_model_predicts_nothing():
    m = OnlineLinkModel(depth=3, bits=12)
    assert m.prediction(m.ids(["anchor:kontakt"])) == 0.0
    assert m.score_many([[1, 2], []]).tolist() == [0.0, 0.0]


def test_learns_to_separate_and_only_trained_depths_count():
    m, good, bad = trained()
    p_good, p_bad = m.probabilities(good), m.probabilities(bad)
    assert p_good[0] > 0.8 > 0.2 > p_bad[0]
    assert p_good[1] == p_bad[1] == 0.5  # depth 2 has no example
    # The fusion only weighs depths that have examples: here p_1 alone.
    assert m.prediction(good) == pytest.approx(p_good[0])
    assert m.examples() == 60 and m.examples(2) == 0


def test_learn_path_is_one_learn_per_depth_bit_for_bit():
    # A page's examples (one per depth) are learned in one vectorised step; the model must be the
    # one that learning them one by one gives, to the bit, with repeated and unsorted ids, an
    # empty example, and an example with an id out of range (it and those after it not learned).
    rng = np.random.default_rng(3)
    one, batch = OnlineLinkModel(depth=3, bits=10), OnlineLinkModel(depth=3, bits=10)
    for step in range(400):
        k = int(rng.integers(1, 4))
        path = [rng.integers(0, 1 << 10, int(rng.integers(0, 30))).tolist() for _ in range(k)]
        if step % 50 == 7:
            path[-1].append(1 << 10)
        label = bool(rng.random() < 0.3)
        learned = 0
        try:
            for d, ids in enumerate(path, start=1):
                one.learn(ids, d, label)
                learned = d
        except ValueError:
            pass
        assert batch.learn_path(path, label) == learned
    assert np.array_equal(one.weights.view(np.int32), batch.weights.view(np.int32))
    assert np.array_equal(one._g2.view(np.int32), batch._g2.view(np.int32))
    assert one.bias.tolist() == batch.bias.tolist() and one.docs.tolist() == batch.docs.tolist()
    assert one.examples(3) > 0


def test_score_many_equals_one_by_one(monkeypatch):
    m, good, bad = trained()
    m.learn(good[:1], 2, True)
    m.learn(bad, 2, False)
    rows = [good, bad, [], good + bad, [good[0]], [], []]  # empty rows inside and at the end
    one_by_one = [m.prediction(r) for r in rows]
    many = m.score_many(rows)
    assert many.shape == (7,)
    assert many == pytest.approx(one_by_one, abs=1e-6)
    # The same through the scipy product used for big batches (a whole frontier).
    monkeypatch.setattr("geofocus.prediction.online._GATHER_MAX_IDS", 0)
    assert m.score_many(rows) == pytest.approx(one_by_one, abs=1e-6)
    assert m.score_many([[], []]) == pytest.approx([m.prediction([])] * 2)


def test_score_queued_equals_one_by_one_with_dynamic_features():
    m, good, bad = trained(depth=1)
    m.learn([*good, *m.dynamic_ids(2, "a.de")], 1, True)
    m.observe_host("a.de", True)
    rows = [(good, 1, "a.de"), (bad, -1, None), ([], 3, "b.de"), (good, 9, "a.de")]
    names = ["a.de", "b.de"]
    lengths = np.array([len(r[0]) for r in rows])
    indices = np.array([i for r in rows for i in r[0]], dtype=np.int64)
    dists = np.array([r[1] for r in rows])
    codes = np.array([names.index(r[2]) if r[2] else -1 for r in rows])
    got = m.score_queued(lengths, indices, dists, codes, names)
    want = [m.prediction([*ids, *m.dynamic_ids(d if d >= 0 else None, h)]) for ids, d, h in rows]
    assert got == pytest.approx(want, abs=1e-9)


def test_host_yield_is_a_learned_feature():
    m = OnlineLinkModel(depth=1, bits=16)
    ids = m.ids(["anchor:seite"])
    # Pages of hosts that already yielded relevant pages are relevant; unknown hosts' are not.
    for i in range(40):
        m.learn(ids + m.dynamic_ids(1, "good.de"), 1, True)
        m.observe_host("good.de", True)
        m.learn(ids + m.dynamic_ids(1, f"new{i}.de"), 1, False)
        m.observe_host(f"new{i}.de", False)
    assert m.hosts["good.de"] == [40, 40]
    assert m.prediction(ids + m.dynamic_ids(1, "good.de")) > m.prediction(ids + m.dynamic_ids(1, "other.de"))


def test_save_and_load_roundtrip_without_pickle(tmp_path):
    m, good, bad = trained()
    m.observe_host("a.de", True)
    path = tmp_path / "m.npz"
    m.save(path)
    with np.load(path, allow_pickle=False) as data:  # plain arrays only
        assert set(data.files) >= {"header", "weights", "columns", "hosts"}
    back = OnlineLinkModel.load(path)
    assert back.depth == 2 and back.bits == 16 and back.hosts == {"a.de": [1, 1]}
    assert back.probabilities(good) == pytest.approx(m.probabilities(good))
    # Learning continues where it stopped (AdaGrad state saved too).
    m.learn(good, 1, True)
    back.learn(good, 1, True)
    assert back.probabilities(good) == pytest.approx(m.probabilities(good))


def test_save_keeps_every_row_with_adagrad_state_at_any_depth_and_only_those(tmp_path):
    m = OnlineLinkModel(depth=3, bits=12)
    # a row learned only at the deepest depth, one only at depth 1, a NaN state (kept, as non-zero),
    # a negative zero (not kept: it is zero)
    m._g2[7, 2], m.weights[7, 2] = 0.5, -1.5
    m._g2[9, 0], m.weights[9, 0] = 2.0, 0.25
    m._g2[11, 1] = np.nan
    m._g2[13, 1], m.weights[13, 1] = -0.0, 3.0
    m.save(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz", allow_pickle=False) as data:
        assert data["columns"].tolist() == [7, 9, 11]
    back = OnlineLinkModel.load(tmp_path / "m.npz")
    assert back.weights[7, 2] == -1.5 and back.weights[9, 0] == 0.25 and np.isnan(back._g2[11, 1])
    assert back.weights[13, 1] == 0.0  # its row was not saved


@pytest.mark.parametrize("content", [b"", b"not a zip", b"PK\x03\x04garbage"])
def test_bad_model_file_is_a_clear_error(tmp_path, content):
    path = tmp_path / "bad.npz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="bad.npz"):
        OnlineLinkModel.load(path)


def test_other_npz_is_refused(tmp_path):
    path = tmp_path / "other.npz"
    np.savez(path, header=np.array(json.dumps({"format": "something-else"})))
    with pytest.raises(ValueError, match="not a geofocus/online-logistic model"):
        OnlineLinkModel.load(path)


# -- the middleware with strategy online --------------------------------------------

ONLINE = {"GEOFOCUS_STRATEGY": "online", "GEOFOCUS_ONLINE_BITS": 16}


def child(url, anchor, score=0.5, dist=1):
    return Request(url, meta={"geofocus": {"score": score, "dist": dist, "seed_dist": 1, "parent": SOURCE,
                                           "priority": score, "link": link(url, anchor)}})


def run_output(mw, resp, requests):
    return list(mw.process_spider_output(resp, requests))


def train(mw, n=10):
    """Contact pages are relevant, AGB pages are not (depth-1 examples through real responses)."""
    for i in range(n):
        for anchor, path, relevant in (("Kontakt", "kontakt", True), ("AGB", "agb", False)):
            req = child(f"http://firma{i}.de/{path}", anchor)
            run_output(mw, response(SOURCE, {"relevant": False, "path": []}), [req])
            meta = dict(PageMeta.of(req).to_dict(), relevant=relevant)
            mw.process_spider_input(response(req.url, meta))


def test_online_middleware_learns_scores_and_stores_ids(tmp_path, prediction_mw):
    crawler, mw = prediction_mw(tmp_path, **ONLINE)
    assert mw.online and mw.online_model is not None
    first = child("http://neu.de/kontakt", "Kontakt", score=0.25)
    run_output(mw, response(SOURCE, {"relevant": False}), [first])
    assert PageMeta.of(first).priority == 0.25  # untrained: the decay score
    assert all(type(i) is int for i in PageMeta.of(first).path[0])
    train(mw)
    assert crawler.stats.get_value("geofocus/prediction/examples") == 20
    assert mw.online_model.hosts["firma0.de"] == [2, 1]
    kontakt, agb = child("http://neu2.de/kontakt", "Kontakt"), child("http://neu2.de/agb", "AGB")
    run_output(mw, response(SOURCE, {"relevant": False}), [kontakt, agb])
    assert PageMeta.of(kontakt).priority > 0.5 > PageMeta.of(agb).priority
    # Queued pages (as a frontier stores them: JSON) are re-scored in one call through the signal.
    pages = [PageMeta.from_dict(json.loads(json.dumps(PageMeta.of(first).to_dict()))),
             PageMeta.from_dict({"seed": True, "score": 1.0, "priority": 1.0}),
             PageMeta.from_dict({"score": 0.5, "path": [["not-an-id"]]})]
    responses = crawler.signals.send_catch_log(geo_signals.rescore_requested, pages=pages)
    (_, priorities), = [r for r in responses if r[0] == mw.rescore_requested]
    assert priorities[0] > 0.5 and priorities[1] is None and priorities[2] is None
    assert pages[0].priority == priorities[0]


def test_a_pages_links_are_scored_together_as_one_by_one_in_order(tmp_path, prediction_mw):
    crawler, mw = prediction_mw(tmp_path, **ONLINE)
    train(mw)
    parent = response(SOURCE, {"relevant": False, "path": [[1, 2, 3]]})
    anchors = ["Kontakt", "AGB", "Impressum", "Blog", "Kontakt & Anfahrt"]
    page_links = [child(f"http://neu{i}.de/{a.lower()}", a, dist=i % 3 + 1) for i, a in enumerate(anchors)]
    item = {"url": "http://item"}
    unscored = Request("http://other.de/", meta={"geofocus": {"link": link("http://other.de/", "x")}})
    out = run_output(mw, parent, [page_links[0], item, *page_links[1:], unscored])
    assert out == [page_links[0], item, *page_links[1:], unscored]  # nothing dropped, order kept
    for req in page_links:
        alone = child(req.url, PageMeta.of(req).link["anchor"], dist=PageMeta.of(req).dist)
        mw.get_processed_request(alone, parent)
        assert PageMeta.of(req).priority == pytest.approx(PageMeta.of(alone).priority, abs=1e-6)
        assert PageMeta.of(req).path == PageMeta.of(alone).path == [PageMeta.of(req).path[0], [1, 2, 3]]
    assert PageMeta.of(page_links[0]).priority > 0.5 > PageMeta.of(page_links[1]).priority
    assert PageMeta.of(unscored).priority is None  # no decay score: left to the frontier's default


def test_a_callback_that_fails_half_way_still_hands_on_its_scored_outputs(tmp_path, prediction_mw):
    crawler, mw = prediction_mw(tmp_path, **ONLINE)
    train(mw)
    item = {"url": "http://item"}
    kontakt = child("http://neu3.de/kontakt", "Kontakt")

    def callback_output():
        yield item
        yield kontakt
        raise ValueError("the spider failed here")

    handed_on = []
    with pytest.raises(ValueError, match="failed here"):
        for o in mw.process_spider_output(response(SOURCE, {"relevant": False}), callback_output()):
            handed_on.append(o)
    assert handed_on == [item, kontakt]  # nothing yielded before the failure is lost
    assert PageMeta.of(kontakt).priority > 0.5  # and the link was scored


def test_online_model_saved_and_resumed(tmp_path, prediction_mw):
    crawler, mw = prediction_mw(tmp_path, **ONLINE)
    train(mw)
    crawler.signals.send_catch_log(signals.spider_closed, spider=crawler.spider, reason="finished")
    assert (tmp_path / "model.npz").exists() and not (tmp_path / "model.json").exists()
    _, resumed = prediction_mw(tmp_path, **ONLINE)
    assert resumed.online_model.examples() == 20
    ids = resumed.online_model.ids(link_terms(link("http://x.de/kontakt", "Kontakt")))
    assert resumed.online_model.prediction(ids) == pytest.approx(mw.online_model.prediction(ids))


def test_online_bad_path_is_skipped_with_a_stat(tmp_path, prediction_mw):
    crawler, mw = prediction_mw(tmp_path, **ONLINE)
    mw.process_spider_input(response("http://a.de/", {"relevant": True, "path": [["kontakt"]]}))
    mw.process_spider_input(response("http://a.de/x", {"relevant": True, "path": [[99999999]]}))
    assert crawler.stats.get_value("geofocus/prediction/bad_path") == 2
    assert mw.online_model.examples() == 0


def test_shared_crawl_runs_online_as_pooled_adaptive(tmp_path, prediction_mw):
    # Logistic weights are not additive counts: with GEOFOCUS_REDIS_URL the workers pool adaptive's naive Bayes.
    _, mw = prediction_mw(tmp_path, **ONLINE, GEOFOCUS_REDIS_URL="redis://127.0.0.1:1/0", GEOFOCUS_CRAWL_ID="t")
    assert not mw.online and mw.adaptive and mw.online_model is None


def test_queued_links_rescore_equals_the_model_and_forgets_what_left_the_queue():
    from geofocus.prediction.online import QueuedLinks

    m, good, bad = trained()
    m.observe_host("a.de", True)
    queued = QueuedLinks()
    queued.add("fp-good", good, 1, "a.de")
    queued.add("fp-bad", bad, None, None)
    queued.add("fp-fetched", good, 2, "b.de")
    fps, old = ["fp-bad", "fp-seed", "fp-good"], [0.5, 0.9, 0.5]
    new = queued.rescore(m, fps, old, decay=0.5)
    # a row per fingerprint: the model's prediction with the dynamic ids, NaN for one without features
    assert new[0] == pytest.approx(m.prediction(bad, 0.5))
    assert np.isnan(new[1])
    assert new[2] == pytest.approx(m.prediction([*good, *m.dynamic_ids(1, "a.de")], 0.5))
    assert new[2] > 0.8 > 0.2 > new[0]
    assert len(queued) == 2  # fp-fetched is no longer queued: its record is dropped
    # a priority that would move less than min_change is left alone
    again = queued.rescore(m, ["fp-good"], [float(new[2]) + 0.001], decay=0.5, min_change=0.002)
    assert np.isnan(again[0])
    # an untrained model answers nothing (priorities stay the decay scores)
    assert np.isnan(queued.rescore(OnlineLinkModel(bits=16), ["fp-good"], [0.5])).all()


def test_queued_links_keep_a_share_of_the_priority_each_link_was_found_with():
    from geofocus.prediction.online import QueuedLinks

    m, good, bad = trained()
    queued = QueuedLinks(found_weight=0.3)
    queued.add("fp-good", good, 1, None, found=0.125)
    queued.add("fp-bad", bad, 1, None, found=0.75)
    new = queued.rescore(m, ["fp-good", "fp-bad"], [0.0, 0.0], decay=0.5)
    for row, ids, found in ((0, good, 0.125), (1, bad, 0.75)):
        expected = 0.7 * m.prediction([*ids, *m.dynamic_ids(1, None)], 0.5) + 0.3 * found
        assert new[row] == pytest.approx(expected, abs=1e-6)
    # the found priority is kept as it was given, whatever the passes before did
    assert queued.rescore(m, ["fp-good"], [0.0], decay=0.5)[0] == pytest.approx(new[0], abs=1e-6)
    assert QueuedLinks(found_weight=0.0).found_weight == 0.0
    with pytest.raises(ValueError, match="found_weight"):
        QueuedLinks(found_weight=1.5)


def test_whole_queue_sums_without_scipy_are_scipys_bit_for_bit(monkeypatch):
    """A queue below _POSITIONAL_MAX_IDS is summed without scipy; the logits must be scipy's exactly
    (float32 sums in the same order), or re-scoring would decide differently once scipy is loaded."""
    import scipy.sparse

    from geofocus.prediction import online

    rng = np.random.default_rng(10)
    m = OnlineLinkModel(depth=3, bits=16)
    m.weights[:] = (rng.standard_normal(m.weights.shape) * rng.choice([1e-3, 1.0, 30.0], m.weights.shape)
                    ).astype(np.float32)
    m.weights[:7] = [[np.inf, -0.0, 0.0], [-np.inf, -0.0, np.nan], [1e38, -1e38, 3e38],
                     [-3e38, 1e-45, -1e-45], [0.0, 0.0, 0.0], [-0.0, -0.0, -0.0], [1.0, -1.0, 0.5]]
    m.bias[:] = rng.standard_normal(3)
    monkeypatch.setattr(online, "_GATHER_MAX_IDS", 0)
    for n in (1, 2, 50, 3000):
        lengths = rng.integers(0, 45, n)
        lengths[rng.random(n) < 0.05] = 0
        indices = rng.integers(0, 1 << 16, int(lengths.sum()))
        indices[rng.random(len(indices)) < 0.02] = rng.integers(0, 7)  # the odd values above
        for dtype in (np.int32, np.int64):
            idx = indices.astype(dtype)
            positional = online._positional_sums(m.weights, lengths, idx).astype(np.float64) + m.bias
            indptr = np.concatenate([[0], np.cumsum(lengths)])
            matrix = scipy.sparse.csr_matrix((np.ones(len(idx), dtype=np.float32), idx, indptr),
                                             shape=(n, m.weights.shape[0]))
            want = np.asarray(matrix @ m.weights, dtype=np.float64) + m.bias
            assert positional.shape == want.shape == (n, 3)
            assert np.array_equal(positional.view(np.int64), want.view(np.int64))
    # beyond the limit (or with scipy loaded, as here) the product is scipy's
    monkeypatch.setattr(online, "_POSITIONAL_MAX_IDS", 0)
    assert np.array_equal(m._logits(lengths, indices).view(np.int64), want.view(np.int64))


def test_a_small_queue_is_rescored_without_importing_scipy():
    code = """
import sys
import numpy as np
from geofocus.prediction.online import OnlineLinkModel, QueuedLinks
m = OnlineLinkModel(depth=3, bits=16)
m.learn([1, 2, 3], 1, True)
q = QueuedLinks()
fps = [f"fp{i}" for i in range(3000)]
for i, fp in enumerate(fps):
    q.add(fp, list(range(i % 40, i % 40 + 30)), i % 5, "h%d" % (i % 7), 0.5)
out = q.rescore(m, fps, [0.0] * len(fps))
assert (out == out).sum() == len(fps)
print("scipy" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_queued_links_nbytes_is_the_memory_of_the_records_after_adds_replacements_and_passes():
    """nbytes() is kept as a running sum (O(1) per pass): it must equal the walk over the records."""
    import sys

    from geofocus.prediction.online import QueuedLinks

    def walked(q):
        return sum(map(sys.getsizeof, q._records.values())) + sys.getsizeof(q._records)

    m, good, bad = trained()
    q = QueuedLinks(found_weight=0.3)
    assert q.nbytes() == walked(q)
    rng = np.random.default_rng(3)
    for i in range(300):
        ids = sorted(set(rng.integers(0, 1 << 16, rng.integers(0, 40)).tolist()))
        q.add(f"fp{i % 120}", ids, int(rng.integers(-1, 5)), f"h{i % 9}" if i % 4 else None, 0.25)
        assert q.nbytes() == walked(q)  # a replaced record's bytes leave the sum
    fps = [f"fp{i}" for i in range(0, 140, 2)]  # some queued, some never recorded
    q.rescore(m, fps, [0.5] * len(fps))
    assert len(q) == 60 and q.nbytes() == walked(q)
    q.rescore(m, ["fp0", "fp0", "fp2"], [0.5, 0.5, 0.5])  # a fingerprint listed twice
    assert len(q) == 2 and q.nbytes() == walked(q)
    q.rescore(OnlineLinkModel(bits=16), ["fp2"], [0.5])  # untrained model: records still forgotten
    assert len(q) == 1 and q.nbytes() == walked(q)
    q.rescore(m, [], [])
    assert len(q) == 0 and q.nbytes() == walked(q)
