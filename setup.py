"""Packaging for scrapyd: ``scrapyd-deploy`` builds an egg from this file.

Region packs (geofocus/regions/data/*.json) and the shared crawl's Lua scripts
(geofocus/redis/lua/*.lua) are data files: they must ride in the egg, or a
deployed crawl cannot load its region or share its frontier.
"""

from setuptools import find_packages, setup

setup(
    name="geofocus",
    version="0.1",
    packages=find_packages(include=["geofocus", "geofocus.*"]),
    package_data={"geofocus": ["regions/data/*.json", "**/*.json", "**/data/*", "redis/lua/*.lua"]},
    include_package_data=True,
    zip_safe=False,
    entry_points={
        "scrapy": ["settings = geofocus.settings"],
        # `scrapy simweb/region/report/train` wherever the package is installed, not only
        # inside the project directory (COMMANDS_MODULE needs scrapy.cfg).
        "scrapy.commands": [
            "simweb = geofocus.commands.simweb:Command",
            "region = geofocus.commands.region:Command",
            "report = geofocus.commands.report:Command",
            "train = geofocus.commands.train:Command",
        ],
    },
)
