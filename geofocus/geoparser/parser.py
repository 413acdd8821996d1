from __future__ import annotations

import re

from lxml import html as lxml_html

from geofocus.geoparser.model import Address, ParseResult
from geofocus.regions import Region

_BLOCK_TAGS = ("br", "p", "div", "li", "td", "tr", "h1", "h2", "h3", "h4", "address", "footer")

_DE_ADDRESS = re.compile(
    r"(?P<street>[A-ZÄÖÜ][\wäöüßÄÖÜ.\- ]{2,60}?)\s+(?P<number>\d{1,4}\s?[a-zA-Z]?(?:\s?[-–/]\s?\d{1,4}[a-zA-Z]?)?)"
    r"\s*[,\n]\s*(?:D-|DE-)?(?P<postcode>\d{5})\s+(?P<city>[A-ZÄÖÜ][\wäöüß.()/ \-]{1,40})"
)


def html_to_text(markup: str) -> str:
    """Visible text of an HTML page with block elements turned into newlines."""
    if "<" not in markup:
        return markup
    try:
        root = lxml_html.fromstring(markup)
    except (ValueError, lxml_html.etree.ParserError):
        return markup
    for bad in root.xpath("//script|//style|//noscript"):
        bad.drop_tree()
    for el in root.iter(*_BLOCK_TAGS):
        el.tail = "\n" + (el.tail or "")
    return root.text_content()


class GeoParser:
    """Finds German street addresses and decides membership by postcode."""

    def __init__(self, region: Region):
        self.region = region

    def parse(self, markup: str, url: str | None = None) -> ParseResult:
        text = html_to_text(markup)
        result = ParseResult()
        seen: set[tuple[str, str, str, str]] = set()
        for line_match in _DE_ADDRESS.finditer(text):
            street = " ".join(line_match.group("street").split())
            postcode = line_match.group("postcode")
            city = line_match.group("city").split("\n")[0].strip()
            known = self.region.postcodes.get(postcode)
            address = Address(
                street=street,
                house_number=line_match.group("number").replace(" ", ""),
                postcode=postcode,
                city=city,
                country=self.region.country,
                lat=known[0] if known else None,
                lon=known[1] if known else None,
                precision="postcode" if known else None,
                in_region=known is not None,
            )
            if address.key() not in seen:
                seen.add(address.key())
                result.all_addresses.append(address)
        return result
