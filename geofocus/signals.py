"""Signals of the geofocus crawl loop (in addition to Scrapy's own).

page_evaluated(response, relevant, addresses, spider)
    sent by the geo evaluation middleware once a page has been geoparsed.
request_finished(request, spider)
    sent when a request needs no more work: its page was processed and all
    its links were handed to the scheduler, or it failed for good.  The
    scheduler then marks it done in the frontier.
request_failed(request, failure, spider)
    sent by the spider's errback for a request that failed (network error, HTTP error,
    a filter's or robots.txt's IgnoreRequest); the crawl outcome explains failed seeds with it.
rescore_requested(pages)
    sent by the scheduler now and then with the page states
    (:class:`geofocus.pagemeta.PageMeta`) of a batch of queued requests; a
    receiver returns a list of new priorities (one per page, None to keep the
    old one), e.g. from an updated link model, and may update ``prediction``.
rescore_queue_requested(fingerprints, priorities)
    sent instead by the scheduler when its frontier can list its whole queue
    from memory (the embedded frontier): the fingerprints of *all* queued
    entries and their priorities (a list, or a float64 array from the embedded
    frontier: either is a sequence of floats).  A receiver that keeps what it needs per
    fingerprint (the ``online`` strategy keeps each queued link's hashed ids)
    returns a float array, one new priority per fingerprint (NaN: keep); one
    that cannot answer returns None, and the scheduler falls back to
    ``rescore_requested`` batches for the rest of the crawl.
"""

page_evaluated = object()
request_finished = object()
rescore_requested = object()
rescore_queue_requested = object()
request_failed = object()
