"""Region packs: the places, postcodes and rules that define a region of interest.

A pack is a JSON file in ``geofocus/regions/data/`` (or any directory listed in
the ``GEOFOCUS_REGION_PATH`` environment variable).  ``load_region(name)``
returns a :class:`Region`; an unknown name raises :class:`UnknownRegionError`,
whose message lists the packs that exist.
"""

from geofocus.regions.pack import (
    Region,
    RegionError,
    UnknownRegionError,
    available_regions,
    load_region,
)

__all__ = ["Region", "RegionError", "UnknownRegionError", "available_regions", "load_region"]
