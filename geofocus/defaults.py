"""Every GEOFOCUS_* setting with its default, in one place.

Components read these through ``crawler.settings``; ``geofocus/settings.py``
loads them into the project settings so ``-s NAME=VALUE`` overrides any of them.
"""

import os

from geofocus.strategies import STRATEGIES as _STRATEGIES

# Where a crawl keeps its state (frontier.sqlite, crawl.jsonl, model, series).
# Empty: runs/<region>-<timestamp> under the current directory.
GEOFOCUS_RUN_DIR = ""

# Crawl strategy: "online" (hashed logistic link model + host yield, the best measured; docs/prediction.md),
# "adaptive" (the paper: decay + naive-Bayes link prediction), "distance" (decay only), "bfs".
GEOFOCUS_STRATEGY = "online"

# Bridge-distance decay: score = decay ** dist (Ahlers & Boll, section 4.1).
GEOFOCUS_DECAY = 0.5

# Link prediction depth n (Ahlers & Boll found 3 best).
GEOFOCUS_PREDICTION_DEPTH = 3

# Path to a saved link model to start warm ("" starts empty).
GEOFOCUS_MODEL = ""

# Frontier backend: the embedded SQLite frontier, or Redis when a URL is set
# (scrapy-redis's REDIS_URL is read when GEOFOCUS_REDIS_URL is empty).
GEOFOCUS_REDIS_URL = ""
GEOFOCUS_CRAWL_ID = ""

# SQLite page cache of the frontier (MiB), and how often its changes are committed (s).  The frontier appends
# records it reads back only at open and at a compaction (one pass each): a larger cache is resident memory
# (64 MiB until session 9: 51-56 MB of RSS at 1,000,000 queued) that no read comes back to.
GEOFOCUS_FRONTIER_CACHE_MB = 8
GEOFOCUS_FRONTIER_FLUSH_INTERVAL = 1.0
# ... and after this many finished pages, whichever comes first (bounds the redo after a kill -9).
GEOFOCUS_FRONTIER_FLUSH_PAGES = 10
# Every RESCORE_EVERY pops, RESCORE_BATCH queued URLs are re-scored with the current link model.
GEOFOCUS_RESCORE_EVERY = 200
GEOFOCUS_RESCORE_BATCH = 500
# ... or, when the frontier lists its queue from memory (the embedded one) and the strategy keeps its
# queued links' features (``online``), the whole queue every RESCORE_EVERY pops, each link keeping
# GEOFOCUS_ONLINE_FOUND_WEIGHT of the priority it was found with (docs/prediction.md: better than
# batches on both simweb regions in process and in real crawls); ~110-150 bytes per queued link.
GEOFOCUS_RESCORE_QUEUE = True
# Seed of the frontier's random tie-breaks ("" = a new one every run); set it for repeatable experiments.
GEOFOCUS_FRONTIER_SEED = ""

# Allow requests to private, loopback and link-local addresses (simweb and tests need it).
GEOFOCUS_ALLOW_PRIVATE = False

# Filters.
GEOFOCUS_TLD_FILTER_ENABLED = True
GEOFOCUS_TRAP_FILTER_ENABLED = True
GEOFOCUS_TRAP_MAX_URL_LENGTH = 256
GEOFOCUS_TRAP_MAX_SEGMENT_REPEATS = 2
GEOFOCUS_TRAP_MAX_PER_PATTERN = 500
GEOFOCUS_CONTENT_TYPE_FILTER_ENABLED = True
GEOFOCUS_LANGUAGE_FILTER_ENABLED = True

# Pages larger than this are not parsed for addresses (bytes).
GEOFOCUS_MAX_PARSE_BYTES = 2_000_000
# Threads that run the geoparser off the reactor thread (0: parse on the reactor thread).
# Two, so that a slow page does not queue the next ones behind it (the GIL shares one core among them).
GEOFOCUS_GEOPARSER_THREADS = 2

# Stop after this many evaluated pages, counted across resumed runs (0: no limit).
GEOFOCUS_MAX_PAGES = 0

# Crawl log and time series.
GEOFOCUS_CRAWL_LOG_ENABLED = True
GEOFOCUS_SERIES_EVERY = 100

# Link prediction: Laplace smoothing of the naive Bayes, and how often (seconds)
# the learned model is saved to RUN_DIR/model.json (also saved on close).
GEOFOCUS_PREDICTION_ALPHA = 1.0
GEOFOCUS_MODEL_SAVE_INTERVAL = 60
# The online strategy's logistic link model: AdaGrad step size, and 2**BITS hashed feature buckets.
GEOFOCUS_ONLINE_LR = 0.3
GEOFOCUS_ONLINE_BITS = 20
# ... and whether it uses the yield of a link's target host (relevant share of its fetched pages) as evidence.
GEOFOCUS_ONLINE_HOST_YIELD = True
# ... and, when it re-scores the whole queue, the share of a queued link's priority kept from when it
# was found (the rest is the current model's prediction): a model trained only on what it chose
# narrows the crawl if it alone re-ranks the queue (docs/prediction.md).
GEOFOCUS_ONLINE_FOUND_WEIGHT = 0.3
# ... and whether a link found again while it waits in that queue is scored again with the new page
# (and re-queued if it scores higher).  False: only when the new page gives it a smaller bridge distance;
# the others are dropped before their context is extracted, as a fetched link is, and the whole-queue
# passes keep their priority current.  False halves the links scored (~6 % of online's CPU a page) but
# lost 0.14-0.61 points of harvest rate on every seed tried (docs/prediction.md, "Links found again
# (session 14)"), so True stays the default.
GEOFOCUS_ONLINE_RESCORE_FOUND_AGAIN = True

# Scale-out over Redis (geofocus/redis/); active when GEOFOCUS_REDIS_URL is set.
# Password: in the URL or in the environment variable GEOFOCUS_REDIS_PASSWORD.
GEOFOCUS_REDIS_PREFIX = "geofocus"
GEOFOCUS_REDIS_TIMEOUT = 5.0
# Entries prefetched (and leased) per refill; most entries one worker may hold; per host per refill.
GEOFOCUS_REDIS_BATCH = 32
GEOFOCUS_REDIS_MAX_HELD = 256
GEOFOCUS_REDIS_SLOT_CAP = 8
# A popped entry stays leased this long without renewal (a worker killed with -9 loses it for that long).
GEOFOCUS_REDIS_LEASE_TTL = 120.0
# How often buffered pushes/dones are sent; how long pop may wait when the local batch is empty.
GEOFOCUS_REDIS_FLUSH_INTERVAL = 1.0
GEOFOCUS_REDIS_POP_WAIT = 0.05
# Fingerprints a worker remembers locally (~100 bytes each) to answer push() without Redis.
GEOFOCUS_REDIS_KNOWN_MAX = 500_000
# An idle worker of a shared crawl waits this long for other workers' pages to bring new URLs.
GEOFOCUS_REDIS_IDLE_TIMEOUT = 30.0
# How often an idle worker looks for seeds in Redis and for URLs other workers queued.
GEOFOCUS_REDIS_POLL_INTERVAL = 0.5
# Further redis-py client arguments (e.g. {"ssl_ca_certs": "/etc/ca.pem"}), over scrapy-redis's
# REDIS_PARAMS (decode_responses must stay off).
GEOFOCUS_REDIS_PARAMS: dict[str, object] = {}
# Add every worker's Scrapy stats up in Redis (scrapy-redis's RedisStatsCollector, made safe for
# many workers: geofocus/redis/stats.py), so each worker's stats and `crawl-admin status` are
# crawl-wide.
GEOFOCUS_REDIS_SHARED_STATS = False

# Collaboration (Gao et al. 2006): this worker's node name and the URL assignment policy
# (host|hash|url|anchor|content|classification|ip; empty: host for a one-city region,
# content for a region set).  GEOFOCUS_NODES: the node plan, "" = from the region.
GEOFOCUS_NODE = ""
GEOFOCUS_PARTITION = ""
GEOFOCUS_NODES = ""
GEOFOCUS_GEOIP_DB = ""
# With GEOFOCUS_REDIS_URL: seconds between exchanges of link-model counts with the crawl's pool.
GEOFOCUS_MODEL_SYNC_INTERVAL = 5.0

# -- The user's crawl: progress, live view, exports (geofocus/extensions/).
# Seconds between progress lines in the log (pages, relevant, harvest rate, rate, budget, ETA, frontier).
GEOFOCUS_PROGRESS_INTERVAL = 10.0
# RUN_DIR/report/index.html is rebuilt during the crawl every this many pages or seconds,
# whichever comes first (0 pages and 0 seconds: only at the end; the page reloads itself).
# GEOFOCUS_LIVE_REPORT = False: no report from the crawl (`scrapy report` still makes one).
GEOFOCUS_LIVE_REPORT = True
# 0: rebuilt on the timer only. A build costs about 1 s of CPU at a few thousand pages, and the page reloads
# itself every interval anyway: rebuilding every 500 pages cost a fast crawl 2-3 ms per page (docs/performance.md).
GEOFOCUS_LIVE_REPORT_PAGES = 0
GEOFOCUS_LIVE_REPORT_INTERVAL = 60.0
# Python's garbage collector during a crawl (geofocus/extensions/gctuning.py): the objects built at
# start frozen out of every collection, and a young collection every this many net allocations of
# containers instead of Python's 700 (0: Python's threshold).  False: Python's defaults.
GEOFOCUS_GC_FREEZE = True
GEOFOCUS_GC_THRESHOLD = 20_000
# Serve the progress figures as Prometheus metrics on this port (0: off).
GEOFOCUS_PROMETHEUS_PORT = 0
GEOFOCUS_PROMETHEUS_ADDR = "127.0.0.1"


# PostGIS output (geofocus/postgis/): every evaluated page and its addresses in PostgreSQL.
# Off while the DSN is empty; password in the DSN or in $GEOFOCUS_POSTGIS_PASSWORD (never logged).
# The environment variable of the same name sets it too (docker-compose's workers, scrapyd jobs).
GEOFOCUS_POSTGIS_DSN = os.environ.get("GEOFOCUS_POSTGIS_DSN", "")
# Rows per write, and seconds between writes of a smaller batch.
GEOFOCUS_POSTGIS_BATCH = 200
GEOFOCUS_POSTGIS_FLUSH_INTERVAL = 1.0
# While PostgreSQL is away: rows kept in memory before they go to RUN_DIR/postgis-spool.jsonl.
GEOFOCUS_POSTGIS_BUFFER = 5000
# Seconds to wait for a connection; between reconnection attempts; to write what is left at close.
GEOFOCUS_POSTGIS_TIMEOUT = 5.0
GEOFOCUS_POSTGIS_RETRY_INTERVAL = 2.0
GEOFOCUS_POSTGIS_CLOSE_TIMEOUT = 10.0

# WARC output (geofocus/extensions/warc.py): "off", "relevant" (relevant pages only) or "all" evaluated pages.
GEOFOCUS_WARC = "off"
# Where the WARC files go ("" = RUN_DIR/warc), and the size at which a new file is started (bytes).
GEOFOCUS_WARC_DIR = ""
GEOFOCUS_WARC_MAX_SIZE = 1_000_000_000


# Classifier-guided crawling (strategy "classifier", Tsikrika et al.; docs/classifier.md).
# Thresholds t1 (select), t2 (select with a map on the parent, t2 < t1), t3 (explore, t3 < t1).
GEOFOCUS_CLASSIFIER_T1 = 0.5
GEOFOCUS_CLASSIFIER_T2 = 0.2
GEOFOCUS_CLASSIFIER_T3 = 0.2
# Fusion f = a1 * score_T + a2 * score_V (the priority); A2 "" means t1 - t2 (the paper's equation 3).
GEOFOCUS_CLASSIFIER_A1 = 1.0
GEOFOCUS_CLASSIFIER_A2 = ""
# skip-k exploration: a trail stops after k pages without a link over t1.
GEOFOCUS_CLASSIFIER_SKIP_K = 1
# Selection text|visual|both|product; exploration none|text|visual|product.
GEOFOCUS_CLASSIFIER_SELECTION = "both"
GEOFOCUS_CLASSIFIER_EXPLORATION = "none"
# Model files (JSON, written by `scrapy train`): the link SVM (required) and the map image SVM
# (required when selection or exploration uses images).
GEOFOCUS_LINK_SVM = ""
GEOFOCUS_IMAGE_SVM = ""
# Images: at most this many per page, larger bodies are not downloaded (bytes).
GEOFOCUS_IMAGE_MAX_PER_PAGE = 20
GEOFOCUS_IMAGE_MAX_BYTES = 2_000_000


# What each setting allows; geofocus/settingscheck.py checks every GEOFOCUS_* setting against
# this when a crawl or a scrapy command starts, and stops with one line naming the setting, the
# value and what is allowed.  A setting without a line here is still checked against the type
# of its default above.  Keys: type (int, float, bool, str; default: the default's type),
# min / max (inclusive), above / below (exclusive), choices, file (an existing file when not "").
# (The leading underscore keeps it out of ``from geofocus.defaults import *``.)
_ALLOWED = {
    "GEOFOCUS_STRATEGY": {"choices": _STRATEGIES},
    "GEOFOCUS_DECAY": {"type": float, "above": 0, "max": 1},
    "GEOFOCUS_PREDICTION_DEPTH": {"min": 1, "max": 10},
    "GEOFOCUS_MODEL": {"file": True},
    "GEOFOCUS_FRONTIER_CACHE_MB": {"min": 1},
    "GEOFOCUS_FRONTIER_FLUSH_INTERVAL": {"above": 0},
    "GEOFOCUS_FRONTIER_FLUSH_PAGES": {"min": 1},
    "GEOFOCUS_RESCORE_EVERY": {"min": 0},
    "GEOFOCUS_RESCORE_BATCH": {"min": 0},
    "GEOFOCUS_TRAP_MAX_URL_LENGTH": {"min": 16},
    "GEOFOCUS_TRAP_MAX_SEGMENT_REPEATS": {"min": 1},
    "GEOFOCUS_TRAP_MAX_PER_PATTERN": {"min": 1},
    "GEOFOCUS_MAX_PARSE_BYTES": {"min": 1},
    "GEOFOCUS_MAX_PAGES": {"min": 0},
    "GEOFOCUS_SERIES_EVERY": {"min": 0},
    "GEOFOCUS_PREDICTION_ALPHA": {"above": 0},
    "GEOFOCUS_ONLINE_FOUND_WEIGHT": {"type": float, "min": 0, "max": 1},
    "GEOFOCUS_MODEL_SAVE_INTERVAL": {"type": float, "above": 0},
    "GEOFOCUS_REDIS_TIMEOUT": {"above": 0},
    "GEOFOCUS_REDIS_BATCH": {"min": 1},
    "GEOFOCUS_REDIS_MAX_HELD": {"min": 1},
    "GEOFOCUS_REDIS_SLOT_CAP": {"min": 1},
    "GEOFOCUS_REDIS_LEASE_TTL": {"above": 0},
    "GEOFOCUS_REDIS_FLUSH_INTERVAL": {"above": 0},
    "GEOFOCUS_REDIS_POP_WAIT": {"min": 0},
    "GEOFOCUS_REDIS_KNOWN_MAX": {"min": 0},
    "GEOFOCUS_REDIS_IDLE_TIMEOUT": {"min": 0},
    "GEOFOCUS_REDIS_POLL_INTERVAL": {"above": 0},
    "GEOFOCUS_PARTITION": {"choices": ("", "host", "hash", "url", "anchor", "content", "classification", "ip")},
    "GEOFOCUS_MODEL_SYNC_INTERVAL": {"above": 0},
    "GEOFOCUS_PROGRESS_INTERVAL": {"above": 0},
    "GEOFOCUS_LIVE_REPORT_PAGES": {"min": 0},
    "GEOFOCUS_LIVE_REPORT_INTERVAL": {"min": 0},
    "GEOFOCUS_GC_THRESHOLD": {"min": 0},
    "GEOFOCUS_PROMETHEUS_PORT": {"min": 0, "max": 65535},
    "GEOFOCUS_POSTGIS_BATCH": {"min": 1},
    "GEOFOCUS_POSTGIS_FLUSH_INTERVAL": {"above": 0},
    "GEOFOCUS_POSTGIS_BUFFER": {"min": 0},
    "GEOFOCUS_POSTGIS_TIMEOUT": {"above": 0},
    "GEOFOCUS_POSTGIS_RETRY_INTERVAL": {"above": 0},
    "GEOFOCUS_POSTGIS_CLOSE_TIMEOUT": {"min": 0},
    "GEOFOCUS_WARC": {"choices": ("off", "relevant", "all")},
    "GEOFOCUS_WARC_MAX_SIZE": {"min": 1},
    "GEOFOCUS_CLASSIFIER_T1": {"type": float, "min": 0, "max": 1},
    "GEOFOCUS_CLASSIFIER_T2": {"type": float, "min": 0, "max": 1},
    "GEOFOCUS_CLASSIFIER_T3": {"type": float, "min": 0, "max": 1},
    "GEOFOCUS_CLASSIFIER_A1": {"type": float, "min": 0},
    "GEOFOCUS_CLASSIFIER_SKIP_K": {"min": 0},
    "GEOFOCUS_CLASSIFIER_SELECTION": {"choices": ("text", "visual", "both", "product")},
    "GEOFOCUS_CLASSIFIER_EXPLORATION": {"choices": ("none", "text", "visual", "product")},
    "GEOFOCUS_IMAGE_MAX_PER_PAGE": {"min": 0},
    "GEOFOCUS_IMAGE_MAX_BYTES": {"min": 1},
}

# Settings geofocus no longer reads: given on a command line they are ignored with a warning
# that says so (not "unknown setting"), so that old commands still run.
_RETIRED = {
    "GEOFOCUS_FRONTIER_BATCH": "the SQLite frontier keeps its order in memory and commits on a timer",
    "GEOFOCUS_FRONTIER_LOOKAHEAD": "busy hosts are passed over exactly, without a lookahead",
}
