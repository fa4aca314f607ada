"""What a request states: its words, numbers, coordinate pairs and zones (request containment).

Request containment asks: is a value in the plan one the user actually stated? This module reads
the request once per mission, robustly rather than by substring:

- words are matched as whole word sequences ("restart" does not state "start"; "room b" and
  "room_b" both state room_b), in any script (:mod:`crewgate.text.words`);
- numbers are parsed as numbers and compared with a tolerance ("3" states 3.0); digits glued to
  letters are not numbers (the "3" of "TB3");
- coordinate pairs are kept as pairs ("x 3.0, y -2.0", "(7.5, 4.0)"), so 3.0 and -2.0 stated as
  one pair do not license the point (-2.0, 3.0);
- zones are read from axis ranges ("x from -5.5 to 5.5, y in [-5.5, 5.5]", "from -5.5 to 5.5 on
  both axes").

Reading takes time linear in the length of the request (a tokenizer and bounded token patterns,
:mod:`crewgate.text.shapes`, :mod:`crewgate.text.cut`; no regular expression that can backtrack
super-linearly), so no request can stall the gate.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from operator import attrgetter

from crewgate.text.cut import Cut, Found, read
from crewgate.text.shapes import AXIS_RANGES, POINTS, YX_POINT, ZONES, Gaps, forget_gaps
from crewgate.text.spelled import FIRST as SPELLED_FIRST
from crewgate.text.spelled import spelled, with_unit
from crewgate.text.words import breaks, clean, fold, read_words, word_stream, words
from crewgate.values import quick_init

__all__ = ["TOLERANCE", "RequestFacts", "breaks", "words"]

TOLERANCE = 1e-3  # metres; values closer than this are the same stated value

Zone = tuple[float, float, float, float]  # x_min, x_max, y_min, y_max


class _Spans:
    """Character spans already read, as a sorted union of disjoint intervals."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def covers(self, pos: int) -> bool:
        i = bisect_right(self.starts, pos) - 1
        return i >= 0 and pos < self.ends[i]

    def add(self, spans: list[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for a, b in sorted([*zip(self.starts, self.ends, strict=True), *spans]):
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self.starts = [a for a, _ in merged]
        self.ends = [b for _, b in merged]

    def blank(self, text: str) -> str:
        """The text with these spans replaced by spaces."""
        out: list[str] = []
        prev = 0
        for a, b in zip(self.starts, self.ends, strict=True):
            out += (text[prev:a], " " * (b - a))
            prev = b
        out.append(text[prev:])
        return "".join(out)


def _zones(cut: Cut, spans: _Spans, lone: list[Found] | None = None) -> tuple[Zone, ...]:
    """Zones stated in the text; ``spans`` collects where they are (so that a range's bounds are
    not also read as a point); ``lone``, when given, receives the axis ranges that form none."""
    zones: list[Zone] = []
    found = read(cut, (*ZONES, *AXIS_RANGES))
    for shape in ZONES:
        kept = [m for m in found[shape.index] if not spans.covers(m.start)]
        if not kept:
            continue
        for m in kept:
            lo, hi = sorted((m.first, m.second))
            zones.append((lo, hi, lo, hi))
        spans.add([(m.start, m.end) for m in kept])
    # an x range and a y range form a zone when one follows the other with no range of the same
    # axis between them ("the map spans x from -6 to 10; search x from 0 to 8, y from 0 to 8")
    pending: Found | None = None
    axis_spans: list[tuple[int, int]] = []
    axes = sorted((m for shape in AXIS_RANGES for m in found[shape.index]),
                  key=attrgetter("start"))  # (each kind's in order: merged)
    for m in axes:
        if spans.covers(m.start) or (axis_spans and m.start < axis_spans[-1][1]):
            continue  # (of two kinds read over the same words, the first)
        axis_spans.append((m.start, m.end))
        if pending is not None and pending.label != m.label:
            x, y = (pending, m) if m.label == "y" else (m, pending)
            (x0, x1), (y0, y1) = sorted((x.first, x.second)), sorted((y.first, y.second))
            zones.append((x0, x1, y0, y1))
            pending = None
        else:
            if pending is not None and lone is not None:
                lone.append(pending)
            pending = m
    if pending is not None and lone is not None:
        lone.append(pending)
    spans.add(axis_spans)
    return tuple(zones)


def _points(cut: Cut) -> tuple[tuple[float, float], ...]:
    taken = _Spans()
    found: list[tuple[int, tuple[float, float]]] = []
    matches = read(cut, POINTS)
    for shape in POINTS:
        kept = [m for m in matches[shape.index] if not taken.covers(m.start)]
        if not kept:
            continue
        found += [(m.start, (m.second, m.first) if shape is YX_POINT else (m.first, m.second))
                  for m in kept]
        taken.add([(m.start, m.end) for m in kept])
    return tuple(p for _, p in sorted(found))  # starts differ: no two points compare further


_AXES = frozenset({"x", "y"})
_AXIS_LINKS = frozenset({"is", "from", "between", "in", "of", "equals", "at"})
_RANGE_LINKS = frozenset({"to", "and", "through"})
_MINUS = frozenset({"minus", "negative"})
_TOKEN = re.compile(r"[^\W\d_]+|\d+(?:\.\d+)?")  # a word of letters, or a number


def _coordinates_in_digits(norm: str) -> str:
    """The text with the numbers spelled as coordinates written in digits, so that they are
    read as the points and zones they state ("x two, y minus three": "x 2, y -3"; "x from zero
    to five": "x from 0 to 5"): right after an axis label (past "is", "from", "between", ...),
    and the end of its range. Nowhere else ("send two robots" states no number)."""
    found = [(m.group().casefold(), m.start(), m.end()) for m in _TOKEN.finditer(norm)]
    words = [w for w, _, _ in found]
    n = len(words)
    edits: list[tuple[int, int, str]] = []

    def take(j: int) -> int | None:
        """Past the number at word ``j`` (digits, or spelled: then written in digits)."""
        if j < n and words[j][0].isdigit():
            return j + 1
        sign = ""
        start = j
        if j < n and words[j] in _MINUS:
            sign, j = "-", j + 1
            if j < n and words[j][0].isdigit():  # "y minus 3": the sign in digits
                edits.append((found[start][1], found[j][1], "-"))
                return j + 1
        read = spelled(words, j) if j < n and words[j] in SPELLED_FIRST else None
        if read is None:
            return None
        value, end = read
        edits.append((found[start][1], found[end - 1][2], f"{sign}{value:g}"))
        return end

    for i in range(n):
        if words[i] not in _AXES:
            continue
        j = i + 1 + (i + 1 < n and words[i + 1] in _AXIS_LINKS)
        end = take(j)
        if end is not None and end < n and words[end] in _RANGE_LINKS:
            take(end + 1)
    if not edits:
        return norm
    out: list[str] = []
    at = 0
    for a, b, digits in sorted(edits):
        if a < at:
            continue  # (read twice: once is enough)
        out += (norm[at:a], digits)
        at = b
    out.append(norm[at:])
    return "".join(out)


@quick_init
@dataclass(frozen=True, slots=True)
class RequestFacts:
    """Everything a request states that a plan argument may have to come from."""

    text: str
    tokens: tuple[str, ...]
    breaks: frozenset[int]  # token indices followed by punctuation
    numbers: tuple[float, ...]
    points: tuple[tuple[float, float], ...]
    zones: tuple[Zone, ...]  # x_min, x_max, y_min, y_max

    @classmethod
    def read(cls, text: str) -> RequestFacts:
        """What the request states. The readings of the last requests are kept (a mission's
        plans and dispatches, an evaluation's many plans for one scenario, read it once); a
        reading is immutable, so a kept one is the same value."""
        if cls is RequestFacts and len(text) <= CACHED_CHARS:
            return _cached(text)
        return cls._read(text)

    @classmethod
    def _read(cls, text: str) -> RequestFacts:
        tokens, stops = read_words(text)
        spelled_here = not SPELLED_FIRST.isdisjoint(tokens)
        norm = _normalized(text, tokens, spelled_here)
        gaps = Gaps()
        cut = Cut(norm, gaps)
        numbers = tuple(map(float, cut.numbers if "M" not in cut.units else compress(
            cut.numbers, (u != "M" for u in cut.units))))  # "3M": a number only in a shape
        zones: tuple[Zone, ...] = ()
        points: tuple[tuple[float, float], ...] = ()
        if cut.gaps:  # two numbers or more: a shape may be stated
            spans = _Spans()
            zones = _zones(cut, spans)
            points = _points(Cut(spans.blank(norm), gaps) if spans.starts else cut)
        if spelled_here:  # "six metres": a number with its unit
            numbers += _spelled_quantities(tokens)
        return cls(text, tokens, stops, numbers, points, zones)

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

    def states_zone(self, zone: Zone) -> bool:
        x0, x1, y0, y1 = zone
        xs, ys = sorted((x0, x1)), sorted((y0, y1))
        return any(
            _close(xs[0], z[0]) and _close(xs[1], z[1]) and _close(ys[0], z[2])
            and _close(ys[1], z[3])
            for z in self.zones
        )


def _normalized(text: str, tokens: tuple[str, ...], spelled_here: bool) -> str:
    """The text as it reads (NFKC, nothing unseen, a dash for a minus made "-"), with the
    coordinates written in words written in digits ("x two, y minus three")."""
    norm = clean(text)
    if (spelled_here or not _MINUS.isdisjoint(tokens)) and not _AXES.isdisjoint(tokens):
        norm = _coordinates_in_digits(norm)
    return norm


def strips(text: str) -> tuple[Zone, ...]:
    """The axis ranges the text states that form no zone with a range of the other axis
    ("except x 0 to 2"), each as the strip it bounds: the whole of the other axis (an infinite
    bound, only ever compared: never shown, never sent)."""
    tokens, _ = read_words(text)
    cut = Cut(_normalized(text, tokens, not SPELLED_FIRST.isdisjoint(tokens)), Gaps())
    if not cut.gaps:
        return ()
    lone: list[Found] = []
    _zones(cut, _Spans(), lone)
    out = []
    for m in lone:
        lo, hi = sorted((m.first, m.second))
        if m.label == "x":
            out.append((lo, hi, -math.inf, math.inf))
        elif m.label == "y":
            out.append((-math.inf, math.inf, lo, hi))
    return tuple(out)


def _spelled_quantities(tokens: tuple[str, ...]) -> tuple[float, ...]:
    """The numbers written in words with a unit after them ("six metres", "two point five m"),
    as the reader's quantities read them (crewgate.text.intent.Reading.quantities)."""
    out = []
    end = 0
    for i, word in enumerate(tokens):
        if i < end or word not in SPELLED_FIRST:
            continue
        found = with_unit(tokens, i)
        if found is not None:
            out.append(found[0])
            end = found[2]
    return tuple(out)


def _close(a: float, b: float) -> bool:
    return math.isfinite(a) and abs(a - b) <= TOLERANCE


CACHED_CHARS = 4_000  # a request's longest (crewgate.limits); a longer text is read each time


@lru_cache(maxsize=256)
def _cached(text: str) -> RequestFacts:
    return RequestFacts._read(text)


def forget_readings() -> None:
    """Drop the kept readings (a benchmark's cold pass)."""
    _cached.cache_clear()
    word_stream.cache_clear()
    fold.cache_clear()
    forget_gaps()
