"""Keeps passwords out of the log: ``user:password@`` in any logged URL becomes ``user:***@``.

geofocus keeps credentials found in links as part of a URL's identity
(:mod:`geofocus.urlnorm`), and Scrapy logs request URLs in many places
("Crawled", "Redirecting", "Retrying", errors).  Rather than patching each, the
extension installs a log-record factory that redacts the formatted message of
every record once, before any handler sees it.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

_CREDENTIALS = re.compile(r"(?P<prefix>[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:'\"<>]*):[^\s/?#@'\"<>]+@")


def redact(text: str) -> str:
    return _CREDENTIALS.sub(r"\g<prefix>:***@", text) if "@" in text else text


_installed = False


def install() -> None:
    """Install the redacting log-record factory (once per process)."""
    global _installed
    if _installed:
        return
    _installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is the handler's to report
            return record
        if "@" in message:
            redacted = redact(message)
            if redacted != message:
                record.msg, record.args = redacted, ()
        return record

    logging.setLogRecordFactory(factory)


class RedactPasswords:
    """Extension (EXTENSIONS) that installs the redaction for the crawl's process."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedactPasswords:
        install()
        return cls()
