"""Decodes pages that declare UTF-16 by what their bytes are.

A page declared ``charset=utf-16`` (in the header or a meta tag) without a byte
order mark is often not UTF-16 at all: a Latin-1 or UTF-8 page under a wrong
declaration, which decodes to CJK-looking garbage (its address and links are
lost).  HTML in UTF-16 is full of NUL bytes (every ASCII character of its
markup has one), so a body without them is not UTF-16: it is decoded as its
meta tag says (if that is not UTF-16), else as UTF-8 if it is valid UTF-8,
else as windows-1252 (what browsers use for Latin-1).  Real UTF-16 without a
BOM is decoded in the byte order its NUL bytes show.  Counted as
``geofocus/encoding/not_utf16`` and ``geofocus/encoding/utf16_byte_order``.
"""

from __future__ import annotations

import codecs
import logging
from typing import TYPE_CHECKING

from scrapy.http import TextResponse
from w3lib.encoding import html_body_declared_encoding

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

_SAMPLE = 4096


def _is_utf16(encoding: str | None) -> bool:
    if not encoding:
        return False
    try:
        return codecs.lookup(encoding).name.startswith("utf-16")
    except LookupError:
        return False


def sniff_utf16(body: bytes, declared: str | None) -> str | None:
    """The encoding to decode a body declared as ``declared`` with, if UTF-16 is wrong for it
    (or its byte order is); None when the declaration stands."""
    if not _is_utf16(declared) or body[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return None
    sample = body[:_SAMPLE]
    if len(sample) < 2:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    if even + odd >= len(sample) // 8:  # UTF-16 markup: a NUL for every ASCII character
        order = "utf-16-be" if even > odd else "utf-16-le"
        # Without a BOM, "utf-16" is read big-endian (w3lib), as RFC 2781 says.
        return None if declared in (order, "utf-16" if order == "utf-16-be" else order) else order
    meta = html_body_declared_encoding(sample)
    if meta and not _is_utf16(meta):
        return meta
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


class EncodingSniffMiddleware:
    def __init__(self, crawler: Crawler):
        self.stats = crawler.stats
        self._logged = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> EncodingSniffMiddleware:
        return cls(crawler)

    def process_response(self, request: Request, response: Response, spider: Spider | None = None) -> Response:
        if not isinstance(response, TextResponse):
            return response
        declared = response.encoding
        encoding = sniff_utf16(response.body, declared)
        if encoding is None or encoding == declared:
            return response
        event = "utf16_byte_order" if _is_utf16(encoding) else "not_utf16"
        self.stats.inc_value(f"geofocus/encoding/{event}")
        if not self._logged:
            self._logged = True
            logger.info(
                "%(url)s is declared %(declared)s but is %(encoding)s; decoding it so "
                "(further such pages are counted in geofocus/encoding/*, not logged)",
                {"url": response.url, "declared": declared, "encoding": encoding},
            )
        return response.replace(encoding=encoding)
