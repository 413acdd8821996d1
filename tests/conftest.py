import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "geofocus.settings")


def project_settings(**overrides):
    """The project's settings (geofocus/settings.py) as a dict, with overrides: for get_crawler."""
    from geofocus import settings as module

    values = {name: getattr(module, name) for name in dir(module) if name.isupper()}
    values.update(overrides)
    return values
