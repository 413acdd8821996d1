"""URL normalisation: the URL a link is fetched by, and the key it is deduplicated by.

Tsikrika et al. identify duplicates after normalising URLs (DESIGN.md section
4): lower-case scheme and host, upper-case percent escapes, decode escapes of
unreserved characters, drop the default port, index pages, an empty query,
the fragment, duplicate and trailing slashes.  The last two rules do not give
a URL a server is sure to answer (``/dir`` and ``/dir/`` are different
resources to most servers, ``/`` and ``/index.php`` may be too), so they
apply only to the deduplication key:

- :func:`canonical_url`: the URL to fetch: every rule that keeps the resource;
- :func:`normalize_url`: the key two URLs are the same page by (the request
  fingerprint, see :mod:`geofocus.fingerprint`).

Well-known session-id parameters are dropped in both, so a page reached under
many session ids is fetched once.
"""

from __future__ import annotations

import re
from urllib.parse import SplitResult, urlsplit, urlunsplit

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})")
_INDEX_PAGE = re.compile(r"/(?:index|default)\.(?:html?|php[345]?|aspx?|jsp|cgi|shtml)$", re.I)
_DUPLICATE_SLASHES = re.compile(r"/{2,}")
_PATH_SESSION = re.compile(r";(?:jsessionid|phpsessid|sid)=[^/?#]*", re.I)
SESSION_PARAMS = frozenset({"jsessionid", "phpsessid", "sid", "sessionid", "session_id", "aspsessionid", "cfid", "cftoken", "oscsid", "zenid"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


class InvalidURL(ValueError):
    pass


def _fix_escape(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else "%" + match.group(1).upper()


def _normalise_query(query: str) -> str:
    if not query:
        return ""
    kept = []
    for pair in query.split("&"):
        if not pair:
            continue
        name = pair.split("=", 1)[0]
        if name.lower() in SESSION_PARAMS:
            continue
        kept.append(_PERCENT.sub(_fix_escape, pair))
    return "&".join(kept)


def canonical_url(url: str) -> str:
    """The fetchable canonical form of an absolute http(s) URL; InvalidURL for anything else."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise InvalidURL(f"malformed URL {url!r}: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise InvalidURL(f"not an http(s) URL: {url!r}")
    host = (parts.hostname or "").rstrip(".")
    if not host or any(c in host for c in " <>\"{}|\\^`"):
        raise InvalidURL(f"URL without a valid host: {url!r}")
    try:
        host = host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError as exc:
        raise InvalidURL(f"URL with an invalid host: {url!r}") from exc
    netloc = host
    if ":" in host:  # IPv6 literal
        netloc = f"[{host}]"
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc = f"{netloc}:{port}"
    path = _PATH_SESSION.sub("", parts.path)
    path = _PERCENT.sub(_fix_escape, path)
    path = _DUPLICATE_SLASHES.sub("/", path) or "/"
    query = _normalise_query(parts.query)
    return urlunsplit(SplitResult(scheme, netloc, path, query, ""))


def normalize_url(url: str) -> str:
    """The deduplication key of a URL: its canonical form without index page or trailing slash."""
    parts = urlsplit(canonical_url(url))
    path = _INDEX_PAGE.sub("/", parts.path)
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    return urlunsplit(parts._replace(path=path))
