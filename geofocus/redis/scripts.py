"""The crawl's Lua scripts: ``geofocus/redis/lua/<name>.lua``, read once per process.

Each script changes the shared crawl atomically (two workers never lease the
same fingerprint, a fetched fingerprint is never queued again).  A script may
need helper functions (``home_of``, ``requeue``), which are prepended to its
source; the files say what ARGV each script takes and what it returns.  The
files are package data (setup.py ``package_data``), so an installed package or
a scrapyd egg finds them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from redis.client import Pipeline

#: script -> the helpers it needs, in order
REQUIRES: dict[str, tuple[str, ...]] = {
    "push": ("home_of",),
    "pop": (),
    "done": ("home_of",),
    "renew": (),
    "release": ("home_of", "requeue"),
    "rescore": ("home_of",),
    "reclaim": ("home_of", "requeue"),
    "bad": ("home_of", "requeue"),
    "stats_merge": (),
}


@cache
def source(name: str) -> str:
    """The full source of script ``name`` (its helpers first); read from the package once."""
    if name not in REQUIRES:
        raise KeyError(f"no Lua script {name!r}")
    parts = [*REQUIRES[name], name]
    files = resources.files("geofocus.redis") / "lua"
    return "\n".join((files / f"{part}.lua").read_text(encoding="utf-8") for part in parts)


class Scripts:
    """The scripts registered on one client as they are first used (EVALSHA; redis-py loads a
    script into Redis when the server does not know it yet).

    Queued on a pipeline, a script is sent with its source (EVAL): with EVALSHA redis-py asks the
    server ``SCRIPT EXISTS`` before every execution of a pipeline that holds a script, one more
    round trip per sync cycle.  Redis hashes the source and runs its cached copy (a few
    microseconds per call; the calls are chunked), and a script cache emptied by a Redis restart
    cannot fail a command inside the cycle's MULTI."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._scripts: dict[str, Any] = {}

    def _script(self, name: str) -> Any:
        script = self._scripts.get(name)
        if script is None:
            script = self._scripts[name] = self.client.register_script(source(name))
        return script

    def __call__(self, name: str, args: list[Any], client: Any = None) -> Any:
        if isinstance(client, Pipeline):
            return client.eval(source(name), 0, *args)
        return self._script(name)(args=args, client=client)

    def call_chunked(self, name: str, head: list[Any], items: list[Any], width: int,
                     client: Any, chunk: int = 300) -> None:
        """``name`` over ``items`` (groups of ``width`` arguments), ``chunk`` groups per call,
        each call with the arguments ``head`` first (results are not needed)."""
        for i in range(0, len(items), chunk * width):
            self(name, head + items[i:i + chunk * width], client=client)
