"""``scrapy region list | show NAME | import NAME ...``: the region packs."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from geofocus.commands import CheckedSettings
from geofocus.regions import RegionError, available_regions, load_region
from geofocus.regions.pack import DATA_DIR, dump_pack

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


class Command(CheckedSettings, ScrapyCommand):
    command_name = "region"
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "list | show NAME | import NAME --geonames FILE [--place P ...] [--osm FILE ...] [options]"

    def short_desc(self) -> str:
        return "List, show or import region packs (GeoNames postcodes + OpenStreetMap streets)"

    def long_desc(self) -> str:
        return (
            "list: the packs that exist (package data and GEOFOCUS_REGION_PATH). show NAME: a pack's "
            "cities, postcodes, streets and data sources. import NAME: build a pack from a GeoNames "
            "postal-code file (the tab-separated dump of download.geonames.org/export/zip) and, for "
            "streets with coordinates, OpenStreetMap extracts (.osm, .osm.gz, .osm.bz2 or .osm.pbf); "
            "the pack is written to --output, else to the first GEOFOCUS_REGION_PATH directory, else "
            "into the package's data directory."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        group = parser.add_argument_group("region import")
        group.add_argument("--geonames", metavar="FILE", help="GeoNames postal-code file (tab-separated)")
        group.add_argument("--place", action="append", default=[], metavar="NAME",
                           help="place name of the region as in the GeoNames file (repeatable)")
        group.add_argument("--postcode-prefix", action="append", default=[], metavar="P",
                           help="take every postcode starting with P (repeatable)")
        group.add_argument("--country", metavar="CC", help="only rows of this country code")
        group.add_argument("--admin", metavar="NAME", help="only rows whose admin name 1, 2 or 3 is NAME")
        group.add_argument("--osm", action="append", default=[], metavar="FILE",
                           help="OpenStreetMap extract for streets (.osm[.gz|.bz2] or .osm.pbf; repeatable)")
        group.add_argument("--alias", action="append", default=[], metavar="TEXT",
                           help="another way pages write the main city, e.g. 'Oldenburg (Oldb)' (repeatable)")
        group.add_argument("--title", help="human-readable title of the region")
        group.add_argument("--neighbours-km", type=float, default=25.0,
                           help="places within this distance count as confusable neighbours (default 25)")
        group.add_argument("--output", metavar="PATH", help="where to write NAME.json (file or directory)")
        group.add_argument("--force", action="store_true", help="overwrite an existing pack")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("give a subcommand: list, show NAME or import NAME")
        action, rest = args[0], args[1:]
        try:
            if action == "list":
                self._list()
            elif action == "show":
                if len(rest) != 1:
                    raise UsageError("region show NAME")
                self._show(rest[0])
            elif action == "import":
                if len(rest) != 1:
                    raise UsageError("region import NAME --geonames FILE ...")
                self._import(rest[0], opts)
            else:
                raise UsageError(f"unknown subcommand {action!r}: use list, show or import")
        except RegionError as exc:
            print(f"region: {exc}", file=sys.stderr)
            self.exitcode = 2

    def _list(self) -> None:
        for name in available_regions():
            try:
                region = load_region(name)
            except RegionError as exc:
                print(f"{name}\tBROKEN: {exc}")
                continue
            print(f"{name}\t{region.title}\t{len(region.cities)} cities, {len(region.postcodes)} postcodes, "
                  f"{len(region.streets)} streets")

    def _show(self, name: str) -> None:
        region = load_region(name)
        cities = ", ".join(c.name for c in region.cities[:12]) + (" ..." if len(region.cities) > 12 else "")
        print(f"{region.name}: {region.title}")
        print(f"  country {region.country}, languages {', '.join(region.languages)}, TLDs {', '.join(region.tlds)}")
        print(f"  {len(region.cities)} cities: {cities}")
        print(f"  {len(region.postcodes)} postcodes, {len(region.streets)} streets, bbox {region.bbox}")
        print(f"  confusables: {', '.join(region.confusables[:15]) or '-'}")
        for key, source in region.sources.items():
            print(f"  source of {key}: {source}")

    def _import(self, name: str, opts: argparse.Namespace) -> None:
        from geofocus.regions.build import build_pack

        if not _NAME.match(name):
            raise UsageError("a region name is lower-case letters, digits, '-' and '_'")
        if not opts.geonames:
            raise UsageError("region import needs --geonames FILE (a GeoNames postal-code file)")
        target = self._target(name, opts.output)
        if target.exists() and not opts.force:
            raise RegionError(f"{target} exists; use --force to overwrite it")
        pack, notes = build_pack(
            name, opts.geonames, places=opts.place, osm=opts.osm, country=opts.country, admin=opts.admin,
            postcode_prefixes=opts.postcode_prefix, aliases=opts.alias, title=opts.title,
            neighbours_km=opts.neighbours_km,
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dump_pack(pack), encoding="utf-8")
        load_region.cache_clear()
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
        print(f"wrote {target}: {len(pack['cities'])} cities, {len(pack['postcodes'])} postcodes, "
              f"{len(pack['streets'])} streets, {len(pack['confusables'])} confusables")
        on_path = [Path(p).resolve() for p in os.environ.get("GEOFOCUS_REGION_PATH", "").split(os.pathsep) if p]
        if target.parent.resolve() not in on_path + [DATA_DIR.resolve()]:
            print(f"note: set GEOFOCUS_REGION_PATH={target.parent} to use it (scrapy crawl geo -a region={name})",
                  file=sys.stderr)

    @staticmethod
    def _target(name: str, output: str | None) -> Path:
        if output:
            path = Path(output)
            return path / f"{name}.json" if path.is_dir() or output.endswith(os.sep) else path
        extra = [p for p in os.environ.get("GEOFOCUS_REGION_PATH", "").split(os.pathsep) if p]
        return Path(extra[0]) / f"{name}.json" if extra else DATA_DIR / f"{name}.json"
