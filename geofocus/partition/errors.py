"""The one error of the partition package."""

from __future__ import annotations


class PartitionError(ValueError):
    """A partition setting cannot work (unknown policy, missing GeoIP database...)."""
