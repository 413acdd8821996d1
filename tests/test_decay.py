"""The bridge-distance decay middleware writes the same values into every link of a page."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse

from geofocus.pagemeta import META_KEY, PageMeta
from geofocus.spidermiddlewares.decay import BridgeDistanceMiddleware
from geofocus.strategies import bfs_priority, decay_score


def _response(page: PageMeta) -> HtmlResponse:
    request = Request("http://www.example.de/p", meta={META_KEY: page})
    return HtmlResponse(request.url, body=b"<html></html>", request=request)


@pytest.mark.parametrize("strategy", ["bfs", "distance", "adaptive"])
@pytest.mark.parametrize("parent", [
    PageMeta(dist=2, seed_dist=3),  # irrelevant page: its links are one further
    PageMeta(dist=2, seed_dist=3, relevant=True),  # relevant: distance starts again
    PageMeta.seed_page(),
])
def test_every_link_gets_the_values_of_its_page(strategy: str, parent: PageMeta) -> None:
    mw = BridgeDistanceMiddleware(SimpleNamespace(), 0.5, strategy)
    response = _response(parent)
    own = PageMeta(score=0.9, priority=0.9)  # a request that carries its own (a redirect)
    requests = [Request(f"http://www.example.de/{i}", meta={META_KEY: PageMeta(link={"url": str(i)})})
                for i in range(3)]
    other = Request("http://www.example.de/other")  # not ours
    out = list(mw.process_spider_output(response, [*requests, Request("http://x.de/", meta={META_KEY: own}),
                                                   {"item": 1}, other]))
    assert len(out) == 6
    dist = parent.page_distance + 1
    seed_dist = parent.seed_distance + 1
    for request in requests:
        page = PageMeta.of(request)
        assert page is not None
        assert (page.dist, page.seed_dist, page.parent) == (dist, seed_dist, response.url)
        assert page.score == decay_score(dist, 0.5)
        assert page.priority == (bfs_priority(seed_dist) if strategy == "bfs" else decay_score(dist, 0.5))
    assert (own.score, own.priority, own.dist) == (0.9, 0.9, None)
    assert META_KEY not in other.meta

    # annotate() alone (without the page's values) gives the same
    single = Request("http://www.example.de/single", meta={META_KEY: PageMeta(link={})})
    mw.annotate(single, parent, response.url)
    assert PageMeta.of(single) == PageMeta.of(requests[0]).__class__(
        link={}, dist=dist, seed_dist=seed_dist, score=PageMeta.of(requests[0]).score,
        parent=response.url, priority=PageMeta.of(requests[0]).priority)
