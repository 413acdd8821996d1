"""The periodic log line, with the harvest rate next to Scrapy's page and item rates."""

from __future__ import annotations

import logging

from scrapy.extensions.logstats import LogStats

logger = logging.getLogger(__name__)


class GeoLogStats(LogStats):
    def log(self, spider: object = None) -> None:
        assert self.stats is not None
        fetched = self.stats.get_value("geofocus/fetched", 0)
        relevant = self.stats.get_value("geofocus/relevant", 0)
        previous = getattr(self, "_previous_fetched", 0)
        self._previous_fetched = fetched
        rate = (fetched - previous) * self.multiplier
        logger.info(
            "Fetched %(fetched)d pages (at %(rate)d pages/min), %(relevant)d relevant "
            "(harvest rate %(harvest).1f%%), frontier %(frontier)d",
            {
                "fetched": fetched,
                "rate": rate,
                "relevant": relevant,
                "harvest": 100.0 * relevant / fetched if fetched else 0.0,
                "frontier": self.stats.get_value("geofocus/frontier/size", 0),
            },
        )
