"""What a request states: its words, numbers, coordinate pairs and zones (request containment).

Request containment asks: is a value in the plan one the user actually stated? This module reads
the request once per mission, robustly rather than by substring:

- words are matched as whole word sequences ("restart" does not state "start"; "room b" and
  "room_b" both state room_b);
- numbers are parsed as numbers and compared with a tolerance ("3" states 3.0); digits glued to
  letters are not numbers (the "3" of "TB3");
- coordinate pairs are kept as pairs ("x 3.0, y -2.0", "(7.5, 4.0)"), so 3.0 and -2.0 stated as
  one pair do not license the point (-2.0, 3.0);
- zones are read from axis ranges ("x from -5.5 to 5.5, y in [-5.5, 5.5]", "from -5.5 to 5.5 on
  both axes").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from itertools import pairwise

TOLERANCE = 1e-3  # metres; values closer than this are the same stated value

_NUM = r"[-+]?\d+(?:\.\d+)?|[-+]?\.\d+"
# a number not glued to a word ("TB3") nor part of a longer decimal; an "m" unit may follow
_N = rf"(?<!\w)(?<!\w\.)({_NUM})(?:m(?!\w))?(?!\w)(?!\.\d)"
_SEP = r"\s*(?:to|and|,|\.\.|…|–|—|through)\s*"
_OPEN = r"\s*(?:from|in|between|range|ranging from|spanning|of|=|:|∈)?\s*(?:from\s+)?[\[(]?\s*"
_CLOSE = r"\s*[\])]?"

_AXIS_RANGE = re.compile(rf"\b([xy])\b{_OPEN}{_N}{_SEP}{_N}{_CLOSE}", re.IGNORECASE)
_BOTH_AXES = re.compile(
    rf"(?:from|between|within|in)?\s*[\[(]?\s*{_N}{_SEP}{_N}\s*[\])]?\s*"
    r"(?:m\s+)?(?:on|in|along|for|across)\s+(?:both\s+(?:axes|x\s+and\s+y|dimensions|directions)"
    r"|x\s+and\s+y|each\s+axis)",
    re.IGNORECASE,
)
_BOTH_AXES_FIRST = re.compile(  # "on both axes [-4, 4]", "both axes from -4 to 4"
    rf"(?:on|in|along|for|across)?\s*both\s+(?:axes|x\s+and\s+y|dimensions|directions)\s*"
    rf"(?:in|within|from|between|of|=|:|∈)?\s*[\[(]?\s*{_N}{_SEP}{_N}\s*[\])]?",
    re.IGNORECASE,
)
_UNSIGNED_BOTH = re.compile(  # "3-7 on both axes" (a hyphen only between unsigned numbers)
    r"(?<![\w.-])(\d+(?:\.\d+)?)\s*[-–]\s*(\d+(?:\.\d+)?)(?![\w.])\s*(?:m\s+)?"
    r"(?:on|in|along|for|across)\s+(?:both\s+(?:axes|dimensions|directions)|x\s+and\s+y)",
    re.IGNORECASE,
)
_XY_BOTH = re.compile(rf"\bx\s*(?:,|and)\s*y\b{_OPEN}{_N}{_SEP}{_N}{_CLOSE}", re.IGNORECASE)
_LABELLED_POINT = re.compile(
    rf"\bx\s*(?:=|:)?\s*{_N}\s*(?:,|;|and)?\s*(?:and\s+)?\by\s*(?:=|:)?\s*{_N}", re.IGNORECASE
)
_LABELLED_POINT_YX = re.compile(
    rf"\by\s*(?:=|:)?\s*{_N}\s*(?:,|;|and)?\s*(?:and\s+)?\bx\s*(?:=|:)?\s*{_N}", re.IGNORECASE
)
_PAREN_POINT = re.compile(rf"[(\[]\s*{_N}\s*,\s*{_N}\s*[)\]]")
_LEAD_POINT = re.compile(
    rf"\b(?:at|to|position|point|coordinates?|location|goal)\s*:?\s+{_N}\s*,\s*{_N}",
    re.IGNORECASE,
)
_NUMBER = re.compile(_N)
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> tuple[str, ...]:
    """Lower-case word tokens; underscores, hyphens and punctuation separate words."""
    return tuple(_WORD.findall(text.lower()))


def breaks(text: str) -> frozenset[int]:
    """Indices of the word tokens followed by punctuation (not a space, "_" or "-"): a noun
    phrase cannot run on past them ("red cube -> room_b", "dropoff, then")."""
    matches = list(_WORD.finditer(text.lower()))
    out = set()
    for i, (a, b) in enumerate(pairwise(matches)):
        if text[a.end():b.start()].strip(" \t_-"):
            out.add(i)
    return frozenset(out)


def _normalize(text: str) -> str:
    text = text.replace("\u2212", "-").replace("\u2013", "–")
    # "y-2.0" and "x=3" read as a label followed by a number
    return re.sub(r"\b([xyXY])(?=[-+]?\d)", r"\1 ", text)


@dataclass(frozen=True, slots=True)
class RequestFacts:
    """Everything a request states that a plan argument may have to come from."""

    text: str
    tokens: tuple[str, ...]
    breaks: frozenset[int]  # token indices followed by punctuation
    numbers: tuple[float, ...]
    points: tuple[tuple[float, float], ...]
    zones: tuple[tuple[float, float, float, float], ...]  # x_min, x_max, y_min, y_max

    @classmethod
    def read(cls, text: str) -> RequestFacts:
        norm = _normalize(text)
        zones, masked = _zones(norm)
        points = _points(masked)
        numbers = tuple(float(m.group(1)) for m in _NUMBER.finditer(norm))
        return cls(text, words(text), breaks(text), numbers, points, zones)

    def states_words(self, phrase: str) -> bool:
        """Whether the request contains the phrase as a whole word sequence."""
        target = words(phrase)
        n = len(target)
        if n == 0:
            return False
        toks = self.tokens
        first = target[0]
        return any(
            toks[i] == first and toks[i : i + n] == target for i in range(len(toks) - n + 1)
        )

    def states_number(self, value: float) -> bool:
        return any(_close(value, n) for n in self.numbers)

    def states_point(self, x: float, y: float) -> bool:
        return any(_close(x, px) and _close(y, py) for px, py in self.points)

    def states_zone(self, zone: tuple[float, float, float, float]) -> bool:
        x0, x1, y0, y1 = zone
        xs, ys = sorted((x0, x1)), sorted((y0, y1))
        return any(
            _close(xs[0], z[0]) and _close(xs[1], z[1]) and _close(ys[0], z[2])
            and _close(ys[1], z[3])
            for z in self.zones
        )


def _close(a: float, b: float) -> bool:
    return math.isfinite(a) and abs(a - b) <= TOLERANCE


def _zones(text: str) -> tuple[tuple[tuple[float, float, float, float], ...], str]:
    """Zones stated in the text, and the text with their spans blanked (so that a range's
    bounds are not also read as a point)."""
    zones: list[tuple[float, float, float, float]] = []
    spans: list[tuple[int, int]] = []
    for pattern in (_BOTH_AXES, _BOTH_AXES_FIRST, _UNSIGNED_BOTH, _XY_BOTH):
        for m in pattern.finditer(text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            lo, hi = sorted((float(m.group(1)), float(m.group(2))))
            zones.append((lo, hi, lo, hi))
            spans.append(m.span())
    # an x range and a y range form a zone when one follows the other with no range of the same
    # axis between them ("the map spans x from -6 to 10; search x from 0 to 8, y from 0 to 8")
    pending: tuple[str, float, float] | None = None
    for m in _AXIS_RANGE.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        axis = m.group(1).lower()
        lo, hi = sorted((float(m.group(2)), float(m.group(3))))
        spans.append(m.span())
        if pending is not None and pending[0] != axis:
            x, y = ((pending[1], pending[2]), (lo, hi)) if axis == "y" else (
                (lo, hi), (pending[1], pending[2]))
            zones.append((x[0], x[1], y[0], y[1]))
            pending = None
        else:
            pending = (axis, lo, hi)
    masked = text
    for a, b in spans:
        masked = masked[:a] + " " * (b - a) + masked[b:]
    return tuple(zones), masked


def _points(text: str) -> tuple[tuple[float, float], ...]:
    found: list[tuple[int, tuple[float, float]]] = []
    taken: list[tuple[int, int]] = []
    for pattern in (_LABELLED_POINT, _LABELLED_POINT_YX, _PAREN_POINT, _LEAD_POINT):
        for m in pattern.finditer(text):
            if any(a <= m.start() < b for a, b in taken):
                continue
            first, second = float(m.group(1)), float(m.group(2))
            point = (second, first) if pattern is _LABELLED_POINT_YX else (first, second)
            found.append((m.start(), point))
            taken.append(m.span())
    return tuple(p for _, p in sorted(found))
