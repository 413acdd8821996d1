"""Ahlers & Boll measures on a hand-made crawl tree (see tests/metrics_logs.py)."""

import pytest

from geofocus.metrics.harvest import (
    CrawlTree,
    bridge_distances,
    distribution_summary,
    downsample,
    harvest_curve,
    relative_harvest_rate,
    seed_distances,
    tail_lengths,
    windowed_harvest_rate,
)
from tests.metrics_logs import page, tree_log, u


def test_harvest_curve_counts_relevant_pages_in_fetch_order():
    curve = harvest_curve(tree_log())
    assert curve == [(1, 0), (2, 1), (3, 1), (4, 1), (5, 1), (6, 2), (7, 3), (8, 4), (9, 4),
                     (10, 4)]


def test_relative_harvest_rate_is_relevant_over_fetched():
    rates = relative_harvest_rate(tree_log())
    assert rates[0] == (1, 0.0)
    assert rates[1] == (2, 0.5)
    assert rates[-1] == (10, pytest.approx(0.4))


def test_windowed_harvest_rate_uses_only_the_last_pages():
    rates = windowed_harvest_rate(tree_log(), window=3)
    # pages 8..10 are C (relevant), E, G
    assert rates[-1] == (10, pytest.approx(1 / 3))
    # pages 5..7: D, F*, I*
    assert rates[6] == (7, pytest.approx(2 / 3))


def test_bridge_distances_between_relevant_pages():
    stats = bridge_distances(tree_log())
    assert dict(stats.distances) == {0: 1, 1: 1}  # F directly below A, C one bridge below A
    assert stats.without_relevant_ancestor == 2  # A and I
    assert stats.share_bridged() == pytest.approx(0.5)


def test_tail_lengths_count_dead_branches_below_relevant_pages():
    # D-E below A (2 pages), G below F (1 page); B leads to C so it is a bridge, not a tail
    assert dict(tail_lengths(tree_log())) == {2: 1, 1: 1}


def test_seed_distances_from_tree_depth_when_log_has_none():
    assert dict(seed_distances(tree_log())) == {1: 1, 2: 2, 3: 1}


def test_seed_distances_prefer_the_crawlers_value():
    pages = tree_log()
    for p in pages:
        p["seed_dist"] = 7
    assert dict(seed_distances(pages)) == {7: 4}


def test_cycles_and_unknown_parents_do_not_hang():
    pages = [page(u("x"), u("y"), True), page(u("y"), u("x")), page(u("z"), u("nowhere"), True)]
    tree = CrawlTree(pages)
    assert len(tree.roots()) >= 2
    assert sum(bridge_distances(pages).distances.values()) + \
        bridge_distances(pages).without_relevant_ancestor == 2
    assert sum(tail_lengths(pages).values()) <= 1


def test_a_url_fetched_twice_counts_once_in_the_tree():
    pages = tree_log() + [page(u("A"), None, True)]
    assert len(CrawlTree(pages)) == 10


def test_distribution_summary():
    assert distribution_summary({0: 2, 1: 1, 5: 1}) == {"n": 4, "mean": 1.5, "median": 0,
                                                        "max": 5}
    assert distribution_summary({})["mean"] is None


def test_downsample_keeps_first_and_last():
    points = [(i, i) for i in range(1, 10001)]
    small = downsample(points, 100)
    assert len(small) == 100
    assert small[0] == (1, 1) and small[-1] == (10000, 10000)
