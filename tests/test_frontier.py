"""One behavioural suite for every frontier backend, including close-and-reopen.

A backend joins the suite by adding a factory to ``BACKENDS``: a callable
taking a pytest ``tmp_path`` and returning an unopened frontier whose state
survives ``close()`` and a new factory call on the same ``tmp_path``.
"""

import pytest

from geofocus.frontier import FrontierEntry, PushResult, SqliteFrontier
from redisutil import redis_backend


def sqlite_backend(tmp_path):
    return SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)


BACKENDS = {"sqlite": sqlite_backend, "redis": redis_backend}


@pytest.fixture(params=sorted(BACKENDS))
def make_frontier(request, tmp_path):
    opened = []

    def make():
        frontier = BACKENDS[request.param](tmp_path)
        frontier.open()
        opened.append(frontier)
        return frontier

    yield make
    for frontier in opened:
        try:
            frontier.close()
        except Exception:
            pass


def entry(url, priority, slot=None):
    return FrontierEntry(url, priority, slot or url.split("/")[2], {"url": url})


def drain(frontier, busy=()):
    out = []
    while (e := frontier.pop(busy)) is not None:
        out.append(e.fingerprint)
    return out


def test_pops_in_priority_order(make_frontier):
    f = make_frontier()
    for url, p in [("http://a.de/1", 0.25), ("http://b.de/1", 1.0), ("http://c.de/1", 0.5)]:
        assert f.push(entry(url, p)) == PushResult.NEW
    assert len(f) == 3
    assert drain(f) == ["http://b.de/1", "http://c.de/1", "http://a.de/1"]
    assert len(f) == 0


def test_better_parent_raises_priority_but_worse_does_not_lower_it(make_frontier):
    f = make_frontier()
    f.push(entry("http://a.de/x", 0.25))
    f.push(entry("http://b.de/y", 0.5))
    assert f.push(entry("http://a.de/x", 0.125)) == PushResult.REJECTED
    assert f.push(entry("http://a.de/x", 1.0)) == PushResult.RAISED
    assert len(f) == 2
    first = f.pop()
    assert (first.fingerprint, first.priority) == ("http://a.de/x", 1.0)


def test_fetched_url_is_never_queued_again(make_frontier):
    f = make_frontier()
    f.push(entry("http://a.de/x", 0.5))
    popped = f.pop()
    assert f.push(entry("http://a.de/x", 1.0)) == PushResult.REJECTED  # leased
    f.done(popped.fingerprint)
    assert f.push(entry("http://a.de/x", 1.0)) == PushResult.REJECTED  # done
    assert f.pop() is None


def test_ties_are_broken_at_random_not_by_insertion_order(make_frontier):
    f = make_frontier()
    urls = [f"http://h{i}.de/" for i in range(40)]
    for url in urls:
        f.push(entry(url, 0.5))
    order = drain(f)
    assert sorted(order) == sorted(urls)
    assert order != urls and order != urls[::-1]


def test_busy_slot_is_passed_over_for_another_host(make_frontier):
    f = make_frontier()
    for i in range(100):
        f.push(entry(f"http://big.de/{i}", 0.9, slot="big.de"))
    f.push(entry("http://small.de/", 0.1, slot="small.de"))
    picked = f.pop(busy_slots={"big.de"})
    assert picked.fingerprint == "http://small.de/"
    assert f.pop(busy_slots={"big.de"}) is None
    assert f.pop().slot == "big.de"


def test_queue_seen_set_and_counters_survive_reopen(make_frontier):
    f = make_frontier()
    for i in range(10):
        f.push(entry(f"http://a.de/{i}", i / 10))
    best = f.pop()
    f.done(best.fingerprint)
    in_flight = f.pop()
    f.increment("fetched", 2)
    f.increment("relevant")
    f.close()

    g = make_frontier()
    # the leased entry was in flight at the stop: it is queued again, the done one is not
    assert len(g) == 9
    assert g.push(entry(best.fingerprint, 1.0)) == PushResult.REJECTED
    assert g.pop().fingerprint == in_flight.fingerprint
    assert g.counters() == {"fetched": 2, "relevant": 1}


def test_request_payload_round_trips(make_frontier):
    f = make_frontier()
    payload = {"url": "http://a.de/ä", "meta": {"geofocus": {"score": 0.5, "link": {"anchor": "Kontakt"}}}}
    f.push(FrontierEntry("fp1", 0.5, "a.de", payload))
    assert f.pop().request == payload
