"""Gao et al. measures on hand-made logs with known answers."""

import pytest

from geofocus.metrics import NotAvailable
from geofocus.metrics.collab import (
    communication_overhead,
    diversity,
    entity_ratio,
    geo_centrality,
    geo_centrality_scores,
    geo_coverage,
    geo_focus,
    geographic_locality,
    main_city,
    overlap,
)
from geofocus.metrics.harvest import CrawlTree
from tests.metrics_logs import addr, page, tree_log, u


def test_geo_coverage_is_share_of_pages_with_entities():
    assert geo_coverage(tree_log()) == pytest.approx(0.4)
    assert isinstance(geo_coverage([]), NotAvailable)


def test_entity_ratio_counts_same_address_once():
    # A: a1, a2; F: a1 (other spelling); I: a3; C: a2 -> 3 distinct of 5
    assert entity_ratio(tree_log()) == pytest.approx(3 / 5)
    assert "no addresses" in str(entity_ratio([page(u("x"), None)]))


def test_geo_centrality_matches_the_papers_example_3():
    # Figure 2: root 1 with children 2, 3, 4 and grandchildren 5..8, all geo-aware.
    pages = [page(u("1"), None, True)]
    pages += [page(u(str(i)), u("1"), True) for i in (2, 3, 4)]
    pages += [page(u(str(i)), u(str(2 + (i - 5) % 3)), True) for i in (5, 6, 7, 8)]
    tree = CrawlTree(pages)
    scores = geo_centrality_scores(tree, k=2, m=10)
    assert scores[tree.index[u("1")]] == pytest.approx(1.34)


def test_geo_centrality_mean_on_tree():
    # per page (k=2, m=10): S .12, A 1.11, H .1, B .1, D 0, F 1, I 1, C 1, E 0, G 0
    assert geo_centrality(tree_log()) == pytest.approx(4.43 / 10)
    assert geo_centrality(tree_log(), k=0) == pytest.approx(0.4)


def test_diversity_is_hosts_over_pages():
    assert diversity(tree_log()) == pytest.approx(3 / 10)  # www.a.de, www.h.de, www.c.de


def two_node_log():
    return [
        page(u("1"), None, node="n1"),
        page(u("2"), u("1"), node="n1"),
        page(u("3"), u("1"), node="n2"),   # handed from n1 to n2
        page(u("4"), u("3"), node="n2"),
        page(u("5"), u("4"), node="n1"),   # handed from n2 to n1
        page(u("2"), u("1"), node="n2"),   # fetched twice
    ]


def test_overlap_counts_pages_downloaded_twice():
    assert overlap(two_node_log()) == pytest.approx(1 / 6)


def test_single_node_measures_say_why_they_are_not_available():
    for value in (overlap(tree_log()), communication_overhead(tree_log()),
                  geo_focus(tree_log(), {"n1": ["oldenburg"]})):
        assert isinstance(value, NotAvailable)
        assert "one crawling node" in str(value)
        assert str(value).startswith("not available: ")


def test_communication_overhead_from_log_and_from_counts():
    # handed over: page 3 (n1 -> n2), page 5 (n2 -> n1), second fetch of 2 (n1's page 1 -> n2)
    assert communication_overhead(two_node_log()) == pytest.approx(3 / 6)
    assert communication_overhead(two_node_log(), exchanged=12) == pytest.approx(2.0)


def test_geo_focus_per_node():
    ol, hb = addr("Markt", "1"), addr("Markt", "1", "28195", "Bremen")
    pages = [
        page(u("1"), None, True, [ol], node="n1"),
        page(u("2"), u("1"), True, [ol, hb], node="n1"),
        page(u("3"), u("1"), True, [hb], node="n1"),     # n1 got a Bremen-only page
        page(u("4"), None, True, [hb], node="n2"),
        page(u("5"), u("4"), False, [], node="n2"),
        page(u("6"), None, True, [ol], node="gen"),
    ]
    focus = geo_focus(pages, {"n1": ["Oldenburg"], "n2": ["bremen"]})
    assert focus["n1"] == pytest.approx(2 / 3)
    assert focus["n2"] == pytest.approx(1.0)
    assert isinstance(focus["gen"], NotAvailable)
    assert "which cities" in str(geo_focus(pages, None))


def test_geographic_locality_linked_vs_unlinked_pairs():
    ol, hb = addr("Markt", "1"), addr("Markt", "1", "28195", "Bremen")
    pages = [
        page(u("1"), None, True, [ol]),
        page(u("2"), u("1"), True, [ol]),        # linked, same city
        page(u("3"), u("1"), True, [hb, hb, ol]),  # linked, main city Bremen
        page(u("4"), None, True, [hb]),
        page(u("5"), u("4"), False, []),         # no address: not in any pair
    ]
    delta, delta_unlinked = geographic_locality(pages)
    assert delta == pytest.approx(1 / 2)
    assert delta_unlinked == pytest.approx(1 / 4)  # 4 unlinked pairs, (3, 4) same city


def test_geographic_locality_of_one_city_is_not_available():
    assert "one city" in str(geographic_locality(tree_log()))


def test_main_city_is_most_frequent_then_alphabetical():
    hb, ol = addr("a", "1", city="Bremen"), addr("b", "2", city="Oldenburg")
    assert main_city(page(u("x"), None, True, [ol, hb, ol])) == "oldenburg"
    assert main_city(page(u("x"), None, True, [ol, hb])) == "bremen"
    assert main_city(page(u("x"), None)) is None


@pytest.mark.parametrize("url, host", [
    ("http://WWW.A.de/x", "www.a.de"), ("https://u:p@b.de:8080/x?y#z", "b.de"),
    ("http://c.de?q=1", "c.de"), ("http://[::1]:80/", "::1"), ("not a url", ""),
])
def test_host_of(url, host):
    from geofocus.metrics.collab import host_of

    assert host_of(url) == host
