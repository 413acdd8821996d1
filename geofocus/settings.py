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
DOWNLOAD_DELAY = 0
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 8 * 1024 * 1024
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024
REDIRECT_MAX_TIMES = 5
RETRY_TIMES = 1
COOKIES_ENABLED = False
TELNETCONSOLE_ENABLED = False
REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"

TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

# Crawl series (RUN_DIR/series.jsonl) and the closing summary line; added to any EXTENSIONS above.
EXTENSIONS = {**globals().get("EXTENSIONS", {}), "geofocus.extensions.series.CrawlSeries": 600}
