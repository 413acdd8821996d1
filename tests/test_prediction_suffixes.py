"""geofocus.prediction.suffixes gives tldextract's registered domains without loading tldextract."""

from __future__ import annotations

import random
import subprocess
import sys

import tldextract

from geofocus.prediction import features
from geofocus.prediction.suffixes import _PRIVATE_SEPARATOR, _SUFFIX_RE, _snapshot_text, plain_registered_domain

_TLDEXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def _reference(host: str) -> str:
    """What features.registered_domain computed before: tldextract's domain.suffix, else the host."""
    ext = _TLDEXTRACT(host)
    return f"{ext.domain}.{ext.suffix}" if ext.domain and ext.suffix else host


def _rules() -> tuple[list[str], list[str]]:
    text = _snapshot_text()
    assert text is not None
    public, _, private = text.partition(_PRIVATE_SEPARATOR)
    return ([m.group("suffix") for m in _SUFFIX_RE.finditer(public)],
            [m.group("suffix") for m in _SUFFIX_RE.finditer(private)])


def _hosts_around(rule: str, rng: random.Random) -> list[str]:
    """Hosts on, under and beside a rule (wildcards and exceptions written out)."""
    base = rule.lstrip("!").replace("*", rng.choice(["x", "www", "city", "a-b"]))
    return [base, f"shop.{base}", f"www.shop.{base}", f"a.b.c.{base}",
            f"shop.{base.split('.', 1)[-1]}" if "." in base else f"shop.{base}"]


def test_same_as_tldextract_on_every_rule():
    rng = random.Random(12)
    public, private = _rules()
    assert len(public) > 5000 and len(private) > 1000
    checked = 0
    for rule in public + private:  # private rules too: tldextract's default ignores them, so must we
        for host in _hosts_around(rule, rng):
            plain = plain_registered_domain(host)
            if plain is None:
                continue  # not a plain host: registered_domain asks tldextract
            assert plain == _reference(host), host
            checked += 1
    assert checked > 20_000


def test_wildcards_exceptions_and_odd_hosts():
    cases = {
        "www.stadt.oldenburg.de": "oldenburg.de",
        "foo.bar.co.uk": "bar.co.uk",
        "localhost": "localhost",
        "de": "de",
        "co.uk": "co.uk",
        "a.b.ck": "a.b.ck",  # *.ck: b.ck is a suffix
        "www.ck": "www.ck",  # !www.ck: www.ck is a registered domain
        "x.www.ck": "www.ck",
        "foo.kawasaki.jp": "foo.kawasaki.jp",
        "city.kawasaki.jp": "city.kawasaki.jp",
        "shop.foo.blogspot.com": "blogspot.com",  # a private rule: not used
        "host-1.example.invalid": "host-1.example.invalid",  # no known suffix
        "a..b.de": "b.de",  # not plain: tldextract answers
        "1.2.3.4": "1.2.3.4",
        "under_score.de": "under_score.de",  # not plain: tldextract answers
    }
    for host, expected in cases.items():
        assert features.registered_domain(host) == _reference(host) == expected, host
    for odd in ("xn--mnchen-3ya.de", "www.xn--mnchen-3ya.de", "münchen.de", "a..b.de", "under_score.de", ".de",
                "WWW.Stadt.de"):
        assert plain_registered_domain(odd) is None, odd  # left to tldextract
    assert plain_registered_domain("-.de") == _reference("-.de") == "-.de"


def test_random_hosts_against_tldextract():
    rng = random.Random(5)
    public, _ = _rules()
    labels = ["www", "shop", "stadt", "oldenburg", "co", "com", "de", "uk", "jp", "city", "net", "a", "x-y", "1"]
    suffixes = [r for r in public if r.isascii()]
    for _ in range(20_000):
        parts = [rng.choice(labels) for _ in range(rng.randint(0, 3))]
        host = ".".join([*parts, rng.choice(suffixes).lstrip("!").replace("*", rng.choice(labels))])
        assert features.registered_domain(host) == _reference(host), host


def test_a_crawl_start_does_not_import_tldextract():
    code = ("import sys; from geofocus.prediction.features import link_ids, registered_domain;"
            "link_ids({'url': 'http://www.a.oldenburg.de/x', 'source_url': 'http://b.co.uk/'});"
            "assert registered_domain('www.stadt.oldenburg.de') == 'oldenburg.de';"
            "print('tldextract' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
