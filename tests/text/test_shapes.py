"""A gap's classification (crewgate.text.shapes) looks every end of it up once in tables merged
across the shapes (crewgate.text.grammar.Grammars); it must give exactly what each shape's own
grammar gives, for any gap, tried the slow way. The one-grammar suffix the cut uses is held
to the same."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crewgate.text.grammar import Grammar
from crewgate.text.shapes import (
    _CLOSERS,
    _OPENERS,
    HYPHEN_RANGE,
    SEP,
    SHAPES,
    Gap,
    _classify,
    dot_split,
    spaced_end,
)
from crewgate.text.tokens import TOKEN, Tok

HEAD = 10  # tokens the slow way reads at each end of a gap: more than any pattern spans there


def _tok(gap: str, start: int, end: int) -> Tok:
    return Tok(gap[start:end].lower(), start, end, start > 0 and gap[start - 1].isspace())


def head(gap: str) -> list[Tok]:
    """The slow way: the first ``HEAD`` tokens of a gap, whatever a pattern can reach."""
    return [_tok(gap, m.start(), m.end()) for m in TOKEN.finditer(gap)][:HEAD]


def tail(gap: str) -> list[Tok]:
    """The slow way: the last ``HEAD`` tokens of a gap, read from its end as the reader does."""
    size = len(gap)
    found = [_tok(gap, size - m.end(), size - m.start()) for m in TOKEN.finditer(gap[::-1])]
    return found[:HEAD][::-1]


# the words and marks the shapes use, a few they do not, and the spacing between them
WORDS = sorted({w for s in SHAPES for g in (s.before, s.between, s.after) if g is not None
                for option in g.language for w in option} | {"zone", "go", "X", "Y", "M"})
SPACES = st.sampled_from(["", " ", "  ", "\t"])
PIECES = st.lists(st.tuples(st.sampled_from(WORDS), SPACES), max_size=6)
# what some shape accepts at a gap's start (a closer) or end (an opener), as token lists
CLOSERS = sorted({o for s in SHAPES for o in s.after.language})
OPENERS = sorted({o for s in SHAPES if s.before is not None for o in s.before.language})


@st.composite
def _gaps(draw: st.DrawFn) -> str:
    """A gap: often a closer first and an opener last, and words of the shapes between."""
    words = [*draw(st.sampled_from(CLOSERS)), *(w for w, _ in draw(PIECES)),
             *draw(st.sampled_from(OPENERS))]
    return draw(st.sampled_from(["", " ", "."])) + "".join(
        draw(SPACES) + w for w in words) + draw(st.sampled_from(["", " ", "."]))


def _spaced(g: Grammar, toks: list[Tok], start: int, end: int, space_after: bool) -> bool:
    """The slow way: a way of deriving ``toks[start:end]`` with whitespace where it needs it."""
    ways = g.language.get(tuple(t.low for t in toks[start:end]))
    return ways is not None and any(
        all(toks[start + j].spaced if j < end - start else space_after for j in way)
        for way in ways)


def _suffix(g: Grammar, toks: list[Tok], space_after: bool) -> int | None:
    """The leftmost start of a match ending the tokens, by trying every start."""
    for k in range(len(toks)):
        if _spaced(g, toks, k, len(toks), space_after):
            return k
    return len(toks) if g.empty else None


def _prefix(g: Grammar, toks: list[Tok]) -> int | None:
    """The longest match starting the tokens, by trying every length."""
    for n in range(len(toks), 0, -1):
        if _spaced(g, toks, 0, n, toks[n].spaced if n < len(toks) else True):
            return n
    return 0 if g.empty else None


def _by_each_shape(gap: str) -> tuple[int, tuple[int | None, ...], tuple[int | None, ...]]:
    """The classification as each shape's grammar gives it, one shape at a time, every
    grammar tried the slow way (every start, every length)."""
    first, last = head(gap), tail(gap)
    spaced = spaced_end(gap)
    whole = first if len(first) < HEAD else None
    openers: list[int | None] = []
    closers: list[int | None] = []
    before = between = after = 0
    for shape in SHAPES:
        if shape.before is None or shape.between is None:
            k: int | None = 0
            fits = whole is not None and ([t.low for t in whole] in (["-"], ["–"]) or (
                not whole and bool(gap)))
            n = None if gap.startswith(".") else _prefix(shape.after, first)
        else:
            k = _suffix(shape.before, last, spaced)
            if shape.spaced and not spaced:
                k = None
            fits = whole is not None and (_spaced(shape.between, whole, 0, len(whole), spaced) or (
                shape.between is SEP and dot_split(gap, whole)))
            n = _prefix(shape.after, first)
        openers.append(k)
        closers.append(n)
        before |= shape.bit * (k is not None)
        between |= shape.bit * fits
        after |= shape.bit * (n is not None)
    return before | between << 16 | after << 32, tuple(openers), tuple(closers)


def _starts(openers: tuple[int | None, ...], toks: list[Tok],
            gap: str) -> list[int | bool | None]:
    """Where each opener starts in the gap (its end: the empty match), from token indices
    (the hyphen range has no opener: only that it fits)."""
    return [None if k is None else k is not None if i == HYPHEN_RANGE.index
            else toks[k].start if k < len(toks) else len(gap) for i, k in enumerate(openers)]


@settings(max_examples=600)
@given(_gaps())
def test_a_gap_is_classified_as_each_shape_would(gap: str) -> None:
    gap_class = _classify(gap)
    code, openers, closers = _by_each_shape(gap)
    assert gap_class.code == code
    # a gap whose ends no shape uses is not tokenized: its openers and closers are those of
    # the empty ends, which are what the shapes' grammars give for those ends; an end that is
    # is read only as far as a pattern reaches, so its openers are compared by where they start
    if gap_class.tail or not tail(gap):
        assert _starts(gap_class.opener, gap_class.tail, gap) == _starts(openers, tail(gap), gap)
    if gap_class.head or not head(gap):
        assert gap_class.closer == closers
        assert gap_class.head == head(gap)[:len(gap_class.head)]  # the same tokens, fewer
    assert gap_class.tail == tail(gap)[len(tail(gap)) - len(gap_class.tail):]


def _from_end(found: Gap, gap: str) -> list[int | bool | None]:
    return [s if s is None or isinstance(s, bool) else len(gap) - s
            for s in _starts(found.opener, found.tail, gap)]


FILLER = st.lists(st.sampled_from(["the", "ranger", "station", "road", "and", "by", "zone", "x",
                                   "y", ",", ".", "from", "go"]), min_size=8, max_size=20)


@settings(max_examples=300)
@given(st.sampled_from(CLOSERS), FILLER, FILLER, st.sampled_from(OPENERS))
def test_a_gap_end_is_read_only_as_far_as_a_pattern_reaches(
        closer: tuple[str, ...], middle: list[str], other: list[str],
        opener: tuple[str, ...]) -> None:
    """What lies between a long gap's ends, beyond the reach of any pattern, changes nothing:
    the same code, closers and openers (as far from the gap's end), and at most the tokens a
    pattern can span are read at each end (7 at its end, 8 and the one after a closer's at
    its start)."""
    def gap(words: list[str]) -> str:
        return " " + " ".join([*closer, "go", *words, "go", *opener]) + " "
    one, two = gap(middle), gap(other)
    a, b = _classify(one), _classify(two)
    assert (a.code, a.closer) == (b.code, b.closer)
    assert _from_end(a, one) == _from_end(b, two)
    assert (_OPENERS.longest, _CLOSERS.longest) == (7, 8) < (HEAD, HEAD)
    assert len(a.tail) <= _OPENERS.longest
    assert len(a.head) <= _CLOSERS.longest + 1


def test_the_hyphen_range_has_its_own_rule() -> None:
    assert _classify(" - ").code >> 16 & HYPHEN_RANGE.bit
    assert not _classify(" to ").code >> 16 & HYPHEN_RANGE.bit
    assert _classify(" to ").code >> 16 & SHAPES[0].bit  # "from a to b on both axes"


@settings(max_examples=300)
@given(_gaps())
def test_one_grammars_suffix_is_the_slow_ways(gap: str) -> None:
    last = tail(gap)
    for shape in SHAPES:
        if shape.before is not None:
            assert shape.before.suffix(last, spaced_end(gap)) == _suffix(shape.before, last,
                                                                         spaced_end(gap))
