"""Assignment of URLs to collaborating crawl nodes (Gao, Lee & Miao 2006, section 3).

Pure Python, no Scrapy.  A :class:`NodePlan` names the nodes and which node
owns each city of the region; a policy maps a fetched page (and each of its
links) to a node, following policy A: all URLs extracted from page p go to
the node of p's most probable city (``url`` and ``anchor`` decide per link,
as in the paper).  A page or link about no target city goes to the general
node.  Policies:

- ``hash``: a uniform hash of the URL (the baseline; most URLs leave their node).
- ``host``: a hash of the host, so every URL of a host is fetched by one node
  and politeness holds across workers (the default for a one-city region).
- ``url``: a city name (or alias) in the link's URL.
- ``anchor``: a city in the extended anchor text; the mention closest to the
  anchor wins.
- ``content``: argmax of pr((c,s)|p) = a*#((c,s),p) + (1-a)*(b*S(s|c) + (1-b)*S~(s|p))*#(c,p),
  a = 0.7, b = 0.5, S from population (section 3.4.3).
- ``classification``: a naive Bayes classifier over page text, one class per
  node, trained on the crawl's own pages whose addresses name a target city.
- ``ip``: the city of the server's IP address in a GeoIP table (GEOFOCUS_GEOIP_DB).

Aliasing (LA, L.A.) comes from the region pack's aliases; an ambiguous bare
city name (Glendale, Arlington, Aurora) means the most populous city of that
name (section 3.5).

Modules: ``plan`` (nodes and the owner of each city), ``cities`` (city mentions in text, URLs and
anchors), ``textclass`` (the classification policy's naive Bayes), ``geoip`` (the ``ip``
policy's table), ``partitioner`` (the policies), ``check`` (settings checked before a crawl).
"""

from geofocus.partition.check import check_settings
from geofocus.partition.cities import CityMentions
from geofocus.partition.errors import PartitionError
from geofocus.partition.geoip import GeoIPTable
from geofocus.partition.partitioner import POLICIES, Link, Page, Partitioner
from geofocus.partition.plan import GENERAL, TIMEZONE_NODES, CityKey, NodePlan, plan_for_region, stable_hash
from geofocus.partition.textclass import TextClassifier

__all__ = [
    "GENERAL", "POLICIES", "TIMEZONE_NODES", "CityKey", "CityMentions", "GeoIPTable", "Link", "NodePlan", "Page",
    "PartitionError", "Partitioner", "TextClassifier", "check_settings", "plan_for_region", "stable_hash",
]
