"""Start-up checks fail with one line: a component's own error becomes scrapy's ``UsageError``.

    def check_settings(settings):
        dsn = settings.get("GEOFOCUS_POSTGIS_DSN")
        if not dsn:
            return
        with as_usage_error(PostgisUnavailableError, SchemaError):
            ...

The ``crawl`` command prints a ``UsageError`` as ``error: <message>`` and exits with status 2,
instead of a traceback from inside the engine.  The errors named must carry a one-line message
fit for a user (what is wrong, and the setting that fixes it).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["as_usage_error"]


@contextmanager
def as_usage_error(*errors: type[Exception]) -> Iterator[None]:
    """Re-raise any of ``errors`` raised in the block as ``UsageError(str(error))``, without the chain."""
    from scrapy.exceptions import UsageError

    try:
        yield
    except errors as exc:
        raise UsageError(str(exc), print_help=False) from None
