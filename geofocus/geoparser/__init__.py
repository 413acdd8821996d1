"""Address-level geoparser: finds street addresses in a page and decides relevance.

Pure Python, no Scrapy.  The contract the crawler relies on::

    parser = GeoParser(load_region("oldenburg"))
    result = parser.parse(html_or_text, url=None)
    result.relevant        # True if at least one address belongs to the region
    result.addresses       # the addresses of the region (list[Address])
    result.all_addresses   # every address found, each with .in_region
"""

from geofocus.geoparser.model import Address, ParseResult
from geofocus.geoparser.parser import GeoParser

__all__ = ["Address", "GeoParser", "ParseResult"]
