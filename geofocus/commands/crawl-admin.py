"""``scrapy crawl-admin``: the command lives in geofocus/redis/admin.py.

Scrapy names a command after its module, so this module carries the hyphen.
"""

from geofocus.redis import admin


class Command(admin.Command):
    pass
