"""Workers of one crawl pool what their link models learn, through a real redis-server."""

import pytest_twisted
from scrapy import Spider, signals
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler
from test_prediction_middleware import link, train

from geofocus.prediction.features import link_terms
from geofocus.spidermiddlewares.prediction import LinkPredictionMiddleware
from tests.redisutil import free_port, shared_server, unique_crawl_id


class GeoSpider(Spider):
    name = "geo"


def worker(run_dir, url, crawl_id, **settings):
    crawler = get_crawler(GeoSpider, {
        "GEOFOCUS_RUN_DIR": str(run_dir), "GEOFOCUS_REDIS_URL": url, "GEOFOCUS_CRAWL_ID": crawl_id,
        "GEOFOCUS_MODEL_SYNC_INTERVAL": 3600, **settings,
    })  # fmt: skip
    crawler.spider = crawler._create_spider()
    mw = build_from_crawler(LinkPredictionMiddleware, crawler)
    crawler.signals.send_catch_log(signals.spider_opened, spider=crawler.spider)
    return crawler, mw


def close(crawler):
    crawler.signals.send_catch_log(signals.spider_closed, spider=crawler.spider, reason="finished")


KONTAKT = link_terms(link("http://neu.de/kontakt", "Kontakt"))


@pytest_twisted.inlineCallbacks
def test_workers_learn_from_each_other(tmp_path):
    server = shared_server()
    url = f"redis://127.0.0.1:{server.port}/0"
    crawl = unique_crawl_id("pool")
    ca, a = worker(tmp_path / "a", url, crawl)
    cb, b = worker(tmp_path / "b", url, crawl)
    yield a.pool_sync.pending  # the first sync starts at spider_opened
    yield b.pool_sync.pending
    assert a.pooled and b.model.examples() == 0
    train(a)  # 20 examples: Kontakt links relevant, AGB links not
    yield a.sync()
    yield b.sync()
    assert b.model.examples() == 20
    assert b.model.prediction(KONTAKT) > 0.5
    assert b.model.probabilities(KONTAKT) == a.model.probabilities(KONTAKT)
    train(b, n=5)
    yield b.sync()
    yield a.sync()
    assert a.model.examples() == b.model.examples() == 30  # each count arrives once
    assert cb.stats.get_value("geofocus/prediction/pool/examples_merged") == 20
    # A worker that closes ships the rest; a worker started later gets everything pooled.
    train(a, n=1)
    close(ca)
    close(cb)
    _, c = worker(tmp_path / "c", url, crawl)
    yield c.pool_sync.pending
    assert c.model.examples() == 32
    # A restarted worker reuses its run directory but starts from the pool, not from
    # its model.json (which already holds pooled counts: loading both would count twice).
    assert (tmp_path / "a" / "model.json").exists()
    ca2, a2 = worker(tmp_path / "a", url, crawl)
    yield a2.pool_sync.pending
    assert a2.model.examples() == 32
    close(ca2)


@pytest_twisted.inlineCallbacks
def test_unreachable_redis_keeps_learning_locally(tmp_path):
    dead = f"redis://127.0.0.1:{free_port()}/0"
    crawler, mw = worker(tmp_path, dead, unique_crawl_id("dead"), GEOFOCUS_REDIS_TIMEOUT=0.5)
    yield mw.pool_sync.pending
    train(mw, n=3)
    yield mw.sync()
    assert crawler.stats.get_value("geofocus/prediction/pool/errors") == 2
    assert mw.model.examples() == 6
    # Nothing learned is lost: the failed deltas are shipped with the next exchange.
    assert sum(map(sum, mw.model.take_delta()["docs"])) == 6
    close(crawler)  # the final exchange fails too: logged, not raised
    assert (tmp_path / "model.json").exists()


@pytest_twisted.inlineCallbacks
def test_the_pool_connects_with_the_crawls_client_parameters(tmp_path):
    """GEOFOCUS_REDIS_PARAMS (and scrapy-redis's REDIS_PARAMS) reach the pool's client as they reach
    the frontier's: a TLS-only Redis set up through them would otherwise leave the model unpooled."""
    server = shared_server()
    url = f"redis://127.0.0.1:{server.port}/0"
    name = unique_crawl_id("poolclient")
    crawler, mw = worker(tmp_path, url, unique_crawl_id("params"), GEOFOCUS_REDIS_PARAMS={"client_name": name})
    yield mw.pool_sync.pending
    train(mw, n=1)
    yield mw.sync()
    assert crawler.stats.get_value("geofocus/prediction/pool/errors") is None
    clients = server.client().client_list()
    assert any(c.get("name") == name for c in clients), [c.get("name") for c in clients]
    close(crawler)
