"""HTML to line-structured text, fast and linear in the input size.

The geoparser runs on every fetched page, so this avoids building a DOM: a
handful of C-level regular expressions and ``str.find`` loops.  Block-level
tags (``<br>``, ``<p>``, ``<td>``, ``<li>``, ...) become newlines so that the
parts of an address split over lines, table cells or list items stay in
order and separable; inline tags become a space.  Every pattern here is
free of nested quantifiers, and unclosed constructs (``<script`` without
``</script>``, ``<!--`` without ``-->``) end at the end of the input, as in
a browser, so adversarial input cannot cause quadratic behaviour.
"""

from __future__ import annotations

import html
import re

# Elements whose content is never visible text.
_HIDDEN_OPEN = re.compile(r"<(script|style|noscript|template|svg|head|select)\b|<!--", re.I)

_CLOSERS = {
    name: re.compile(f"</{name}", re.I)
    for name in ("script", "style", "noscript", "template", "svg", "head", "select")
}

_BLOCK_TAG = re.compile(
    r"</?(?:br|p|div|li|ul|ol|dl|dd|dt|td|th|tr|table|thead|tbody|tfoot|caption|h[1-6]|address|"
    r"footer|header|section|article|aside|nav|main|form|fieldset|legend|blockquote|pre|hr|"
    r"figure|figcaption|option|label|button|iframe|body|html|title|details|summary)\b[^<>]*>",
    re.I,
)
_ANY_TAG = re.compile(r"<[/!?a-zA-Z][^<>]*>")
_HSPACE = re.compile(r"[ \t\r\f\v\xa0\u2000-\u200b\u202f\u205f\u3000]+")
_NEWLINES = re.compile(r" ?\n[\n ]*")


def _drop_hidden(markup: str) -> str:
    """Remove script/style/comment blocks; an unclosed one runs to the end."""
    if "<" not in markup:
        return markup
    parts: list[str] = []
    pos = 0
    search = _HIDDEN_OPEN.search
    while True:
        match = search(markup, pos)
        if match is None:
            parts.append(markup[pos:])
            break
        parts.append(markup[pos : match.start()])
        name = match.group(1)
        if name is None:
            end = markup.find("-->", match.end())
            if end < 0:
                break
            pos = end + 3
        else:
            closer = _CLOSERS[name.lower()].search(markup, match.end())
            if closer is None:
                break
            gt = markup.find(">", closer.end())
            pos = len(markup) if gt < 0 else gt + 1
        parts.append("\n")
    return "".join(parts)


def html_to_text(markup: str) -> str:
    """Visible text of an HTML page (or plain text), one block element per line.

    Whitespace is collapsed to single spaces, blank lines to one newline, and
    HTML entities are decoded.  Plain text passes through with its lines.
    """
    if "<" in markup:
        markup = _drop_hidden(markup)
        markup = _BLOCK_TAG.sub("\n", markup)
        markup = _ANY_TAG.sub(" ", markup)
    if "&" in markup:
        markup = html.unescape(markup)
    markup = _HSPACE.sub(" ", markup)
    return _NEWLINES.sub("\n", markup).strip()
