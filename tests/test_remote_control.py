"""Scrapy 2.19's remote-control endpoint (runs Python code sent over HTTP) is off unless asked for."""


import pytest
from scrapy.exceptions import NotConfigured
from scrapy.extensions.remote_control import RemoteControl
from scrapy.utils.project import get_project_settings
from scrapy.utils.test import get_crawler

from tests.crawling import ROOT


@pytest.fixture
def project_settings(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", "geofocus.settings")
    return get_project_settings()


def test_remote_control_is_off_in_the_project_settings(project_settings):
    assert project_settings.getbool("REMOTE_CONTROL_ENABLED") is False
    with pytest.raises(NotConfigured):
        RemoteControl.from_crawler(get_crawler(settings_dict=project_settings.copy_to_dict()))


def test_a_setting_can_still_turn_it_on(project_settings):
    settings = project_settings.copy_to_dict()
    settings["REMOTE_CONTROL_ENABLED"] = True
    settings["TWISTED_REACTOR"] = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
    try:
        RemoteControl.from_crawler(get_crawler(settings_dict=settings))
    except NotConfigured as exc:  # only for lack of asyncio support, never for the setting
        assert "REMOTE_CONTROL_ENABLED" not in str(exc)
