"""``scrapy crawl``, checking settings, arguments and the run directory before the crawl starts.

Before any request: every GEOFOCUS_* setting is checked (geofocus/settingscheck.py); a spider
class with a ``check_arguments(settings, **spargs)`` classmethod gets its arguments checked; a
resumed run directory must agree with the arguments (region, strategy, decay, prediction
depth) unless ``-a resume=force``; ``-O`` may not truncate a feed the run already wrote.
Each problem is one line on stderr and exit code 2, not a traceback from inside the engine.

After the crawl, a crawl that fetched nothing says why in one line and exits with 1
(the verdict comes from geofocus.extensions.outcome).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from geofocus.settingscheck import check_or_exit, fail

if TYPE_CHECKING:
    import argparse

    from scrapy.settings import Settings

#: What a resumed crawl must keep: run.json key -> (spider argument, setting).
RESUME_KEYS = {
    "region": ("region", None),
    "strategy": ("strategy", "GEOFOCUS_STRATEGY"),
    "decay": (None, "GEOFOCUS_DECAY"),
    "prediction_depth": (None, "GEOFOCUS_PREDICTION_DEPTH"),
}


def _explicit(settings: Settings, name: str) -> bool:
    """Was the setting given by the user (-s, or a spider/command-line priority)?"""
    return (settings.getpriority(name) or 0) >= 40  # "cmdline"


def _same(old: Any, new: Any) -> bool:
    if isinstance(old, (int, float)) and isinstance(new, (int, float)):
        return abs(float(old) - float(new)) < 1e-12
    return str(old).strip().lower() == str(new).strip().lower()


def resume_conflicts(run_json: dict, spargs: dict, settings: Settings) -> tuple[list[str], dict, dict]:
    """(conflicts, spider arguments to adopt, settings to adopt) for resuming run_json.

    A value the user gave that differs from the run is a conflict; a value the user did not
    give is taken from the run, so the same command (or just the run directory) resumes it.
    """
    conflicts: list[str] = []
    adopt_args: dict[str, Any] = {}
    adopt_settings: dict[str, Any] = {}
    for key, (arg, setting) in RESUME_KEYS.items():
        old = run_json.get(key)
        if old is None:
            continue
        if arg and spargs.get(arg) not in (None, ""):
            new, given = spargs[arg], f"-a {arg}={spargs[arg]}"
        elif setting and _explicit(settings, setting):
            new, given = settings.get(setting), f"{setting}={settings.get(setting)}"
        else:
            if arg:
                adopt_args[arg] = old
            elif setting:
                adopt_settings[setting] = old
            continue
        if not _same(old, new):
            conflicts.append(f"{given} but the run has {key} {old}")
    return conflicts, adopt_args, adopt_settings


class Command(ScrapyCrawlCommand):
    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        super().process_options(args, opts)
        assert self.settings is not None
        check_or_exit(self.settings, "crawl")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1 or self.crawler_process is None:
            super().run(args, opts)
            return
        assert self.settings is not None
        spname = args[0]
        spidercls = self.crawler_process.spider_loader.load(spname)
        force = str(opts.spargs.get("resume", "")).lower() == "force"
        if opts.spargs.get("resume") not in (None, "", "force"):
            fail("crawl", f"-a resume={opts.spargs['resume']}: the only value is 'force'")
        self._check_resume(opts.spargs, force)
        check = getattr(spidercls, "check_arguments", None)
        try:
            if check is not None:
                check(self.settings, **opts.spargs)
            from geofocus.extensions.warc import check_settings as check_warc
            from geofocus.partition import check_settings as check_partition
            from geofocus.postgis.dsn import check_settings as check_postgis
            from geofocus.redis.connection import check_settings as check_redis

            check_partition(self.settings)
            check_redis(self.settings)
            check_postgis(self.settings)
            check_warc(self.settings)
        except UsageError as exc:
            fail("crawl", str(exc))
        crawler = self._create_crawler(spname)
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed:
            self.exitcode = 1
            return
        outcome = getattr(crawler, "geofocus_outcome", None)
        if outcome is not None and outcome.message:
            stream = sys.stderr if outcome.code else sys.stdout
            print(f"crawl: {'error: ' if outcome.code else ''}{outcome.message}", file=stream, flush=True)
            self.exitcode = self.exitcode or outcome.code
        from geofocus.redis.generation import LOST_CRAWLS

        if LOST_CRAWLS:  # Redis lost the shared crawl: the log has the one line saying so
            self.exitcode = 1

    def _check_resume(self, spargs: dict, force: bool) -> None:
        """Refuse a resume that contradicts run.json or truncates the run's feed."""
        assert self.settings is not None
        configured = self.settings.get("GEOFOCUS_RUN_DIR")
        if not configured:
            return
        run_dir = Path(configured)
        run_file = run_dir / "run.json"
        if not run_file.is_file():
            return
        try:
            run_json = json.loads(run_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            fail("crawl", f"{run_file} is unreadable ({exc}); move it away to start afresh")
        if not isinstance(run_json, dict):
            fail("crawl", f"{run_file} is not a run description; move it away to start afresh")
        conflicts, adopt_args, adopt_settings = resume_conflicts(run_json, spargs, self.settings)
        if conflicts and not force:
            fail("crawl", f"{run_dir} is a crawl to resume, but {'; '.join(conflicts)} "
                          "(use another GEOFOCUS_RUN_DIR, or -a resume=force to change it)")
        if not conflicts:
            for arg, value in adopt_args.items():
                spargs.setdefault(arg, value)
            for name, value in adopt_settings.items():
                self.settings.set(name, value, priority="cmdline")
        self._check_feeds(run_dir, force)

    def _check_feeds(self, run_dir: Path, force: bool) -> None:
        assert self.settings is not None
        if force:
            return
        for uri, options in (self.settings.getdict("FEEDS") or {}).items():
            path = Path(str(uri).removeprefix("file://"))
            if "://" in str(uri) and not str(uri).startswith("file://"):
                continue
            if options.get("overwrite") and path.is_file() and path.stat().st_size > 0:
                fail("crawl", f"-O {uri} would overwrite what this crawl already wrote; resume with "
                              f"-o {uri} to append (every item is also in {run_dir / 'items.jsonl'})")
