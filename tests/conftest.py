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

# The shared fixtures, for every test module (imported here, not in each module).
from tests.pgutil import pg_cluster, pg_dsn  # noqa: E402, F401
from tests.redisutil import redis_server, shared_redis, volatile_redis  # noqa: E402, F401
from tests.simweb_server import simweb  # noqa: E402, F401


def project_settings(**overrides):
    """The project's settings (geofocus/settings.py) as a dict, with overrides: for get_crawler."""
    from geofocus import offline_settings as module

    values = {name: getattr(module, name) for name in dir(module) if name.isupper()}
    values.update(overrides)
    return values


@pytest.fixture(scope="module")
def oldenburg():
    """The geoparser of the oldenburg region pack."""
    from geofocus.geoparser import GeoParser
    from geofocus.regions import load_region

    return GeoParser(load_region("oldenburg"))


@pytest.fixture(scope="module")
def us():
    """The geoparser of the us-top100 region pack."""
    from geofocus.geoparser import GeoParser
    from geofocus.regions import load_region

    return GeoParser(load_region("us-top100"))


@pytest.fixture
def prediction_mw():
    """A factory of LinkPredictionMiddleware in a real Scrapy crawler whose spider is open.

    ``prediction_mw(run_dir, strategy_arg=None, **settings)`` -> (crawler, middleware); the run
    directory is ``run_dir``, the prediction depth 3, the strategy the paper's (``adaptive``; the
    project's default ``online`` is asked for in test_prediction_online.py), ``settings`` override;
    ``strategy_arg`` is the spider's ``-a strategy=`` (in the crawl context).
    """
    from scrapy import Spider, signals
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from geofocus.context import CrawlContext, set_crawl_context
    from geofocus.spidermiddlewares.prediction import LinkPredictionMiddleware

    class GeoSpider(Spider):
        name = "geo"

    def make(run_dir, strategy_arg=None, **settings):
        base = {"GEOFOCUS_RUN_DIR": str(run_dir), "GEOFOCUS_PREDICTION_DEPTH": 3, "GEOFOCUS_STRATEGY": "adaptive"}
        crawler = get_crawler(GeoSpider, {**base, **settings})
        crawler.spider = crawler._create_spider()
        if strategy_arg:
            set_crawl_context(crawler, CrawlContext.from_settings(crawler.settings, strategy=strategy_arg))
        mw = build_from_crawler(LinkPredictionMiddleware, crawler)
        crawler.signals.send_catch_log(signals.spider_opened, spider=crawler.spider)
        return crawler, mw

    return make
