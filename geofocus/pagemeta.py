"""The state a request carries through the crawl: :class:`PageMeta` in ``meta["geofocus"]``.

One declared structure instead of a dict that components probe.  Each field has one
writer (the component that decides it) and is read by attribute::

    field        written by                                   read by
    link         spider (the link a request was made for)     prediction, classifier, partition, crawl log
    seed         spider (start requests)                      page distance, traps, outcome
    dist         decay (seeds: spider)                        decay and spider (page distance), prediction
                                                              (online), crawl log, items, WARC
    seed_dist    decay (seeds: spider)                        decay and spider (bfs), crawl log, items, WARC
    score        decay (seeds: spider)                        prediction, crawl log, items, WARC
    parent       decay (seeds: spider)                        crawl log, items, WARC
    path         prediction                                   prediction (learning, re-scoring)
    prediction   prediction                                   crawl log, items
    priority     decay (bfs, distance; seeds: spider), then   scheduler (order), page-finished filter,
                 prediction (adaptive, online) or classifier  crawl log, items, WARC
    score_t      classifier                                   classifier
    score_v      classifier                                   classifier
    explore      classifier                                   classifier
    node         partition                                    Redis frontier (which node's queue)
    relevant     geo evaluation                               page distance, prediction, classifier, spider,
                                                              crawl log, outputs
    addresses    geo evaluation                               spider (items), partition, outputs

Life of the structure: the spider creates it with ``link`` (or, for a seed, with the
seed's fields); the spider middlewares fill in the rest on the way out; the
scheduler stores it with the request as the JSON-able dict of :meth:`to_dict` (the
wire form, written by :func:`geofocus.serialize.request_to_json_dict`); a popped
request carries that dict back, and the first :meth:`PageMeta.of` turns it into a
PageMeta again, in place.  So a request may carry either form; components read and
write it only through :meth:`of` / :meth:`ensure` and never index the dict.

The wire form is the dict the crawl has always stored (same keys, a missing key is
None), so frontiers written before this module stay readable and the Redis
frontier can read ``node`` from a stored entry without this class.  Keys this
version does not know are kept (``extra``) and written back unchanged.
:meth:`from_dict` does not validate: a frontier entry may come from anyone who
can reach Redis, so the readers of what it affects check it where they use it
(the scheduler the priority, the prediction middleware the path and score).

Other meta keys geofocus sets outside ``meta["geofocus"]`` are declared here too
(:data:`FINGERPRINT_META`, :data:`FRONTIER_KEY_META`, :data:`FINISHED_MARKER`,
:data:`IMAGE_META`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response

#: The key of the page state in ``Request.meta``.
META_KEY = "geofocus"
#: meta key carrying (url, fingerprint) computed once for a link, or (url, fingerprint, page state)
#: for a link the prediction middleware scored before its Request existed; used only while the URL
#: matches, never stored.
FINGERPRINT_META = "geofocus_fp"
#: meta key of a popped request that was queued under a key of its own (dont_filter duplicates).
FRONTIER_KEY_META = "geofocus_key"
#: meta key of the page-finished marker request; its value is the frontier key of the finished page.
FINISHED_MARKER = "geofocus_page_finished"
#: meta key of an image request of the classifier strategy (never a page).
IMAGE_META = "geofocus_image"

# Wire keys, in the order they are written.
_FIELDS = (
    "link", "seed", "dist", "seed_dist", "score", "parent", "path", "prediction", "priority",
    "score_t", "score_v", "explore", "node", "relevant", "addresses",
)
_KNOWN = frozenset(_FIELDS)
_values = attrgetter(*_FIELDS)


@dataclass(slots=True, eq=True)
class PageMeta:
    link: dict[str, Any] | None = None
    seed: bool = False
    dist: int | None = None
    seed_dist: int | None = None
    score: float | None = None
    parent: str | None = None
    path: list[Any] | None = None
    prediction: float | None = None
    priority: float | None = None
    score_t: float | None = None
    score_v: float | None = None
    explore: int | None = None
    node: str | None = None
    relevant: bool | None = None
    addresses: list[dict[str, Any]] | None = None
    #: keys of the wire form this version does not know, kept as they came
    extra: dict[str, Any] = field(default_factory=dict)
    #: the geoparse done off the reactor thread, for the geo evaluation (never stored)
    geoparse: tuple[bool, list[dict[str, Any]], str | None] | None = field(default=None, compare=False)

    # -- the wire form -------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PageMeta:
        """The page state of a stored dict (missing keys are None; unknown keys go to ``extra``)."""
        if _KNOWN.issuperset(data):
            page = cls(**data)
        else:
            page = cls(**{k: v for k, v in data.items() if k in _KNOWN})
            page.extra = {k: v for k, v in data.items() if k not in _KNOWN}
        page.seed = bool(page.seed)
        return page

    def to_dict(self) -> dict[str, Any]:
        """The JSON-able wire form: the fields that are set (``seed`` only when true), then ``extra``."""
        # (once per queued link: field by field, in the order of ``_FIELDS``, about twice as fast as a loop over them)
        out: dict[str, Any] = {}
        value: Any
        if (value := self.link) is not None:
            out["link"] = value
        if value := self.seed:
            out["seed"] = value
        if (value := self.dist) is not None:
            out["dist"] = value
        if (value := self.seed_dist) is not None:
            out["seed_dist"] = value
        if (value := self.score) is not None:
            out["score"] = value
        if (value := self.parent) is not None:
            out["parent"] = value
        if (value := self.path) is not None:
            out["path"] = value
        if (value := self.prediction) is not None:
            out["prediction"] = value
        if (value := self.priority) is not None:
            out["priority"] = value
        if (value := self.score_t) is not None:
            out["score_t"] = value
        if (value := self.score_v) is not None:
            out["score_v"] = value
        if (value := self.explore) is not None:
            out["explore"] = value
        if (value := self.node) is not None:
            out["node"] = value
        if (value := self.relevant) is not None:
            out["relevant"] = value
        if (value := self.addresses) is not None:
            out["addresses"] = value
        if self.extra:
            out.update(self.extra)
        return out

    # -- reading and writing it on a request ---------------------------------------------
    @classmethod
    def of(cls, message: Request | Response | None) -> PageMeta | None:
        """The page state a request (or a response, through its request) carries; None if it
        carries none (a request of other code) or something that is not one."""
        if message is None:
            return None
        try:
            meta = message.meta
        except AttributeError:  # a response without a request
            return None
        value = meta.get(META_KEY)
        if type(value) is cls:
            return value
        if isinstance(value, dict):
            page = meta[META_KEY] = cls.from_dict(value)
            return page
        return None

    @classmethod
    def ensure(cls, message: Request | Response) -> PageMeta:
        """The page state of ``message``, a new empty one if it carries none."""
        page = cls.of(message)
        if page is None:
            page = message.meta[META_KEY] = cls()
        return page

    @classmethod
    def seed_page(cls) -> PageMeta:
        """A start request's state: a seed is its own region, at distance 0 with the best priority."""
        return cls(seed=True, score=1.0, priority=1.0, dist=0, seed_dist=0)

    # -- derived readings ----------------------------------------------------------------
    @property
    def evaluated(self) -> bool:
        """True once the geo evaluation has judged the page."""
        return self.relevant is not None

    @property
    def page_distance(self) -> int:
        """page.dist of a fetched page: 0 for a seed or a relevant page, else its link's dist."""
        if self.seed or self.relevant:
            return 0
        return int(self.dist or 0)

    @property
    def seed_distance(self) -> int:
        return int(self.seed_dist or 0)


def wire_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` with its page state in the wire form (a copy if it had to change)."""
    value = meta.get(META_KEY)
    if type(value) is PageMeta:
        meta = dict(meta)
        meta[META_KEY] = value.to_dict()
    return meta
