"""Links of a page with their context: the input of the link prediction.

For each ``<a href>`` the context is the anchor text, the title attribute and
the text around the link: up to ``window`` characters on each side that stop
at the neighbouring links (the "a+s" context of Tsikrika et al.).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urljoin

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


def _clean(text: str) -> str:
    return " ".join(text.split())


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
) -> Iterator[tuple[Any, dict[str, Any]]]:
    """(key, link) for each link of the page, as :func:`extract_links` finds them.

    ``key(url)`` (default :func:`normalize_url`) is what links of the page are
    deduplicated by; a crawler passes its request fingerprint, so that one
    normalisation per link serves both.  ``wanted(key, link)``, if given, sees
    each link with only ``url`` and ``nofollow`` set and may refuse it (a link
    the crawler knows already) before its context is built.
    """
    base = base_url
    for href in root.xpath("//base/@href")[:1]:
        base = urljoin(base_url, href.strip())
    chunks: list[str] = []
    links: list[tuple[Any, int]] = []  # (element, index of the text chunk before it)
    current: list[str] = []
    for kind, value in _events(root):
        if kind == "text":
            current.append(value)
        else:
            chunks.append("".join(current))
            current = []
            links.append((value, len(chunks) - 1))
    chunks.append("".join(current))

    seen: set[Any] = set()
    count = 0
    for element, before_index in links:
        href = element.get("href", "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
            continue
        try:
            url = canonical_url(urljoin(base, href))
        except (InvalidURL, ValueError):
            continue
        path = url.split("?", 1)[0]
        last = path.rsplit("/", 1)[-1]
        if "." in last and last.rsplit(".", 1)[-1].lower() in NON_HTML_EXTENSIONS:
            continue
        try:
            link_key = key(url)
        except (InvalidURL, ValueError):
            continue
        if link_key in seen:
            continue
        seen.add(link_key)
        link: dict[str, Any] = {"url": url, "nofollow": "nofollow" in (element.get("rel") or "").lower()}
        if wanted is not None and not wanted(link_key, link):
            continue
        before = _clean(chunks[before_index])[-window:]
        after = _clean(chunks[before_index + 1])[:window]
        link = {
            "url": url,
            "source_url": base_url,
            "anchor": _clean(etree.tostring(element, method="text", encoding="unicode", with_tail=False))[:200],
            "title": _clean(element.get("title", ""))[:200],
            "context": f"{before} {after}".strip(),
            "nofollow": link["nofollow"],
        }
        yield link_key, link
        count += 1
        if count >= limit:
            break
