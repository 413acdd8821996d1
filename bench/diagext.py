"""Diagnostic extension (bench only, not part of geofocus): what a worker's downloader and frontier hold.

Enable with ``-s EXTENSIONS={"diagext.Diag": 900}`` (bench/ on PYTHONPATH).  Writes
``<GEOFOCUS_RUN_DIR>/diag.jsonl``: a sample every 0.5 s (``k=s``) and one row per downloaded
response (``k=r``) and per scheduler pop that found nothing (counted in the sample).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from scrapy import signals
from twisted.internet import task


class Diag:
    def __init__(self, crawler):
        self.crawler = crawler
        self.path = Path(crawler.settings.get("GEOFOCUS_RUN_DIR") or ".") / "diag.jsonl"
        self.out = None
        self.loop = None
        self.none_pops = 0
        self.pops = 0
        self.pop_s = 0.0
        crawler.signals.connect(self.opened, signals.spider_opened)
        crawler.signals.connect(self.closed, signals.spider_closed)
        crawler.signals.connect(self.downloaded, signals.response_downloaded)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def opened(self, spider):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.out = self.path.open("w")
        sched = self.crawler.engine._slot.scheduler
        orig = sched.next_request

        def wrapped():
            t0 = time.perf_counter()
            r = orig()
            self.pop_s += time.perf_counter() - t0
            self.pops += 1
            if r is None:
                self.none_pops += 1
            return r

        sched.next_request = wrapped
        self.loop = task.LoopingCall(self.sample)
        self.loop.start(0.5)

    def closed(self, spider):
        if self.loop is not None and self.loop.running:
            self.loop.stop()
        if self.out:
            self.out.close()
            self.out = None

    def downloaded(self, response, request, spider):
        if self.out is None:
            return
        self.out.write(json.dumps({
            "k": "r", "t": time.time(), "url": request.url, "st": response.status,
            "lat": request.meta.get("download_latency"), "slot": request.meta.get("download_slot"),
            "ct": (response.headers.get(b"Content-Type") or b"").decode("latin-1")[:20],
        }) + "\n")

    def sample(self):
        if self.out is None:
            return
        engine = self.crawler.engine
        dl = engine.downloader
        slots = dl.slots
        active = list(dl.active)
        keyed = {r.meta.get("download_slot") for r in active}
        s_active = s_transf = s_queue = hosts_tr = hosts_full = 0
        for key in keyed:
            s = slots.get(key)
            if s is None:
                continue
            s_active += len(s.active)
            s_transf += len(s.transferring)
            s_queue += len(s.queue)
            hosts_tr += bool(s.transferring)
            hosts_full += len(s.active) >= s.concurrency
        robots = sum(1 for r in active if r.url.endswith("/robots.txt"))
        # not yet in a slot (in the downloader middlewares: waiting for the host's robots.txt)
        no_slot = [r for r in active if r.meta.get("download_slot") is None]
        hosts_wait = {r.url.split("/")[2] for r in no_slot}
        row = {"k": "s", "t": time.time(), "active": len(active), "slot_active": s_active,
               "transferring": s_transf, "slot_queue": s_queue, "hosts_tr": hosts_tr, "hosts_full": hosts_full,
               "robots": robots, "before_slot": len(no_slot), "before_hosts": len(hosts_wait),
               "after_slot": len(active) - s_active - len(no_slot),
               "inprogress": len(engine._slot.inprogress), "pops": self.pops, "none_pops": self.none_pops,
               "pop_s": round(self.pop_s, 4)}
        scraper = getattr(engine, "scraper", None)
        if scraper is not None and getattr(scraper, "slot", None) is not None:
            row["scraper_active"] = len(scraper.slot.active)
            row["scraper_queue"] = len(scraper.slot.queue)
        fr = getattr(engine._slot.scheduler, "frontier", None)
        batch = getattr(fr, "_batch", None)
        if batch is not None:
            from geofocus.downloadslots import busy_slots

            busy = busy_slots(self.crawler)
            b = list(batch)
            row.update({"batch": len(b), "batch_hosts": len({e.slot for e in b}),
                        "batch_busy": sum(1 for e in b if e.slot in busy),
                        "batch_free_hosts": len({e.slot for e in b if e.slot not in busy}),
                        "inflight": len(fr._inflight), "queued_remote": fr._queued_remote,
                        "lease_size": fr._lease_size, "cycles": fr._cycles})
        self.out.write(json.dumps(row) + "\n")
