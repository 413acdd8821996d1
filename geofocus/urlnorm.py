"""URL normalisation: the URL a link is fetched by, and the key it is deduplicated by.

Tsikrika et al. identify duplicates after normalising URLs (DESIGN.md section
4): lower-case scheme and host, upper-case percent escapes, decode escapes of
unreserved characters, remove dot segments (RFC 3986 5.2.4), drop the default
port, index pages, an empty query, the fragment, duplicate and trailing
slashes.  The last two rules do not give a URL a server is sure to answer
(``/dir`` and ``/dir/`` are different resources to most servers, ``/`` and
``/index.php`` may be too), so they apply only to the deduplication key:

- :func:`canonical_url`: the URL to fetch: every rule that keeps the resource;
- :func:`normalize_url`: the key two URLs are the same page by (the request
  fingerprint, see :mod:`geofocus.fingerprint`).

The host is the one browsers and Scrapy connect to (the WHATWG URL standard):
a backslash before the query ends the authority (``https://evil.com\\@good.com/``
goes to evil.com), the host is percent-decoded and mapped by IDNA/UTS 46
(``example%2Ecom``, fullwidth letters, U+3000), a host that maps to a
character no host may hold is an invalid URL, numeric IPv4 hosts are written
dotted (``http://2130706433/`` is ``http://127.0.0.1/``).  User name and
password stay part of both the URL and the key (a page behind a login is not
the public page); :func:`redact_url` is the form to log.  Normalising a
normalised URL changes nothing.

Well-known session-id parameters are dropped in both, so a page reached under
many session ids is fetched once.
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache
from urllib.parse import SplitResult, quote, unquote, unquote_to_bytes, urlsplit, urlunsplit

import idna

from geofocus.netaddr import parse_ipv4

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_PATH_SAFE = _UNRESERVED | frozenset("!$&'()*+,;=:@/")
_QUERY_SAFE = _PATH_SAFE | frozenset("?")
_UNSAFE_IN_PATH = re.compile(r"[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]|%(?![0-9A-Fa-f]{2})")
_UNSAFE_IN_QUERY = re.compile(r"[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})")
_ESCAPE_OR_CHAR = re.compile(r"%[0-9A-Fa-f]{2}|.", re.S)
_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})")
_INDEX_PAGE = re.compile(r"/(?:index|default)\.(?:html?|php[345]?|aspx?|jsp|cgi|shtml)$", re.I)
_DUPLICATE_SLASHES = re.compile(r"/{2,}")
_PATH_SESSION = re.compile(r";(?:jsessionid|phpsessid|sid)=[^/?#]*", re.I)
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
# WHATWG forbidden domain code points (C0 controls, space, DEL and URL delimiters).
_FORBIDDEN_HOST = re.compile(r"[\x00-\x20\x7f#%/:<>?@\[\\\]^|\"{}`]")
SESSION_PARAMS = frozenset({"jsessionid", "phpsessid", "sid", "sessionid", "session_id", "aspsessionid",
                            "cfid", "cftoken", "oscsid", "zenid"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


class InvalidURL(ValueError):
    pass


def _fix_escape(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else "%" + match.group(1).upper()


def _escape(text: str, safe: frozenset[str]) -> str:
    """Percent-escapes as one form: escapes of unreserved characters decoded, the others
    upper-cased; characters outside ``safe`` (spaces, non-ASCII as UTF-8, a stray ``%``) escaped."""
    unsafe = _UNSAFE_IN_QUERY if safe is _QUERY_SAFE else _UNSAFE_IN_PATH
    if not unsafe.search(text):  # the common case: nothing to escape, maybe escapes to tidy
        return _PERCENT.sub(_fix_escape, text) if "%" in text else text
    out = []
    for token in _ESCAPE_OR_CHAR.findall(text):
        if len(token) == 3:
            char = chr(int(token[1:], 16))
            out.append(char if char in _UNRESERVED else token.upper())
        elif token in safe:
            out.append(token)
        else:
            out.append("".join(f"%{b:02X}" for b in token.encode("utf-8", "surrogatepass")))
    return "".join(out)


def _userinfo_part(text: str) -> str:
    """User name or password in one form: everything but unreserved characters escaped
    (``&`` and ``%26`` are the same credentials to a server)."""
    return quote(unquote_to_bytes(text), safe="-._~")


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4 (``/a/b/../c/./d`` is ``/a/c/d``; ``..`` above the root stays at the root)."""
    if "." not in path:
        return path
    segments = path.split("/")
    out: list[str] = []
    for segment in segments[1:]:
        if segment == ".":
            continue
        if segment == "..":
            if out:
                out.pop()
            continue
        out.append(segment)
    if segments[-1] in (".", ".."):
        out.append("")  # "/a/b/.." is the directory "/a/"
    return "/" + "/".join(out)


def _normalise_query(query: str) -> str:
    if not query:
        return ""
    kept = []
    for pair in query.split("&"):
        if not pair:
            continue
        name = pair.split("=", 1)[0]
        if unquote(name).lower() in SESSION_PARAMS:
            continue
        kept.append(_escape(pair, _QUERY_SAFE))
    return "&".join(kept)


def _ends_in_a_number(label: str) -> bool:
    """WHATWG: a host whose last label is digits or 0x-hex is an IPv4 address (or invalid)."""
    if not label.isascii():
        return False
    if label[:2].lower() == "0x":
        return all(c in "0123456789abcdefABCDEF" for c in label[2:])
    return label.isdigit()


@lru_cache(maxsize=1 << 14)
def _host(raw: str) -> str:
    """The ASCII host browsers connect to: percent-decoded, UTS 46 mapped, punycode, IPv4 dotted."""
    if raw.startswith("["):
        if not raw.endswith("]"):
            raise InvalidURL("URL with an invalid IPv6 host")
        try:
            return f"[{ipaddress.IPv6Address(raw[1:-1]).compressed}]"
        except ValueError as exc:
            raise InvalidURL("URL with an invalid IPv6 host") from exc
    try:
        host = unquote(raw, errors="strict")
        host = idna.uts46_remap(host, std3_rules=False, transitional=False)
    except (UnicodeError, ValueError, idna.IDNAError) as exc:
        raise InvalidURL("URL with an invalid host") from exc
    host = host.rstrip(".")
    if not host or _FORBIDDEN_HOST.search(host):
        raise InvalidURL("URL without a valid host")
    last = host.rsplit(".", 1)[-1]
    if _ends_in_a_number(last):
        ip = parse_ipv4(host)  # a host ending in a number is an IPv4 address to browsers, or invalid
        if ip is None:
            raise InvalidURL("URL with an invalid IPv4 host")
        return str(ip)
    if host.isascii():
        return host.lower()
    labels = []
    for label in host.split("."):
        if label.isascii():
            labels.append(label.lower())
        else:
            try:
                labels.append("xn--" + label.encode("punycode").decode("ascii"))
            except UnicodeError as exc:
                raise InvalidURL("URL with an invalid host") from exc
    return ".".join(labels)


def _split(url: str) -> SplitResult:
    """urlsplit after the WHATWG preprocessing of http(s) URLs: outer spaces and controls
    stripped, tabs and newlines removed, backslashes before the query read as slashes."""
    url = _TAB_OR_NEWLINE.sub("", url.strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f"
                                             "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f \t\n\r"))
    end = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
    if "\\" in url[:end]:
        url = url[:end].replace("\\", "/") + url[end:]
    return urlsplit(url)


# canonical_url is a pure function of its string, and a crawl meets the same URLs again and again
# (a link's URL, then its fingerprint's normalize_url of that URL; site navigation on every page):
# results are remembered, at most _CACHE_SIZE of them (emptied when full; refusals not remembered).
_CACHE_SIZE = 65536
_CANONICAL: dict[str, str] = {}


def canonical_url(url: str) -> str:
    """The fetchable canonical form of an absolute http(s) URL; InvalidURL for anything else."""
    known = _CANONICAL.get(url)
    if known is not None:
        return known
    canonical = _canonical_url(url)
    if len(_CANONICAL) >= _CACHE_SIZE:
        _CANONICAL.clear()
    _CANONICAL[url] = canonical
    return canonical


def _canonical_url(url: str) -> str:
    try:
        parts = _split(url)
        port = parts.port
    except ValueError as exc:
        raise InvalidURL(f"malformed URL {redact_url(url)!r}: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise InvalidURL(f"not an http(s) URL: {redact_url(url)!r}")
    netloc = parts.netloc
    userinfo, _, hostport = netloc.rpartition("@")
    raw_host = hostport
    if hostport.startswith("["):
        raw_host = hostport[: hostport.find("]") + 1] if "]" in hostport else hostport
    elif ":" in hostport:
        raw_host = hostport.rsplit(":", 1)[0]
    try:
        host = _host(raw_host)
    except InvalidURL as exc:
        raise InvalidURL(f"{exc}: {redact_url(url)!r}") from None
    netloc = host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc = f"{netloc}:{port}"
    if userinfo:
        user, colon, password = userinfo.partition(":")
        credentials = _userinfo_part(user) + (":" + _userinfo_part(password) if password else "")
        if credentials:
            netloc = f"{credentials}@{netloc}"
    path = _PATH_SESSION.sub("", parts.path)
    path = _escape(path, _PATH_SAFE)
    path = _DUPLICATE_SLASHES.sub("/", path) or "/"
    path = _remove_dot_segments(path) if path.startswith("/") else "/" + path
    query = _normalise_query(parts.query)
    return urlunsplit(SplitResult(scheme, netloc, path, query, ""))


def normalize_url(url: str) -> str:
    """The deduplication key of a URL: its canonical form without index page or trailing slash."""
    canonical = canonical_url(url)
    # A canonical URL is scheme://netloc/path[?query]: its netloc holds no "/" and its path no "?"
    # (both escaped), and it has no fragment, so the path is the text from the first "/" after
    # "://" up to the first "?" (what urlsplit would give).
    start = canonical.find("/", canonical.find("://") + 3)
    end = canonical.find("?", start)
    if end < 0:
        end = len(canonical)
    path = canonical[start:end]
    if not path.endswith("/") and _INDEX_PAGE.search(path) is None:
        return canonical
    path = _INDEX_PAGE.sub("/", path)
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    return canonical[:start] + path + canonical[end:]


def redact_url(url: str) -> str:
    """The URL with its password replaced by ``***``: the form to log."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
    except ValueError:
        return url
    userinfo, at, hostport = netloc.rpartition("@")
    if not at or ":" not in userinfo:
        return url
    user = userinfo.split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{hostport}"))
