"""Link prediction (Ahlers & Boll 2009, sections 4.3-4.5): link features and the bridge-aware naive Bayes.

Pure Python, no Scrapy; the crawler uses it through
``geofocus.spidermiddlewares.prediction.LinkPredictionMiddleware``.
"""

from geofocus.prediction.features import link_terms
from geofocus.prediction.model import BridgeNaiveBayes, priority

__all__ = ["BridgeNaiveBayes", "link_terms", "priority"]
