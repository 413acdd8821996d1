"""Registered domains from the public suffix list bundled with tldextract, without loading tldextract.

``registered_domain`` in features.py needs, for the domain switch of every link, the registered
domain of a host ("www.stadt.oldenburg.de" -> "oldenburg.de"), as
``tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)`` gives it.  Importing tldextract
(requests, idna, filelock) and building its two suffix tries costs about 0.2 s of CPU per crawl;
this module reads the same snapshot file (``tldextract/.tld_set_snapshot``, found without
importing the package), keeps only the rules tldextract uses by default (the ICANN section: no
private domains), and walks them with tldextract's own algorithm (``suffix_index``): the same
answers, at a fraction of the start-up cost.

Only *plain* hosts are answered here: lower-case ASCII labels of letters, digits and hyphens,
none of them punycode (``xn--``).  For such a host tldextract's lenient URL parsing and label
decoding change nothing, so the walk over the same rules gives the same result.  Anything else
(an IDNA label, a character outside those) returns None and the caller asks tldextract itself.
tests/test_prediction_suffixes.py compares both over every rule of the list and the hosts of a
simweb.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

__all__ = ["plain_registered_domain"]

# tldextract's suffix_list.PUBLIC_SUFFIX_RE and PUBLIC_PRIVATE_SUFFIX_SEPARATOR
_SUFFIX_RE = re.compile(r"^(?P<suffix>[.*!]*\w[\S]*)", re.UNICODE | re.MULTILINE)
_PRIVATE_SEPARATOR = "// ===BEGIN PRIVATE DOMAINS==="
_PLAIN_HOST = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*")
_END = ""  # a trie node's key for "a rule ends here" (no label of a plain host is empty)

_trie: dict[str, Any] | None = None


def _snapshot_text() -> str | None:
    """The suffix list tldextract ships, read from its package directory (the package not imported)."""
    spec = importlib.util.find_spec("tldextract")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / ".tld_set_snapshot"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


def _build() -> dict[str, Any]:
    """tldextract's ``tlds_excl_private_trie`` as nested dicts (label -> node; ``_END`` marks a rule)."""
    text = _snapshot_text()
    if text is None:
        raise LookupError("tldextract's bundled suffix list not found")
    public = text.partition(_PRIVATE_SEPARATOR)[0]
    root: dict[str, Any] = {}
    for rule in frozenset(m.group("suffix") for m in _SUFFIX_RE.finditer(public)):
        node = root
        for label in reversed(rule.split(".")):
            node = node.setdefault(label, {})
        node[_END] = True
    return root


def plain_registered_domain(host: str) -> str | None:
    """tldextract's ``domain + "." + suffix`` of ``host`` (a lower-case name without a trailing dot),
    ``host`` itself when it has no suffix or no domain label, None when ``host`` is not a plain host
    (then ask tldextract)."""
    global _trie
    if "xn--" in host or not _PLAIN_HOST.fullmatch(host):
        return None
    if _trie is None:
        _trie = _build()
    labels = host.split(".")
    n = len(labels)
    # tldextract's _PublicSuffixListTLDExtractor.suffix_index, without private rules
    node = _trie
    suffix_idx = label_idx = n
    for label in reversed(labels):
        child = node.get(label)
        if child is not None:
            label_idx -= 1
            node = child
            if _END in node:
                suffix_idx = label_idx
            continue
        if "*" in node:
            suffix_idx = label_idx if "!" + label in node else label_idx - 1
        break
    if suffix_idx == n:
        return host  # no suffix: tldextract's suffix is "", so the host is its own registered domain
    domain = labels[suffix_idx - 1] if suffix_idx > 0 else ""
    suffix = ".".join(labels[suffix_idx:])
    return f"{domain}.{suffix}" if domain and suffix else host
