"""simweb: a deterministic offline Web with ground truth, served through a local HTTP proxy.

    web = SimWeb(WebParams(pages=200_000, seed=1, region="oldenburg"))
    web.seeds()                       # the ODP-style regional page and its sites
    web.resolve("www.example.de", "/kontakt.html")   # what the server answers
    web.truth_record(web.page(pid))   # {url, relevant, grade, addresses}

``scrapy simweb --port 0`` serves it (see geofocus/commands/simweb.py and docs/simweb.md).
"""

from geofocus.simweb.params import WebParams
from geofocus.simweb.web import Addr, Host, Page, Resolved, SimWeb

__all__ = ["Addr", "Host", "Page", "Resolved", "SimWeb", "WebParams"]
