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
from urllib.parse import unquote_plus

from geofocus.geoparser.mend import split_glued_lines

# Elements whose content is never visible text.
_HIDDEN_OPEN = re.compile(r"<(script|style|noscript|template|svg|head|select)\b|<!--", re.I)

_CLOSERS = {
    name: re.compile(f"</{name}", re.I)
    for name in ("script", "style", "noscript", "template", "svg", "head", "select")
}

_BLOCK_TAGS = frozenset(
    "br p div li ul ol dl dd dt td th tr table thead tbody tfoot caption h1 h2 h3 h4 h5 h6 "
    "address footer header section article aside nav main form fieldset legend blockquote pre hr "
    "figure figcaption option label button iframe body html title details summary".split()
)
# One pass over all tags; the callback turns block tags into newlines.  The
# pattern starts with a literal "<", so the regex engine skips text fast.  The
# quantifiers are possessive: with plain ``*`` the name and the attribute part
# both match letters, and "<" followed by a run of n letters without ">"
# backtracks through every split (n**2 steps: 20 KB took 2.7 s).
# A "<" right after another opens no tag: a heredoc's start in program text ("$data = <<<VCF", "<<~EOS", "<<EOF")
# would otherwise run as one tag to the next ">" ("$result->getParts()"), taking the lines between with it.
_TAG = re.compile(r"<(?<!<<)(?:/?([a-zA-Z][a-zA-Z0-9]*+)|[!?])[^<>]*+>")


# The replacement of a tag name as written, for block tags in lower case, capitals and title case and
# for common inline tags: one dictionary look-up for most tags instead of lower() and a set test (the
# callback runs once per tag; this and the bound names make the tag pass a fifth faster).
_REPLACEMENT: dict[str | None, str] = {None: " "}
for _name in _BLOCK_TAGS:
    _REPLACEMENT.update(dict.fromkeys((_name, _name.upper(), _name.title()), "\n"))
for _name in "a span img b i em strong small meta link input abbr code sup sub u s time cite q".split():
    _REPLACEMENT.update(dict.fromkeys((_name, _name.upper(), _name.title()), " "))


def _tag_replacement(match: re.Match[str], _known=_REPLACEMENT.get, _block=_BLOCK_TAGS) -> str:
    found = _known(match[1])
    if found is not None:
        return found
    return "\n" if match[1].lower() in _block else " "


# Attributes whose value a reader sees (a tooltip, an image's text, what a screen reader says): iQM2 meeting
# calendars write the meeting's place only in a link's ``title``. A quoted value without "<" or ">" (the tag
# pattern's) of 10 characters or more with a digit in its first 300 and 900 at most (an address has a
# number; a tooltip is no document) is read as lines of its own after its tag, three values a tag at most.
# One scan of the page for "=" (a literal first: a fast scan) right after one of the names, then such a
# value; the quantifiers possessive and bounded. The name is written right before its "=" (as HTML is
# written; the names' last letters first, which turns away most "=" of a page, "href=", "class=", "src=");
# what stands before the name is checked after ("data-title=", "og:title" are other names).
_SHOWN_VALUE = re.compile(
    r"""=(?<=[eEtTl]=)(?:(?<=title=)|(?<=alt=)|(?<=aria-label=)|(?<=TITLE=)|(?<=ALT=)|(?<=Title=)|(?<=Alt=))[ \t]*+"""
    r"""(?:"(?=[^"<>]{10})([^"<>\d]{0,300}+\d[^"<>]{0,600}+)"|'(?=[^'<>]{10})([^'<>\d]{0,300}+\d[^'<>]{0,600}+)')""")


def _with_shown_attributes(markup: str) -> str:
    """``markup`` with the values of its shown attributes as text after their tags (see above)."""
    parts: list[str] = []
    pos = 0
    gt = -1  # the end of the tag of the last value taken: the next ">" after it
    in_tag = 0
    for match in _SHOWN_VALUE.finditer(markup):
        at = match.start()
        name = 10 if markup[at - 10:at].lower() == "aria-label" else 5 if markup[at - 5:at].lower() == "title" else 3
        if at > name and (markup[at - name - 1].isalnum() or markup[at - name - 1] in "-_:"):
            continue  # "data-title=", "og:title=": other attributes
        value = match.group(1) or match.group(2)
        if match.end() > gt:
            gt = markup.find(">", match.end())
            if gt < 0:
                break  # no tag ends after it: nor after any later value
            in_tag = 0
        in_tag += 1
        if in_tag > 3:
            continue
        parts.append(markup[pos:gt + 1])
        parts.append(f"\n{value}\n")
        pos = gt + 1
    if not parts:
        return markup
    parts.append(markup[pos:])
    return "".join(parts)


# A page's description (<meta name="description" content="...">, og:description, twitter:description): search
# results and link previews show it, and a meetup's or a shop's page may say only there where it is ("We meet ...
# at NewStore, Bödekerstraße 56 in Hannover."). It stands in the head, which is no text (see _drop_hidden): its value
# (with a digit in its first 300 characters, 900 at most, as a shown attribute's) is read as a line before the page
# text. The tag's name or property before or after its content; the tag's parts bounded, the quantifiers lazy only
# inside a tag.
_DESCRIPTION_TAG = re.compile(r"<meta\b[^<>]{0,300}?description[^<>]{0,1200}>", re.I)
_CONTENT_VALUE = re.compile(r"""\bcontent[ \t]*=[ \t]*"""
                            r"""(?:"([^"<>\d]{0,300}\d[^"<>]{0,600})"|'([^'<>\d]{0,300}\d[^'<>]{0,600})')""", re.I)


def _descriptions(markup: str) -> list[str]:
    """The values of the description meta tags of ``markup`` that hold a digit (see ``_DESCRIPTION_TAG``)."""
    if "escription" not in markup and "ESCRIPTION" not in markup:
        return []
    values = []
    for tag in _DESCRIPTION_TAG.finditer(markup):
        content = _CONTENT_VALUE.search(tag.group(0))
        if content is not None:
            # a description made from an element's text content may glue its lines ("Lounge375 11th StSan Francisco")
            values.append(split_glued_lines(content.group(1) or content.group(2)))
    return values


# A map's link or embed names the place it shows in its URL: a Google Maps place or search path
# ("/maps/place/6741+Greenleaf+Ave,+Whittier,+CA+90601,+USA/@33.97,..."), a query or route parameter ("?q=",
# "&daddr=", "destination=", Apple's "address="), an embed's place ("!2s360+E+2nd+St+%23400%2C+Los+Angeles..."),
# a map image's centre or marker (Google's Static Maps: "staticmap?center=Honest+Biscuits+1901+Western+Avenue+
# Seattle,+WA+98101", "&markers=color:red%7Clabel:A%7C1901+Western+Ave,+Seattle": the marker's place after its
# last "|"), Bing's "where1="; in an attribute the parameters are joined by "&" or "&amp;".
# Pages often show only a business's name or "Get directions" there. ``map_places`` gives the places, decoded,
# a line each and each once; only those with a digit (an address has a number; a name or coordinates alone make
# no address). A scan for the maps hosts, then each URL (to its quote, bracket or line's end: an attribute's URL
# may hold spaces; 2,000 characters at most, the scan going on after it) is searched for its place: every
# character is looked at a bounded number of times.
_MAP_HOST = re.compile(r"google\.[a-z.]{2,6}/maps|maps\.google\.[a-z.]{2,6}|maps\.apple\.com|"
                       r"maps\.googleapis\.com/maps/api/staticmap|bing\.com/maps")
_URL_END = re.compile(r"[\"'<>)\]\n]")
_MAP_PLACE = re.compile(r"(?:/place/|/search/|(?:[?&]|&amp;)"
                        r"(?:q|query|daddr|destination|address|center|markers|where1)=|!2s)([^\"'<>&!@#?]{10,200})")
_URL_MAX = 2000


def map_places(markup: str) -> str:
    """The places that the map links and embeds of ``markup`` name in their URLs, a line each (see above)."""
    if "maps" not in markup:  # one scan of the page
        return ""
    places: dict[str, None] = {}
    pos = 0
    while (host := _MAP_HOST.search(markup, pos)) is not None:
        url_end = _URL_END.search(markup, host.end(), host.end() + _URL_MAX)
        end = url_end.start() if url_end is not None else min(len(markup), host.end() + _URL_MAX)
        for match in _MAP_PLACE.finditer(markup, host.end(), end):
            place = " ".join(unquote_plus(match.group(1).split("/", 1)[0]).rsplit("|", 1)[-1].split())
            if any(c.isdigit() for c in place):
                places[place] = None
                break
        pos = max(end, host.end())
    return "\n".join(places)


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


# Tabs (and spaces around them) with a printable character on both sides, on one line.
_INNER_TAB = re.compile(r"(?<=\S)[ ]*+\t[ \t]*+(?=\S)")


def html_to_text(markup: str) -> str:
    """Visible text of an HTML page (or plain text), one block element per line.

    Whitespace is collapsed to single spaces, blank lines are dropped, and HTML
    entities are decoded.  Plain text passes through with its lines.
    """
    if "<" in markup:
        described = _descriptions(markup)
        markup = _drop_hidden(markup)
        markup = _TAG.sub(_tag_replacement, _with_shown_attributes(markup))
        if described:
            markup = "\n".join(described) + "\n" + markup
    if "&" in markup:
        markup = html.unescape(markup)
    if "\xad" in markup or "\u200b" in markup:
        # Invisible characters inside words: a soft hyphen ("Heer&shy;straße", where a layout may break
        # a long word) and a zero-width space; the word is the one without them.
        markup = markup.replace("\xad", "").replace("\u200b", "")
    # str.split() folds every Unicode space (incl. NBSP); cheaper than a regex here.  Blank lines
    # (most of them, after the tags) are dropped before any splitting, and a line that splitting would
    # not change is kept as it is (9 of 10 lines on normal pages): no space at either end, no two
    # spaces in a row, and no other whitespace (every whitespace character but " " is unprintable).
    if "\t" in markup:
        # A tab between words separates columns (a table copied as text, TSV, "Straße\tLange Straße 4"):
        # it becomes " | ", the separator of table cells, not a space that would glue label and value.
        markup = _INNER_TAB.sub(" | ", markup)
    # A printable line has no whitespace but " " (every other whitespace character is unprintable), so without
    # two in a row splitting would only take a space off either end: strip does that without splitting the line
    # into words (a 2 MB line of JSON ending in ", ").
    return "\n".join([(raw if raw[0] != " " and raw[-1] != " " else raw.strip(" "))
                      if "  " not in raw and raw.isprintable() else " ".join(raw.split())
                      for raw in markup.splitlines() if raw and not raw.isspace()])
