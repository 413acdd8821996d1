"""Scrapy's stats collectors without the look-up shim of Scrapy 2.19.

Scrapy 2.19's ``StatsCollector`` defines a Python-level ``__getattribute__`` so that its methods can warn
when a caller passes the deprecated ``spider`` argument.  Every attribute read on the collector goes
through it, ``self._stats`` inside ``inc_value`` included (a failed ``_cached__stats`` look-up, an
``AttributeError`` raised and caught): an ``inc_value`` costs about 1.9 us of CPU instead of 0.14
(``python bench/stats.py``), and a crawl makes tens of such calls per page in Scrapy's core and in
geofocus's components.  The collectors here read their attributes the plain way; the methods still take
``spider``, only the deprecation warning is gone (geofocus passes none).
"""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector


class PlainAttributes:
    """Mixin, first among the bases: attribute reads without Scrapy's per-access wrapper."""

    __getattribute__ = object.__getattribute__


class GeoStatsCollector(PlainAttributes, MemoryStatsCollector):
    """Scrapy's default ``MemoryStatsCollector`` (``STATS_CLASS`` of the geofocus project)."""
