"""The project settings for the offline web (simweb, the tests, the demo, the benchmarks).

The live-Web defaults are polite (AutoThrottle on, a per-host delay: geofocus/settings.py);
the offline web is one local process that answers at once, so those waits would only
slow the crawls down.  The test suite also leaves out the crawl's own report.  Use it with
``SCRAPY_SETTINGS_MODULE=geofocus.offline_settings`` or pass the same two settings with ``-s``
(bin/demo and bench/*.py do).
"""

from geofocus.settings import *  # noqa: F401,F403

AUTOTHROTTLE_ENABLED = False
DOWNLOAD_DELAY = 0
# The tests' many short crawls would each spend seconds drawing a report nobody looks at;
# the tests of the live report turn it on.
GEOFOCUS_LIVE_REPORT = False
