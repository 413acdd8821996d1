"""Fusion, selection and exploration of links (Tsikrika et al., sections 3.1-3.3).

f(h) = a1 * score_T(h) + a2 * score_V(parent(h))  (equation 2) is the link's
priority in the frontier.  Whether a link is queued at all is the selection
approach's decision, with score_V made binary (the parent has a map or not)
as in the paper, whose image classifiers are binary:

* ``text``    f'_S   = score_T >= t1
* ``visual``  f''_S  = the parent has a map (every link of such a page)
* ``both``    f_S    = score_T >= t1, or score_T >= t2 and the parent has a map
  (equation 3: a1 = 1, a2 = t1 - t2)
* ``product`` f'''_S = score_T >= t1 and the parent has a map

A link that is not selected may still be *explored* (skip-k, section 3.3) when
its exploration score is >= t3 (t3 < t1) and the trail that reached its parent
is shorter than k: ``text`` f'_E = score_T, ``visual`` f''_E = the parent has a
map, ``product`` f'''_E = both.  An explored page is fetched and its links
classified, but it is not a find.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SELECTIONS = ("text", "visual", "both", "product")
EXPLORATIONS = ("none", "text", "visual", "product")
#: score_V at or above this means "the parent has a map" (the step function of section 3.1).
MAP_THRESHOLD = 0.5

# What a link decision is.
SELECT = "select"
EXPLORE = "explore"
DROP = "drop"


class PolicyError(ValueError):
    pass


@dataclass(frozen=True)
class ClassifierPolicy:
    t1: float = 0.5
    t2: float = 0.2
    t3: float = 0.2
    a1: float = 1.0
    a2: float | None = None  # None: t1 - t2 (equation 3)
    skip_k: int = 1
    selection: str = "both"
    exploration: str = "none"

    def __post_init__(self) -> None:
        if self.selection not in SELECTIONS:
            raise PolicyError(
                f"GEOFOCUS_CLASSIFIER_SELECTION must be one of {', '.join(SELECTIONS)}, got {self.selection!r}")
        if self.exploration not in EXPLORATIONS:
            raise PolicyError(
                f"GEOFOCUS_CLASSIFIER_EXPLORATION must be one of {', '.join(EXPLORATIONS)}, got {self.exploration!r}"
            )
        for name in ("t1", "t2", "t3"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise PolicyError(f"GEOFOCUS_CLASSIFIER_{name.upper()} must be in [0, 1], got {value}")
        if self.selection == "both" and not self.t2 < self.t1:
            raise PolicyError(f"selection 'both' needs t2 < t1 (t1={self.t1}, t2={self.t2})")
        if self.exploration != "none" and not self.t3 < self.t1:
            raise PolicyError(f"exploration needs t3 < t1 (t1={self.t1}, t3={self.t3})")
        if self.skip_k < 0:
            raise PolicyError(f"GEOFOCUS_CLASSIFIER_SKIP_K must be >= 0, got {self.skip_k}")

    @classmethod
    def from_settings(cls, settings: Any) -> ClassifierPolicy:
        a2 = settings.get("GEOFOCUS_CLASSIFIER_A2")
        try:
            return cls(
                t1=settings.getfloat("GEOFOCUS_CLASSIFIER_T1"),
                t2=settings.getfloat("GEOFOCUS_CLASSIFIER_T2"),
                t3=settings.getfloat("GEOFOCUS_CLASSIFIER_T3"),
                a1=settings.getfloat("GEOFOCUS_CLASSIFIER_A1"),
                a2=None if a2 in (None, "") else float(a2),
                skip_k=settings.getint("GEOFOCUS_CLASSIFIER_SKIP_K"),
                selection=str(settings.get("GEOFOCUS_CLASSIFIER_SELECTION")).strip().lower(),
                exploration=str(settings.get("GEOFOCUS_CLASSIFIER_EXPLORATION")).strip().lower(),
            )
        except (TypeError, ValueError) as exc:
            if isinstance(exc, PolicyError):
                raise
            raise PolicyError(f"bad GEOFOCUS_CLASSIFIER_* setting: {exc}") from None

    @property
    def uses_images(self) -> bool:
        return self.selection in ("visual", "both", "product") or self.exploration in ("visual", "product")

    @property
    def weight_visual(self) -> float:
        return self.t1 - self.t2 if self.a2 is None else self.a2

    def fusion(self, score_t: float, score_v: float) -> float:
        """f(h) in [0, 1]: the link's priority."""
        return max(0.0, min(1.0, self.a1 * score_t + self.weight_visual * score_v))

    def selected(self, score_t: float, has_map: bool) -> bool:
        if self.selection == "text":
            return score_t >= self.t1
        if self.selection == "visual":
            return has_map
        if self.selection == "both":
            return score_t >= self.t1 or (has_map and score_t >= self.t2)
        return has_map and score_t >= self.t1

    def explorable(self, score_t: float, has_map: bool) -> bool:
        if self.exploration == "text":
            return score_t >= self.t3
        if self.exploration == "visual":
            return has_map
        if self.exploration == "product":
            return has_map and score_t >= self.t3
        return False

    def decide(self, score_t: float, score_v: float, trail: int) -> str:
        """SELECT, EXPLORE or DROP for a link whose parent is ``trail`` pages into an exploration trail."""
        has_map = score_v >= MAP_THRESHOLD
        if self.selected(score_t, has_map):
            return SELECT
        if trail < self.skip_k and self.explorable(score_t, has_map):
            return EXPLORE
        return DROP

    def could_pass_with_map(self, score_t: float, trail: int) -> bool:
        """Whether a link dropped without visual evidence would pass if its parent had a map."""
        return self.decide(score_t, 1.0, trail) != DROP
