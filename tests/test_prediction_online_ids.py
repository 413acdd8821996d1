"""The ``online`` strategy's fast paths give what the plain formulas give, to the bit: a link's hashed
ids from cached parts (``features.link_ids``), the dynamic ids from tables, the fusion of logits."""

import itertools
import random

import numpy as np
import pytest

from geofocus.prediction.features import link_features, link_ids, link_terms
from geofocus.prediction.online import OnlineLinkModel, _bucket_fetched, _bucket_relevant, term_ids

URLS = [
    "http://www.cafe-am-schlossplatz.de/kontaktformular",
    "http://www.cafe-am-schlossplatz.de/index.php?id=2&lang=de",
    "https://Praxis-Dr-Mueller.DE:8080/anfahrtsbeschreibung.html#karte",
    "http://www.oldenburg.de/gastro.html",
    "http://192.168.10.4/impressum",
    "http://[2001:db8::1]/kontakt",
    "http://xn--mnchen-3ya.de/stadtplan",
    "http://[::1/broken",
    "not a url at all",
    "http://x.de/" + "/".join(f"seg{c}q" for c in "abcdefghijklmnop"),
    "http://shop.example.co.uk/store-finder?q=F%C3%B6rderverein+12a",
    "",
]
SOURCES = ["http://www.oldenburg.de/gastro.html", "http://www.cafe-am-schlossplatz.de/", "::::", "http://[bad", "",
           None, 5]
TEXTS = ["", "Kontakt", "Café am Schloßplatz, 26122 Oldenburg", "FÃ¶rderverein", "mehr", "Anfahrt | Impressum",
         "the and of", "x" * 900, None, ["x"], 7, "Öffnungszeiten Mo–Fr 9–18 Uhr, Tel. 0441 12345"]


def links(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        yield {"url": rng.choice(URLS), "source_url": rng.choice(SOURCES), "anchor": rng.choice(TEXTS),
               "title": rng.choice(TEXTS), "context": rng.choice(TEXTS)}


@pytest.mark.parametrize("bits", [12, 20])
def test_link_ids_are_the_ids_of_the_links_terms_and_its_host(bits):
    # many links from small pools: each part (URL, anchor, title, context) is met again and again,
    # so most come from the caches, in every combination
    for link in itertools.chain(links(2000, bits), [{}, {"url": 5}, {"anchor": "Kontakt"}]):
        ids, host = link_ids(link, bits)
        assert ids == term_ids(link_terms(link), bits)
        assert host == link_features(link)[1]
        ids.append(-1)  # the caller's list: the next call gets a fresh one
        assert link_ids(link, bits)[0] == term_ids(link_terms(link), bits)


def test_dynamic_ids_come_from_the_terms_they_name():
    m = OnlineLinkModel(depth=2, bits=16)
    counts = [(0, 0), (1, 0), (2, 1), (3, 1), (9, 2), (10, 5), (100, 0), (-1, -1)]
    for i, (fetched, relevant) in enumerate(counts):
        m.hosts[f"h{i}.de"] = [fetched, relevant]
    for dist, (i, (fetched, relevant)) in itertools.product([None, -3, -1, 0, 1, 5, 6, 7, 40],
                                                            enumerate([(0, 0), *counts])):
        host = f"h{i - 1}.de" if i else "unknown.de"
        expected = []
        if dist is not None:
            expected += term_ids([f"dist:{min(dist, 6)}"], 16)
        expected += term_ids([f"hy:{_bucket_fetched(fetched)}:{_bucket_relevant(relevant)}"], 16)
        assert m.dynamic_ids(dist, host) == expected
        assert m.dynamic_ids(dist, None) == expected[:-1]


def test_fusion_is_the_formula_bit_for_bit():
    rng = np.random.default_rng(5)
    logits = rng.normal(0, 20, (500, 3))
    logits[:8] = [[np.inf, -np.inf, np.nan], [-0.0, 0.0, 30.0], [-30.0, 30.000001, -30.000001],
                  [1e308, -1e308, 5e-324], [0.5, -0.5, 29.999], [np.nan, 0, 0], [-700, 700, 0], [1, 2, 3]]
    for mix in (np.array([0.5, 0.25, 0.25]), np.array([1.0, 0.0, 0.0]), np.zeros(3)):
        expected = (1.0 / (1.0 + np.exp(-np.clip(logits, -30, 30)))) @ mix
        got = OnlineLinkModel._fuse(logits.copy(), mix)
        assert np.array_equal(got, expected, equal_nan=True)
        assert np.array_equal(got[~np.isnan(got)].view(np.int64), expected[~np.isnan(expected)].view(np.int64))


def test_the_fast_url_split_is_urlsplits_hostname_path_and_query():
    """``_split_http`` answers only where it agrees with ``urlsplit``; the rest goes to ``urlsplit``."""
    from urllib.parse import urlsplit

    from geofocus.prediction.features import _split_http

    pieces = ["http://", "https://", "HTTP://", "http:/", "ftp://", "//", "/", "?", "#", "@", ":", "%", "[", "]",
              "::1", ":8080", "\t", "\n", "\r", " ", "\x00", "ä", "xn--mnchen-3ya", "Www.Cafe-AM.de", "a.de", "x",
              "id=2&lang=de", "F%C3%B6rder", "..", "index.php", "#top", "?q=1#f", "user:pw@", "ＡＢ"]
    rng = random.Random(7)
    answered = 0
    for _ in range(20000):
        url = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 7)))
        if rng.random() < 0.5:
            url = rng.choice(["http://", "https://"]) + url
        fast = _split_http(url)
        if fast is None:
            continue
        answered += 1
        parts = urlsplit(url)  # must not raise where the fast split answered
        assert fast == (parts.hostname, parts.path, parts.query), url
    assert answered > 2000
    # the URLs a crawl finds take the fast path
    for url in ["http://www.cafe-am-schlossplatz.de/kontaktformular", "https://Praxis-Dr-Mueller.DE:8080/a.html#k",
                "http://shop.example.co.uk/store-finder?q=F%C3%B6rderverein+12a", "http://192.168.10.4/impressum",
                "http://a.de", "http://a.de?x#y", "http://a.de#y?x"]:
        parts = urlsplit(url)
        assert _split_http(url) == (parts.hostname, parts.path, parts.query)


def test_the_host_yield_ids_of_a_queue_are_each_hosts_own():
    m = OnlineLinkModel(depth=2, bits=16)
    for i, (fetched, relevant) in enumerate([(0, 0), (1, 0), (2, 1), (3, 1), (9, 2), (10, 5), (100, 0), (4, 4)]):
        m.hosts[f"h{i}.de"] = [fetched, relevant]
    names = [f"h{i}.de" for i in range(10)] + ["", "h3.de"]  # h8, h9 and "" never fetched
    assert m._host_yield_ids(names) == [m._host_yield_id(h) for h in names]
    assert len(set(m._host_yield_ids(names))) >= 6
