"""Crawl evaluation: the measures of the three papers, computed from run directories.

Pure library (no Scrapy): every function takes page records as written to
``RUN_DIR/crawl.jsonl`` (dicts) and returns numbers, distributions, or
:class:`NotAvailable` when the run lacks the data a measure needs.

- :mod:`geofocus.metrics.runlog`: loading run directories.
- :mod:`geofocus.metrics.harvest`: Ahlers & Boll (harvest rate, bridge distances, tails,
  seed distances).
- :mod:`geofocus.metrics.collab`: Gao et al. (geo-coverage, geo-focus, entities,
  geo-centrality, overlap, diversity, communication overhead, geographic locality).
- :mod:`geofocus.metrics.truth`: Tsikrika et al. (precision, recall, F1 against simweb's truth).
- :mod:`geofocus.metrics.addresses`: distinct addresses and GeoJSON.
"""

from geofocus.metrics.base import NotAvailable, is_available

__all__ = ["NotAvailable", "is_available"]
