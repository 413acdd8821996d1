"""``scrapy crawl``, checking a spider's arguments before the crawl starts.

A spider class with a ``check_arguments(settings, **spargs)`` classmethod gets
its arguments checked first, so that an unknown region or a missing seeds
file stops the command at once with one clear line (exit code 2), not a
traceback from inside the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.commands.crawl import Command as ScrapyCrawlCommand

if TYPE_CHECKING:
    import argparse


class Command(ScrapyCrawlCommand):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            spidercls = self.crawler_process.spider_loader.load(args[0])
            check = getattr(spidercls, "check_arguments", None)
            if check is not None:
                assert self.settings is not None
                check(self.settings, **opts.spargs)
            if self.settings is not None:
                from geofocus.partition import check_settings as check_partition
                from geofocus.extensions.warc import check_settings as check_warc
                from geofocus.postgis.dsn import check_settings as check_postgis
                from geofocus.redis.connection import check_settings as check_redis

                check_partition(self.settings)
                check_redis(self.settings)
                check_postgis(self.settings)
                check_warc(self.settings)
        super().run(args, opts)
