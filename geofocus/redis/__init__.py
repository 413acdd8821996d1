"""Scale-out over Redis: a shared frontier, seen-set, counters and link model.

``connection`` builds the client, ``frontier`` is the :class:`RedisFrontier`
backend of the :class:`geofocus.frontier.FrontierQueue` protocol,
``modelstore`` pools link-model counts, ``seeds`` feeds seed URLs pushed to a
Redis list.  Every key starts with ``<GEOFOCUS_REDIS_PREFIX>:<crawl id>:``.
"""
