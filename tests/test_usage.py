"""Start-up checks fail with one line: as_usage_error turns a component's error into scrapy's UsageError."""

import pytest
from scrapy.exceptions import UsageError

from geofocus.usage import as_usage_error


class ServiceDown(RuntimeError):
    pass


def test_a_named_error_becomes_a_usage_error_with_its_message_and_no_chain():
    with pytest.raises(UsageError, match="^cannot reach X; fix GEOFOCUS_X$") as info:
        with as_usage_error(ServiceDown):
            raise ServiceDown("cannot reach X; fix GEOFOCUS_X")
    assert info.value.print_help is False
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_other_errors_pass_through():
    with pytest.raises(KeyError):
        with as_usage_error(ServiceDown):
            raise KeyError("a bug, not a setting")
