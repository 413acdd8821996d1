"""Stable hashing and a small PRNG: every simweb draw derives from ``(seed, ...)`` through these.

Python's ``hash()`` is salted per process and seeding ``random.Random`` costs about 8 us, so
simweb hashes with blake2b + splitmix64 and draws per-page numbers with :class:`Rng`.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

_M64 = (1 << 64) - 1


@lru_cache(maxsize=65536)
def _str_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def hash64(*parts: object) -> int:
    """A stable 64-bit hash of the parts (Python's hash() is salted per process)."""
    x = 0x9E3779B97F4A7C15
    for part in parts:
        v = part if type(part) is int else _str_hash(str(part))
        x = ((x ^ (v & _M64)) * 0xBF58476D1CE4E5B9) & _M64
        x ^= x >> 31
        x = (x * 0x94D049BB133111EB) & _M64
        x ^= x >> 29
    return x


class Rng:
    """splitmix64: a small, fast, stable PRNG (seeding random.Random costs ~8 us)."""

    __slots__ = ("s",)

    def __init__(self, seed: int):
        self.s = seed & _M64

    def _next(self) -> int:
        self.s = z = (self.s + 0x9E3779B97F4A7C15) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def randrange(self, a: int, b: int | None = None) -> int:
        if b is None:
            a, b = 0, a
        if b <= a:
            raise ValueError("empty range")
        return a + self._next() % (b - a)

    def randint(self, a: int, b: int) -> int:
        return a + self._next() % (b - a + 1)

    def choice(self, seq):
        return seq[self._next() % len(seq)]

    def choices(self, population, weights):
        x = self.random() * sum(weights)
        for item, w in zip(population, weights, strict=True):
            x -= w
            if x < 0:
                return [item]
        return [population[-1]]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._next() % (i + 1)
            items[i], items[j] = items[j], items[i]


@lru_cache(maxsize=65536)
def slugify(text: str) -> str:
    table = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "é": "e", "Ä": "ae",
                           "Ö": "oe", "Ü": "ue", "&": "-", "å": "a", "ø": "o", "ł": "l",
                           "ń": "n"})
    text = text.lower().translate(table)
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


