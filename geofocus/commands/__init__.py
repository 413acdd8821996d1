"""geofocus's scrapy commands (COMMANDS_MODULE, and the ``scrapy.commands`` entry points of setup.py)."""

from __future__ import annotations

from typing import Any

from geofocus.settingscheck import check_or_exit


class CheckedSettings:
    """Mixin for a ScrapyCommand: every GEOFOCUS_* setting is checked once the options are read,
    and a wrong one stops the command with one line and exit code 2."""

    command_name = "scrapy"

    def process_options(self, args: list[str], opts: Any) -> None:
        super().process_options(args, opts)  # type: ignore[misc]
        check_or_exit(self.settings, self.command_name)  # type: ignore[attr-defined]
