"""One seed line -> one canonical URL: the same rules for ``-a seeds=``, ``crawl-admin push-seeds`` and
seeds taken from Redis (``<crawl>:start_urls``).

Pure, no Scrapy.  A line may carry a ``#`` comment; blank and comment-only lines are no seed.  A
line with a scheme other than http(s) (``mailto:``, ``ftp://``, ``javascript:``) is rejected; a
line without a scheme gets ``http://`` (``www.example.de``); what remains must pass
``urlnorm.canonical_url``.
"""

from __future__ import annotations

import re

from geofocus.urlnorm import InvalidURL, canonical_url

__all__ = ["SeedLineError", "parse_seed_line"]

# "mailto:x@y.de", "ftp://...", "javascript:...": a scheme (but not "host:8080").
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):(?!\d)")


class SeedLineError(ValueError):
    """A seed line that is not a usable http(s) URL; ``line`` is the line without its comment."""

    def __init__(self, line: str, reason: str) -> None:
        super().__init__(f"{line!r}: {reason}")
        self.line = line
        self.reason = reason


def parse_seed_line(line: str) -> str | None:
    """The canonical URL of one seed line; None for a blank or comment-only line.

    Raises :class:`SeedLineError` (with the reason) for a line that is not an http(s) URL.
    """
    line = line.split("#", 1)[0].strip()
    if not line:
        return None
    scheme = _SCHEME.match(line)
    if scheme and scheme.group(1).lower() not in ("http", "https"):
        raise SeedLineError(line, "not an http(s) URL")
    if "://" not in line:
        line = "http://" + line
    try:
        return canonical_url(line)
    except InvalidURL as exc:
        raise SeedLineError(line, str(exc)) from None
