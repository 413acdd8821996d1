"""The crawl's PostGIS writer: every evaluated page and its addresses, written off the reactor thread.

An extension on ``page_evaluated`` (not an item pipeline: items exist only for
relevant pages, and the ``pages`` table holds every evaluated page, as
crawl.jsonl does).  The reactor thread only puts a record on a queue; one
writer thread batches the records (``GEOFOCUS_POSTGIS_BATCH`` rows or every
``GEOFOCUS_POSTGIS_FLUSH_INTERVAL`` seconds) and writes them through a psycopg
connection pool with the idempotent upserts of geofocus.postgis.store.

PostgreSQL lost mid-crawl: the thread keeps the rows in memory, up to
``GEOFOCUS_POSTGIS_BUFFER`` of them, then appends them to
``RUN_DIR/postgis-spool.jsonl``; it retries every
``GEOFOCUS_POSTGIS_RETRY_INTERVAL`` seconds and, once PostgreSQL answers, loads
the spool before new rows.  At close it tries for
``GEOFOCUS_POSTGIS_CLOSE_TIMEOUT`` seconds, then spools what is left; the next
run with the same run directory (or ``scrapy postgis-load RUN_DIR``) loads it.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout
from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import threads

from geofocus import signals as geo_signals
from geofocus.context import crawl_context
from geofocus.extensions.crawllog import page_record
from geofocus.postgis.dsn import PostgisUnavailableError, connect, conninfo, redact, scrub
from geofocus.postgis.schema import SchemaError, ensure_schema
from geofocus.postgis.spool import SPOOL_NAME, Spool
from geofocus.postgis.store import write_records
from geofocus.rundir import get_run_dir

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

# The pool's own reconnect warnings would repeat on every attempt; the writer says it once.
logging.getLogger("psycopg.pool").setLevel(logging.ERROR)

CONNECTION_ERRORS = (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout)



class WriterThread(threading.Thread):
    """Batches records from a queue into PostgreSQL; buffers and spools while it is away."""

    def __init__(self, dsn: str, spool: Spool, stats: Any, *, batch: int, interval: float, buffer_max: int,
                 timeout: float, retry_interval: float, close_timeout: float, run_id: str | None,
                 region: str | None) -> None:
        super().__init__(name="geofocus-postgis-writer", daemon=True)
        self.dsn = dsn
        self.spool = spool
        self.stats = stats
        self.batch = max(1, batch)
        self.interval = interval
        self.buffer_max = max(self.batch, buffer_max)
        self.timeout = timeout
        self.retry_interval = retry_interval
        self.close_timeout = close_timeout
        self.run_id = run_id
        self.region = region
        self.queue: queue.Queue[dict] = queue.Queue()
        self.closing = threading.Event()
        self.pool: ConnectionPool | None = None
        self.down = False
        self.pending: list[dict] = []

    # -- called from the reactor thread --------------------------------------------------------
    def put(self, record: dict) -> None:
        self.queue.put(record)

    def close(self) -> None:
        """Ask the thread to write everything and stop; blocks until it has (call it from a thread)."""
        self.closing.set()
        self.join()

    # -- the writer thread ---------------------------------------------------------------------
    def _pool(self) -> ConnectionPool:
        if self.pool is None:
            pool = ConnectionPool(conninfo(self.dsn), min_size=1, max_size=1, open=False, timeout=self.timeout,
                                  check=ConnectionPool.check_connection, name="geofocus-postgis",
                                  kwargs={"connect_timeout": max(1, int(self.timeout))})
            try:
                pool.open(wait=True, timeout=self.timeout)
            except BaseException:
                pool.close(timeout=0)
                raise
            self.pool = pool
        return self.pool

    def _drop_pool(self) -> None:
        # a fresh pool at the next retry: the pool's own reconnect backs off exponentially
        if self.pool is not None:
            self.pool.close(timeout=0)
            self.pool = None

    def _write(self, conn: psycopg.Connection, records: list[dict]) -> None:
        try:
            pages, addresses = write_records(conn, records, self.run_id, self.region)
        except CONNECTION_ERRORS:
            raise
        except psycopg.Error as exc:
            # a row PostgreSQL refuses must not block the others: write them one by one
            logger.warning("PostgreSQL refused a batch (%(error)s); writing its rows one by one",
                           {"error": scrub(str(exc), self.dsn)})
            pages = addresses = 0
            for record in records:
                try:
                    p, a = write_records(conn, [record], self.run_id, self.region)
                except CONNECTION_ERRORS:
                    raise
                except psycopg.Error as row_exc:
                    self.stats.inc_value("geofocus/postgis/rejected")
                    logger.warning("PostgreSQL refused the row of %(url)s: %(error)s",
                                   {"url": record.get("url"), "error": scrub(str(row_exc), self.dsn)})
                    continue
                pages, addresses = pages + p, addresses + a
        self.stats.inc_value("geofocus/postgis/pages", pages)
        self.stats.inc_value("geofocus/postgis/addresses", addresses)
        self.stats.inc_value("geofocus/postgis/batches")

    def flush(self) -> bool:
        """Write the spool (if any) and the pending rows; False if PostgreSQL is away."""
        try:
            with self._pool().connection(timeout=self.timeout) as conn:
                if self.spool.exists():
                    loaded = 0
                    for batch in self.spool.batches(self.batch):
                        self._write(conn, batch)
                        loaded += len(batch)
                    self.spool.remove()
                    self.stats.inc_value("geofocus/postgis/unspooled", loaded)
                    logger.info("Loaded %(n)d spooled rows from %(path)s into PostgreSQL",
                                {"n": loaded, "path": self.spool.path})
                while self.pending:
                    chunk = self.pending[: self.batch]
                    self._write(conn, chunk)
                    del self.pending[: len(chunk)]
        except CONNECTION_ERRORS as exc:
            self._drop_pool()
            self.stats.inc_value("geofocus/postgis/errors")
            if not self.down:
                self.down = True
                logger.warning(
                    "PostgreSQL at %(dsn)s is unavailable (%(error)s); keeping up to %(n)d rows in memory, "
                    "then in %(spool)s, until it is back",
                    {"dsn": redact(self.dsn), "error": scrub(str(exc), self.dsn) or type(exc).__name__,
                     "n": self.buffer_max, "spool": self.spool.path})
            return False
        if self.down:
            self.down = False
            logger.info("PostgreSQL at %(dsn)s is back", {"dsn": redact(self.dsn)})
        return True

    def spool_pending(self) -> None:
        if self.pending:
            self.spool.append(self.pending)
            self.stats.inc_value("geofocus/postgis/spooled", len(self.pending))
            self.pending = []

    def run(self) -> None:
        try:
            self._run()
        except Exception as exc:  # noqa: BLE001  (a thread's error would otherwise vanish)
            logger.error("The PostGIS writer stopped: %(error)s; %(n)d rows not written are in crawl.jsonl "
                         "(load them with `scrapy postgis-load`)",
                         {"error": scrub(str(exc), self.dsn) or type(exc).__name__,
                          "n": len(self.pending) + self.queue.qsize()})
            self.stats.inc_value("geofocus/postgis/errors")
            self._drop_pool()

    def _run(self) -> None:
        last_flush = time.monotonic()
        retry_at = 0.0
        spooled = self.spool.exists()
        close_deadline: float | None = None
        while True:
            try:
                self.pending.append(self.queue.get(timeout=min(self.interval, 0.2)))
                while len(self.pending) < self.batch * 4:
                    self.pending.append(self.queue.get_nowait())
            except queue.Empty:
                pass
            now = time.monotonic()
            closing = self.closing.is_set() and self.queue.empty()
            if closing and close_deadline is None:
                close_deadline = now + self.close_timeout
            due = (len(self.pending) >= self.batch or spooled
                   or (self.pending and now - last_flush >= self.interval) or (closing and self.pending))
            if due and now >= retry_at:
                last_flush = now
                if self.flush():
                    spooled = False
                else:
                    retry_at = time.monotonic() + self.retry_interval
            if len(self.pending) > self.buffer_max:
                self.spool_pending()
                spooled = True
            if closing and close_deadline is not None and (not (self.pending or spooled) or now >= close_deadline):
                break
        if self.pending or self.spool.exists():
            self.spool_pending()
            logger.warning(
                "PostgreSQL at %(dsn)s did not come back before the crawl closed: %(n)d rows are kept in "
                "%(spool)s; the next run with this run directory or `scrapy postgis-load` loads them",
                {"dsn": redact(self.dsn), "n": len(self.spool), "spool": self.spool.path})
        self._drop_pool()


class PostgisWriter:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.settings = crawler.settings
        self.dsn = crawler.settings.get("GEOFOCUS_POSTGIS_DSN")
        self.thread: WriterThread | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PostgisWriter:
        if not crawler.settings.get("GEOFOCUS_POSTGIS_DSN"):
            raise NotConfigured  # off by default: no message, which Scrapy would log as a WARNING on every crawl
        ext = cls(crawler)
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        crawler.signals.connect(ext.page_evaluated, geo_signals.page_evaluated)
        return ext

    def spider_opened(self, spider: Spider) -> None:
        settings = self.settings
        timeout = settings.getfloat("GEOFOCUS_POSTGIS_TIMEOUT")
        run_dir = get_run_dir(self.crawler)
        spool = Spool(run_dir / SPOOL_NAME)
        try:
            with connect(self.dsn, timeout) as conn:
                ensure_schema(conn)
        except (PostgisUnavailableError, SchemaError, psycopg.Error) as exc:
            message = str(exc) if not isinstance(exc, psycopg.Error) else scrub(str(exc), self.dsn)
            if isinstance(exc, SchemaError):  # writing would not work later either
                logger.error("%(error)s", {"error": message})
                self.crawler.engine.close_spider(spider, "postgis_schema_error")
                return
            # started without `scrapy crawl`'s check (e.g. by scrapyd) while PostgreSQL is away:
            # the thread buffers and spools until it is back
            logger.warning("%(error)s", {"error": message})
        self.thread = WriterThread(
            self.dsn, spool, self.crawler.stats,
            batch=settings.getint("GEOFOCUS_POSTGIS_BATCH"),
            interval=settings.getfloat("GEOFOCUS_POSTGIS_FLUSH_INTERVAL"),
            buffer_max=settings.getint("GEOFOCUS_POSTGIS_BUFFER"),
            timeout=timeout,
            retry_interval=settings.getfloat("GEOFOCUS_POSTGIS_RETRY_INTERVAL"),
            close_timeout=settings.getfloat("GEOFOCUS_POSTGIS_CLOSE_TIMEOUT"),
            run_id=settings.get("GEOFOCUS_CRAWL_ID") or run_dir.resolve().name,
            region=crawl_context(self.crawler).region_name,
        )
        self.thread.start()
        logger.info("Writing pages and addresses to PostgreSQL at %(dsn)s", {"dsn": redact(self.dsn)})

    def page_evaluated(self, response: Response, relevant: bool, addresses: list[dict[str, Any]],
                       spider: Spider) -> None:
        if self.thread is not None:
            self.thread.put(page_record(self.crawler, response, relevant, addresses))

    def spider_closed(self, spider: Spider, reason: str):
        if self.thread is None:
            return None
        thread, self.thread = self.thread, None
        return threads.deferToThread(thread.close)
