"""Scrapy's Referer middleware, with the referrer worked out once per page instead of once per link.

Scrapy's ``RefererMiddleware`` finds the policy (the request's ``referrer_policy`` meta, else
the page's ``Referrer-Policy`` header, else ``REFERRER_POLICY``) and strips the page's URL
for every Request a page yields.  Without a policy in the request's meta both depend only
on the page; for Scrapy's default policy (``scrapy-default``) and ``no-referrer-when-downgrade``
the referrer then depends on the request only through whether its URL is TLS-protected
(``https``/``ftps``: a TLS page sends no referrer to a plain-HTTP URL).  This subclass works
those out once per page and sets the same ``Referer`` header; any other policy, and a request
that names its own, go through Scrapy's code unchanged.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.spidermiddlewares.referer import (
    DefaultReferrerPolicy,
    NoReferrerWhenDowngradePolicy,
    RefererMiddleware,
)

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.http import Response

#: Policies whose referrer depends on the request only through ``tls_protected(request.url)``.
_PER_PAGE = (DefaultReferrerPolicy, NoReferrerWhenDowngradePolicy)


class PageRefererMiddleware(RefererMiddleware):
    """Sets the same ``Referer`` headers as Scrapy's middleware (see the module docstring)."""

    def _page_referrer(self, response: Response | None) -> Callable[[Request], Request | None]:
        """A ``get_processed_request`` for the Requests of one page."""
        if response is None:  # start requests
            return lambda request: request
        page: tuple[Any, bool, str | None] | None = None
        get_processed_request = super().get_processed_request

        def process(request: Request) -> Request | None:
            nonlocal page
            if request.meta.get("referrer_policy") is not None:
                return get_processed_request(request, response)
            if page is None:
                # without a policy in the request's meta, the page alone decides it
                policy = self.policy(response, request)
                if type(policy) in _PER_PAGE:
                    page = (policy, policy.tls_protected(response.url), policy.stripped_referrer(response.url))
                else:
                    page = (policy, False, None)
            policy, tls_page, stripped = page
            if type(policy) not in _PER_PAGE:
                referrer = policy.referrer(response.url, request.url)
            elif not tls_page or policy.tls_protected(request.url):
                referrer = stripped
            else:
                referrer = None
            if referrer is not None:
                request.headers.setdefault("Referer", referrer)
            return request

        return process

    def process_spider_output(
        self, response: Response | None, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        process = self._page_referrer(response)
        for o in result:
            if isinstance(o, Request):
                o = process(o)
                if o is None:
                    continue
            yield o

    async def process_spider_output_async(
        self, response: Response | None, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        process = self._page_referrer(response)
        async for o in result:
            if isinstance(o, Request):
                o = process(o)
                if o is None:
                    continue
            yield o
