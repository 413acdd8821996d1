"""The garbage-collector tuning of a crawl: frozen and raised while the spider runs, Python's own after."""

from __future__ import annotations

import gc

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from geofocus.extensions.gctuning import GcTuning


@pytest.fixture
def python_gc():
    """The process's collector as it was, whatever a test leaves behind."""
    threshold = gc.get_threshold()
    frozen = gc.get_freeze_count()
    yield threshold
    gc.set_threshold(*threshold)
    if not frozen:
        gc.unfreeze()


def test_frozen_and_raised_while_open_restored_after(python_gc):
    if gc.get_freeze_count():
        pytest.fail("the test process starts with frozen objects: another test left them")
    crawler = get_crawler(settings_dict={"GEOFOCUS_GC_THRESHOLD": 50_000})
    ext = GcTuning.from_crawler(crawler)
    kept = [[i] for i in range(1000)]  # objects that exist when the spider opens
    ext.spider_opened()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == (50_000, *python_gc[1:])
    assert crawler.stats.get_value("geofocus/gc/frozen_objects") == gc.get_freeze_count()
    ext.spider_closed()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == python_gc


def test_cycles_made_during_the_crawl_are_still_collected(python_gc):
    crawler = get_crawler(settings_dict={"GEOFOCUS_GC_THRESHOLD": 50_000})
    ext = GcTuning.from_crawler(crawler)
    ext.spider_opened()
    try:
        cycle: list = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1
    finally:
        ext.spider_closed()


def test_threshold_zero_keeps_pythons_and_off_is_not_configured(python_gc):
    ext = GcTuning.from_crawler(get_crawler(settings_dict={"GEOFOCUS_GC_THRESHOLD": 0}))
    ext.spider_opened()
    assert gc.get_threshold() == python_gc
    ext.spider_closed()
    with pytest.raises(NotConfigured):
        GcTuning.from_crawler(get_crawler(settings_dict={"GEOFOCUS_GC_FREEZE": False}))
