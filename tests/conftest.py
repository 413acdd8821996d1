import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# The offline web answers at once: the tests' crawls (in-process and every `scrapy`
# subprocess, which inherits this) run without the live Web's politeness delays.
os.environ["SCRAPY_SETTINGS_MODULE"] = "geofocus.offline_settings"


def project_settings(**overrides):
    """The project's settings (geofocus/settings.py) as a dict, with overrides: for get_crawler."""
    from geofocus import offline_settings as module

    values = {name: getattr(module, name) for name in dir(module) if name.isupper()}
    values.update(overrides)
    return values


@pytest.fixture
def prediction_mw():
    """A factory of LinkPredictionMiddleware in a real Scrapy crawler whose spider is open.

    ``prediction_mw(run_dir, strategy_attr=None, **settings)`` -> (crawler, middleware); the run
    directory is ``run_dir``, the prediction depth 3, ``settings`` override; ``strategy_attr``
    sets the spider's ``strategy`` attribute (as ``-a strategy=`` does).
    """
    from scrapy import Spider, signals
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from geofocus.spidermiddlewares.prediction import LinkPredictionMiddleware

    class GeoSpider(Spider):
        name = "geo"

    def make(run_dir, strategy_attr=None, **settings):
        base = {"GEOFOCUS_RUN_DIR": str(run_dir), "GEOFOCUS_PREDICTION_DEPTH": 3}
        crawler = get_crawler(GeoSpider, {**base, **settings})
        crawler.spider = crawler._create_spider()
        if strategy_attr:
            crawler.spider.strategy = strategy_attr
        mw = build_from_crawler(LinkPredictionMiddleware, crawler)
        crawler.signals.send_catch_log(signals.spider_opened, spider=crawler.spider)
        return crawler, mw

    return make
