"""The ranges, zones and points a request states, read as token patterns around its numbers.

Every shape is two consecutive number tokens with a few word and punctuation tokens before the
first (the opener), between the two (the separator) and after the second (the closer):

- a range of one axis: "x from -5.5 to 5.5", "y in [-5.5, 5.5]", "x ∈ [-4, 4]", "x: 1..2",
  "x from -6 m to 0 m", and with the axis on each bound: "between x=-5.5 and x=5.5", "from x = 0
  to x = 5";
  an x range and a y range that follow each other form a zone;
- a zone on both axes: "from -5.5 to 5.5 on both axes", "on both axes [-4, 4]",
  "3-7 on both axes", "x, y in [-5.5, 5.5]";
- a point: "x 3, y -2", "y -2 and x 1", "(7.5, 4.0)", "at 3, 4", "x 3 m, y 4 m".

This module owns the shapes (:data:`SHAPES`) and the classification of a gap between two
numbers: which openers its end offers, which separator it is, which closers its start offers,
read from the tokens at each end that some shape's pattern could reach (a few: the longest
pattern is 7 tokens), once per distinct gap (:class:`Gaps`). :mod:`crewgate.text.cut` reads
the shapes off a request cut at its numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import attrgetter, is_not
from typing import NamedTuple

from crewgate.text.grammar import Grammar, Grammars, grammar, slot
from crewgate.text.tokens import TOKEN, Tok, head_of, tail_of
from crewgate.text.units import METRES

_OPEN = (slot("from", "in", "between", "range", "ranging from", "spanning", "of", "=", ":", "∈",
              optional=True),
         slot("from", optional=True, spaced=True), slot("[", "(", optional=True))
# a number may carry its unit, apart from it ("x from -6 m to 0 m", "x 3 metres, y 4 metres",
# "(3 m, 4 m)"; a unit glued to its number, "3m", is part of the number token)
_UNIT = slot(*METRES, optional=True)
SEP = grammar(_UNIT, slot("to", "and", ",", "..", "…", "-", "–", "—", "through"))
_CLOSE = grammar(_UNIT, slot("]", ")", optional=True))
_ON = slot("on", "in", "along", "for", "across")
_BOTH = ("both axes", "both x and y", "both dimensions", "both directions")
_COMMA = grammar(_UNIT, slot(","))
_NOTHING = grammar()


@dataclass(frozen=True, slots=True, eq=False)
class Shape:
    """Two numbers and the grammars of the tokens around them. ``before`` and ``between`` None:
    the shape's own rule (:data:`HYPHEN_RANGE`: a hyphen the second number may have taken for
    its sign, checked in :mod:`crewgate.text.cut`)."""

    name: str
    index: int
    before: Grammar | None
    between: Grammar | None
    after: Grammar
    spaced: bool = False  # whitespace right before the first number
    exact_unit: bool = False  # the unit is "m", never "M"
    label: str = ""  # its axis, when its grammars name it (else the opener's first word)
    bit: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bit", 1 << self.index)


BOTH_AXES = Shape("both axes", 0, grammar(slot("from", "between", "within", "in", optional=True),
                                          slot("[", "(", optional=True)), SEP,
                  grammar(_UNIT, slot("]", ")", optional=True),
                          slot("m", optional=True, spaced=True), _ON,
                          slot(*_BOTH, "x and y", "each axis")))
BOTH_AXES_FIRST = Shape("both axes first", 1, grammar(
    slot("on", "in", "along", "for", "across", optional=True), slot(*_BOTH),
    slot("in", "within", "from", "between", "of", "=", ":", "∈", optional=True),
    slot("[", "(", optional=True)), SEP, _CLOSE)
HYPHEN_RANGE = Shape("hyphen range", 2, None, None, grammar(
    slot("m", optional=True, spaced=True), _ON,
    slot("both axes", "both dimensions", "both directions", "x and y")))
XY_RANGE = Shape("x, y range", 3, grammar(slot("x"), slot(",", "and"), slot("y"), *_OPEN), SEP,
                 _CLOSE)
AXIS_RANGE = Shape("axis range", 4, grammar(slot("x", "y"), *_OPEN), SEP, _CLOSE)
XY_POINT = Shape("x, y point", 5, grammar(slot("x"), slot("=", ":", optional=True)), grammar(
    _UNIT, slot(",", ";", "and", optional=True), slot("and", optional=True), slot("y"),
    slot("=", ":", optional=True)), _NOTHING)
YX_POINT = Shape("y, x point", 6, grammar(slot("y"), slot("=", ":", optional=True)), grammar(
    _UNIT, slot(",", ";", "and", optional=True), slot("and", optional=True), slot("x"),
    slot("=", ":", optional=True)), _NOTHING)
BRACKET_POINT = Shape("bracketed point", 7, grammar(slot("(", "[")), _COMMA,
                      grammar(_UNIT, slot(")", "]")), exact_unit=True)
LEAD_POINT = Shape("led point", 8, grammar(
    slot("at", "to", "position", "point", "coordinate", "coordinates", "location", "goal"),
    slot(":", optional=True)), _COMMA, _NOTHING, spaced=True)


def _labelled(axis: str, index: int) -> Shape:
    """A range of one axis named on each bound ("between x=-5.5 and x=5.5", "from x = 0 to x =
    5"): read as such, its second bound is no point with the next number ("x=5.5, y=-5.5")."""
    label = grammar(slot(axis), slot("=", ":", optional=True))
    return Shape(f"{axis} range, labelled bounds", index,
                 grammar(slot("between", "from", optional=True), *label.slots),
                 grammar(_UNIT, slot("and", "to"), *label.slots), _CLOSE, label=axis)


X_LABELLED_RANGE = _labelled("x", 9)
Y_LABELLED_RANGE = _labelled("y", 10)

ZONES = (BOTH_AXES, BOTH_AXES_FIRST, HYPHEN_RANGE, XY_RANGE)  # then the axis ranges, paired
POINTS = (XY_POINT, YX_POINT, BRACKET_POINT, LEAD_POINT)
AXIS_RANGES = (AXIS_RANGE, X_LABELLED_RANGE, Y_LABELLED_RANGE)
SHAPES = (*ZONES, AXIS_RANGE, *POINTS, X_LABELLED_RANGE, Y_LABELLED_RANGE)  # by index
assert [s.index for s in SHAPES] == list(range(len(SHAPES)))
# the first and last tokens that make a gap worth reading further
_FIRSTS = frozenset().union(*(g.firsts for s in SHAPES for g in (s.between, s.after) if g),
                            ("-", "–", "."))  # the hyphen range; ".." split by a number
_LASTS = frozenset().union(*(s.before.lasts for s in SHAPES if s.before))


class Gap(NamedTuple):
    """A gap, classified. ``code``: the bits of the shapes whose opener ends the gap, | those of
    the shapes it separates the numbers of << 16, | those whose closer starts it << 32. Its end
    tokens; per shape, where its opener starts (an index into ``tail``) and how many tokens its
    closer takes (None: it has none)."""

    code: int
    head: list[Tok]
    tail: list[Tok]
    opener: tuple[int | None, ...]
    closer: tuple[int | None, ...]


def spaced_end(gap: str) -> bool:
    """Whitespace ends the gap (a lone x/y glued to the next number reads as followed by one)."""
    return bool(gap) and (gap[-1].isspace() or gap[-1] in "xyXY")


def _edge(gap: str) -> tuple[str, str]:
    """The first and the last token of a gap, lower-case ("" for none)."""
    first, last = TOKEN.search(gap), TOKEN.search(gap[::-1])
    return (first.group().lower() if first else "", last.group()[::-1].lower() if last else "")


def _classify(gap: str) -> Gap:
    first_tok, last_tok = _edge(gap)
    if first_tok and first_tok not in _FIRSTS and last_tok not in _LASTS:
        return _PLAIN
    # an end whose token no shape uses there offers what an end with no tokens offers (the
    # empty matches of the optional openers and closers), so it is not tokenized; nor can such
    # a gap separate two numbers (every separator starts with a token of _FIRSTS). An end that
    # is tokenized is read only as far as a pattern could reach (_BEGINNINGS, _ENDINGS): what
    # lies beyond changes nothing, so gaps that differ only there are classified once.
    read = not first_tok or first_tok in _FIRSTS
    first = head_of(gap, _BEGINNINGS) if read else []
    last = tail_of(gap, _ENDINGS) if last_tok in _LASTS else []
    # the gap's tokens, when they may be all of it: they separate two numbers only if they are
    # (a separator's tokens are a beginning, and reading stops past the first that is none)
    return _classified(gap, first, last, first if read else None)


Shaped = tuple[int, tuple[int | None, ...], tuple[int | None, ...]]
# What a gap offers depends on its end tokens (their words and the whitespace before each), on
# whether it is whole, and on a few of its characters, not on the rest of its text: the last
# ones classified are kept by those (a long gap, such as the text around a zone blanked out to
# read the points, recurs only by them).
KEPT_SHAPES = 8192
_shaped: dict[tuple[object, ...], Shaped] = {}
_LOW, _SPACED = attrgetter("low"), attrgetter("spaced")  # a token's, read in C


def _classified(gap: str, first: list[Tok], last: list[Tok], whole: list[Tok] | None) -> Gap:
    first_lows, last_lows = tuple(map(_LOW, first)), tuple(map(_LOW, last))
    key = (first_lows, tuple(map(_SPACED, first)), last_lows,
           tuple(map(_SPACED, last)), whole is not None, spaced_end(gap),
           gap.startswith("."), gap.endswith("."), bool(gap))
    found = _shaped.get(key)
    if found is None:
        if len(_shaped) >= KEPT_SHAPES:
            _shaped.clear()
        found = _shaped[key] = _shape_of(gap, first, last, whole, first_lows, last_lows)
    return Gap(found[0], first, last, found[1], found[2])


# each end of every shape's gap (openers, separators, closers) looked up at once
_OPENERS = Grammars([s.before for s in SHAPES])
_SEPARATORS = Grammars([s.between for s in SHAPES])
_CLOSERS = Grammars([s.after for s in SHAPES])


def _shape_of(gap: str, first: list[Tok], last: list[Tok], whole: list[Tok] | None,
              first_lows: tuple[str, ...], last_lows: tuple[str, ...]) -> Shaped:
    spaced = spaced_end(gap)
    openers = _OPENERS.suffixes(last, last_lows, spaced)
    closers = _CLOSERS.prefixes(first, first_lows)
    between = 0
    if whole is not None:
        between = _SEPARATORS.fitting(whole, first_lows, spaced)
        if dot_split(gap, whole):
            between |= _SEP_BITS
        if first_lows in (("-",), ("–",)) or (not whole and gap):
            between |= HYPHEN_RANGE.bit
    openers[_HYPHEN] = 0  # the hyphen range (see cut.py): its own rule, its closer
    if gap.startswith("."):
        closers[_HYPHEN] = None
    if not spaced:
        for i in _NEEDS_SPACE:
            openers[i] = None
    before = sum(compress(_BITS, map(is_not, openers, repeat(None))))
    after = sum(compress(_BITS, map(is_not, closers, repeat(None))))
    return before | between << 16 | after << 32, tuple(openers), tuple(closers)


# the token sequences a gap's end is read for: every ending of an opener, and every beginning
# of a closer or of a separator (the hyphen range's "-" and "–", the "." of a split "..")
_ENDINGS = frozenset(o[k:] for o in _OPENERS.language for k in range(len(o)))
_BEGINNINGS = frozenset({o[:k] for o in (*_CLOSERS.language, *_SEPARATORS.language)
                         for k in range(1, len(o) + 1)} | {("-",), ("–",), (".",)})
assert {o[0] for o in _BEGINNINGS} == _FIRSTS
assert {o[-1] for o in _ENDINGS} == _LASTS

_HYPHEN = HYPHEN_RANGE.index  # the one shape with no opener grammar (its own rule)
assert [s for s in SHAPES if s.before is None] == [HYPHEN_RANGE]
_NEEDS_SPACE = tuple(s.index for s in SHAPES if s.spaced and s.before is not None)
_BITS = tuple(s.bit for s in SHAPES)
_SEP_BITS = sum(s.bit for s in SHAPES if s.between is SEP)  # "-4 ..4" separates these


# a gap whose end tokens no shape uses: only the shapes that need no token there can use it
_PLAIN = _classified("", [], [], None)


# Short gaps recur from request to request (" to ", ", y from "): the last ones classified are
# kept across requests, a bounded number of bounded texts.
KEPT_GAP_CHARS = 40
KEPT_GAPS = 4096
_kept: dict[str, Gap] = {}


class Gaps(dict[str, Gap]):
    """Gaps classified once per distinct text (a long request repeats its gaps), short ones
    once across requests."""

    def __missing__(self, gap: str) -> Gap:
        if len(gap) > KEPT_GAP_CHARS:
            found = self[gap] = _classify(gap)
            return found
        kept = _kept.get(gap)
        if kept is None:
            if len(_kept) >= KEPT_GAPS:
                _kept.clear()
            kept = _kept[gap] = _classify(gap)
        self[gap] = kept
        return kept


def forget_gaps() -> None:
    """Drop the gaps kept across requests (a benchmark's cold reading)."""
    _kept.clear()
    _shaped.clear()


def dot_split(gap: str, toks: Sequence[Tok]) -> bool:
    """The first dot of ".." ends the gap, the second starts the next number ("-4 ..4")."""
    return len(toks) == 1 and toks[0].low == "." and gap.endswith(".")
