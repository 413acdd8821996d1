"""The project settings for the offline web (simweb, the tests, the demo, the benchmarks).

The live-Web defaults are polite (AutoThrottle on, a per-host delay: geofocus/settings.py);
the offline web is one local process that answers at once, so those waits would only
slow the crawls down.  Use it with ``SCRAPY_SETTINGS_MODULE=geofocus.offline_settings``
or pass the same two settings with ``-s`` (bin/demo and bench/*.py do).
"""

from geofocus.settings import *  # noqa: F401,F403

AUTOTHROTTLE_ENABLED = False
DOWNLOAD_DELAY = 0
