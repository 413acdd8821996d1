"""The five-digit numbers of a page's text, found by one scan and shared by the readers that need them.

The postcode reader of the page text (German postcodes, US ZIP codes) scans the text for five digits;
the row reader (``keyvalue.row_addresses``) later searches the same text for them again. A scan of a
whole page costs as much as a tenth of its parse, so the first scan records where the numbers start and
the row reader looks its searches up in that record.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

# Five ASCII digits: a character class first, so the engine scans fast.
FIVE_DIGITS = re.compile(r"[0-9][0-9]{4}")
_ASCII_DIGITS = frozenset("0123456789")


class FiveDigits:
    """Where ``FIVE_DIGITS.finditer(text)`` matches, recorded as :meth:`scan` finds them.

    ``scan`` is the scan of one reader (called once); ``search`` answers ``FIVE_DIGITS.search(text, pos)``
    of another from the record where it can, and with a scan from ``pos`` where it cannot.
    """

    __slots__ = ("text", "starts", "complete")

    def __init__(self, text: str):
        self.text = text
        self.starts: list[int] = []  # the starts of the matches found so far, in order (each 5 long)
        self.complete = False  # the scan reached the end of the text

    def scan(self) -> Iterator[int]:
        """The start of each match of ``FIVE_DIGITS.finditer(text)``, in order; a reader may stop early."""
        record = self.starts.append
        for match in FIVE_DIGITS.finditer(self.text):
            start = match.start()
            record(start)
            yield start
        self.complete = True

    def search(self, pos: int) -> int | None:
        """The start of ``FIVE_DIGITS.search(text, pos)``, or None.

        The record holds the non-overlapping matches from the start of the text; a match found from
        ``pos`` is one of them when ``pos`` is not inside a run of digits (no digit right before it or
        none at it): the first five digits from such a ``pos`` start a run, and the scan from the start
        found every run's first five. Inside a run, and beyond what the scan has reached, the text is
        searched."""
        text = self.text
        if pos >= len(text):
            return None
        if pos <= 0 or text[pos - 1] not in _ASCII_DIGITS or text[pos] not in _ASCII_DIGITS:
            starts = self.starts
            index = bisect_left(starts, pos)
            if index < len(starts):
                return starts[index]
            if self.complete:
                return None
        match = FIVE_DIGITS.search(text, pos)
        return match.start() if match is not None else None
