"""One behavioural suite for every frontier backend, including close-and-reopen.

A backend joins the suite by adding a factory to ``BACKENDS``: a callable
taking a pytest ``tmp_path`` and returning an unopened frontier whose state
survives ``close()`` and a new factory call on the same ``tmp_path``.  The
suite covers the whole :class:`geofocus.frontier.FrontierQueue` protocol:
push/pop, done, release, seen, queued_sample, update_priorities, counters,
close and reopen.  A shared backend may lease a few entries ahead
(``prefetched()``, at most its batch); ``queued_sample`` leaves those out.
"""

import json

import pytest

from geofocus.frontier import FrontierEntry, PushResult, SqliteFrontier
from tests.redisutil import redis_backend


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
        frontier.close()  # closing twice is allowed; an error here is a failure of the backend


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


def test_a_quarantined_entry_is_seen_and_never_queued_again(make_frontier):
    """A leased entry that is not a readable request is set aside: like a fetched one it is never
    queued again, by this worker or (Redis) by a reopened one, and it counts as seen."""
    f = make_frontier()
    f.push(entry("http://a.de/bad", 0.9))
    f.push(entry("http://b.de/ok", 0.5))
    bad = f.pop()
    assert bad.fingerprint == "http://a.de/bad"
    f.quarantine(bad, "not a request")
    assert f.seen("http://a.de/bad")
    assert f.push(entry("http://a.de/bad", 1.0)) == PushResult.REJECTED
    f.close()
    g = make_frontier()
    assert g.seen("http://a.de/bad")
    assert g.push(entry("http://a.de/bad", 1.0)) == PushResult.REJECTED
    assert drain(g) == ["http://b.de/ok"]


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


def test_release_puts_a_leased_entry_back_at_its_new_priority(make_frontier):
    f = make_frontier()
    f.push(entry("http://a.de/1", 0.9))
    f.push(entry("http://b.de/1", 0.5))
    leased = f.pop()
    assert leased.fingerprint == "http://a.de/1"
    assert f.release(entry("http://b.de/1", 0.5)) is False  # queued, not leased
    assert f.release(entry("http://c.de/1", 0.5)) is False  # unknown
    leased.priority = 0.125  # a retry comes back lower
    assert f.release(leased) is True
    assert f.release(leased) is False  # no longer leased
    assert len(f) == 2
    assert not f.seen(leased.fingerprint)
    again = [f.pop(), f.pop()]
    assert [(e.fingerprint, e.priority) for e in again] == [("http://b.de/1", 0.5), ("http://a.de/1", 0.125)]
    assert f.pop() is None


def test_seen_means_leased_or_fetched_and_survives_reopen(make_frontier):
    f = make_frontier()
    f.push(entry("http://a.de/1", 0.9))
    f.push(entry("http://b.de/1", 0.5))
    assert not f.seen("http://a.de/1") and not f.seen("http://never.de/")  # queued, unknown
    assert f.pop().fingerprint == "http://a.de/1"
    assert f.seen("http://a.de/1") and not f.seen("http://b.de/1")
    f.done("http://a.de/1")
    assert f.seen("http://a.de/1")
    f.done("http://c.de/1")  # fetched without being queued (a redirect, a start URL)
    assert f.seen("http://c.de/1")
    assert f.pop().fingerprint == "http://b.de/1"  # in flight at the close
    f.close()
    g = make_frontier()
    assert g.seen("http://a.de/1") and g.seen("http://c.de/1")
    assert not g.seen("http://b.de/1")  # queued again at the reopen
    assert len(g) == 1


def sample_pass(f, limit):
    """One pass over the queue in samples of ``limit``, as the scheduler walks it."""
    return sample_pass_after(f, limit, [])


def sample_pass_after(f, limit, first):
    """The rest of a pass whose first sample was ``first`` ([]: a new pass)."""
    out, after = [], first[-1].fingerprint if first else ""
    if first and len(first) < limit:
        return out
    for _ in range(100):
        batch = f.queued_sample(limit, after)
        assert len(batch) <= limit
        out += batch
        if len(batch) < limit:  # fewer only at the end of a pass
            return out
        after = batch[-1].fingerprint
    raise AssertionError("the pass did not end")


def test_queued_sample_walks_every_queued_entry_once_from_the_first_call(make_frontier):
    f = make_frontier()
    urls = {f"http://h{i}.de/{i}": 0.25 + i / 100 for i in range(30)}
    for url, p in urls.items():
        f.push(entry(url, p))
    leased = f.pop()
    assert leased.fingerprint == "http://h29.de/29"
    queued = set(urls) - {leased.fingerprint}
    first = f.queued_sample(7)
    assert len(first) == 7  # the first call of a pass answers (no empty warm-up sample)
    sampled = first + sample_pass_after(f, 7, first)
    fps = [e.fingerprint for e in sampled]
    assert len(fps) == len(set(fps))  # each once
    held = set(getattr(f, "prefetched", set)())
    assert set(fps) <= queued and set(fps) | held == queued
    for e in sampled:
        assert e.priority == pytest.approx(urls[e.fingerprint])
        assert e.request == {"url": e.fingerprint} and e.slot == e.fingerprint.split("/")[2]
    # a new pass starts over
    again = sample_pass(f, 7)
    assert {e.fingerprint for e in again} | set(getattr(f, "prefetched", set)()) == queued


def test_update_priorities_counts_changed_entries_and_reorders(make_frontier):
    f = make_frontier()
    for url, p in [("http://a.de/", 0.2), ("http://b.de/", 0.4), ("http://c.de/", 0.6), ("http://d.de/", 0.8)]:
        f.push(entry(url, p))
    assert f.pop().fingerprint == "http://d.de/"
    f.push(entry("http://e.de/", 0.1))
    f.done("http://e.de/")
    changed = f.update_priorities([
        ("http://a.de/", 0.9, None),  # up
        ("http://b.de/", 0.4, None),  # unchanged: not counted
        ("http://c.de/", 0.05, {"url": "http://c.de/", "rescored": True}),  # down, with a new request
        ("http://d.de/", 0.1, None),  # leased: left alone
        ("http://e.de/", 0.7, None),  # fetched: left alone
        ("http://never.de/", 0.5, None),  # unknown: left alone
    ])
    assert changed == 2
    popped = [f.pop() for _ in range(3)]
    assert [(e.fingerprint, e.priority) for e in popped] == [
        ("http://a.de/", 0.9), ("http://b.de/", 0.4), ("http://c.de/", 0.05)]
    assert popped[2].request == {"url": "http://c.de/", "rescored": True}
    assert f.pop() is None


def test_updated_priorities_survive_reopen(make_frontier):
    f = make_frontier()
    for i in range(5):
        f.push(entry(f"http://h{i}.de/", 0.1 * (i + 1)))
    assert f.update_priorities([("http://h0.de/", 0.99, None), ("http://h4.de/", 0.01, None)]) == 2
    f.close()
    g = make_frontier()
    assert drain(g) == ["http://h0.de/", "http://h3.de/", "http://h2.de/", "http://h1.de/", "http://h4.de/"]


def test_request_payload_round_trips(make_frontier):
    f = make_frontier()
    payload = {"url": "http://a.de/ä", "meta": {"geofocus": {"score": 0.5, "link": {"anchor": "Kontakt"}}}}
    f.push(FrontierEntry("fp1", 0.5, "a.de", payload))
    assert f.pop().request == payload


# -- the embedded backend: durability, re-scoring, the in-memory duplicate check ---------------

KILLED_WRITER = """
import os, signal, sys
sys.path.insert(0, {root!r})
from geofocus.frontier import FrontierEntry, SqliteFrontier
f = SqliteFrontier({path!r}, seed=1)
f.open()
for i in range(100):
    f.push(FrontierEntry(f"http://a.de/{{i}}", i / 100, "a.de", {{"url": f"http://a.de/{{i}}", "i": i}}))
f.flush()
for _ in range(10):
    e = f.pop()
    if int(e.fingerprint.rsplit("/", 1)[1]) % 2:
        f.done(e.fingerprint)
f.increment("fetched", 5)
f.flush()
for i in range(100, 120):  # never flushed: lost with the process, which a crawl redoes
    f.push(FrontierEntry(f"http://a.de/{{i}}", 1.0, "a.de", {{"url": f"http://a.de/{{i}}"}}))
f.done("http://a.de/0")
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_kill_9_loses_nothing_a_flush_committed(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "frontier.sqlite"
    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.run([sys.executable, "-c", KILLED_WRITER.format(root=root, path=str(path))])
    assert proc.returncode == -9
    f = SqliteFrontier(path, seed=1)
    f.open()
    # 100 pushed; of the 10 best popped, the 5 odd ones were done; the 5 even ones were in flight
    assert len(f) == 95
    assert f.counters() == {"fetched": 5}
    for i in (99, 97, 95, 93, 91):
        assert f.push(entry(f"http://a.de/{i}", 1.0)) == PushResult.REJECTED
    popped = drain(f)
    assert popped[:5] == [f"http://a.de/{i}" for i in (98, 96, 94, 92, 90)]
    assert "http://a.de/100" not in popped and "http://a.de/0" in popped
    f.close()


def test_rescoring_the_whole_queue_reorders_it_and_survives_reopen(tmp_path):
    f = SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)
    f.open()
    urls = [f"http://h{i % 7}.de/{i}" for i in range(200)]
    for i, url in enumerate(urls):
        f.push(entry(url, i / 200))
        if i == 99:
            f.flush()  # half written before the re-scoring, half after
    first = f.pop()
    assert first.fingerprint == urls[-1]
    # all at once (the bulk path): the order turns round; the leased one and urls[100] (0.5 -> 0.5) stay
    assert f.update_priorities([(u, 1 - i / 200, None) for i, u in enumerate(urls)]) == 198
    assert f.pop().fingerprint == urls[0]
    # a few (the incremental path): down and up
    assert f.update_priorities([(urls[1], 0.0, None), (urls[150], 0.999, {"url": urls[150], "new": True})]) == 2
    best = f.pop()
    assert (best.fingerprint, best.priority, best.request) == (urls[150], 0.999, {"url": urls[150], "new": True})
    f.close()
    g = SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)
    g.open()
    order = drain(g)
    # the three popped were in flight at the close: queued again (urls[-1] at the priority it was leased with)
    assert order[:4] == [urls[0], urls[150], urls[-1], urls[2]]
    assert order[-1] == urls[1] and len(order) == 200
    g.close()


def test_pushable_answers_like_push_without_io(tmp_path):
    f = SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)
    f.open()
    assert f.pushable("http://a.de/x", 0.1)
    f.push(entry("http://a.de/x", 0.5))
    assert not f.pushable("http://a.de/x", 0.5) and f.pushable("http://a.de/x", 0.6)
    leased = f.pop()
    assert not f.pushable(leased.fingerprint, 1.0)
    f.done(leased.fingerprint)
    assert not f.pushable(leased.fingerprint, 1.0)
    f.close()


def test_a_busy_host_is_passed_over_however_deep(tmp_path):
    f = SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)
    f.open()
    for i in range(5000):
        f.push(entry(f"http://big.de/{i}", 0.9, slot="big.de"))
    for i in range(3):
        f.push(entry(f"http://mid{i}.de/", 0.5))
    f.push(entry("http://small.de/", 0.1))
    got = sorted(f.pop(busy_slots={"big.de", "mid1.de"}).slot for _ in range(2))
    assert got == ["mid0.de", "mid2.de"]
    assert f.pop(busy_slots={"big.de", "mid1.de"}).slot == "small.de"
    assert f.pop(busy_slots={"big.de", "mid1.de"}) is None
    assert f.pop(busy_slots={"big.de"}).slot == "mid1.de"
    f.close()


def test_a_frontier_file_of_the_earlier_layout_is_converted(tmp_path):
    import sqlite3

    path = tmp_path / "frontier.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE frontier (fp TEXT PRIMARY KEY, priority REAL NOT NULL, tiebreak REAL NOT NULL,
            slot TEXT NOT NULL, state INTEGER NOT NULL, payload INTEGER) WITHOUT ROWID;
        CREATE INDEX frontier_best ON frontier(priority DESC, tiebreak) WHERE state = 0;
        CREATE TABLE payloads (id INTEGER PRIMARY KEY, request TEXT NOT NULL);
        CREATE TABLE counters (name TEXT PRIMARY KEY, value REAL NOT NULL);
        INSERT INTO payloads VALUES (1, '{"url": "http://a.de/q"}'), (2, '{"url": "http://a.de/l"}');
        INSERT INTO frontier VALUES ('q', 0.25, 0.1, 'a.de', 0, 1), ('l', 0.5, 0.2, 'a.de', 1, 2),
            ('d', 0, 0, '', 2, NULL);
        INSERT INTO counters VALUES ('fetched', 7);
        """
    )
    db.commit()
    db.close()
    f = SqliteFrontier(path, seed=1)
    f.open()
    assert len(f) == 2 and f.counters() == {"fetched": 7}
    assert f.push(entry("d", 1.0, slot="a.de")) == PushResult.REJECTED
    assert [(e.fingerprint, e.request) for e in (f.pop(), f.pop())] == [
        ("l", {"url": "http://a.de/l"}), ("q", {"url": "http://a.de/q"})]
    f.close()


#: The layout of the previous version (1): one ``urls`` row per URL, a journal of packed row ids and
#: priorities and a request log over them, as that version left a file after a kill -9.
V1_FILE = """
CREATE TABLE urls (id INTEGER PRIMARY KEY, fp TEXT NOT NULL, priority REAL NOT NULL, slot TEXT NOT NULL,
    state INTEGER NOT NULL, request BLOB);
CREATE TABLE counters (name TEXT PRIMARY KEY, value REAL NOT NULL);
CREATE TABLE malformed (fp TEXT PRIMARY KEY, reason TEXT NOT NULL, request TEXT, at REAL NOT NULL);
CREATE TABLE journal (seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, ids BLOB NOT NULL, priorities BLOB);
CREATE TABLE request_log (seq INTEGER PRIMARY KEY, id INTEGER NOT NULL, request BLOB NOT NULL);
INSERT INTO urls VALUES (1, 'q1', 0.2, 'a.de', 0, '{"url":"q1"}'), (2, 'q2', 0.4, 'b.de', 0, '{"url":"q2"}'),
    (3, 'd1', 0.0, '', 2, NULL), (4, 'j', 0.9, 'a.de', 0, '{"url":"j"}'), (5, 'p', 0.1, 'c.de', 0, '{"url":"p"}'),
    (6, 'r', 0.3, 'a.de', 0, '{"url":"r"}'), (7, 'l', 0.5, 'b.de', 0, '{"url":"l"}');
INSERT INTO counters VALUES ('fetched', 3);
INSERT INTO request_log VALUES (3, 6, '{"url":"r","new":1}'), (4, 6, '{"url":"r","new":2}'),
    (5, 4, '{"url":"j","new":1}');
"""


def test_a_frontier_file_of_the_previous_layout_is_migrated_without_losing_its_queue(tmp_path):
    """A crawl made by the previous version (rows in ``urls``, changes in the journal and request log,
    killed without a compaction) resumes with its whole queue: priorities, requests, fetched set,
    counters; the file is rewritten as batch records at the first open, and reopens the same."""
    import sqlite3
    from array import array

    path = tmp_path / "frontier.sqlite"
    db = sqlite3.connect(path)
    db.executescript(V1_FILE)
    db.execute("INSERT INTO journal VALUES (1, 2, ?, NULL)", (array("q", [4]).tobytes(),))  # j fetched
    db.execute("INSERT INTO journal VALUES (2, 0, ?, ?)",  # new priorities of p and q2
               (array("q", [5, 2]).tobytes(), array("d", [0.8, 0.45]).tobytes()))
    db.commit()
    db.close()
    expected = [("p", 0.8, "c.de", {"url": "p"}), ("l", 0.5, "b.de", {"url": "l"}),
                ("q2", 0.45, "b.de", {"url": "q2"}), ("r", 0.3, "a.de", {"url": "r", "new": 2}),
                ("q1", 0.2, "a.de", {"url": "q1"})]
    f = SqliteFrontier(path, seed=1)
    f.open()
    assert len(f) == 5 and f.counters() == {"fetched": 3}
    assert sorted((e.fingerprint, e.priority, e.slot, e.request) for e in f.queued_sample(10)) == sorted(expected)
    db = sqlite3.connect(path)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "urls" not in tables and db.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 0
    db.close()
    # killed right after the migration (no close): the next open reads the batch records
    g = SqliteFrontier(path, seed=1)
    g.open()
    for fp in ("d1", "j"):
        assert g.seen(fp) and g.push(entry(fp, 1.0, slot="a.de")) == PushResult.REJECTED
    assert [(e.fingerprint, e.priority, e.slot, e.request) for e in iter(g.pop, None)] == expected
    g.close()
    f.close()
    h = SqliteFrontier(path, seed=1)
    h.open()
    assert len(h) == 5 and h.counters() == {"fetched": 3}  # the five popped by g were in flight at its close
    assert [(e.fingerprint, e.priority, e.slot, e.request) for e in iter(h.pop, None)] == expected
    h.close()


def test_a_file_with_rows_in_both_layouts_is_refused_not_half_read(tmp_path):
    import sqlite3

    path = tmp_path / "frontier.sqlite"
    f = SqliteFrontier(path, seed=1)
    f.open()
    f.push(entry("http://a.de/new", 0.5))
    f.close()
    db = sqlite3.connect(path)  # what the previous version adds when it opens this file and crawls on
    db.executescript("CREATE TABLE urls (id INTEGER PRIMARY KEY, fp TEXT NOT NULL, priority REAL NOT NULL, "
                     "slot TEXT NOT NULL, state INTEGER NOT NULL, request BLOB);"
                     "INSERT INTO urls VALUES (1, 'http://a.de/old', 0.5, 'a.de', 0, '{}');")
    db.close()
    with pytest.raises(ValueError, match="both the batch layout"):
        SqliteFrontier(path, seed=1).open()


# -- the journal: what a kill -9 keeps, what a compaction keeps, requests encoded once ----------

JOURNAL_WRITER = """
import os, signal, sys
sys.path.insert(0, {root!r})
from geofocus.frontier import FrontierEntry, SqliteFrontier
f = SqliteFrontier({path!r}, seed=1, compact_after={compact_after})
f.open()
for i in range(300):
    f.push(FrontierEntry(f"http://h{{i % 5}}.de/{{i}}", i / 1000, f"h{{i % 5}}.de", {{"url": str(i)}}))
    if i % 50 == 49:
        f.flush()
for _ in range(20):  # the 20 best: the even ones fetched, the odd ones in flight at the kill
    e = f.pop()
    if int(e.request["url"]) % 2 == 0:
        f.done(e.fingerprint)
f.flush()
f.update_priorities([(f"http://h{{i % 5}}.de/{{i}}", (i % 7) / 10, None) for i in range(300)])  # bulk
f.pop()  # in flight
f.flush()
f.push(FrontierEntry("http://h0.de/5", 0.95, "h0.de", {{"url": "5", "better": "parent"}}))  # raised
f.update_priorities([("http://h1.de/6", 0.0, None)])  # lowered
f.flush()
f.push(FrontierEntry("http://h2.de/7", 0.99, "h2.de", {{"url": "7"}}))  # never flushed: lost
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.parametrize("compact_after", [None, 10])
def test_journal_replay_after_kill_9_matches_a_clean_close(tmp_path, compact_after):
    """A killed run (journal replayed at open, with or without compactions during the run) resumes
    to the same queue as a run that closed cleanly (journal compacted at close)."""
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    killed = tmp_path / "killed.sqlite"
    proc = subprocess.run([sys.executable, "-c", JOURNAL_WRITER.format(
        root=root, path=str(killed), compact_after=compact_after)])
    assert proc.returncode == -9
    clean = tmp_path / "clean.sqlite"
    writer = JOURNAL_WRITER.format(root=root, path=str(clean), compact_after=None)
    writer = writer.replace('f.push(FrontierEntry("http://h2.de/7"', "f.close()\n#")
    proc = subprocess.run([sys.executable, "-c", writer.replace("os.kill(os.getpid(), signal.SIGKILL)", "")])
    assert proc.returncode == 0
    drained = []
    for path in (killed, clean):
        f = SqliteFrontier(path, seed=1)
        f.open()
        assert len(f) == 300 - 10  # of the 20 best (280..299), the 10 even ones were fetched
        for i in range(280, 300, 2):  # fetched before the kill: never queued again
            assert f.push(entry(f"http://h{i % 5}.de/{i}", 1.0)) == PushResult.REJECTED
        out = []
        while (e := f.pop()) is not None:
            out.append((e.fingerprint, e.priority, e.request))
        f.close()
        drained.append(out)
    assert drained[0] == drained[1]
    out = drained[0]
    assert out[0] == ("http://h0.de/5", 0.95, {"url": "5", "better": "parent"})
    assert ("http://h1.de/6", 0.0, {"url": "6"}) in out
    assert ("http://h2.de/7", 0.0, {"url": "7"}) in out  # its raise was not flushed
    priorities = [p for _, p, _ in out]
    assert priorities == sorted(priorities, reverse=True) and priorities[1] == 0.6  # the bulk re-scoring held


def test_compaction_folds_the_journal_into_the_batch_records(tmp_path):
    import sqlite3

    from tests.frontierfile import stored_rows

    path = tmp_path / "frontier.sqlite"
    f = SqliteFrontier(path, seed=1)
    f.open()
    for i in range(10):
        f.push(entry(f"http://a.de/{i}", i / 10))
    f.flush()
    done = f.pop()
    f.done(done.fingerprint)
    f.push(FrontierEntry("http://a.de/0", 0.5, "a.de", {"url": "http://a.de/0", "new": 1}))
    f.push(FrontierEntry("http://a.de/0", 0.6, "a.de", {"url": "http://a.de/0", "new": 2}))
    f.flush()
    f.push(FrontierEntry("http://a.de/0", 0.7, "a.de", {"url": "http://a.de/0", "new": 3}))
    f.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 0
    # the record's requests are mostly live, so it is not rewritten: the newest request of a.de/0 stays
    # in the request log (the superseded one is gone)
    assert [json.loads(r) for (r,) in db.execute("SELECT request FROM request_log")] == [
        {"url": "http://a.de/0", "new": 3}]
    assert {row[0] for row in db.execute("SELECT name FROM sqlite_master")} >= {"batches", "batch_requests"}
    assert "urls" not in {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    db.close()
    rows = stored_rows(path)
    assert rows[done.fingerprint]["state"] == 2 and rows["http://a.de/0"]["priority"] == 0.7
    assert {fp: row["state"] for fp, row in rows.items() if fp != done.fingerprint} == {
        f"http://a.de/{i}": 0 for i in range(9)}
    assert json.loads(rows["http://a.de/5"]["request"]) == {"url": "http://a.de/5"}


def test_a_record_of_mostly_fetched_rows_is_rewritten_without_their_requests(tmp_path):
    from tests.frontierfile import stored_rows

    path = tmp_path / "frontier.sqlite"
    f = SqliteFrontier(path, seed=1)
    f.open()
    for i in range(10):
        f.push(entry(f"http://a.de/{i}", i / 10))
    f.flush()
    for _ in range(7):
        f.done(f.pop().fingerprint)
    f.push(FrontierEntry("http://a.de/0", 0.5, "a.de", {"url": "http://a.de/0", "new": 1}))
    f.close()
    rows = stored_rows(path)
    assert {fp for fp, row in rows.items() if row["request"] is None} == {f"http://a.de/{i}" for i in range(3, 10)}
    assert json.loads(rows["http://a.de/0"]["request"]) == {"url": "http://a.de/0", "new": 1}
    import sqlite3

    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM request_log").fetchone()[0] == 0  # folded into the record
    db.close()
    g = SqliteFrontier(path, seed=1)
    g.open()
    assert [(e.fingerprint, e.priority, e.request) for e in iter(g.pop, None)] == [
        ("http://a.de/0", 0.5, {"url": "http://a.de/0", "new": 1}),
        ("http://a.de/2", 0.2, {"url": "http://a.de/2"}), ("http://a.de/1", 0.1, {"url": "http://a.de/1"})]
    g.close()


def test_an_entry_encoded_by_the_caller_is_stored_as_given(tmp_path):
    from geofocus.frontier import encode_request_bytes
    from tests.frontierfile import stored_rows

    path = tmp_path / "frontier.sqlite"
    f = SqliteFrontier(path, seed=1)
    f.open()
    request = {"url": "http://a.de/", "meta": {"geofocus": {"path": [["host:a", "anchor:kontakt"]]}}}
    encoded = encode_request_bytes(request)
    f.push(FrontierEntry("fp", 0.5, "a.de", request, encoded=encoded))
    f.push(FrontierEntry("fp2", 0.4, "a.de", {"url": "x"}, encoded=b'{"url":"x","marker":1}'))
    f.flush()
    stored = {fp: row["request"] for fp, row in stored_rows(path).items()}
    assert stored["fp"] == encoded and json.loads(stored["fp2"]) == {"url": "x", "marker": 1}
    assert f.pop().request == request
    f.close()


def test_encode_request_bytes_gives_the_same_json_with_keys_that_are_not_strings():
    from geofocus.frontier import encode_request_bytes

    assert encode_request_bytes({"url": "http://a.de/", "meta": {"n": 1}}) == b'{"url":"http://a.de/","meta":{"n":1}}'
    assert (encode_request_bytes({"url": "u", "meta": {3: "x", "y": {4: None}}})
            == b'{"url":"u","meta":{"3":"x","y":{"4":null}}}')
    assert json.loads(encode_request_bytes({"big": 1 << 70})) == {"big": 1 << 70}  # beyond orjson: json's path


#: Sizes of the in-memory order: as shipped, and tiny (hot heaps spill and refill all the time, large
#: cold arrays go through the partition path, the payload cache is rewritten at every flush).
TINY = {"hot_max": 6, "hot_keep": 2, "refill_min": 1, "refill_max": 2, "cache_compact_min": 0, "stale_slack": 3,
        "best_slack": 0}


@pytest.mark.parametrize("sizes", [{}, TINY], ids=["default", "tiny"])
def test_pops_with_changing_busy_hosts_match_a_brute_force_reference(tmp_path, sizes):
    """Random pushes, raises, re-scorings, dones and releases with a different set of busy hosts at
    every pop: each pop returns exactly the best queued entry of a host that is not busy, with its
    request; a reopen at the end finds the same queue (the leased entries queued again)."""
    import random

    rng = random.Random(5)
    f = SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)
    for name, value in sizes.items():
        setattr(f, name, value)
    f.open()
    queued: dict[str, tuple[float, str]] = {}  # fingerprint -> (priority, slot)
    leased: dict[str, tuple[float, str]] = {}
    fetched: set[str] = set()
    hosts = [f"h{i}.de" for i in range(6)]
    for step in range(3000):
        op = rng.random()
        if op < 0.45:
            fp = f"u{rng.randrange(600)}"
            slot = hosts[int(fp[1:]) % len(hosts)]
            priority = rng.randrange(1000) / 1000
            result = f.push(FrontierEntry(fp, priority, slot, {"url": fp}))
            if fp in fetched or fp in leased or (fp in queued and priority <= queued[fp][0]):
                assert result == PushResult.REJECTED
            else:  # a raise keeps the slot the entry is queued under
                queued[fp] = (priority, queued[fp][1] if fp in queued else slot)
        elif op < 0.5 and queued:
            updates = [(fp, rng.randrange(1000) / 1000, None) for fp in rng.sample(sorted(queued), min(5, len(queued)))]
            f.update_priorities(updates if rng.random() < 0.5 else updates * 200)  # incremental or bulk path
            for fp, priority, _ in updates:
                queued[fp] = (priority, queued[fp][1])
        elif op < 0.6 and leased:
            fp = rng.choice(sorted(leased))
            if rng.random() < 0.5:
                f.done(fp)
                fetched.add(fp)
                del leased[fp]
            else:
                priority, slot = leased.pop(fp)
                if rng.random() < 0.2:  # a retry may come back under another download slot
                    slot = rng.choice(hosts)
                assert f.release(FrontierEntry(fp, priority, slot, {"url": fp}))
                queued[fp] = (priority, slot)
        else:
            busy = set(rng.sample(hosts, rng.randrange(len(hosts))))
            got = f.pop(busy)
            free = [(p, fp) for fp, (p, slot) in queued.items() if slot not in busy]
            if not free:
                assert got is None, step
                continue
            best = max(p for p, _ in free)
            assert got is not None and got.slot not in busy and got.priority == best, step
            assert queued[got.fingerprint] == (best, got.slot) and got.request == {"url": got.fingerprint}
            leased[got.fingerprint] = queued.pop(got.fingerprint)
        if step % 97 == 0:
            f.flush()
    assert len(f) == len(queued)
    f.close()
    g = SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)
    g.open()
    expected = {fp: p for fp, (p, _) in {**queued, **leased}.items()}
    got = {}
    while (e := g.pop()) is not None:
        assert e.request == {"url": e.fingerprint}
        got[e.fingerprint] = e.priority
    g.close()
    assert got == expected


@pytest.mark.parametrize("fetched", [1, 45])
def test_compaction_keeps_the_queue_whether_it_rewrites_the_records_or_not(tmp_path, fetched):
    """Re-scored, raised, fetched and in-flight entries read back the same after a compaction that keeps
    the batch records' requests (few fetched) and after one that rewrites them (most fetched)."""
    import sqlite3

    path = tmp_path / "frontier.sqlite"
    f = SqliteFrontier(path, seed=1)
    f.open()
    urls = [f"http://h{i % 3}.de/{i}" for i in range(60)]
    for i, url in enumerate(urls):
        f.push(entry(url, i / 100))
    f.flush()
    f.update_priorities([(u, ((i * 7) % 60) / 100, None) for i, u in enumerate(urls)])  # bulk: all change
    fetched_fps = set()
    for _ in range(fetched):
        fetched_fps.add(f.pop().fingerprint)
    for fp in fetched_fps:
        f.done(fp)
    in_flight = f.pop()
    raised = next(u for u in urls if u not in fetched_fps and u != in_flight.fingerprint)
    f.push(FrontierEntry(raised, 0.99, "h0.de", {"url": raised, "raised": True}))
    f.compact()
    expected = {fp: (p, req) for fp, p, req in
                [(e.fingerprint, e.priority, e.request) for e in f.queued_sample(100)]}
    expected[in_flight.fingerprint] = (in_flight.priority, in_flight.request)
    f.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 0
    # bytes of requests the records refer to (in the payload file)
    stored = sum(sum(memoryview(r).cast("i")) for (r,) in db.execute("SELECT request_lengths FROM batch_requests"))
    db.close()
    assert (stored < 30 * 20) == (fetched == 45)  # 60 requests of about 20 bytes; 14 are left when rewritten
    g = SqliteFrontier(path, seed=1)
    g.open()
    for fp in fetched_fps:
        assert g.push(entry(fp, 1.0)) == PushResult.REJECTED
    got = {}
    while (e := g.pop()) is not None:
        got[e.fingerprint] = (e.priority, e.request)
    g.close()
    assert got == expected and len(got) == 60 - fetched
    assert got[raised] == (0.99, {"url": raised, "raised": True})


@pytest.mark.parametrize("sizes", [{}, TINY], ids=["default", "tiny"])
def test_large_slots_with_many_ties_pop_in_order(tmp_path, sizes):
    """Thousands of entries in a few slots, most of them tied: every pop is the best queued one,
    whether the slot's next rows come out of its cold array by a sort or by a partition."""
    import random

    rng = random.Random(3)
    f = SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)
    for name, value in sizes.items():
        setattr(f, name, value)
    f.open()
    queued = {}
    for i in range(3000):
        fp, priority = f"http://h{i % 3}.de/{i}", rng.randrange(20) / 20
        f.push(entry(fp, priority))
        queued[fp] = priority
    popped = []
    while (e := f.pop()) is not None:
        assert e.priority == max(queued.values())
        del queued[e.fingerprint]
        popped.append(e.fingerprint)
        if len(popped) % 100 == 0:  # now and then a new entry, better than most
            fp = f"http://h{len(popped) % 3}.de/new{len(popped)}"
            f.push(entry(fp, 0.9))
            queued[fp] = 0.9
    assert not queued and len(popped) == len(set(popped))
    f.close()


def test_a_popped_request_is_decoded_when_read_and_a_changed_one_is_stored_changed(tmp_path):
    """Pops hand the request out as its stored JSON, decoded at the first reading; a request changed
    after the pop is what a release stores (the popped entry carries no stale encoding)."""
    f = SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)
    f.open()
    f.push(FrontierEntry("a", 0.5, "a.de", {"url": "http://a.de/", "meta": {"n": 1}}))
    f.push(FrontierEntry("b", 0.4, "a.de", {}, encoded=b'{"url": "http://a.de/b", '))  # not JSON
    f.flush()
    popped = f.pop()
    assert popped.encoded is None
    assert popped == FrontierEntry("a", 0.5, "a.de", {"url": "http://a.de/", "meta": {"n": 1}})
    popped.request["meta"]["n"] = 2
    assert f.release(popped)
    again = f.pop()
    assert again.request == {"url": "http://a.de/", "meta": {"n": 2}}
    bad = f.pop()
    assert bad.fingerprint == "b" and bad.request["_geofocus_malformed"].startswith("bad JSON")
    f.close()


def test_a_frontier_file_whose_records_hold_their_requests_resumes_and_moves_them_out(tmp_path):
    """A file written by layout 2 (each record holds its requests in SQLite, no payload file) resumes with
    its queue, requests and fetched set; its requests move to the payload file at that first open (one
    transaction after an fsync), so later opens do not copy them again; new rows go to the payload file."""
    import sqlite3

    from tests.frontierfile import payload_path, stored_rows

    path = tmp_path / "frontier.sqlite"
    f = SqliteFrontier(path, seed=1)
    f.open()
    for i in range(20):
        f.push(entry(f"http://h{i % 3}.de/{i}", i / 20))
    f.flush()
    fetched = [f.pop().fingerprint for _ in range(2)]
    for fp in fetched:
        f.done(fp)
    f.close()
    before = stored_rows(path)
    # the same file as layout 2 wrote it: the requests in the records, no meta, no payload file
    db = sqlite3.connect(path)
    payloads = payload_path(path, db)
    data = payloads.read_bytes()
    for first, lengths, offsets in db.execute(
            "SELECT first_id, request_lengths, request_offsets FROM batch_requests").fetchall():
        lens, offs = memoryview(lengths).cast("i").tolist(), memoryview(offsets).cast("q").tolist()
        blob = b"".join(data[o:o + k] for o, k in zip(offs, lens, strict=True))
        db.execute("UPDATE batch_requests SET requests = ?, request_offsets = NULL, request_sum = NULL "
                   "WHERE first_id = ?", (blob, first))
    db.execute("DELETE FROM meta")
    db.commit()
    db.close()
    payloads.unlink()
    assert stored_rows(path) == before
    g = SqliteFrontier(path, seed=1)
    g.open()
    # the records point at their requests in the payload file from this open on (not appended at every open)
    db = sqlite3.connect(path)
    assert all(offsets is not None and requests == b"" for offsets, requests in db.execute(
        "SELECT request_offsets, requests FROM batch_requests"))
    db.close()
    assert stored_rows(path) == before
    assert len(g) == 18 and all(g.push(entry(fp, 1.0)) == PushResult.REJECTED for fp in fetched)
    g.push(entry("http://h9.de/new", 0.01))
    popped = [g.pop() for _ in range(3)]
    assert [(e.fingerprint, e.request) for e in popped] == [
        (f"http://h{i % 3}.de/{i}", {"url": f"http://h{i % 3}.de/{i}"}) for i in (17, 16, 15)]
    for e in popped:
        g.done(e.fingerprint)
    g.close()
    db = sqlite3.connect(path)
    payloads = payload_path(path, db)
    db.close()
    size = payloads.stat().st_size
    h = SqliteFrontier(path, seed=1)
    h.open()
    assert payloads.stat().st_size == size
    out = []
    while (e := h.pop()) is not None:
        out.append((e.fingerprint, e.request))
    h.close()
    assert out == [(f"http://h{i % 3}.de/{i}", {"url": f"http://h{i % 3}.de/{i}"}) for i in range(14, 0, -1)] + [
        ("http://h9.de/new", {"url": "http://h9.de/new"}), ("http://h0.de/0", {"url": "http://h0.de/0"})]


def test_requests_a_crash_kept_from_the_disk_are_set_aside_not_read_as_garbage(tmp_path):
    """The payload file is fsync'ed at close; a record written after that whose requests are not in the file
    as written (a power loss: other bytes where they were written) has its queued URLs handed out as malformed entries
    (which the scheduler sets aside), the rest of the queue intact.  A stray payload file of another
    generation (a rewrite killed before or after its commit) is deleted at open."""
    from tests.frontierfile import payload_path

    path = tmp_path / "frontier.sqlite"
    f = SqliteFrontier(path, seed=1)
    f.open()
    for i in range(10):
        f.push(entry(f"http://a.de/{i}", 0.5 + i / 100))
    f.close()  # fsync'ed: these are not checked again
    f = SqliteFrontier(path, seed=1)
    f.open()
    for i in range(10):
        f.push(entry(f"http://b.de/{i}", i / 100))
    f.flush()  # committed, and the process dies before any close
    import sqlite3

    db = sqlite3.connect(path)
    payloads = payload_path(path, db)
    synced = db.execute("SELECT value FROM meta WHERE name = 'synced_end'").fetchone()[0]
    db.close()
    data = payloads.read_bytes()
    written = data[synced:]
    requests = [json.dumps({"url": f"http://b.de/{i}"}, separators=(",", ":")).encode() for i in range(10)]
    assert written == b"".join(requests)
    with open(payloads, "r+b") as damaged:  # other requests where these were written (e.g. a reused block)
        damaged.seek(synced)
        damaged.write(b"".join(reversed(requests)))
    stray = path.parent / (path.name + "-requests-99")
    stray.write_bytes(b"left by a killed rewrite")
    g = SqliteFrontier(path, seed=1)
    g.open()
    assert not stray.exists()
    got = []
    while (e := g.pop()) is not None:
        got.append((e.fingerprint, e.request))
    assert got[:10] == [(f"http://a.de/{i}", {"url": f"http://a.de/{i}"}) for i in range(9, -1, -1)]
    assert [fp for fp, _ in got[10:]] == [f"http://b.de/{i}" for i in range(9, -1, -1)]
    assert all("_geofocus_malformed" in request for _, request in got[10:])
    g.close()  # the payload file fsync'ed again: the next open checks none of it, and must not need to
    h = SqliteFrontier(path, seed=1)
    h.open()
    again = []
    while (e := h.pop()) is not None:
        again.append((e.fingerprint, e.request))
    h.close()
    assert again == got


def test_the_payload_rewrite_copies_and_fsyncs_in_a_thread_while_the_crawl_goes_on(tmp_path, monkeypatch):
    """Once most of the payload file is fetched rows' requests it is rewritten with the live ones.  The copy and
    its fsync (a few hundred MB in a long crawl) run in a thread of their own: the crawl's thread goes on pushing,
    raising, popping and flushing while the fsync is held back here, and never fsyncs itself.  A flush after the
    copy commits the new file: what was queued, changed or fetched meanwhile is all there after a kill -9 (an open
    without a close) and after a clean close.  The requests written meanwhile are not fsync'ed; their records
    keep sums, so a power loss that kept them from the disk sets those URLs aside; the older rows, a raised
    one among them (its new request is in the request log), lie below the fsync'ed end and are untouched."""
    import os
    import shutil
    import sqlite3
    import threading
    import time

    from tests.frontierfile import payload_path

    real_fsync = os.fsync
    callers, held, go = [], threading.Event(), threading.Event()

    def fsync(fd):
        callers.append(threading.current_thread())
        if threading.current_thread() is not threading.main_thread():
            held.set()
            assert go.wait(30)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    path = tmp_path / "frontier.sqlite"

    def generation():
        db = sqlite3.connect(path)
        try:
            return payload_path(path, db).name.rsplit("-", 1)[1]
        finally:
            db.close()

    f = SqliteFrontier(path, seed=1)
    f.cache_compact_min = 1000
    f.open()
    for i in range(200):
        f.push(entry(f"http://a{i % 5}.de/{i}", i / 1000))
    f.flush()
    for _ in range(150):  # the best 150 fetched: their requests are garbage
        f.done(f.pop().fingerprint)
    f.flush()  # starts the rewrite
    assert held.wait(30), "the rewrite's fsync did not start in a thread of its own"
    for i in range(20):
        f.push(entry(f"http://b.de/{i}", 0.9 + i / 1000))
    raised = {"url": "http://a0.de/0", "raised": True}
    assert f.push(FrontierEntry("http://a0.de/0", 0.5, "a0.de", raised)) == PushResult.RAISED
    f.flush()
    for _ in range(2):
        f.done(f.pop().fingerprint)  # b.de/19 and b.de/18
    f.flush()
    assert generation() == "0" and threading.main_thread() not in callers
    go.set()
    deadline = time.monotonic() + 30
    while generation() == "0" and time.monotonic() < deadline:
        f.flush()  # nothing to write: still commits a finished rewrite
        time.sleep(0.01)
    assert generation() == "1" and not (tmp_path / "frontier.sqlite-requests-0").exists()
    assert threading.main_thread() not in callers
    expected = ([(f"http://b.de/{i}", 0.9 + i / 1000, {"url": f"http://b.de/{i}"}) for i in range(17, -1, -1)]
                + [("http://a0.de/0", 0.5, raised)]
                + [(f"http://a{i % 5}.de/{i}", i / 1000, {"url": f"http://a{i % 5}.de/{i}"}) for i in range(49, 0, -1)])

    def drain_all(frontier_path):
        g = SqliteFrontier(frontier_path, seed=1)
        g.open()
        got = []
        while (e := g.pop()) is not None:
            got.append((e.fingerprint, e.priority, e.request))
        g.close()
        return got

    # a power loss: the requests written since the fsync (the b.de ones) are not on the disk as written
    lost = tmp_path / "lost"
    lost.mkdir()
    db = sqlite3.connect(path)
    synced = db.execute("SELECT value FROM meta WHERE name = 'synced_end'").fetchone()[0]
    db.close()
    for p in tmp_path.iterdir():
        if p.is_file() and not p.name.endswith("-shm"):
            shutil.copy(p, lost / p.name)
    payloads = lost / "frontier.sqlite-requests-1"
    size = payloads.stat().st_size
    assert size > synced
    with open(payloads, "r+b") as damaged:
        damaged.seek(synced)
        damaged.write(b"\0" * (size - synced))
    after_loss = drain_all(lost / "frontier.sqlite")
    assert [(fp, p) for fp, p, _ in after_loss] == [(fp, p) for fp, p, _ in expected]
    assert all("_geofocus_malformed" in request for _, _, request in after_loss[:18])
    assert after_loss[18:] == expected[18:]
    # kill -9 (f is never closed), then a clean close
    assert drain_all(path) == expected
    assert drain_all(path) == expected


@pytest.mark.parametrize("fresh", [False, True], ids=["listed-strings", "equal-strings"])
def test_whole_queue_rescoring_from_queued_priorities(tmp_path, fresh):
    """The scheduler's whole-queue re-scoring: ``queued_priorities`` lists every queued fingerprint, the new
    priorities go back in one ``update_priorities`` (the listed string objects, or equal strings); entries
    leased or fetched since the listing, and a pass that lists less than it was given, are handled alike."""
    f = SqliteFrontier(tmp_path / "frontier.sqlite", seed=1)
    f.open()
    urls = [f"http://h{i % 7}.de/{i}" for i in range(300)]
    for i, url in enumerate(urls):
        f.push(entry(url, i / 300))
    fingerprints, priorities = f.queued_priorities()
    assert sorted(zip(fingerprints, priorities, strict=True)) == sorted((u, i / 300) for i, u in enumerate(urls))
    leased = f.pop()  # leased after the listing: left alone
    f.done(urls[5])  # fetched after the listing: left alone
    if fresh:
        fingerprints = ["".join(fp) for fp in fingerprints]
    new = {fp: 1 - urls.index(fp) / 300 for fp in fingerprints}
    # 300 listed, less the leased and the fetched one, less urls[150] (0.5 before and after)
    assert f.update_priorities([(fp, new[fp], None) for fp in fingerprints]) == 297
    assert leased.fingerprint == urls[-1]
    order = drain(f)
    assert order == sorted((u for u in urls if u not in (urls[5], urls[-1])), key=lambda u: -new[u])
    # a second listing, updated in part (a subset of it): the others keep their priorities
    for u in order:
        f.release(FrontierEntry(u, new[u], u.split("/")[2], {"url": u}))
    fingerprints, _ = f.queued_priorities()
    assert f.update_priorities([(fp, 0.0, None) for fp in fingerprints[:200]]) == 200
    assert sorted(drain(f)[98:]) == sorted(fingerprints[:200])
    f.close()


def test_whole_queue_rescoring_with_arrays(tmp_path):
    """The scheduler's whole-queue re-scoring with arrays: ``queued_priority_array`` lists every queued fingerprint
    with its priority in a float array, ``update_listed`` takes one new priority per listed entry (NaN keeps it);
    entries leased or fetched since the listing are left alone; the new priorities order the queue, are written
    by the next flush and read back after a kill -9; a listing serves one update."""
    import numpy as np

    path = tmp_path / "frontier.sqlite"
    f = SqliteFrontier(path, seed=1)
    f.open()
    urls = [f"http://h{i % 7}.de/{i}" for i in range(300)]
    for i, url in enumerate(urls):
        f.push(entry(url, i / 300))
    fingerprints, priorities = f.queued_priority_array()
    assert isinstance(priorities, np.ndarray) and priorities.dtype == np.float64
    assert sorted(zip(fingerprints, priorities.tolist(), strict=True)) == sorted(
        (u, i / 300) for i, u in enumerate(urls)
    )
    leased = f.pop()  # leased after the listing: left alone
    f.done(urls[5])  # fetched after the listing: left alone
    new = np.array([1 - urls.index(fp) / 300 for fp in fingerprints])
    new[fingerprints.index(urls[7])] = np.nan  # kept at 7 / 300
    # 300 listed, less the leased, the fetched and the NaN one, less urls[150] (0.5 before and after)
    assert f.update_listed(new) == 296
    with pytest.raises(ValueError):
        f.update_listed(new)  # the listing was used
    assert leased.fingerprint == urls[-1]
    expected = {u: 1 - i / 300 for i, u in enumerate(urls)}
    expected[urls[7]] = 7 / 300
    f.flush()
    # kill -9 (f is never closed): the flushed priorities come back, and order the queue
    g = SqliteFrontier(path, seed=1)
    g.open()
    queued = [u for u in urls if u != urls[5]]  # the leased one is queued again at its old priority
    expected[urls[-1]] = 299 / 300
    order = drain(g)
    assert order == sorted(queued, key=lambda u: (-expected[u], order.index(u)))
    assert sorted(order) == sorted(queued)
    g.close()
    # a listing of the wrong length is refused; an update_priorities in between uses the listing up
    f = SqliteFrontier(tmp_path / "second.sqlite", seed=1)
    f.open()
    for u in queued:
        f.push(entry(u, 0.25))
    fingerprints, _ = f.queued_priority_array()
    with pytest.raises(ValueError):
        f.update_listed(np.zeros(len(fingerprints) + 1))
    fingerprints, _ = f.queued_priority_array()
    assert f.update_priorities([(fingerprints[0], 0.75, None)]) == 1
    with pytest.raises(ValueError):
        f.update_listed(np.zeros(len(fingerprints)))
    assert f.pop().fingerprint == fingerprints[0]
    f.close()


def test_the_wal_is_checkpointed_by_a_thread_and_stays_small(tmp_path):
    """A checkpoint copies the WAL into the database file with two fsyncs; run by the commit that filled the WAL
    (SQLite's default) it held the crawl's thread for 50-250 ms.  The crawl's connection does none: a thread of
    the frontier checkpoints every ``checkpoint_interval`` seconds, so the WAL stays a few flushes long however
    much a crawl writes (here about 10 MB of records, against SQLite's 1,000 pages, 16 MB, before its own), and a
    kill -9 (an open without a close) still finds every committed flush."""
    import time
    from pathlib import Path

    path = tmp_path / "frontier.sqlite"
    f = SqliteFrontier(path, seed=1)
    f.checkpoint_interval = 0.01
    f.open()
    wal = Path(f"{path}-wal")
    largest = 0
    for i in range(40):
        for k in range(5000):
            f.push(FrontierEntry(f"{i:08d}{k:08d}" * 5, (k % 97) / 97, f"h{k % 9}.de", {}))
        f.flush()
        time.sleep(0.05)
        largest = max(largest, wal.stat().st_size)
    assert largest < 3 * 2**20, largest
    g = SqliteFrontier(path, seed=1)
    g.open()
    assert len(g) == 200_000
    g.close()
    f.close()
