"""What simweb is made of: host categories, page roles and flags, and the records of a Web.

Pure data, no generation: :mod:`geofocus.simweb.web` (``SimWeb``) draws these from the seed.
"""

from __future__ import annotations

from dataclasses import dataclass

# Host categories.
LOCAL, PORTAL, NEWS, OTHER, OPORTAL, INTL, GENERIC, ODP = range(8)
CAT_NAMES = ("local", "portal", "news", "other", "other_portal", "intl", "generic", "odp")

# Page roles.
(HOME, CONTACT, IMPRINT, PRIVACY, DIRECTIONS, CONTENT, BINARY, LISTING, ENTRY, SECTION,
 ARTICLE, ABOUT, ODP_CAT) = range(13)
ROLE_NAMES = ("home", "contact", "imprint", "privacy", "directions", "content", "binary",
              "listing", "entry", "section", "article", "about", "odp")

# Page flags.
MALFORMED, WRONG_CHARSET, LARGE = 1, 2, 4

ODP_HOST = "www.dmoz-archiv.org"
PORTAL_PER_PAGE = 15


@dataclass(frozen=True, slots=True)
class Addr:
    """A postal address as shown on a page; ``city`` is canonical, ``shown`` as printed."""

    street: str
    number: str
    postcode: str
    city: str
    shown: str
    country: str
    state: str = ""
    lat: float | None = None
    lon: float | None = None
    in_region: bool = False

    def to_dict(self) -> dict:
        return {"street": self.street, "house_number": self.number, "postcode": self.postcode,
                "city": self.city, "country": self.country, "lat": self.lat, "lon": self.lon}


@dataclass(frozen=True, slots=True)
class Place:
    """A city a host belongs to: one of the region's, or one elsewhere."""

    name: str
    token: str                       # host-name token
    postcodes: tuple                 # ((code, lat, lon), ...)
    state: str
    country: str
    in_region: bool
    variants: tuple                  # spellings of the city on pages
    districts: tuple = ()
    confusable: bool = False


@dataclass(slots=True)
class Host:
    hid: int
    name: str
    cat: int
    start: int
    size: int
    place: Place | None
    kind: str = ""
    display: str = ""
    sections: tuple = ()
    style: int = 0
    alias: str = ""
    lang: str = "de"
    footer_addr: bool = False
    home_addr: bool = False
    contact_addr: bool = False
    imprint_addr: bool = False
    directions: bool = False
    directions_addr: bool = False
    image_only: bool = False
    address: Addr | None = None
    branches: tuple = ()
    slow_ms: int = 0
    robots: int = 0
    sid_trap: bool = False
    repeat_trap: bool = False
    calendar: bool = False
    facets: bool = False
    dead: bool = False
    agency: int = -1
    social: int = -1
    phone: str = ""
    intl: tuple = ()

    @property
    def base(self) -> str:
        return "http://" + self.name


@dataclass(slots=True)
class Page:
    pid: int
    host: Host
    idx: int
    role: int
    path: str
    ctype: str = "text/html"
    addresses: tuple = ()
    mention: bool = False
    status: int = 200
    flags: int = 0
    sub: int = -1                    # entry: described host; listing/section: its number
    title: str = ""

    @property
    def url(self) -> str:
        return self.host.base + self.path

    @property
    def relevant(self) -> bool:
        return self.status == 200 and any(a.in_region for a in self.addresses)

    @property
    def grade(self) -> str:
        if self.status != 200 or self.ctype != "text/html":
            return "none"
        if self.relevant:
            return "relevant"
        return "partial" if self.mention else "none"

    @property
    def is_html(self) -> bool:
        return self.ctype == "text/html"


@dataclass(slots=True)
class Link:
    url: str
    anchor: str
    title: str = ""
    before: str = ""
    after: str = ""
    rel: str = ""                    # "nav", "body", "footer", "relative"
    href: str = ""                   # as written in the page when it differs from url


@dataclass(slots=True)
class Resolved:
    """What a URL is: a page, a redirect, an error, robots.txt or a trap page."""

    kind: str                        # page | redirect | notfound | error | robots | trap | image
    host: Host | None = None
    page: Page | None = None
    location: str = ""
    status: int = 200
    trap: tuple = ()                 # (trap kind, parameters...)
    sid: str = ""

    def require_host(self) -> Host:
        """The host, for the kinds that have one (all but ``unknown``)."""
        if self.host is None:
            raise ValueError(f"simweb: a {self.kind} resolution without a host")
        return self.host

    def require_page(self) -> Page:
        """The page, for ``page`` resolutions."""
        if self.page is None:
            raise ValueError(f"simweb: a {self.kind} resolution without a page")
        return self.page
