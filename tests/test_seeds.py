"""One seed-line parser for -a seeds=, crawl-admin push-seeds and seeds taken from Redis."""

import re

import pytest

from geofocus.seeds import SeedLineError, parse_seed_line


@pytest.mark.parametrize("line, url", [
    ("http://www.Example.de/a", "http://www.example.de/a"),
    ("  www.example.de  # the home page", "http://www.example.de/"),
    ("example.de:8080/x", "http://example.de:8080/x"),          # a port is not a scheme
    ("HTTPS://EXAMPLE.DE", "https://example.de/"),
])
def test_a_seed_line_gives_its_canonical_url(line, url):
    assert parse_seed_line(line) == url


@pytest.mark.parametrize("line", ["", "   ", "# seeds of the Oldenburg crawl"])
def test_blank_and_comment_lines_are_no_seed(line):
    assert parse_seed_line(line) is None


@pytest.mark.parametrize("line, reason", [
    ("mailto:info@example.de", "not an http(s) URL"),
    ("ftp://files.example.de/x", "not an http(s) URL"),
    ("javascript:alert(1)  # no", "not an http(s) URL"),
    ("http://", "host"),
])
def test_a_line_that_is_no_http_url_is_rejected_with_its_reason(line, reason):
    with pytest.raises(SeedLineError, match=re.escape(reason)) as info:
        parse_seed_line(line)
    assert info.value.line == line.split("#")[0].strip()


def test_push_seeds_uses_the_same_rules():
    from geofocus.redis.admin import push_seeds

    class Client:
        def rpush(self, key, *urls):
            self.pushed = (key, urls)

    client = Client()
    lines = ["# seeds", "www.example.de", "mailto:x@example.de", "http://", "https://a.example.de/b#c"]
    assert push_seeds(client, "c1", lines) == (2, 2)
    assert client.pushed == ("c1:start_urls", ("http://www.example.de/", "https://a.example.de/b"))
