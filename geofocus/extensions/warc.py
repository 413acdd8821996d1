"""WARC 1.1 archives of what the crawl fetched (``GEOFOCUS_WARC`` = off | relevant | all).

For each evaluated page (``all``) or each relevant page (``relevant``) the
archive gets a ``request`` and a ``response`` record (``WARC-Concurrent-To``
each other), and for a relevant page a ``metadata`` record (JSON:
relevance, addresses with their coordinates, priority, link distance, parent)
that ``WARC-Refers-To`` the response.  Each file starts with a ``warcinfo``
record naming the crawl; every record is its own gzip member.

Files are named ``geofocus-<timestamp>-<serial>-<host>-<pid>.warc.gz`` after the
IIPC convention, written as ``....warc.gz.open`` and renamed when complete,
and a new file is started once one reaches ``GEOFOCUS_WARC_MAX_SIZE`` bytes.

The body is stored as Scrapy hands it to the spider, i.e. after HTTP
decompression; as StormCrawler does, the headers that describe the wire form
(``Content-Encoding``, ``Transfer-Encoding``, ``Content-Length``) are kept as
``X-Crawler-*`` and ``Content-Length`` is set to the stored body, so replay tools
serve what is stored.

The reactor thread only queues the page; a writer thread builds each page's
records in memory and writes them with one ``write``; when the disk is full (or any write
fails) the file is cut back to its last complete record and the crawl stops with one error
line: the archive never holds a truncated record.
"""

from __future__ import annotations

import io
import json
import logging
import os
import queue
import socket
import threading
import time
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import threads
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import geofocus
from geofocus import signals as geo_signals
from geofocus.context import crawl_context
from geofocus.pagemeta import PageMeta

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response

logger = logging.getLogger(__name__)

MODES = ("off", "relevant", "all")
WIRE_HEADERS = {b"content-encoding", b"transfer-encoding", b"content-length"}


def check_settings(settings) -> None:
    """Before a crawl starts: a valid GEOFOCUS_WARC (one-line UsageError, exit 2, otherwise)."""
    from scrapy.exceptions import UsageError

    mode = str(settings.get("GEOFOCUS_WARC") or "off").strip().lower()
    if mode not in MODES:
        raise UsageError(f"GEOFOCUS_WARC must be one of {', '.join(MODES)}, not {mode!r}", print_help=False)


def _latin1(value: bytes | str) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


def request_headers(request: Request) -> StatusAndHeaders:
    parts = urlsplit(request.url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = [("Host", parts.netloc)]
    for name, values in request.headers.items():
        headers.extend((_latin1(name), _latin1(v)) for v in values)
    return StatusAndHeaders(f"{request.method} {target} HTTP/1.1", headers, is_http_request=True)


def response_headers(response: Response) -> StatusAndHeaders:
    headers: list[tuple[str, str]] = []
    for name, values in response.headers.items():
        key = _latin1(name)
        prefix = "X-Crawler-" if name.lower() in WIRE_HEADERS else ""
        headers.extend((prefix + key, _latin1(v)) for v in values)
    headers.append(("Content-Length", str(len(response.body))))
    try:
        reason = HTTPStatus(response.status).phrase
    except ValueError:
        reason = "Unknown"
    return StatusAndHeaders(f"{response.status} {reason}", headers, protocol="HTTP/1.1")


class WarcFullError(OSError):
    pass


class WarcWriter:
    def __init__(self, crawler: Crawler, mode: str, directory: str, max_size: int):
        self.crawler = crawler
        self.stats = crawler.stats
        self.mode = mode
        self.configured_dir = directory
        self.max_size = max_size
        self.dir: Path | None = None
        self.fd: int | None = None
        self.path: Path | None = None
        self.size = 0
        self.serial = 0
        self.failed = False
        self.info: dict[str, Any] = {}
        self.queue: queue.Queue = queue.Queue(maxsize=256)
        self.thread: threading.Thread | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcWriter:
        mode = str(crawler.settings.get("GEOFOCUS_WARC") or "off").strip().lower()
        if mode == "off":
            raise NotConfigured  # off by default: no message, which Scrapy would log as a WARNING on every crawl
        check_settings(crawler.settings)
        ext = cls(crawler, mode, crawler.settings.get("GEOFOCUS_WARC_DIR") or "",
                  crawler.settings.getint("GEOFOCUS_WARC_MAX_SIZE"))
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        crawler.signals.connect(ext.page_evaluated, geo_signals.page_evaluated)
        return ext

    # -- files -----------------------------------------------------------------------------------
    def spider_opened(self, spider: Spider) -> None:
        context = crawl_context(self.crawler)
        run_dir = context.run_dir
        self.dir = Path(self.configured_dir) if self.configured_dir else run_dir / "warc"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.serial = len(list(self.dir.glob("*.warc.gz")))
        settings = self.crawler.settings
        self.info = {
            "software": f"geofocus/{getattr(geofocus, '__version__', '0.1')} (warcio)",
            "format": "WARC File Format 1.1",
            "conformsTo": "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/",
            "isPartOf": settings.get("GEOFOCUS_CRAWL_ID") or run_dir.resolve().name,
            "description": f"geofocus crawl of region {context.region_name}, "
                           f"strategy {context.strategy}, "
                           f"pages archived: {self.mode}",
            "hostname": socket.gethostname(),
            "http-header-user-agent": settings.get("USER_AGENT"),
            "robots": "obey" if settings.getbool("ROBOTSTXT_OBEY") else "ignore",
        }
        logger.info("Writing %(mode)s pages as WARC to %(dir)s", {"mode": self.mode, "dir": self.dir})

    def _open(self) -> None:
        assert self.dir is not None
        stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime())
        name = f"geofocus-{stamp}-{self.serial:05d}-{socket.gethostname()}-{os.getpid()}.warc.gz"
        self.serial += 1
        self.path = self.dir / name
        self.fd = os.open(self.dir / (name + ".open"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        self.size = 0
        buffer = io.BytesIO()
        writer = WARCWriter(buffer, gzip=True, warc_version="1.1")
        writer.write_record(writer.create_warcinfo_record(name, self.info))
        self._write(buffer.getvalue())
        self.stats.inc_value("geofocus/warc/files")

    def _close_file(self) -> None:
        if self.fd is None:
            return
        os.close(self.fd)
        self.fd = None
        assert self.path is not None
        os.replace(str(self.path) + ".open", self.path)

    def _write(self, data: bytes) -> None:
        """All of ``data`` or nothing: a failed write is cut back to the last complete record."""
        assert self.fd is not None
        start = self.size
        try:
            view = memoryview(data)
            while view:
                written = os.write(self.fd, view)
                view = view[written:]
        except OSError as exc:
            try:
                os.ftruncate(self.fd, start)
                os.lseek(self.fd, start, os.SEEK_SET)
            except OSError:
                pass
            raise WarcFullError(exc.errno, exc.strerror) from None
        self.size = start + len(data)

    # -- records ---------------------------------------------------------------------------------
    def records(self, response: Response, relevant: bool, addresses: list[dict[str, Any]]) -> bytes:
        buffer = io.BytesIO()
        writer = WARCWriter(buffer, gzip=True, warc_version="1.1")
        request = response.request
        url = response.url
        warc_headers = {}
        ip = getattr(response, "ip_address", None)
        if ip is not None:
            warc_headers["WARC-IP-Address"] = str(ip)
        resp = writer.create_warc_record(
            url, "response", payload=io.BytesIO(response.body), length=len(response.body),
            http_headers=response_headers(response), warc_headers_dict=warc_headers)
        if request is not None:
            req = writer.create_warc_record(
                url, "request", payload=io.BytesIO(request.body or b""), length=len(request.body or b""),
                http_headers=request_headers(request))
            writer.write_request_response_pair(req, resp)
        else:
            writer.write_record(resp)
        if relevant:
            page = PageMeta.of(response) or PageMeta()
            payload = json.dumps({
                "relevant": relevant, "addresses": addresses, "priority": page.priority,
                "score": page.score, "dist": page.page_distance,
                "seed_dist": page.seed_dist if page.seed_dist is not None else 0, "parent": page.parent,
            }, ensure_ascii=False).encode("utf-8")
            metadata = writer.create_warc_record(
                url, "metadata", payload=io.BytesIO(payload), length=len(payload),
                warc_content_type="application/json",
                warc_headers_dict={"WARC-Refers-To": resp.rec_headers.get_header("WARC-Record-ID"),
                                   "WARC-Concurrent-To": resp.rec_headers.get_header("WARC-Record-ID")})
            writer.write_record(metadata)
        return buffer.getvalue()

    def page_evaluated(self, response: Response, relevant: bool, addresses: list[dict[str, Any]],
                       spider: Spider) -> None:
        if self.failed or (self.mode == "relevant" and not relevant):
            return
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, args=(spider,), name="geofocus-warc-writer",
                                           daemon=True)
            self.thread.start()
        # a full queue makes the crawl wait for the disk rather than hold ever more pages in memory
        self.queue.put((response, relevant, addresses))

    def _run(self, spider: Spider) -> None:
        """The writer thread: builds each page's records (gzip releases the GIL) and writes them."""
        while True:
            item = self.queue.get()
            if item is None:
                break
            if self.failed:
                continue
            response, relevant, addresses = item
            try:
                data = self.records(response, relevant, addresses)
                if self.fd is None:
                    self._open()
                self._write(data)
            except WarcFullError as exc:
                self._fail(spider, exc.strerror or str(exc))
                continue
            except Exception as exc:  # noqa: BLE001  (a thread's error would otherwise vanish)
                self._fail(spider, f"{type(exc).__name__}: {exc}")
                continue
            self.stats.inc_value("geofocus/warc/pages")
            self.stats.inc_value("geofocus/warc/bytes", len(data))
            if self.size >= self.max_size:
                self._close_file()

    def _fail(self, spider: Spider, reason: str) -> None:
        self.failed = True
        self.stats.inc_value("geofocus/warc/errors")
        logger.error(
            "Cannot write the WARC file %(path)s (%(error)s); stopping the crawl. The file ends with "
            "its last complete record; free space or set GEOFOCUS_WARC_DIR, then resume with the same "
            "GEOFOCUS_RUN_DIR", {"path": self.path, "error": reason})
        try:
            self._close_file()
        except OSError:
            pass
        from twisted.internet import reactor  # the one Scrapy installed

        reactor.callFromThread(self.crawler.engine.close_spider, spider, "warc_write_failed")

    def _finish(self) -> None:
        if self.thread is not None:
            self.queue.put(None)
            self.thread.join()
            self.thread = None
        try:
            self._close_file()
        except OSError as exc:
            logger.error("Cannot close the WARC file %(path)s: %(error)s", {"path": self.path, "error": exc})

    def spider_closed(self, spider: Spider, reason: str):
        return threads.deferToThread(self._finish)
