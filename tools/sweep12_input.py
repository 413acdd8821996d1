"""Rebuild the input of session 12's sweep of real text (docs/geoparser.md, "Session 12").

    python tools/sweep12_input.py /work/.mirror /tmp/sweep/input.jsonl [SOURCES]

SOURCES, when given, is a file naming other repositories to read instead of the first sweep's
(``tools/sweep12b_sources.tsv`` for the second): one repository a line, tab-separated as
``owner/name  commit  licence  paths``, ``#`` starting a comment line.

MIRRORS holds the fetched repositories as ``owner+name/repo`` git directories (what the code-search
``fetch`` tool writes); each repository is read at the commit named below, never from a work tree.
The text files chosen are cut into windows of ``WINDOW`` lines, one JSON line ``{"id", "text"}``
each, the id being ``owner/name:path:first-last``.  Nothing of the repositories is kept in this
project: the input stays outside it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

WINDOW = 40
MAX_FILE_BYTES = 2_000_000  # minified bundles and lock files hold no prose worth reading

TEXT_SUFFIXES = {
    ".md", ".markdown", ".html", ".htm", ".txt", ".json", ".geojson", ".yml", ".yaml", ".xml", ".py",
    ".js", ".ts", ".tsx", ".java", ".kt", ".adoc", ".csv", ".raw", ".rb", ".liquid",
}
SKIPPED_NAMES = re.compile(r"(package-lock|yarn\.lock|\.min\.)|(^|/)(node_modules|vendor|static/js)/")

# (repository, commit, SPDX licence, paths read: a regular expression over the path)
SOURCES: list[tuple[str, str, str, str]] = [
    ("City-Bureau/city-scrapers-fresno", "894e5339bc5363133591e1ee3b01798c5496b490", "MIT", r"^tests/files/"),
    ("City-Bureau/city-scrapers-colgo", "8b0f9619d6e1068da2bece5e8f382ca7b8b9b305", "MIT", r"^tests/files/"),
    ("City-Bureau/city-scrapers-coloh", "8e2c109cf14fa6424eaebcc1460b7190e9a38e5f", "MIT", r"^tests/files/"),
    ("codeforpdx/recordexpungPDX", "16242e198e4389327635ff15cff23aecdf6f615d", "MIT", r"."),
    ("datamade/usaddress", "aa7699b53a0843fc443f9e87285b88cbd9eaf50a", "MIT", r"^raw/us50\.(test|train)\.raw$"),
    ("googlemaps/google-maps-services-python", "9ec69cb66eec929d08ca90a82081b8ee4eef8b54", "Apache-2.0",
     r"^(tests|googlemaps)/"),
    ("CodeForPhilly/clean-and-green-philly", "12e8764807feae02956aa7e652867293bc17351e", "MIT", r"."),
    ("iLib-js/iLib", "373bf7c418060daa2a8afd91bf6c5a25a1ab8fb4", "Apache-2.0",
     r"^js/test/address/testaddress(_DE|async)?\.js$"),
    ("oboehm/jfachwert", "776df5078448b0b3c875b9d7be0861c8f6c6312d", "Apache-2.0", r"."),
    ("meine-stadt-transparent/meine-stadt-transparent", "100582aea6fd1475b38d7054729eb34af7d7d721", "MIT", r"."),
    ("codeformuenster/weihnachtsmarkt", "d584f4186ae70201afa57ea409ebf40ff5a8f9d2", "Apache-2.0", r"."),
    ("netz39/www.netz39.de", "f3457b2411d0e0319ab47a580046d49617ce8b3b", "MIT", r"^(_posts|_pages|_data|[^/]+\.md$)"),
]


def _git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True).stdout


def read_sources(path: Path) -> list[tuple[str, str, str, str]]:
    """The repositories of a sources file (the module docstring gives its shape)."""
    sources = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            repo, commit, licence, paths = line.split("\t")
            sources.append((repo, commit, licence, paths))
    return sources


def windows(mirrors: Path, sources: list[tuple[str, str, str, str]] = SOURCES):
    """Yield ``(id, text)`` for every window of every chosen file."""
    for repo, commit, _licence, paths in sources:
        git_dir = mirrors / repo.replace("/", "+") / "repo"
        chosen = re.compile(paths)
        for row in _git(git_dir, "ls-tree", "-r", "-l", commit).decode().splitlines():
            meta, path = row.split("\t", 1)
            size = meta.split()[3]
            if (not chosen.search(path) or SKIPPED_NAMES.search(path) or not size.isdigit()
                    or int(size) > MAX_FILE_BYTES or Path(path).suffix.lower() not in TEXT_SUFFIXES):
                continue
            lines = _git(git_dir, "show", f"{commit}:{path}").decode("utf-8", "replace").splitlines()
            for start in range(0, len(lines), WINDOW):
                chunk = lines[start:start + WINDOW]
                if any(line.strip() for line in chunk):
                    yield f"{repo}:{path}:{start + 1}-{start + len(chunk)}", "\n".join(chunk)


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    sources = read_sources(Path(argv[3])) if len(argv) == 4 else SOURCES
    count = 0
    with open(argv[2], "w", encoding="utf-8") as out:
        for ident, text in windows(Path(argv[1]), sources):
            out.write(json.dumps({"id": ident, "text": text}, ensure_ascii=False) + "\n")
            count += 1
    print(f"{count} windows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
