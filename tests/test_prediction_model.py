"""BridgeNaiveBayes against hand-computed probabilities, and its pooling / persistence contracts."""

import json
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

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


# p(c) = (D_c + 1) / (D + 2);  p(t|c) = (n_tc + pi_c) / (N_c + pi_c |V|) with pi_c = N_c / (N_0 + N_1).
# Depth 1: D0 = 2, D1 = 1 examples; V = {a, b, c}, |V| = 3;
#   N1 = 2 (a, b), N0 = 3 (a, c, c), pi_1 = 2/5, pi_0 = 3/5.
#   p(1) = (1+1)/(3+2) = 2/5                  p(0) = (2+1)/(3+2) = 3/5
#   denominators: N1 + pi_1 * 3 = 2 + 6/5 = 16/5;   N0 + pi_0 * 3 = 3 + 9/5 = 24/5
#   p(a|1) = (1 + 2/5) / (16/5) = 7/16        p(a|0) = (1 + 3/5) / (24/5) = 1/3
#   p(b|1) = (1 + 2/5) / (16/5) = 7/16        p(b|0) = (0 + 3/5) / (24/5) = 1/8
#   p(c|1) = (0 + 2/5) / (16/5) = 1/8         p(c|0) = (2 + 3/5) / (24/5) = 13/24
#   (each class sums to 1: 7/16 + 7/16 + 1/8 = 1; 1/3 + 1/8 + 13/24 = 1)
#   [a, b]: 2/5 * 7/16 * 7/16 = 49/640 against 3/5 * 1/3 * 1/8 = 16/640 -> p = 49/65
#   [c]:    2/5 * 1/8 = 1/20 against 3/5 * 13/24 = 13/40 -> p = 2 / (2 + 13) = 2/15
# Depth 2: D0 = 1, D1 = 2; V = {a, b}, |V| = 2; N1 = 2 (b, b), N0 = 1 (a); pi_1 = 2/3, pi_0 = 1/3.
#   p(1) = (2+1)/(3+2) = 3/5, p(0) = 2/5
#   denominators: 2 + 2/3 * 2 = 10/3;   1 + 1/3 * 2 = 5/3
#   p(a|1) = (0 + 2/3) / (10/3) = 1/5         p(a|0) = (1 + 1/3) / (5/3) = 4/5
#   p(b|1) = (2 + 2/3) / (10/3) = 4/5         p(b|0) = (0 + 1/3) / (5/3) = 1/5
#   [a, b]: 3/5 * 1/5 * 4/5 = 12/125 against 2/5 * 4/5 * 1/5 = 8/125 -> p = 12/20 = 3/5
#   [c]: c is not in V_2: p(c|1) = (2/3) / (10/3) = 1/5 = p(c|0) = (1/3) / (5/3): no evidence,
#        the prior 3/5.
P1_AB, P2_AB = 49 / 65, 3 / 5


def test_probabilities_match_hand_computation():
    m = hand_model()
    assert m.probabilities(["a", "b"]) == pytest.approx([P1_AB, P2_AB], rel=1e-12)
    assert m.probabilities(["c"]) == pytest.approx([2 / 15, 3 / 5], rel=1e-12)
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


def reference_probability(examples, query, alpha):
    """The module docstring's formulas in exact rational arithmetic, every query term in the product."""
    alpha = Fraction(alpha)
    docs = [sum(1 for _, y in examples if y == c) for c in (0, 1)]
    counts = [Counter(t for terms, y in examples if y == c for t in terms) for c in (0, 1)]
    totals = [sum(counts[c].values()) for c in (0, 1)]
    vocab = len(set(counts[0]) | set(counts[1]))
    joint = []
    for c in (0, 1):
        pi = Fraction(totals[c], sum(totals))
        p = (docs[c] + alpha) / (sum(docs) + 2 * alpha)
        for t in query:
            p *= (counts[c][t] + alpha * pi) / (totals[c] + alpha * pi * vocab)
        joint.append(p)
    return joint[1] / (joint[0] + joint[1])


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_agrees_with_exact_reference(alpha):
    """Random skewed data: the cached, log-space model equals the formulas computed exactly."""
    rng = random.Random(7)
    vocab = [f"t{i}" for i in range(30)]
    m = BridgeNaiveBayes(depth=1, alpha=alpha)
    examples = []
    for _ in range(200):
        label = rng.random() < 0.15
        # Positive examples prefer the first terms of the vocabulary.
        terms = [vocab[int(abs(rng.gauss(0 if label else 15, 8))) % 30] for _ in range(5)]
        m.learn(terms, 1, label)
        examples.append((terms, int(label)))
    queries = [examples[i][0] for i in range(0, 200, 17)] + [["t1", "t2", "t29"], ["t0", "unseen"]]
    for q in queries:
        assert m.probabilities(q)[0] == pytest.approx(float(reference_probability(examples, q, alpha)), rel=1e-9)


def test_skewed_classes_terms_seen_only_in_irrelevant_links_count_against():
    """The failure of plain Laplace smoothing on a crawl's skewed classes does not occur."""
    m = BridgeNaiveBayes(depth=1)
    m.learn(["anchor:kontakt", "host:firma"], 1, True)
    for i in range(50):
        m.learn([f"anchor:word{i}", "host:firma", "anchor:agb"], 1, False)
    seen_once_negative = m.probabilities(["anchor:word7"])[0]
    unseen = m.probabilities(["anchor:neverseen"])[0]
    prior = m.probabilities([])[0]
    assert unseen == pytest.approx(prior)
    assert seen_once_negative < prior < m.probabilities(["anchor:kontakt"])[0]
    assert m.probabilities(["anchor:agb"])[0] < seen_once_negative


def test_one_class_only_gives_the_prior_to_every_link():
    m = BridgeNaiveBayes(depth=1)
    for i in range(10):
        m.learn([f"w{i}", "common"], 1, False)
    # p(1) = (0 + 1) / (10 + 2)
    assert m.probabilities(["w1", "common"]) == pytest.approx([1 / 12])
    assert m.probabilities(["other"]) == pytest.approx([1 / 12])


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
    # log-odds at depth 1: b: log((7/16)/(1/8)), a: log((7/16)/(1/3)), c: log((1/8)/(13/24))
    assert [t for t, _ in top] == ["b", "a", "c"]
    assert [v for _, v in top] == pytest.approx([math.log(7 / 2), math.log(21 / 16), math.log(3 / 13)])


def test_query_cache_stays_within_tolerance_of_exact():
    """Interleaved learning and querying (as in a crawl): the cached model tracks the exact one."""
    cached, exact = BridgeNaiveBayes(tolerance=1e-3), BridgeNaiveBayes(tolerance=0.0)
    rng = random.Random(3)
    worst = 0.0
    for step, (terms, d, label) in enumerate(_examples(5, 3000)):
        cached.learn(terms, d, label)
        exact.learn(terms, d, label)
        if step % 7 == 0:
            q = [f"w{rng.randrange(45)}" for _ in range(8)]
            a, b = cached.probabilities(q), exact.probabilities(q)
            worst = max(worst, *(abs(x - y) for x, y in zip(a, b, strict=True)))
            assert exact.probabilities(q) == b  # the exact model is deterministic
    assert worst < 5e-3
    assert cached.to_dict() == exact.to_dict()


def test_requeue_delta_ships_failed_counts_again():
    m = BridgeNaiveBayes(track_delta=True)
    m.learn(["a"], 1, True)
    first = m.take_delta()
    m.learn(["b"], 2, False)
    m.requeue_delta(first)  # shipping ``first`` failed
    again = m.take_delta()
    assert again["docs"] == [[0, 1], [1, 0], [0, 0]]
    assert again["terms"] == {"a": [0, 1, 0, 0, 0, 0], "b": [0, 0, 1, 0, 0, 0]}
