"""Derives the URL-identity conformance tables of this directory from their sources.

    python tests/data/urlnorm/derive.py W3LIB_GIT_DIR CRAWLER_COMMONS_GIT_DIR

reads the test tables of the two projects at the commits named below (``git show``
of a bare mirror) and writes ``w3lib.jsonl`` and ``crawler-commons.jsonl``: one pair of
URLs a line that the source says are the same resource, with our verdict
(``same`` or ``differ``) and, for ``differ`` and ``skip``, why.  Only http(s)
pairs are kept; rows about options geofocus has no equivalent of (keyword
arguments, Unicode output) are left out.  ``rfc3986.jsonl`` is written by hand.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

HERE = Path(__file__).resolve().parent
W3LIB = ("scrapy/w3lib", "ed01dc04608336967356417f472a691b82bcfbe4", "tests/test_url.py", "BSD-3-Clause")
CC = ("crawler-commons/crawler-commons", "8e14e27cad529a35ee57010fbd63a91cfcfa3fcc",
      "src/test/resources/normalizer/weirdToNormalizedUrls.csv", "Apache-2.0")
CC_JAVA = "src/test/java/crawlercommons/filters/basic/BasicURLNormalizerTest.java"

# Pairs the sources call the same that geofocus deliberately keeps apart, and why.
DIFFER = {
    "query-order": "the order of query arguments is the server's to interpret (w3lib and crawler-commons sort them); "
                   "sorting would merge pages a server may tell apart",
    "blank-value": "?a=1&b and ?a=1&b= are different query strings to a server (PHP sees b='' in both, others do not)",
    "plus-space": "%20 and + are the same only in form-urlencoded queries; the path or another query syntax differ",
    "userinfo": "user:password selects another view of the page (issue 14 item 5): kept in the key",
    "no-host": "an http URL without a host is not a URL of any page: geofocus refuses it (InvalidURL)",
    "empty-name": "an argument with an empty name (?=1) is still part of the query the server sees",
}


def git_show(git_dir: str, commit: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def w3lib_pairs(source: str) -> list[tuple[str, str, str]]:
    """(function, input, expected) of every ``f("in") == "out"`` comparison without options."""
    pairs = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
            continue
        call, expected = node.left, node.comparators[0]
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id in ("canonicalize_url", "safe_url_string")):
            continue
        if call.keywords or len(call.args) != 1:
            continue
        arg = call.args[0]
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                and isinstance(expected, ast.Constant) and isinstance(expected.value, str)):
            continue
        if arg.value.lower().startswith(("http://", "https://")):
            pairs.append((call.func.id, arg.value, expected.value))
    return list(dict.fromkeys(pairs))


def cc_pairs(csv_text: str, java_text: str) -> list[tuple[str, str, str]]:
    pairs = []
    for row in csv.reader(io.StringIO(csv_text), skipinitialspace=True):
        if not row or row[0].startswith("#") or len(row) < 2:
            continue
        weird, normal = row[0].strip(" "), row[1].strip()
        if weird.lower().startswith(("http://", "https://")) and normal.lower().startswith(("http", "https")):
            pairs.append(("weirdToNormalizedUrls.csv", weird, normal))
    # @CsvSource rows of BasicURLNormalizerTest: "url,normalised" (empty: unchanged)
    for line in java_text.splitlines():
        line = line.strip()
        if not line.startswith('"http'):
            continue
        text = line.split('"')[1]
        url, _, normal = text.partition(",")
        if "," in normal or not url:
            continue
        pairs.append(("BasicURLNormalizerTest.java", url, normal or url))
    for line in java_text.splitlines():
        if "normalizeTest(\"http" in line and "phpsessid" in line:
            args = line.split('"')
            pairs.append(("BasicURLNormalizerTest.java", args[1], args[3]))
    return list(dict.fromkeys(pairs))


def _pairs(query: str) -> list[str]:
    return [unquote(p) for p in query.split("&") if p]


def classify(a: str, b: str) -> tuple[str, str]:
    """Our verdict on a pair the source calls equivalent, decided on the pair alone (not by
    running geofocus): ``differ`` when one of the documented exceptions (DIFFER) applies."""
    pa, pb = urlsplit(a.strip()), urlsplit(b.strip())
    if not pa.netloc.rpartition("@")[2] or not pb.netloc.rpartition("@")[2]:
        return "differ", "no-host"
    if "@" in pa.netloc and "@" not in pb.netloc:
        return "differ", "userinfo"
    qa, qb = _pairs(pa.query), _pairs(pb.query)
    if qa != qb:
        if sorted(qa) == sorted(qb):
            return "differ", "query-order"
        if [p for p in qa if not p.startswith("=")] != qa:
            return "differ", "empty-name"
        if sorted(p if "=" in p else p + "=" for p in qa) == sorted(p if "=" in p else p + "=" for p in qb):
            return "differ", "blank-value"
        if sorted(p.replace(" ", "+") for p in qa) == sorted(p.replace(" ", "+") for p in qb):
            return "differ", "plus-space"
    return "same", ""


def write(name: str, source: tuple[str, str, str, str], pairs: list[tuple[str, str, str]]) -> None:
    repo, commit, path, licence = source
    with open(HERE / name, "w", encoding="utf-8") as f:
        for origin, a, b in pairs:
            verdict, reason = classify(a, b)
            row = {"source": f"{repo}@{commit[:12]}:{path}", "licence": licence, "origin": origin,
                   "url": a, "same_as": b, "verdict": verdict, "reason": reason}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def main() -> None:
    w3lib_dir, cc_dir = sys.argv[1], sys.argv[2]
    write("w3lib.jsonl", W3LIB, w3lib_pairs(git_show(w3lib_dir, W3LIB[1], W3LIB[2])))
    write("crawler-commons.jsonl", (*CC[:2], f"{CC[2]} and {CC_JAVA}", CC[3]),
          cc_pairs(git_show(cc_dir, CC[1], CC[2]), git_show(cc_dir, CC[1], CC_JAVA)))


if __name__ == "__main__":
    main()
