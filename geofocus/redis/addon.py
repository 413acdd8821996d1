"""Scrapy add-on: scrapy-redis's settings as aliases of geofocus's, and the shared stats option.

Runs before any component reads its settings (``ADDONS`` in geofocus/settings.py):

- ``REDIS_URL`` (scrapy-redis) becomes ``GEOFOCUS_REDIS_URL`` when that is
  empty, so ``-s REDIS_URL=redis://host:6379/0`` makes a shared crawl;
  ``REDIS_PARAMS`` is read by :func:`geofocus.redis.connection.redis_params`;
- ``GEOFOCUS_REDIS_SHARED_STATS=True`` in a shared crawl sets ``STATS_CLASS``
  to :class:`geofocus.redis.stats.SharedStatsCollector` in place of the project's
  :class:`geofocus.stats.GeoStatsCollector` (another ``STATS_CLASS``, given on the
  command line or in a user's settings, wins).
"""

from __future__ import annotations

from typing import Any

SHARED_STATS_CLASS = "geofocus.redis.stats.SharedStatsCollector"
PROJECT_STATS_CLASS = "geofocus.stats.GeoStatsCollector"


class RedisSettings:
    def update_settings(self, settings: Any) -> None:
        url = settings.get("REDIS_URL")
        if url and not settings.get("GEOFOCUS_REDIS_URL"):
            settings.set("GEOFOCUS_REDIS_URL", url, priority=settings.getpriority("REDIS_URL"))
        if settings.getbool("GEOFOCUS_REDIS_SHARED_STATS") and settings.get("GEOFOCUS_REDIS_URL"):
            if settings.get("STATS_CLASS") == PROJECT_STATS_CLASS:
                # the project's own choice (settings.py) gives way; at its priority, as an add-on's would not
                settings.set("STATS_CLASS", SHARED_STATS_CLASS, priority=settings.getpriority("STATS_CLASS"))
            else:
                settings.set("STATS_CLASS", SHARED_STATS_CLASS, priority="addon")
