"""Request fingerprints over the normalised URL (``REQUEST_FINGERPRINTER_CLASS``).

Two requests are the same page when their method, body and
:func:`geofocus.urlnorm.normalize_url` keys agree, so ``/dir`` and
``/dir/index.html`` are fetched once whichever is found first, while each is
still fetched by the URL that was found.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from geofocus.urlnorm import InvalidURL, normalize_url

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler


class NormalizedURLFingerprinter:
    def __init__(self) -> None:
        self._cache: WeakKeyDictionary[Request, bytes] = WeakKeyDictionary()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> NormalizedURLFingerprinter:
        return cls()

    def fingerprint(self, request: Request) -> bytes:
        cached = self._cache.get(request)
        if cached is None:
            try:
                key = normalize_url(request.url)
            except InvalidURL:
                key = request.url
            # (one buffer, one call: the same digest as updating part by part)
            cached = self._cache[request] = hashlib.sha1(
                b"\0".join((request.method.encode(), key.encode(), request.body or b""))).digest()
        return cached
