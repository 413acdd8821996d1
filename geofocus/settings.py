"""Scrapy settings of the geofocus project.

GEOFOCUS_* defaults live in geofocus/defaults.py and are loaded here so that
``-s NAME=VALUE`` on the command line overrides any of them.
"""

from geofocus.defaults import *  # noqa: F401,F403  (GEOFOCUS_* defaults)

BOT_NAME = "geofocus"
SPIDER_MODULES = ["geofocus.spiders"]
NEWSPIDER_MODULE = "geofocus.spiders"
COMMANDS_MODULE = "geofocus.commands"

USER_AGENT = "geofocus/0.1 (+https://github.com/geofocus/geofocus; geospatial focused crawler)"
ROBOTSTXT_OBEY = True

CONCURRENT_REQUESTS = 32
CONCURRENT_REQUESTS_PER_DOMAIN = 2
# Politeness on the live Web: a delay between requests to one host, adapted by AutoThrottle
# to the host's response times (ACHE waits about 5 s per host).  The offline web (simweb,
# tests, demo, benchmarks) turns both off: geofocus/offline_settings.py.
DOWNLOAD_DELAY = 1.0
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 8 * 1024 * 1024
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024
REDIRECT_MAX_TIMES = 5
RETRY_TIMES = 1
COOKIES_ENABLED = False
# Scrapy starts this many workers per response to process its output; a page's
# items are few, and 100 workers per page cost more than the page itself.
CONCURRENT_ITEMS = 8
TELNETCONSOLE_ENABLED = False
# Scrapy 2.19 enables by default an HTTP endpoint on localhost that executes Python code sent to it
# (token in the user's profile directory): off unless -s REMOTE_CONTROL_ENABLED=True asks for it.
REMOTE_CONTROL_ENABLED = False
REQUEST_FINGERPRINTER_CLASS = "geofocus.fingerprint.NormalizedURLFingerprinter"
FEED_EXPORT_ENCODING = "utf-8"
# -o addresses.csv: one row per address (url, street, ..., lat, lon, precision, fetched_at ISO 8601).
FEED_EXPORTERS = {"csv": "geofocus.reporting.export.AddressCsvItemExporter"}
LOG_LEVEL = "INFO"

TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

SCHEDULER = "geofocus.scheduler.GeoScheduler"
# Scrapy's in-memory stats without the per-attribute shim of Scrapy 2.19 (geofocus/stats.py).
STATS_CLASS = "geofocus.stats.GeoStatsCollector"

DOWNLOADER_MIDDLEWARES = {
    # Scrapy's offsite filter parses the URL of every scheduled request (its request_scheduled
    # receiver) to compare its host with the spider's allowed_domains: the geo spider has none and
    # follows every domain, so it would never filter (docs/performance.md, Session 7).
    "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware": None,
    # URL filters run before robots.txt is fetched for a host that would be dropped anyway.
    "geofocus.downloadermiddlewares.tld.TldFilterMiddleware": 50,
    "geofocus.downloadermiddlewares.traps.TrapFilterMiddleware": 60,
    "geofocus.downloadermiddlewares.language.LanguageFilterMiddleware": 580,
    "geofocus.downloadermiddlewares.contenttype.ContentTypeFilterMiddleware": 585,
    # Responses: after decompression (590), before anything reads the text (meta refresh 580).
    "geofocus.downloadermiddlewares.encoding.EncodingSniffMiddleware": 588,
    # After HttpProxyMiddleware (750), which tells whether a proxy resolves host names.
    "geofocus.downloadermiddlewares.private.PrivateAddressMiddleware": 760,
    # Geoparses each response off the reactor thread (its process_response runs after decompression and redirects).
    "geofocus.downloadermiddlewares.geoparse.GeoParseDownloaderMiddleware": 100,
}

SPIDER_MIDDLEWARES = {
    # Scrapy's Referer middleware with the policy and the page's stripped URL worked out once per
    # page, not once per link (the same headers: geofocus/spidermiddlewares/referer.py).
    "scrapy.spidermiddlewares.referer.RefererMiddleware": None,
    "geofocus.spidermiddlewares.referer.PageRefererMiddleware": 700,
    "geofocus.spidermiddlewares.finish.PageFinishedMiddleware": 10,
    "geofocus.spidermiddlewares.geoeval.GeoEvaluationMiddleware": 550,
    # Strategy "classifier": link SVM, map images, selection and exploration (after decay and prediction).
    "geofocus.spidermiddlewares.classifier.ClassifierMiddleware": 560,
    "geofocus.spidermiddlewares.prediction.LinkPredictionMiddleware": 570,
    "geofocus.spidermiddlewares.decay.BridgeDistanceMiddleware": 580,
    "geofocus.spidermiddlewares.partition.PartitionMiddleware": 590,
}

# scrapy-redis's REDIS_URL as an alias of GEOFOCUS_REDIS_URL, and GEOFOCUS_REDIS_SHARED_STATS
# (geofocus/redis/addon.py).
ADDONS = {
    "geofocus.redis.addon.RedisSettings": 0,
}

EXTENSIONS = {
    "scrapy.extensions.logstats.LogStats": None,
    "geofocus.extensions.logstats.GeoLogStats": 0,
    # user:password@ in logged URLs becomes user:***@ (credentials stay in URL identity).
    "geofocus.logredact.RedactPasswords": 1,
    # geofocus/reactor/max_lag_ms: how long any work held the reactor thread.
    "geofocus.extensions.reactorlag.ReactorLag": 5,
    # Python's garbage collector: start-up objects frozen, fewer young collections.
    "geofocus.extensions.gctuning.GcTuning": 6,
    "geofocus.extensions.crawllog.CrawlLog": 500,
    "geofocus.extensions.budget.PageBudget": 510,
    "geofocus.redis.extension.RedisCrawl": 520,
    # RUN_DIR/series.jsonl and the closing summary line.
    "geofocus.extensions.series.CrawlSeries": 600,
    # Why a crawl fetched nothing (the exit code of scrapy crawl).
    "geofocus.extensions.outcome.CrawlOutcome": 610,
    # RUN_DIR/report/index.html during the crawl; Prometheus metrics when a port is set.
    "geofocus.extensions.livereport.LiveReport": 620,
    "geofocus.extensions.prometheus.PrometheusMetrics": 630,
    # PostGIS and WARC outputs (off unless GEOFOCUS_POSTGIS_DSN / GEOFOCUS_WARC are set).
    "geofocus.postgis.writer.PostgisWriter": 640,
    "geofocus.extensions.warc.WarcWriter": 650,
}
