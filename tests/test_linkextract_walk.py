"""The link extraction's one-pass tree walk gives what the event stream gives.

``iter_links`` over an lxml tree reads the text chunks and links straight from
the tree (``_tree_chunks``); given the same tree's events one at a time (as a
page too deep for lxml gives them from the streaming parser) it assembles them
in its generic loop.  Both must yield the same links with the same context.
"""

from __future__ import annotations

import pytest
from parsel import Selector

from geofocus.linkextract import _events, iter_links, page_events

PAGES = [
    # text around links, block tags ending the window, tails after links
    "<html><body><p>Before the link <a href='/a'>Anchor A</a> after A.</p>"
    "<div>Next block <a href='b.html' title=' The  B '>B</a> tail B <a href='/c'>C</a></div></body></html>",
    # skipped tags (script, style, noscript, template, head) and their tails; comments and processing instructions
    "<html><head><title>T</title><a href='/in-head'>x</a></head><body>one <script>var a='<a href=/s>';</script>"
    "two <!-- <a href='/comment'>c</a> --> three <?php echo 1 ?> four <style>p{}</style>five "
    "<noscript><a href='/ns'>ns</a></noscript> six <a href='/d'>D</a> seven</body></html>",
    # anchors without href, with empty href, nested elements inside anchors, nested anchors
    "<body><a name='x'>no href</a> text <a href=''>empty</a> <a href='/e'><span>E</span> <b>bold</b></a> "
    "<a href='/f'>F <a href='/g'>G</a> after</a> end</body>",
    # links in lists and tables, br, headings, entities, non-ASCII text
    "<body><ul><li><a href='/h'>H&amp;h</a></li><li>Straße <a href='/i'>Ï</a></li></ul>"
    "<table><tr><td>cell <a href='/j'>J</a></td><td><a href='/k'>K</a><br>after br</td></tr></table>"
    "<h2>Head <a href='/l'>L</a></h2></body>",
    # malformed markup: unclosed tags, stray end tags, a table inside a paragraph
    "<body><p>open <a href='/m'>M<p>new para <a href='/n'>N</a></div></span> x <table><tr><td>< <b>"
    "<a href='/o'>O</a></body>",
    # duplicates, nofollow, fragments, javascript:, non-HTML files, absolute and other hosts
    "<body><a href='/p#top'>P</a> <a href='/p'>P again</a> <a href='#x'>frag</a> <a href='javascript:x()'>js</a>"
    " <a href='/file.pdf'>pdf</a> <a rel='NoFollow' href='http://other.example/q'>Q</a>"
    " <a href='https://other.example/r?sid=1&amp;a=2'>R</a></body>",
    # a long text: the window is cut at 50 characters on each side
    "<body><p>" + "word " * 40 + "<a href='/s'>S</a>" + " more" * 40 + "</p></body>",
    # no links at all, and an empty body
    "<body><p>nothing to follow</p></body>",
    "<html></html>",
]


def _root(html: str):
    return Selector(text=html).root


@pytest.mark.parametrize("html", PAGES)
def test_tree_walk_matches_the_event_stream(html: str) -> None:
    root = _root(html)
    base = "http://www.example.de/dir/page.html"
    from_tree = list(iter_links(root, base))
    from_events = list(iter_links(root, base, events=list(_events(root))))
    assert from_tree == from_events
    # page_events of a tree lxml parsed whole: iterating it gives the same events as before
    events, too_deep = page_events(root, html)
    assert not too_deep
    assert list(events) == list(_events(root))
    assert list(iter_links(root, base, events=events)) == from_tree


def test_context_of_the_tree_walk() -> None:
    root = _root(PAGES[0])
    links = [link for _key, link in iter_links(root, "http://www.example.de/dir/page.html")]
    assert [link["url"] for link in links] == [
        "http://www.example.de/a", "http://www.example.de/dir/b.html", "http://www.example.de/c"]
    # the window runs over block boundaries (as whitespace) and stops at the neighbouring links
    assert links[0]["context"] == "Before the link after A. Next block"
    assert links[0]["anchor"] == "Anchor A"
    assert links[1]["title"] == "The B"
    assert links[1]["context"] == "after A. Next block tail B"
    assert links[2]["context"] == "tail B"


def test_wanted_sees_links_before_their_context() -> None:
    root = _root(PAGES[0])
    seen = []

    def wanted(key, link):
        seen.append(dict(link))
        return link["url"].endswith("/c")

    links = list(iter_links(root, "http://www.example.de/dir/page.html", wanted=wanted))
    assert [link["url"] for _key, link in links] == ["http://www.example.de/c"]
    assert [set(link) for link in seen] == [{"url", "nofollow"}] * 3


@pytest.mark.parametrize("size", [0, 1, 7, 50, 200])
def test_context_windows_of_long_texts(size: int) -> None:
    """The windows read only the ends of a long text, with the result of cleaning all of it."""
    from geofocus.linkextract import _clean, _clean_head, _clean_tail

    texts = [
        "", "   ", "word", " a  b\n\tc ", "x" * 1000, " " * 1000 + "end", "start" + " " * 1000,
        "Straße\u00a0und\u3000Platz " * 80, "lang" * 300 + " kurz", "kurz " + "lang" * 300,
        "\n".join(["", "eins", "", "zwei drei", ""] * 60), ("a " * 400) + ("b" * 230) + " c",
    ]
    for text in texts:
        assert _clean_head(text, size) == _clean(text)[:size]
        assert _clean_tail(text, size) == _clean(text)[-size:]


def test_window_of_a_link_before_a_long_text() -> None:
    html = ("<body><p>" + "vorher " * 5000 + "<a href='/x'>X</a> " + "nachher \n " * 5000
            + "<a href='/y'>Y</a></p></body>")
    links = [link for _key, link in iter_links(_root(html), "http://www.example.de/")]
    before = " ".join(["vorher"] * 5000)[-50:]
    after = " ".join(["nachher"] * 5000)[:50]
    assert before == "r " + " ".join(["vorher"] * 7)
    assert links[0]["context"] == f"{before} {after}"
    assert links[1]["context"] == " ".join(["nachher"] * 5000)[-50:]
