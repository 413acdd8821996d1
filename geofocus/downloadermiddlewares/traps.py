"""Drops crawler traps before they are downloaded.

Reasons (stats ``geofocus/filtered/trap/<reason>``): ``long_url``,
``repeated_segment`` (/a/b/a/b/a/b), ``calendar`` (dates far from today in
a calendar-like URL), ``session_id`` (ids embedded in the path), ``map_tile``,
``map_variant`` (endless lat/lon/zoom/bbox variants), ``locator_page``
(store-locator pagination deep into a result list) and ``pattern`` (too many
URLs of one host with the same path pattern: faceted permutations, endless
generated pages).
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl

from scrapy.exceptions import NotConfigured
from scrapy.utils.httpobj import urlparse_cached

from geofocus.downloadermiddlewares.base import FilterMiddleware
from geofocus.pagemeta import PageMeta

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

_CALENDAR_PARAMS = frozenset(
    "date datum day tag month monat year jahr week woche cal kalender calendar termin from to start end".split()
)
_MAP_PARAMS = frozenset("lat lon lng long latitude longitude zoom z bbox ll center centre x y".split())
_PAGE_PARAMS = frozenset("page p seite offset start pg".split())
_LOCATOR_PARAMS = frozenset("plz zip postcode postal q near location ort city radius umkreis".split()) | _MAP_PARAMS
_DATE_IN_PATH = re.compile(r"/((?:19|20|21)\d\d)(?:[/-](0?[1-9]|1[0-2]))(?:[/-]([0-3]?\d))?(?:/|$)")
_YEAR_VALUE = re.compile(r"\b((?:1[89]|2[0-9])\d\d)\b")
_TILE_PATH = re.compile(r"/\d{1,2}/\d+/\d+(?:@2x)?\.(?:png|jpe?g|pbf|mvt|webp)$", re.I)
_PATH_SESSION = re.compile(
    r"/\((?:S|A|F)\([0-9a-z]{16,}\)\)/|/s\([0-9a-z]{16,}\)/|[/;](?:sid|sessionid)[=-][0-9a-f]{16,}", re.I)
_HEX_ID = re.compile(r"^[0-9a-f]{24,}$", re.I)
_DIGITS = re.compile(r"\d+")


class TrapFilterMiddleware(FilterMiddleware):
    def __init__(
        self,
        crawler: Crawler,
        max_url_length: int,
        max_segment_repeats: int,
        max_per_pattern: int,
        calendar_years: tuple[int, int] = (5, 2),
    ):
        super().__init__(crawler)
        self.max_url_length = max_url_length
        self.max_segment_repeats = max_segment_repeats
        self.max_per_pattern = max_per_pattern
        this_year = datetime.date.today().year
        self.year_range = (this_year - calendar_years[0], this_year + calendar_years[1])
        self.patterns: Counter[str] = Counter()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TrapFilterMiddleware:
        settings = crawler.settings
        if not settings.getbool("GEOFOCUS_TRAP_FILTER_ENABLED"):
            raise NotConfigured("GEOFOCUS_TRAP_FILTER_ENABLED is off")
        return cls(
            crawler,
            max_url_length=settings.getint("GEOFOCUS_TRAP_MAX_URL_LENGTH"),
            max_segment_repeats=settings.getint("GEOFOCUS_TRAP_MAX_SEGMENT_REPEATS"),
            max_per_pattern=settings.getint("GEOFOCUS_TRAP_MAX_PER_PATTERN"),
        )

    def trap_reason(self, url: str, host: str, path: str, query: str) -> str | None:
        """Why ``url`` looks like a trap, or None; stateless checks only."""
        if len(url) > self.max_url_length:
            return "long_url"
        segments = [s for s in path.lower().split("/") if s]
        if segments:
            most = Counter(segments).most_common(1)[0][1]
            if most > self.max_segment_repeats:
                return "repeated_segment"
        if _PATH_SESSION.search(path):
            return "session_id"
        params = [(k.lower(), v) for k, v in parse_qsl(query, keep_blank_values=True)]
        names = {k for k, _ in params}
        if any(_HEX_ID.match(v) and ("sess" in k or k in {"sid", "s"}) for k, v in params):
            return "session_id"
        if _TILE_PATH.search(path):
            return "map_tile"
        if len(names & _MAP_PARAMS) >= 2 and not (names & _PAGE_PARAMS):
            return "map_variant"
        if names & _PAGE_PARAMS and names & _LOCATOR_PARAMS:
            for k, v in params:
                if k in _PAGE_PARAMS and v.isdigit() and int(v) > 10:
                    return "locator_page"
        if self._far_date(path, params):
            return "calendar"
        return None

    def _far_date(self, path: str, params: list[tuple[str, str]]) -> bool:
        low, high = self.year_range
        years = [int(m.group(1)) for m in _DATE_IN_PATH.finditer(path)]
        for name, value in params:
            if name in _CALENDAR_PARAMS:
                years.extend(int(y) for y in _YEAR_VALUE.findall(value))
        return any(not low <= y <= high for y in years)

    def pattern_of(self, host: str, path: str, query: str) -> str:
        keys = sorted({k.lower() for k, _ in parse_qsl(query, keep_blank_values=True)})
        return f"{host}{_DIGITS.sub('N', path.lower())}?{'&'.join(keys)}"

    def process_request(self, request: Request, spider: Spider | None = None) -> None:
        spider = spider or self.crawler.spider
        page = PageMeta.of(request)
        if page is not None and page.seed:
            return
        parsed = urlparse_cached(request)
        host = parsed.hostname or ""
        reason = self.trap_reason(request.url, host, parsed.path, parsed.query)
        if reason is None and parsed.query:
            pattern = self.pattern_of(host, parsed.path, parsed.query)
            self.patterns[pattern] += 1
            if self.patterns[pattern] > self.max_per_pattern:
                reason = "pattern"
        if reason is not None:
            self.reject(request, f"trap/{reason}", spider)
