"""Link extraction remembers canonical URLs and link keys across pages: a page's links must not
depend on which pages came before it."""

from __future__ import annotations

from parsel import Selector

from geofocus.linkextract import extract_links, iter_links
from geofocus.urlnorm import normalize_url

HREFS = ["http:///x", "http://?q=1", "http://\t/tab", "HTTP://Example.COM/A/../b", "https://example.com/s",
         "http://example.com/doc.PDF", "/rel", "rel2", "http://example.com/index.html"]


def page(hrefs: list[str]) -> Selector:
    body = "".join(f'<p>before {i} <a href="{h}">anchor {i}</a> after</p>' for i, h in enumerate(hrefs))
    return Selector(text=f"<html><body>{body}</body></html>")


def urls(base: str, hrefs: list[str] = HREFS) -> list[str]:
    return [link["url"] for link in extract_links(page(hrefs).root, base)]


def test_links_do_not_depend_on_the_pages_before():
    one = urls("http://one.example/dir/p")
    two = urls("https://two.example/")
    assert one == [
        "http://one.example/x", "http://one.example/dir/p?q=1", "http://one.example/tab",
        "http://example.com/b", "https://example.com/s", "http://one.example/rel", "http://one.example/dir/rel2",
        "http://example.com/index.html",
    ]
    # the same hrefs on a page of another host and scheme: resolved against that page ("http:" without
    # a host on an https page has no host to borrow, as a browser sees it: not a link)
    assert two == ["http://example.com/b", "https://example.com/s", "https://two.example/rel",
                   "https://two.example/rel2", "http://example.com/index.html"]
    assert urls("http://one.example/dir/p") == one  # and again, from what was remembered


class Keys:
    def __init__(self, tag: str, refuse: str = "") -> None:
        self.tag, self.refuse, self.calls = tag, refuse, 0

    def key(self, url: str) -> str:
        self.calls += 1
        if self.refuse and self.refuse in url:
            raise ValueError("refused")
        return f"{self.tag}:{normalize_url(url)}"


def test_each_key_function_keeps_its_own_keys():
    root = page(HREFS).root
    first, second = Keys("a", refuse="/s"), Keys("b")
    a = [k for k, _ in iter_links(root, "http://one.example/", key=first.key)]
    b = [k for k, _ in iter_links(root, "http://one.example/", key=second.key)]
    assert all(k.startswith("a:") for k in a) and all(k.startswith("b:") for k in b)
    assert "b:https://example.com/s" in b and not any(k.endswith("example.com/s") for k in a)
    # the refused URL stays refused the second time, without asking again
    calls = first.calls
    assert [k for k, _ in iter_links(root, "http://one.example/", key=first.key)] == a
    assert first.calls == calls
