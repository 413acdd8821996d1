"""Link features for the link prediction (Ahlers & Boll 2009, section 4.4).

Pure Python, no Scrapy.  ``link_terms(link)`` turns the context of one
hyperlink into a list of terms, each prefixed by the feature it comes from::

    link_terms({"url": "http://www.cafe-am-schlossplatz.de/kontaktformular",
                "source_url": "http://www.oldenburg.de/gastro.html",
                "anchor": "Kontakt", "title": "", "context": "Café am Schloßplatz"})
    -> ['host:cafe', 'host:schloss', 'host:platz', 'host:de', 'path:kontakt',
        'path:formular', 'anchor:kontakt', 'context:cafe', 'context:schloss',
        'context:platz', 'switch:yes']

Features: URL host tokens (``host:``), URL path and query tokens (``path:``),
anchor text (``anchor:``), link title (``title:``), text around the link
(``context:``) and the domain switch (``switch:yes`` when source and target
have different registered domains, ``switch:no`` otherwise; absent when the
source is unknown).

Tokenisation, the same for every feature: letter runs of the Latin script and
digit runs (other scripts carry no terms); UTF-8 mojibake repaired
("FÃ¶rderverein" -> "Förderverein"); case folding; umlauts and ß folded
(ä -> ae, ö -> oe, ü -> ue, ß -> ss) and other accents stripped (é -> e), so
that "Schloßplatz", "Schlossplatz" and "SCHLOSSPLATZ" meet; letters and digits
split apart ("12a" -> "12", "a"); digit runs replaced by a class token
(``num5`` for a postcode-like 5-digit run, ``num1`` .. ``num4``, ``numlong``);
German and English stop words and one-letter tokens dropped; compounds split at
a small list of known morphemes ("kontaktformular" -> "kontakt" + "formular",
"anfahrtsbeschreibung" -> "anfahrt" + "beschreibung"); each feature keeps at
most a fixed number of distinct terms, in order of appearance.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urlsplit

from geofocus.netaddr import is_ip_literal

__all__ = ["MAX_TERMS", "link_features", "link_ids", "link_terms", "registered_domain", "tokens"]

# Upper bound of distinct terms kept per feature: keeps the model's per-link
# work and the path carried in each request's meta bounded (at most 39 terms).
# The context keeps 8: on simweb crawl logs more context terms only added noise
# (prequential ROC AUC of p(geoRel_1) 0.855 with 8, 0.854 with 16, 0.873 with none;
# the paper's feature is kept, with the bound of about the words of 50 characters
# on each side).
MAX_TERMS: dict[str, int] = {"host": 6, "path": 8, "anchor": 8, "title": 8, "context": 8}

# Text beyond this many characters is not tokenised (a "context" is a window
# around the link; anything longer is a spider bug, not more evidence).
MAX_TEXT_CHARS = 500

_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o"})
# Letter runs of the Latin script (ASCII, Latin-1, Latin Extended-A: the
# languages of the region packs) and digit runs; explicit ranges match twice
# as fast as the Unicode class [^\W\d_] and other scripts carry no terms here.
_TOKEN_RE = re.compile(r"[a-z\u00e0-\u00f6\u00f8-\u00ff\u0100-\u017f]+|[0-9]+")

STOP_WORDS: frozenset[str] = frozenset(
    """
    aber alle allem allen aller alles als also am an ander andere anderen auch auf aus bei bin bis
    bist da damit dann das dass dein deine dem den der des dessen die dies diese diesem diesen dieser
    dieses doch dort du durch ein eine einem einen einer eines er es euer eure fuer hat hatte hier
    hin ich ihr ihre ihrem ihren ihrer im in ist ja jede jedem jeden jeder jedes jetzt kann kein
    keine man mehr mein meine mit muss nach nicht noch nun nur ob oder ohne sehr sein seine sich
    sie sind so um und uns unser unsere unter vom von vor war waren was weil welche wenn wer
    werden wie wieder will wir wird wo zu zum zur
    about after all also an and any are as at be been but by can could did do does for from had
    has have he her here his how if in into is it its me more most my no not of on or our out she
    so some than that the their them then there these they this those to too up us was we were
    what when where which who why will with would you your
    """.split()
)

# URL boilerplate that says nothing about the target page.
_URL_STOP: frozenset[str] = frozenset(
    "http https www html htm shtml php asp aspx jsp cgi cfm index default".split()
)

# Known morphemes of German and English compounds in link contexts (folded
# forms).  A compound is split only where it starts or ends with one of them.
MORPHEMES: frozenset[str] = frozenset(
    """
    kontakt impressum anfahrt standort adresse anschrift formular beschreibung lageplan stadtplan
    karte route planer plan oeffnungszeiten zeiten filiale praxis buero team ueber verzeichnis
    branche firma seite kunde service daten telefon anmeldung termin veranstaltung datenschutz
    start platz strasse schloss haus buch hotel restaurant cafe laden shop markt zentrum stadt
    contact about address location directions imprint map maps store finder legal notice privacy
    locator office hours
    """.split()
)
_INFLECTIONS = frozenset({"e", "n", "en", "s", "es", "er", "ern", "ieren", "iert"})
_LINKS = ("s", "n", "en", "es")
_PREFIX_RE = re.compile(
    "^(?:" + "|".join(sorted((m for m in MORPHEMES if len(m) >= 4), key=len, reverse=True)) + ")"
)
_SUFFIX_RE = re.compile(
    "(?:" + "|".join(sorted((m for m in MORPHEMES if len(m) >= 5), key=len, reverse=True)) + ")$"
)


def _droppable(rest: str) -> bool:
    """An ending that a split may drop: an inflection or a stop word ("kontakte", "contactus")."""
    return rest in _INFLECTIONS or rest in STOP_WORDS


def _split(word: str, depth: int = 0) -> list[str]:
    """Split a folded lower-case word at known morphemes; the word itself if none applies."""
    if word in MORPHEMES or len(word) < 6 or depth > 3:
        return [word]
    m = _PREFIX_RE.match(word)
    if m:
        head, rest = m.group(0), word[m.end() :]
        if _droppable(rest):
            return [head]
        # Linking element of German compounds: "anfahrt|s|beschreibung", "branche|n|buch".
        for link in _LINKS:
            if rest.startswith(link) and rest[len(link) :] in MORPHEMES:
                return [head, rest[len(link) :]]
        if rest in MORPHEMES:
            return [head, rest]
        # A long known head with a long unknown tail ("kontaktieren" keeps
        # "kontakt"); a short head ("info|rmation") would be a false split.
        if len(head) >= 6 and len(rest) >= 5:
            return [head, *_split(rest, depth + 1)]
    m = _SUFFIX_RE.search(word)
    if m and m.start() >= 3:
        head = word[: m.start()]
        for link in _LINKS:
            if head.endswith(link) and head[: -len(link)] in MORPHEMES:
                head = head[: -len(link)]
                break
        return [*_split(head, depth + 1), m.group(0)]
    return [word]


def _normalise(raw: str) -> tuple[str, ...]:
    """Terms of one raw token (a letter run or a digit run); ``tokens`` caches them."""
    if raw.isdigit():
        n = len(raw)
        return (f"num{n}",) if n <= 5 else ("numlong",)
    word = raw.translate(_FOLD)
    if not word.isascii():
        word = unicodedata.normalize("NFKD", word)
        word = "".join(c for c in word if not unicodedata.combining(c))
    if len(word) < 2 or word in STOP_WORDS:
        return ()
    return tuple(t for t in _split(word) if len(t) >= 2 and t not in STOP_WORDS)


# raw token -> its terms; a plain dict (faster than lru_cache on this hot path),
# emptied when full: the vocabulary of a crawl is Zipfian, the hot words return.
_NORM_CACHE: dict[str, tuple[str, ...]] = {}
_NORM_CACHE_MAX = 200_000


def _repair(text: str) -> str:
    """Undo the commonest mojibake: UTF-8 read as Latin-1/cp1252 ("FÃ¶rderverein" -> "Förderverein")."""
    for codec in ("latin-1", "cp1252"):
        try:
            return text.encode(codec).decode("utf-8")
        except UnicodeError:
            continue
    return text


def tokens(text: str, extra_stop: frozenset[str] = frozenset()) -> list[str]:
    """Normalised tokens of ``text`` in order (with repeats), per the module's rules."""
    text = text[:MAX_TEXT_CHARS]
    if "Ã" in text or "Â" in text:
        text = _repair(text)
    cache = _NORM_CACHE
    out: list[str] = []
    extend = out.extend
    for raw in _TOKEN_RE.findall(text.casefold()):
        terms = cache.get(raw)
        if terms is None:
            if len(cache) >= _NORM_CACHE_MAX:
                cache.clear()
            terms = cache[raw] = _normalise(raw)
        extend(terms)
    if extra_stop:
        out = [t for t in out if t not in extra_stop]
    return out


def _prefixed(prefix: str, toks: Iterable[str], limit: int) -> list[str]:
    """``prefix:token`` for the first ``limit`` distinct tokens."""
    head = prefix + ":"
    return [head + t for t in list(dict.fromkeys(toks))[:limit]]


@lru_cache(maxsize=1 << 14)
def _short_text_terms(feature: str, text: str) -> tuple[str, ...]:
    """Terms of an anchor or title; cached: "Kontakt", "Impressum", "mehr" recur on every site."""
    return tuple(_prefixed(feature, tokens(text), MAX_TERMS[feature]))


@lru_cache(maxsize=1 << 14)
def _host_terms(host: str) -> tuple[str, ...]:
    """``host:`` terms of a host name; cached: a page's links share few hosts."""
    return tuple(_prefixed("host", _host_tokens(host), MAX_TERMS["host"]))


def _host_tokens(host: str) -> list[str]:
    if is_ip_literal(host):  # netaddr's one IP check (cached; so are these terms)
        return ["ip"]
    if "xn--" in host:
        try:
            host = host.encode("ascii").decode("idna")
        except UnicodeError:
            pass
    return tokens(host.replace(".", " ").replace("-", " "), _URL_STOP)


_extractor: Any = None


@lru_cache(maxsize=1 << 14)
def registered_domain(host: str) -> str:
    """Registered domain of ``host`` ("www.stadt.oldenburg.de" -> "oldenburg.de").

    Uses the public suffix list bundled with tldextract, never fetched from the
    Internet.  IP addresses and hosts without a known suffix ("localhost") are
    their own registered domain.
    """
    global _extractor
    host = host.lower().rstrip(".")
    if not host or is_ip_literal(host):
        return host
    if _extractor is None:
        import tldextract  # a Scrapy dependency; imported late: its suffix list costs ~0.2 s of CPU to load

        _extractor = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    ext = _extractor(host)
    if ext.domain and ext.suffix:
        return f"{ext.domain}.{ext.suffix}"
    return host


# Where the netloc of "http://..." ends: urlsplit's delimiters.
_NETLOC_END = re.compile(r"[/?#]")


def _split_http(url: str) -> tuple[str | None, str, str] | None:
    """``(hostname, path, query)`` of ``urlsplit(url)`` for the URLs a crawl finds (lower-case
    ``http://`` or ``https://``, ASCII, no tab or line break, a netloc without "@", "[", "]" or "%"),
    in a few string operations; None for any other URL (then ``urlsplit`` itself is asked)."""
    if url.startswith("http://"):
        start = 7
    elif url.startswith("https://"):
        start = 8
    else:
        return None
    if not url.isascii() or "\t" in url or "\n" in url or "\r" in url:
        return None  # urlsplit removes tabs and line breaks; non-ASCII netlocs are checked (NFKC)
    m = _NETLOC_END.search(url, start)
    end = m.start() if m else len(url)
    netloc = url[start:end]
    if "@" in netloc or "[" in netloc or "]" in netloc or "%" in netloc:
        return None  # userinfo, IPv6 literals (and their checks), zone ids: urlsplit's own rules
    rest = url[end:]
    if "#" in rest:
        rest = rest.split("#", 1)[0]
    path, _, query = rest.partition("?")
    return netloc.partition(":")[0].lower() or None, path, query


@lru_cache(maxsize=1 << 10)
def _hostname(url: str) -> str | None:
    split = _split_http(url)
    if split is not None:
        return split[0]
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def link_terms(link: Mapping[str, Any]) -> list[str]:
    """Feature terms of one link (see the module docstring); [] if there is nothing usable.

    ``link`` has keys "url" (absolute target), "source_url", "anchor", "title"
    and "context"; any of them may be missing, None or of the wrong type (then
    ignored).
    """
    return list(link_features(link)[0])


def link_features(link: Mapping[str, Any]) -> tuple[tuple[str, ...], str | None]:
    """``link_terms(link)`` (as a tuple) and the host of the link's URL (None if it has none),
    from one parse of the URL: the ``online`` strategy needs both for every link."""
    # Only the source's host matters (for the domain switch): a site's navigation
    # links repeat on all its pages with the same key and are served from the cache.
    return _terms(*_link_parts(link))


def _link_parts(link: Mapping[str, Any]) -> tuple[str, str, str, str, str]:
    """(url, anchor, title, context, host of the source URL) of a link; a value that is not a string counts
    as ""."""
    get = link.get
    source = get("source_url")
    url = get("url")
    anchor = get("anchor")
    title = get("title")
    context = get("context")
    return (
        url if isinstance(url, str) else "",
        anchor if isinstance(anchor, str) else "",
        title if isinstance(title, str) else "",
        context if isinstance(context, str) else "",
        (_hostname(source) or "") if isinstance(source, str) and source else "",
    )


@lru_cache(maxsize=1 << 13)
def _terms(url: str, anchor: str, title: str, context: str, source_host: str) -> tuple[tuple[str, ...], str | None]:
    terms: list[str] = []
    target_host: str | None = None
    if url:
        try:
            parts = urlsplit(url)
            target_host = parts.hostname
        except ValueError:
            parts = None
        if target_host:
            terms += _host_terms(target_host)
        if parts is not None:
            pathq = unquote(parts.path + " " + parts.query, errors="replace")
            terms += _prefixed("path", tokens(pathq, _URL_STOP), MAX_TERMS["path"])
    if anchor:
        terms += _short_text_terms("anchor", anchor)
    if title:
        terms += _short_text_terms("title", title)
    if context:
        terms += _prefixed("context", tokens(context), MAX_TERMS["context"])
    if target_host and source_host:
        same = registered_domain(source_host) == registered_domain(target_host)
        terms.append("switch:no" if same else "switch:yes")
    return tuple(terms), target_host


# -- hashed ids of the terms (the ``online`` strategy) ----------------------------------------


def _term_id(term: str, mask: int) -> int:
    """The hashed id of one term: ``geofocus.prediction.online.term_ids``' formula (CRC-32)."""
    return zlib.crc32(term.encode("utf-8", "surrogatepass")) & mask


def _ids_of(terms: Iterable[str], bits: int) -> tuple[int, ...]:
    mask = (1 << bits) - 1
    return tuple([_term_id(t, mask) for t in terms])


# (feature, bits) -> {token: id of "feature:token"}: a token's id without building the term string.
_TOKEN_IDS: dict[tuple[str, int], dict[str, int]] = {}
_TOKEN_IDS_MAX = 200_000


def _feature_ids(feature: str, toks: Iterable[str], bits: int) -> tuple[int, ...]:
    """Ids of ``_prefixed(feature, toks, MAX_TERMS[feature])``, in its order."""
    table = _TOKEN_IDS.get((feature, bits))
    if table is None:
        table = _TOKEN_IDS[(feature, bits)] = {}
    elif len(table) >= _TOKEN_IDS_MAX:
        table.clear()
    get = table.get
    out = []
    for t in list(dict.fromkeys(toks))[: MAX_TERMS[feature]]:
        i = get(t)
        if i is None:
            i = table[t] = _term_id(feature + ":" + t, (1 << bits) - 1)
        out.append(i)
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _host_ids(host: str, bits: int) -> tuple[int, ...]:
    return _ids_of(_host_terms(host), bits)


@lru_cache(maxsize=1 << 14)
def _url_ids(url: str, bits: int) -> tuple[tuple[int, ...], str | None]:
    """Ids of the ``host:`` and ``path:`` terms of ``url`` and its host: ``_terms``' URL part."""
    ids: tuple[int, ...] = ()
    target_host: str | None = None
    split = _split_http(url)
    if split is None:
        try:
            parts = urlsplit(url)
            split = parts.hostname, parts.path, parts.query
        except ValueError:
            pass
    if split is not None:
        target_host, path, query = split
        if target_host:
            ids = _host_ids(target_host, bits)
        pathq = unquote(path + " " + query, errors="replace")
        ids += _feature_ids("path", tokens(pathq, _URL_STOP), bits)
    return ids, target_host


@lru_cache(maxsize=1 << 14)
def _text_ids(feature: str, text: str, bits: int) -> tuple[int, ...]:
    """Ids of the terms of an anchor, title or context (a site's contexts recur on its pages)."""
    return _feature_ids(feature, tokens(text), bits)


@lru_cache(maxsize=64)
def _switch_id(same: bool, bits: int) -> int:
    return _term_id("switch:no" if same else "switch:yes", (1 << bits) - 1)


@lru_cache(maxsize=1 << 14)
def _switch_between(source_host: str, target_host: str, bits: int) -> int:
    """The domain switch's id of a link from ``source_host`` to ``target_host`` (a page's links go to
    few hosts: one cache lookup instead of two registered domains)."""
    return _switch_id(registered_domain(source_host) == registered_domain(target_host), bits)


def link_ids(link: Mapping[str, Any], bits: int = 20) -> tuple[list[int], str | None]:
    """``online.term_ids(link_terms(link), bits)`` (sorted distinct hashed ids) and the host of the
    link's URL, as ``link_features`` gives it: the same values, without building the term strings
    of a link whose URL, anchor, title or context was seen before (each part's ids are cached)."""
    url, anchor, title, context, source_host = _link_parts(link)
    ids: set[int] = set()
    target_host: str | None = None
    if url:
        part, target_host = _url_ids(url, bits)
        ids.update(part)
    if anchor:
        ids.update(_text_ids("anchor", anchor, bits))
    if title:
        ids.update(_text_ids("title", title, bits))
    if context:
        ids.update(_text_ids("context", context, bits))
    if target_host and source_host:
        ids.add(_switch_between(source_host, target_host, bits))
    return sorted(ids), target_host
