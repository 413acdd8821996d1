"""BridgeNaiveBayes against hand-computed probabilities, and its pooling / persistence contracts."""

import json
import math
import random

import numpy as np
import pytest
from sklearn.naive_bayes import MultinomialNB

from geofocus.prediction.model import BridgeNaiveBayes, priority


def hand_model() -> BridgeNaiveBayes:
    """Depth 2, alpha 1, with the examples the hand computations below use."""
    m = BridgeNaiveBayes(depth=2, alpha=1.0)
    m.learn(["a", "b"], 1, True)
    m.learn(["a", "c"], 1, False)
    m.learn(["c"], 1, False)
    m.learn(["b"], 2, True)
    m.learn(["b"], 2, True)
    m.learn(["a"], 2, False)
    return m


# Depth 1: D0 = 2, D1 = 1 examples; V = {a, b, c}, |V| = 3;
#   N1 = 2 (a, b), N0 = 3 (a, c, c).
#   p(1) = (1+1)/(3+2) = 2/5          p(0) = (2+1)/(3+2) = 3/5
#   p(a|1) = (1+1)/(2+3) = 2/5        p(a|0) = (1+1)/(3+3) = 1/3
#   p(b|1) = (1+1)/(2+3) = 2/5        p(b|0) = (0+1)/(3+3) = 1/6
#   p(c|1) = (0+1)/(2+3) = 1/5        p(c|0) = (2+1)/(3+3) = 1/2
#   [a, b]: 2/5 * 2/5 * 2/5 = 8/125 against 3/5 * 1/3 * 1/6 = 1/30
#           p = (8/125) / (8/125 + 1/30) = 240 / (240 + 125) = 48/73
#   [c]:    2/5 * 1/5 = 2/25 against 3/5 * 1/2 = 3/10 -> p = 20 / (20 + 75) = 4/19
# Depth 2: D0 = 1, D1 = 2; V = {a, b}, |V| = 2; N1 = 2 (b, b), N0 = 1 (a).
#   p(1) = 3/5, p(0) = 2/5
#   p(a|1) = (0+1)/(2+2) = 1/4        p(a|0) = (1+1)/(1+2) = 2/3
#   p(b|1) = (2+1)/(2+2) = 3/4        p(b|0) = (0+1)/(1+2) = 1/3
#   [a, b]: 3/5 * 1/4 * 3/4 = 9/80 against 2/5 * 2/3 * 1/3 = 4/45
#           p = (9/80) / (9/80 + 4/45) = 81 / (81 + 64) = 81/145
#   [c]: c is not in V_2, so no evidence: the prior 3/5.
P1_AB, P2_AB = 48 / 73, 81 / 145


def test_probabilities_match_hand_computation():
    m = hand_model()
    assert m.probabilities(["a", "b"]) == pytest.approx([P1_AB, P2_AB], rel=1e-12)
    assert m.probabilities(["c"]) == pytest.approx([4 / 19, 3 / 5], rel=1e-12)
    # No terms: the smoothed class priors.
    assert m.probabilities([]) == pytest.approx([2 / 5, 3 / 5], rel=1e-12)


def test_unseen_terms_carry_no_evidence():
    m = hand_model()
    assert m.probabilities(["a", "b", "zzz", "yyy"]) == pytest.approx(m.probabilities(["a", "b"]))


def test_prediction_is_decay_weighted_mean_of_depths():
    m = hand_model()
    # decay 0.5: (0.5 * p1 + 0.25 * p2) / (0.5 + 0.25) = 2/3 p1 + 1/3 p2
    assert m.prediction(["a", "b"], decay=0.5) == pytest.approx(2 / 3 * P1_AB + 1 / 3 * P2_AB)
    # decay 1: plain mean
    assert m.prediction(["a", "b"], decay=1.0) == pytest.approx((P1_AB + P2_AB) / 2)


def test_priority_formula():
    # 0.25 + 0.6 * (1 - 0.25) = 0.7
    assert priority(0.25, 0.6) == pytest.approx(0.7)
    assert priority(1.0, 0.3) == 1.0
    assert priority(0.5, 0.0) == 0.5
    assert priority(0.5, None) == 0.5


def test_untrained_model_is_neutral():
    m = BridgeNaiveBayes(depth=3)
    assert m.probabilities(["host:x", "anchor:kontakt"]) == [0.5, 0.5, 0.5]
    # No evidence: no boost, so priority == decay score and the ranking is the distance strategy's.
    assert m.prediction(["host:x"]) == 0.0
    scores = [0.125, 1.0, 0.5, 0.25]
    ranked = sorted(scores, key=lambda s: -priority(s, m.prediction(["t"])))
    assert ranked == sorted(scores, reverse=True)


def test_depth_without_examples_gets_no_weight():
    m = BridgeNaiveBayes(depth=3)
    m.learn(["a"], 1, True)
    m.learn(["b"], 1, False)
    p1 = m.probabilities(["a"])[0]
    assert m.probabilities(["a"])[1:] == [0.5, 0.5]
    assert m.prediction(["a"]) == pytest.approx(p1)


def test_learning_moves_prediction_towards_label():
    m = BridgeNaiveBayes(depth=1)
    for _ in range(20):
        m.learn(["anchor:kontakt", "host:x"], 1, True)
        m.learn(["anchor:agb", "host:x"], 1, False)
    assert m.prediction(["anchor:kontakt"]) > 0.9
    assert m.prediction(["anchor:agb"]) < 0.1
    assert m.prediction(["host:x"]) == pytest.approx(0.5)


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_agrees_with_sklearn_multinomial_nb(alpha):
    """Same estimator as sklearn's MultinomialNB over the depth's vocabulary, given our smoothed prior."""
    rng = random.Random(7)
    vocab = [f"t{i}" for i in range(30)]
    m = BridgeNaiveBayes(depth=1, alpha=alpha)
    docs, labels = [], []
    for _ in range(200):
        label = rng.random() < 0.3
        # Positive examples prefer the first terms of the vocabulary.
        terms = [vocab[int(abs(rng.gauss(0 if label else 15, 8))) % 30] for _ in range(5)]
        m.learn(terms, 1, label)
        docs.append(terms)
        labels.append(int(label))
    seen = sorted({t for d in docs for t in d})
    index = {t: i for i, t in enumerate(seen)}
    x = np.zeros((len(docs), len(seen)))
    for row, terms in enumerate(docs):
        for t in terms:
            x[row, index[t]] += 1
    d1 = sum(labels)
    d0 = len(labels) - d1
    prior = [(d0 + alpha) / (len(labels) + 2 * alpha), (d1 + alpha) / (len(labels) + 2 * alpha)]
    nb = MultinomialNB(alpha=alpha, class_prior=prior).fit(x, labels)
    queries = [docs[i] for i in range(0, 200, 17)] + [["t1", "t2", "t29"]]
    q = np.zeros((len(queries), len(seen)))
    for row, terms in enumerate(queries):
        for t in terms:
            q[row, index[t]] += 1
    expected = nb.predict_proba(q)[:, 1]
    got = [m.probabilities(terms)[0] for terms in queries]
    assert got == pytest.approx(list(expected), rel=1e-9)


def test_learn_rejects_bad_depth():
    m = BridgeNaiveBayes(depth=2)
    with pytest.raises(ValueError):
        m.learn(["a"], 3, True)
    with pytest.raises(ValueError):
        m.learn(["a"], 0, True)
    with pytest.raises(ValueError):
        BridgeNaiveBayes(depth=0)
    with pytest.raises(ValueError):
        BridgeNaiveBayes(alpha=0)


def _examples(seed: int, n: int):
    rng = random.Random(seed)
    return [
        ([f"w{rng.randrange(40)}" for _ in range(rng.randrange(1, 6))], rng.randrange(1, 4), rng.random() < 0.3)
        for _ in range(n)
    ]


def test_merge_is_additive():
    xs, ys = _examples(1, 100), _examples(2, 80)
    a, b, both = BridgeNaiveBayes(), BridgeNaiveBayes(), BridgeNaiveBayes()
    for terms, d, label in xs:
        a.learn(terms, d, label)
        both.learn(terms, d, label)
    for terms, d, label in ys:
        b.learn(terms, d, label)
        both.learn(terms, d, label)
    a.merge(b)
    assert a.to_dict() == both.to_dict()
    for terms, _, _ in xs[:10]:
        assert a.probabilities(terms) == pytest.approx(both.probabilities(terms), rel=1e-12)


def test_take_delta_pools_workers():
    """Two workers ship their deltas to a shared model; it equals one model of all examples."""
    w1, w2 = BridgeNaiveBayes(track_delta=True), BridgeNaiveBayes(track_delta=True)
    shared, reference = BridgeNaiveBayes(), BridgeNaiveBayes()
    for round_ in range(3):
        for worker, seed in ((w1, 10 + round_), (w2, 20 + round_)):
            for terms, d, label in _examples(seed, 30):
                worker.learn(terms, d, label)
                reference.learn(terms, d, label)
            shared.merge(worker.take_delta())
    assert shared.to_dict() == reference.to_dict()
    assert w1.take_delta()["docs"] == [[0, 0]] * 3  # nothing new since the last delta
    with pytest.raises(RuntimeError):
        BridgeNaiveBayes().take_delta()


def test_save_load_round_trip(tmp_path):
    m = hand_model()
    path = tmp_path / "sub" / "model.json"
    m.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "geofocus/bridge-naive-bayes" and data["depth"] == 2
    loaded = BridgeNaiveBayes.load(path)
    assert loaded.to_dict() == m.to_dict()
    assert loaded.probabilities(["a", "b"]) == pytest.approx([P1_AB, P2_AB], rel=1e-12)
    assert not list(path.parent.glob("*.tmp"))


@pytest.mark.parametrize(
    "content",
    ["not json", "[]", '{"format": "other"}', '{"format": "geofocus/bridge-naive-bayes", "version": 1,'
     ' "depth": 2, "alpha": 1, "docs": [[0, 0]], "terms": {}}'],
)
def test_load_rejects_bad_files(tmp_path, content):
    path = tmp_path / "m.json"
    path.write_text(content)
    with pytest.raises(ValueError):
        BridgeNaiveBayes.load(path)


def test_resized_keeps_shared_depths():
    m = hand_model()
    bigger = m.resized(3)
    assert bigger.probabilities(["a", "b"])[:2] == pytest.approx([P1_AB, P2_AB])
    assert bigger.probabilities(["a", "b"])[2] == 0.5
    smaller = m.resized(1)
    assert smaller.probabilities(["a", "b"]) == pytest.approx([P1_AB])


def test_top_terms_orders_by_log_odds():
    m = hand_model()
    top = m.top_terms(depth=1, k=3)
    # log-odds at depth 1: b: log((2/5)/(1/6)), a: log((2/5)/(1/3)), c: log((1/5)/(1/2))
    assert [t for t, _ in top] == ["b", "a", "c"]
    assert top[0][1] == pytest.approx(math.log(12 / 5))
