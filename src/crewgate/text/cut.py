"""A request cut at its numbers, and the shapes read off it (:mod:`crewgate.text.shapes`).

Every shape is two consecutive numbers and the gaps around them, so reading is one pass over the
pairs of numbers: a pair whose three gaps (before, between, after) fit no shape is dismissed by
their codes, without Python work per pair (``map`` over the codes); a pair that fits is read
with the bounded token grammars. Where shapes overlap, the earlier kind wins (the order of
:data:`~crewgate.text.shapes.ZONES` and :data:`~crewgate.text.shapes.POINTS`), and within one kind
matches do not overlap, as ``re.finditer`` would have it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from itertools import accumulate, compress, repeat
from operator import and_, itemgetter, or_, rshift
from typing import NamedTuple

from crewgate.text.shapes import SEP, SHAPES, Gaps, Shape, dot_split, spaced_end
from crewgate.text.tokens import TOKEN, Tok, split_numbers
from crewgate.text.units import OTHER_LENGTHS


class Found(NamedTuple):
    """One shape read: its span in the text, its two numbers, and its axis label (a range)."""

    start: int
    end: int
    first: float
    second: float
    label: str


class Cut:
    """A text cut at its numbers: gaps[j] precedes number j, gaps[j + 1] follows it."""

    def __init__(self, text: str, gaps: Gaps) -> None:
        self.pieces = split_numbers(text)
        self.gap_text = self.pieces[0::3]
        self.numbers = self.pieces[1::3]
        self.units = self.pieces[2::3]
        # every shape takes two numbers: with fewer, no gap needs classifying
        self.gaps = list(map(gaps.__getitem__, self.gap_text)) if len(self.numbers) > 1 else []
        # a shape can fit only if some gap offers its opener, some its separator, some its closer
        every = reduce(or_, (gaps[t].code for t in set(self.gap_text)), 0) if self.gaps else 0
        self.possible = every & every >> 16 & every >> 32
        self._ends: list[int] = []
        self._candidates: list[tuple[int, int]] | None = None

    @property
    def ends(self) -> list[int]:  # ends[3j]: where gap j starts; ends[3j + 1]: number j
        if not self._ends:
            self._ends = [0, *accumulate(map(len, self.pieces))]
        return self._ends

    def candidates(self) -> list[tuple[int, int]]:
        """(j, bits): the pairs of numbers j, j + 1 whose three gaps fit some shape."""
        if self._candidates is None:
            self._candidates = []
            if self.possible:
                pairs = len(self.numbers) - 1
                codes = list(map(itemgetter(0), self.gaps))
                masks = list(map(and_, map(and_, map(and_, codes[:pairs], repeat(self.possible)),
                                           map(rshift, codes[1:pairs + 1], repeat(16))),
                                 map(rshift, codes[2:pairs + 2], repeat(32))))
                self._candidates = list(zip(compress(range(pairs), masks),
                                            compress(masks, masks), strict=True))
        return self._candidates

    def read(self, shape: Shape, j: int, floor: int) -> Found | None:
        """The shape on numbers j and j + 1, starting at ``floor`` or later, or None."""
        ends, a, b = self.ends, self.numbers[j], self.numbers[j + 1]
        g0, g2 = self.gaps[j], self.gaps[j + 2]
        i = shape.index
        if shape.before is None:
            if not _hyphen_range(self.gap_text[j], a, b, self.units[j] or self.units[j + 1],
                                 self.gaps[j + 1].head):
                return None
            start, label = ends[3 * j + 1] + (a[0] == "+"), ""
        else:
            base = ends[3 * j]
            toks, k = g0.tail, g0.opener[i]
            if k is not None and k < len(toks) and base + toks[k].start < floor:
                # the previous match took the start of this opener: what is left of it?
                toks = [t for t in toks if base + t.start >= floor]
                k = shape.before.suffix(toks, spaced_end(self.gap_text[j]))
            if k is None:
                return None
            start, label = ((base + toks[k].start, shape.label or toks[k].low) if k < len(toks)
                            else (ends[3 * j + 1], shape.label))
        n = g2.closer[i]
        if start < floor or n is None or (shape.exact_unit and "M" in self.units[j:j + 2]):
            return None
        if _unit_after(self.gap_text[j + 2], n) in OTHER_LENGTHS:
            return None  # "x 0 to 5 ft": no range in metres (nor one the plan may take as one)
        if shape.between is SEP and dot_split(self.gap_text[j + 1], self.gaps[j + 1].head):
            if not b.startswith("."):
                return None
            b = b[1:]  # "-4 ..4": the second number is 4
        end = ends[3 * j + 6] + g2.head[n - 1].end if n else ends[3 * j + 6]
        return Found(start, end, float(a), abs(float(b)) if shape.before is None else float(b),
                     label)


def _unit_after(gap: str, n: int) -> str:
    """The word after the first ``n`` tokens of a gap (a shape's closer), lower-case ("" for
    none), past an "in": a unit there is the shape's numbers' ("x 0 to 5 ft", "[0, 5] ft",
    "(2, 3) in feet"). Reads n + 2 tokens at most (n is bounded by the longest closer)."""
    for k, m in enumerate(TOKEN.finditer(gap)):
        word = m.group().lower()
        if k == n and word != "in":
            return word
        if k == n + 1:
            return word
    return ""


def _hyphen_range(before: str, a: str, b: str, units: str, between: Sequence[Tok]) -> bool:
    """"3-7", "3 - 7", "3 -7": unsigned numbers without a unit (and no "." nor "-" right before
    them), joined by a hyphen or en dash (which the second number may have read as its sign)."""
    if units or not a.lstrip("+")[:1].isdigit() or (a[0] != "+" and before[-1:] in (".", "-")):
        return False
    if between:  # "3-7", "3 – 7"
        return b[:1].isdigit()
    return b[:1] == "-" and b[1:2].isdigit()  # "3 -7"


def read(cut: Cut, shapes: Sequence[Shape]) -> list[list[Found]]:
    """Every match of these shapes, per shape index in reading order, without overlaps within
    a shape."""
    found: list[list[Found]] = [[] for _ in SHAPES]
    floors = [0] * len(SHAPES)
    wanted = sum(s.bit for s in shapes)
    which: dict[int, list[Shape]] = {}  # the shapes of a candidate's bits, in order
    for j, bits in cut.candidates():
        bits &= wanted
        if not bits:
            continue
        if bits not in which:
            which[bits] = [s for s in shapes if bits & s.bit]
        for shape in which[bits]:
            match = cut.read(shape, j, floors[shape.index])
            if match is not None:
                found[shape.index].append(match)
                floors[shape.index] = match.end
    return found
