"""Links of a page with their context: the input of the link prediction.

For each ``<a href>`` the context is the anchor text, the title attribute and
the text around the link: up to ``window`` characters on each side that stop
at the neighbouring links (the "a+s" context of Tsikrika et al.).

libxml2 (under lxml and parsel) stops parsing at 2,048 nested elements, even
with ``huge_tree``: the rest of the page, links included, is silently missing
from the tree.  :func:`extract_page_links` notices (the last element of the
tree sits at that depth) and takes the links of the whole page from a
streaming parse (``html.parser``, which has no depth limit) instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit
from weakref import WeakKeyDictionary

from lxml import etree

from geofocus.urlnorm import InvalidURL, canonical_url, normalize_url

_SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "head"})
_BLOCK_TAGS = frozenset(
    {"p", "div", "li", "td", "th", "tr", "br", "h1", "h2", "h3", "h4", "h5", "h6",
     "section", "article", "footer", "header", "nav", "ul", "ol", "table", "address"}
)
# Links to these are not pages: dropping them here saves a request each.
NON_HTML_EXTENSIONS = frozenset(
    "pdf zip gz tgz rar 7z jpg jpeg png gif webp svg ico bmp tif tiff mp3 mp4 avi mov wmv "
    "flv ogg wav doc docx xls xlsx ppt pptx odt ods exe dmg iso apk css js json xml rss "
    "woff woff2 ttf eot csv".split()
)


# libxml2's nesting limit (xmlParserMaxDepth with XML_PARSE_HUGE): a tree whose last element
# is this deep was cut off there.
LIBXML2_MAX_DEPTH = 2048
_TRUNCATED_AT = LIBXML2_MAX_DEPTH - 16


def _clean(text: str) -> str:
    return " ".join(text.split())


def _clean_head(text: str, size: int) -> str:
    """``_clean(text)[:size]``, reading only the start of a long text.

    The words of a prefix of ``text`` are words of ``text``, except perhaps the
    last one (cut at the prefix's end): joined without it they are the start of
    ``_clean(text)``, which is enough when they are ``size`` characters long.
    """
    if size <= 0:
        return _clean(text)[:size]
    cut = 4 * size + 16
    if len(text) <= cut:
        return _clean(text)[:size]
    words = text[:cut].split()
    if words:
        words.pop()  # maybe cut
    head = " ".join(words)
    return head[:size] if len(head) >= size else _clean(text)[:size]


def _clean_tail(text: str, size: int) -> str:
    """``_clean(text)[-size:]``, reading only the end of a long text (as :func:`_clean_head`)."""
    if size <= 0:
        return _clean(text)[-size:]
    cut = 4 * size + 16
    if len(text) <= cut:
        return _clean(text)[-size:]
    words = text[-cut:].split()
    if words:
        del words[0]  # maybe cut
    tail = " ".join(words)
    return tail[-size:] if len(tail) >= size else _clean(text)[-size:]


def _events(root: Any) -> Iterator[tuple[str, Any]]:
    """Document-order stream of ("text", str) and ("link", element) events."""
    stack = [(root, False)]
    while stack:
        element, closing = stack.pop()
        if closing:
            if element.tag in _BLOCK_TAGS:
                yield "text", " \n "
            if element.tail:
                yield "text", element.tail
            continue
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag in _SKIPPED_TAGS or not tag:
            if element.tail:
                yield "text", element.tail
            continue
        if tag == "a" and element.get("href") is not None:
            yield "link", element
            if element.tail:
                yield "text", element.tail
            continue
        if element.text:
            yield "text", element.text
        stack.append((element, True))
        for child in reversed(element):
            stack.append((child, False))


class _TreeEvents:
    """The events of :func:`_events` over an lxml tree, which :func:`_assemble` reads straight
    from the tree (:func:`_tree_chunks`) instead of one event at a time."""

    __slots__ = ("root",)

    def __init__(self, root: Any):
        self.root = root

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return _events(self.root)


def _tree_chunks(root: Any) -> tuple[list[str], list[tuple[Any, int]]]:
    """What :func:`_assemble` makes of :func:`_events` (the text between links, and each link
    element with the index of the text before it), in one walk of the tree."""
    chunks: list[str] = []
    links: list[tuple[Any, int]] = []
    current: list[str] = []
    add = current.append
    # (element, None) opens an element; (element, tag) closes it
    stack: list[tuple[Any, str | None]] = [(root, None)]
    pop = stack.pop
    push = stack.append
    skipped = _SKIPPED_TAGS
    blocks = _BLOCK_TAGS
    while stack:
        element, closing = pop()
        if closing is not None:
            if closing in blocks:
                add(" \n ")
            tail = element.tail
            if tail:
                add(tail)
            continue
        tag = element.tag
        if type(tag) is not str or not tag or tag in skipped:
            tail = element.tail
            if tail:
                add(tail)
            continue
        if tag == "a" and element.get("href") is not None:
            chunks.append("".join(current))
            current.clear()
            links.append((element, len(chunks) - 1))
            tail = element.tail
            if tail:
                add(tail)
            continue
        text = element.text
        if text:
            add(text)
        push((element, tag))
        if len(element):
            for child in reversed(element):
                push((child, None))
    chunks.append("".join(current))
    return chunks, links


def extract_links(root: Any, base_url: str, window: int = 50, limit: int = 1000) -> list[dict[str, Any]]:
    """Links of the lxml document ``root`` as dicts: url, source_url, anchor, title, context.

    URLs are absolute and canonical (:func:`canonical_url`); links that are not http(s), that point
    to non-HTML files by their extension, or that repeat an earlier URL of the
    page (by :func:`normalize_url`) are left out.
    """
    return [link for _key, link in iter_links(root, base_url, window, limit)]


def iter_links(
    root: Any,
    base_url: str,
    window: int = 50,
    limit: int = 1000,
    key: Callable[[str], Any] = normalize_url,
    wanted: Callable[[Any, dict[str, Any]], bool] | None = None,
    events: Iterable[tuple[str, Any]] | None = None,
) -> Iterator[tuple[Any, dict[str, Any]]]:
    """(key, link) for each link of the page, as :func:`extract_links` finds them.

    ``key(url)`` (default :func:`normalize_url`) is what links of the page are
    deduplicated by; a crawler passes its request fingerprint, so that one
    normalisation per link serves both.  ``wanted(key, link)``, if given, sees
    each link with only ``url`` and ``nofollow`` set and may refuse it (a link
    the crawler knows already) before its context is built.  ``events``: the
    document's text and link events when they do not come from ``root``
    (:func:`page_events` of a page too deep for lxml).
    """
    return _assemble(_TreeEvents(root) if events is None else events, _base(root, base_url), base_url,
                     window, limit, key, wanted)


def is_truncated(root: Any) -> bool:
    """Whether libxml2 stopped parsing this document at its nesting limit.

    The last element in document order is reached by following the last
    element child down from the root, so this costs the depth of that one
    branch, not a pass over the whole tree.
    """
    depth = 0
    element = root
    while True:
        child = next(element.iterchildren(etree.Element, reversed=True), None)
        if child is None:
            return depth >= _TRUNCATED_AT
        element = child
        depth += 1


def page_events(root: Any, html: str, limit: int = 1000) -> tuple[Iterable[tuple[str, Any]], bool]:
    """The text and link events of a page, and whether its tree was cut off by the nesting
    limit, in which case they come from a streaming parse of ``html``."""
    if not is_truncated(root):
        return _TreeEvents(root), False
    parser = _StreamEvents()
    for start in range(0, len(html), 65536):  # stop once there are enough links: bounded work per page
        parser.feed(html[start:start + 65536])
        if parser.links > 2 * limit:
            break
    parser.close()
    return parser.events, True


def extract_page_links(
    root: Any, html: str, base_url: str, window: int = 50, limit: int = 1000
) -> tuple[list[dict[str, Any]], bool]:
    """Links of a page (see :func:`extract_links`) and whether its tree was cut off by the
    nesting limit, in which case the links come from a streaming parse of ``html``."""
    events, too_deep = page_events(root, html, limit)
    return [link for _key, link in iter_links(root, base_url, window, limit, events=events)], too_deep


class _ParsedLink:
    """An ``<a>`` start tag from the streaming parser, with the text up to its end tag."""

    def __init__(self, attrs: list[tuple[str, str | None]]):
        self.attrs = {name: value or "" for name, value in attrs}
        self.parts: list[str] = []

    def get(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)


class _StreamEvents(HTMLParser):
    """The ("text", str) / ("link", _ParsedLink) events of :func:`_events`, from html.parser."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple[str, Any]] = []
        self.skipping = 0
        self.link: _ParsedLink | None = None
        self.links = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self.skipping += 1
        elif self.skipping:
            return
        elif tag == "a" and any(name == "href" for name, _ in attrs):
            self.link = _ParsedLink(attrs)
            self.events.append(("link", self.link))
            self.links += 1
        elif tag in _BLOCK_TAGS:
            self.events.append(("text", " \n "))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self.skipping = max(0, self.skipping - 1)
        elif tag == "a":
            self.link = None
        elif tag in _BLOCK_TAGS and not self.skipping:
            self.events.append(("text", " \n "))

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.link is not None:
            self.link.parts.append(data)
        else:
            self.events.append(("text", data))


# Site navigation repeats the same links on every page of a site: the canonical URL of an
# absolute href, and a link's key, are remembered (bounded; emptied when full).
_CACHE_SIZE = 65536
_MISSING = object()
_INVALID = object()  # a URL its key function refused
_RESOLVED: dict[tuple[str, str], str | None] = {}
_KEYS: WeakKeyDictionary[Any, dict[Any, dict[str, Any]]] = WeakKeyDictionary()


def _resolve(base: str, href: str) -> str | None:
    """The canonical URL of ``href`` on a page with base ``base``, None if it is not one to follow."""
    try:
        url = canonical_url(urljoin(base, href))
    except (InvalidURL, ValueError):
        return None
    path = url.split("?", 1)[0]
    last = path.rsplit("/", 1)[-1]
    if "." in last and last.rsplit(".", 1)[-1].lower() in NON_HTML_EXTENSIONS:
        return None
    return url


def _followable_url(base: str, scheme: str, href: str) -> str | None:
    """:func:`_resolve`, remembered for an absolute http(s) href with a host: ``urljoin`` then
    depends on nothing of the base but its scheme (``urlsplit`` removes tabs and newlines, which
    could empty the host, so hrefs with those are not remembered)."""
    start = 8 if href[:8].lower() == "https://" else 7 if href[:7].lower() == "http://" else 0
    if not start or len(href) == start or href[start] in "/?#\\" or "\t" in href or "\n" in href \
            or "\r" in href:
        return _resolve(base, href)
    cache_key = (scheme, href)
    try:
        return _RESOLVED[cache_key]
    except KeyError:
        pass
    url = _resolve(base, href)
    _remember(_RESOLVED, cache_key, url)
    return url


def _remember(cache: dict[Any, Any], cache_key: Any, value: Any) -> None:
    """Put ``value`` in a cache of at most ``_CACHE_SIZE`` entries (emptied when full)."""
    if len(cache) >= _CACHE_SIZE:
        cache.clear()
    cache[cache_key] = value


def _link_key(key: Callable[[str], Any], keys: dict[str, Any] | None, url: str) -> Any:
    """``key(url)``, or ``_INVALID`` if the key function refuses the URL; remembered in ``keys``."""
    if keys is not None:
        known = keys.get(url, _MISSING)
        if known is not _MISSING:
            return known
    try:
        link_key = key(url)
    except (InvalidURL, ValueError):
        link_key = _INVALID
    if keys is not None:
        _remember(keys, url, link_key)
    return link_key


def _key_cache(key: Callable[[str], Any]) -> dict[str, Any] | None:
    """The remembered keys of ``key`` (a function, or a method of a living object), or None if
    it cannot be tracked.  The key of a URL must not change while its owner lives (a request
    fingerprint, a normalised URL)."""
    owner = getattr(key, "__self__", key)
    func = getattr(key, "__func__", key)
    try:
        per_owner = _KEYS.get(owner)
        if per_owner is None:
            per_owner = _KEYS[owner] = {}
    except TypeError:  # not weakly referenceable
        return None
    cache = per_owner.get(func)
    if cache is None:
        cache = per_owner[func] = {}
    return cache


def _base(root: Any, base_url: str) -> str:
    for href in root.xpath("//base/@href")[:1]:
        return urljoin(base_url, href.strip())
    return base_url


def _anchor_text(element: Any) -> str:
    if isinstance(element, _ParsedLink):
        return "".join(element.parts)
    if len(element) == 0:  # most anchors: their text alone (tostring also gives up the GIL, at a cost)
        return element.text or ""
    return etree.tostring(element, method="text", encoding="unicode", with_tail=False)


def _assemble(
    events: Iterable[tuple[str, Any]],
    base: str,
    base_url: str,
    window: int,
    limit: int,
    key: Callable[[str], Any],
    wanted: Callable[[Any, dict[str, Any]], bool] | None,
) -> Iterator[tuple[Any, dict[str, Any]]]:
    chunks: list[str] = []
    links: list[tuple[Any, int]] = []  # (element, index of the text chunk before it)
    if type(events) is _TreeEvents:
        chunks, links = _tree_chunks(events.root)
    else:
        current: list[str] = []
        for kind, value in events:
            if kind == "text":
                current.append(value)
            else:
                chunks.append("".join(current))
                current = []
                links.append((value, len(chunks) - 1))
        chunks.append("".join(current))

    seen: set[Any] = set()
    count = 0
    scheme = urlsplit(base).scheme
    keys = _key_cache(key)
    for element, before_index in links:
        href = element.get("href", "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
            continue
        url = _followable_url(base, scheme, href)
        if url is None:
            continue
        link_key = _link_key(key, keys, url)
        if link_key is _INVALID or link_key in seen:
            continue
        seen.add(link_key)
        link: dict[str, Any] = {"url": url, "nofollow": "nofollow" in (element.get("rel") or "").lower()}
        if wanted is not None and not wanted(link_key, link):
            continue
        before = _clean_tail(chunks[before_index], window)
        after = _clean_head(chunks[before_index + 1], window)
        link = {
            "url": url,
            "source_url": base_url,
            "anchor": _clean_head(_anchor_text(element), 200),
            "title": _clean_head(element.get("title", ""), 200),
            "context": f"{before} {after}".strip(),
            "nofollow": link["nofollow"],
        }
        yield link_key, link
        count += 1
        if count >= limit:
            break
