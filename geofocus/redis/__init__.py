"""Scale-out over Redis: a shared frontier, seen-set, counters, link model and (optionally) stats.

One concept per module: ``connection`` builds the client (scrapy-redis's
``REDIS_URL``/``REDIS_PARAMS`` as aliases), ``keys`` names every key of a
crawl, ``scripts`` loads the Lua scripts of ``lua/``, ``entries`` the stored
values, ``leases`` keeps popped entries owned, ``frontier`` is the
:class:`RedisFrontier` backend of the :class:`geofocus.frontier.FrontierQueue`
protocol (plus the ``SharedFrontier`` extras for ``extension``) and ``sync``
its background thread, ``pipeline`` reads pipeline results by name, ``generation`` notices a Redis that lost the crawl,
``modelstore`` pools link-model counts, ``seeds`` names the seed lists,
``stats`` adds every worker's Scrapy stats up, ``addon`` maps scrapy-redis's
settings, ``admin`` is ``scrapy crawl-admin``.  Every key starts with
``<GEOFOCUS_REDIS_PREFIX>:<crawl id>:`` (scrapy-redis's ``<spider>:start_urls``
seed list aside).
"""
