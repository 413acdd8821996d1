import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# The offline web answers at once: the tests' crawls (in-process and every `scrapy`
# subprocess, which inherits this) run without the live Web's politeness delays.
os.environ["SCRAPY_SETTINGS_MODULE"] = "geofocus.offline_settings"


def project_settings(**overrides):
    """The project's settings (geofocus/settings.py) as a dict, with overrides: for get_crawler."""
    from geofocus import offline_settings as module

    values = {name: getattr(module, name) for name in dir(module) if name.isupper()}
    values.update(overrides)
    return values
