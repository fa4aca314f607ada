"""A gap's classification (crewgate.text.shapes) looks every end of it up once in tables merged
across the shapes; it must give exactly what each shape's own grammar gives, for any gap."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crewgate.text.shapes import HYPHEN_RANGE, SEP, SHAPES, _classify, dot_split, spaced_end
from crewgate.text.tokens import head, tail

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


def _by_each_shape(gap: str) -> tuple[int, tuple[int | None, ...], tuple[int | None, ...]]:
    """The classification as each shape's grammar gives it, one shape at a time."""
    first, last = head(gap), tail(gap)
    spaced = spaced_end(gap)
    whole = first if len(first) < 8 else None
    openers: list[int | None] = []
    closers: list[int | None] = []
    before = between = after = 0
    for shape in SHAPES:
        if shape.before is None or shape.between is None:
            k: int | None = 0
            fits = whole is not None and ([t.low for t in whole] in (["-"], ["–"]) or (
                not whole and bool(gap)))
            n = None if gap.startswith(".") else shape.after.prefix(first)
        else:
            k = shape.before.suffix(last, spaced)
            if shape.spaced and not spaced:
                k = None
            fits = whole is not None and (shape.between.fits(whole, spaced) or (
                shape.between is SEP and dot_split(gap, whole)))
            n = shape.after.prefix(first)
        openers.append(k)
        closers.append(n)
        before |= shape.bit * (k is not None)
        between |= shape.bit * fits
        after |= shape.bit * (n is not None)
    return before | between << 16 | after << 32, tuple(openers), tuple(closers)


@settings(max_examples=600)
@given(_gaps())
def test_a_gap_is_classified_as_each_shape_would(gap: str) -> None:
    gap_class = _classify(gap)
    code, openers, closers = _by_each_shape(gap)
    assert gap_class.code == code
    # a gap whose ends no shape uses is not tokenized: its openers and closers are those of
    # the empty ends, which are what the shapes' grammars give for those ends
    if gap_class.tail or not tail(gap):
        assert gap_class.opener == openers
    if gap_class.head or not head(gap):
        assert gap_class.closer == closers


def test_the_hyphen_range_has_its_own_rule() -> None:
    assert _classify(" - ").code >> 16 & HYPHEN_RANGE.bit
    assert not _classify(" to ").code >> 16 & HYPHEN_RANGE.bit
    assert _classify(" to ").code >> 16 & SHAPES[0].bit  # "from a to b on both axes"
