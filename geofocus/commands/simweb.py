"""``scrapy simweb``: serve a synthetic Web through a local HTTP proxy.

    scrapy simweb --port 0 --pages 200000 --seed 1 --region oldenburg \\
        --seeds-out seeds.txt --truth truth.jsonl

Prints ``simweb listening on http://127.0.0.1:PORT`` once it accepts connections
(after the seeds and truth files are written), then serves until SIGINT/SIGTERM.
Crawl it with ``http_proxy=http://127.0.0.1:PORT``.
"""

from __future__ import annotations

import argparse
import sys
import time

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from geofocus.commands import CheckedSettings


class Command(CheckedSettings, ScrapyCommand):
    command_name = "simweb"
    requires_project = False
    default_settings = {"LOG_ENABLED": True}

    def syntax(self) -> str:
        return "--port PORT --pages N --seed S [--region NAME] [--seeds-out FILE] [--truth FILE]"

    def short_desc(self) -> str:
        return "Serve a synthetic offline Web (simweb) as an HTTP proxy"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        from geofocus.simweb.params import WebParams

        d = WebParams()
        parser.add_argument("--port", type=int, default=8118, help="TCP port, 0 picks a free one (default 8118)")
        parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
        parser.add_argument("--pages", type=int, default=d.pages, help=f"pages in the Web (default {d.pages})")
        parser.add_argument("--seed", type=int, default=d.seed, help=f"random seed (default {d.seed})")
        parser.add_argument("--region", default=d.region, help=f"region pack (default {d.region})")
        parser.add_argument("--seeds-out", metavar="FILE", help="write the seed URLs to FILE")
        parser.add_argument("--truth", metavar="FILE", help="write the ground truth (JSON lines) to FILE")
        parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                            help="override a generator parameter (see docs/simweb.md); repeatable")
        parser.add_argument("--latency-scale", type=float, default=d.latency_scale,
                            help="multiply slow hosts' latency (0 disables it; default 1)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        from geofocus.regions import RegionError
        from geofocus.simweb.params import WebParams
        from geofocus.simweb.truth import write_seeds, write_truth
        from geofocus.simweb.web import SimWeb

        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}")
        if opts.pages < 200:
            raise UsageError("--pages must be at least 200")
        if not 0 <= opts.port < 65536:
            raise UsageError("--port must be between 0 and 65535")
        try:
            params = WebParams(pages=opts.pages, seed=opts.seed, region=opts.region,
                               latency_scale=max(0.0, opts.latency_scale))
            overrides = dict(p.split("=", 1) for p in opts.param if "=" in p)
            if len(overrides) != len(opts.param):
                raise UsageError("--param takes NAME=VALUE")
            params = params.replace(overrides)
            t0 = time.time()
            web = SimWeb(params)
        except (RegionError, ValueError) as exc:
            print(f"simweb: {exc}", file=sys.stderr, flush=True)
            self.exitcode = 2
            return
        print(f"simweb: {params.pages} pages, {web.n_hosts} hosts, seed {params.seed}, "
              f"region {web.region.name} (built in {time.time() - t0:.1f}s)", file=sys.stderr, flush=True)
        seeds = web.seeds()
        if opts.seeds_out:
            write_seeds(web, opts.seeds_out)
        if opts.truth:
            t0 = time.time()
            counts = write_truth(web, opts.truth)
            print(f"simweb: truth written to {opts.truth}: {counts} ({time.time() - t0:.1f}s)",
                  file=sys.stderr, flush=True)
        from twisted.internet import reactor

        from geofocus.simweb.server import SimWebFactory

        factory = SimWebFactory(web, reactor, seeds)
        # The ignores below: twisted's zope Interface methods are declared without self; mypy
        # reads them right only with the mypy-zope plugin.
        try:
            port = reactor.listenTCP(opts.port, factory, interface=opts.bind)  # type: ignore[arg-type]
        except Exception as exc:  # CannotListenError and friends
            print(f"simweb: cannot listen on {opts.bind}:{opts.port}: {exc}", file=sys.stderr, flush=True)
            self.exitcode = 1
            return
        real = port.getHost().port  # type: ignore[misc]
        factory.own_names.add(f"{opts.bind}")
        print(f"simweb listening on http://{opts.bind}:{real}", flush=True)
        reactor.run()  # type: ignore[misc]
        print(f"simweb stopped after {factory.served} responses", file=sys.stderr, flush=True)
