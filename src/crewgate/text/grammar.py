"""Token grammars: a pattern of a few word and punctuation tokens, matched by looking the tokens
up among the finitely many sequences it accepts (used by :mod:`crewgate.text.shapes` around the
numbers of a request).

A grammar is a sequence of slots; a slot accepts one of a few token sequences ("from", "ranging
from", "[", "both x and y"), may be optional, and may require whitespace after it (a regular
expression's ``\\s+``; between other slots any whitespace is allowed, none required). A
grammar has no repetition, so the token sequences it accepts are finitely many (at most a few
hundred for the shapes of :mod:`crewgate.text.shapes`): they are listed once, when the grammar
is built, each with the places where whitespace must follow, and a match is one dictionary
lookup. Grammars are matched against the few tokens at a gap's end that some pattern can reach.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import NamedTuple

from crewgate.text.tokens import Tok

Option = tuple[str, ...]
# where whitespace must follow a match's tokens (indices after which it must come; the number of
# tokens: after the last one), one tuple per way the grammar derives the sequence
Spacing = tuple[tuple[int, ...], ...]


class Slot(NamedTuple):
    options: frozenset[Option]
    optional: bool
    spaced: bool  # whitespace must follow what the slot matched


def slot(*options: str, optional: bool = False, spaced: bool = False) -> Slot:
    """A slot accepting any of these token sequences (tokens separated by spaces)."""
    return Slot(frozenset(tuple(o.split()) for o in options), optional, spaced)


@dataclass(frozen=True, slots=True, eq=False)
class Grammar:
    slots: tuple[Slot, ...]
    empty: bool  # every slot optional: no tokens at all is a match
    firsts: frozenset[str]  # the tokens a non-empty match can start with
    lasts: frozenset[str]  # ... and end with
    longest: int  # the most tokens a match can have
    language: dict[Option, Spacing]  # every token sequence it accepts (see the module's doc)
    alone: Grammars = field(init=False, repr=False)  # this grammar as a lookup of its own

    def __post_init__(self) -> None:
        object.__setattr__(self, "alone", Grammars((self,)))

    def suffix(self, toks: Sequence[Tok], space_after: bool,
               lows: tuple[str, ...] | None = None) -> int | None:
        """The index of the first token of the longest match ending with the last token (the
        leftmost start, as a regular expression would find it); ``len(toks)`` when only the
        empty match fits; None when nothing fits (:meth:`Grammars.suffixes` of this one)."""
        if toks and toks[-1].low not in self.lasts:
            return len(toks) if self.empty else None
        if lows is None:
            lows = tuple([t.low for t in toks])
        return self.alone.suffixes(toks, lows, space_after)[0]


class Grammars:
    """Several grammars (None: one that matches nothing) merged into one lookup: each token
    sequence some of them accept, with which of them accept it and how. A gap's end is
    looked up once per length for all of them, not once per grammar and length; the answers
    are per grammar, in the order given."""

    def __init__(self, grammars: Sequence[Grammar | None]) -> None:
        merged: dict[Option, list[tuple[int, Spacing | None]]] = {}
        for i, g in enumerate(grammars):
            for option, ways in (g.language.items() if g is not None else ()):
                # None: a way of deriving it needs no whitespace anywhere, so it always fits
                merged.setdefault(option, []).append((i, None if () in ways else ways))
        self.language = {k: tuple(v) for k, v in merged.items()}
        self.longest = max((g.longest for g in grammars if g is not None), default=0)
        self.empty = tuple(g is not None and g.empty for g in grammars)
        self._empties = tuple(i for i, e in enumerate(self.empty) if e)

    def suffixes(self, toks: Sequence[Tok], lows: tuple[str, ...],
                 space_after: bool) -> list[int | None]:
        """Per grammar, :meth:`Grammar.suffix`: where its longest match ending with the last
        token starts (``lows``: the tokens' lower-case words)."""
        n = len(toks)
        found: list[int | None] = [None] * len(self.empty)
        for k in range(max(0, n - self.longest), n):
            for i, ways in self.language.get(lows[k:], ()):
                if found[i] is None and (ways is None or _spaced(ways, toks, k, n, space_after)):
                    found[i] = k
        for i in self._empties:  # only the empty match fits
            if found[i] is None:
                found[i] = n
        return found

    def prefixes(self, toks: Sequence[Tok], lows: tuple[str, ...]) -> list[int | None]:
        """Per grammar, the length of its longest match starting with the first token (0: the
        empty match only), or None."""
        found: list[int | None] = [None] * len(self.empty)
        for n in range(min(len(toks), self.longest), 0, -1):
            for i, ways in self.language.get(lows[:n], ()):
                if found[i] is None and (ways is None or _spaced(
                        ways, toks, 0, n, toks[n].spaced if n < len(toks) else True)):
                    found[i] = n
        for i in self._empties:  # only the empty match fits
            if found[i] is None:
                found[i] = 0
        return found

    def fitting(self, toks: Sequence[Tok], lows: tuple[str, ...], space_after: bool) -> int:
        """The bits (1 << index) of the grammars of which these tokens, all of them, are one
        match."""
        bits = 0
        for i, ways in self.language.get(lows, ()):
            if ways is None or _spaced(ways, toks, 0, len(toks), space_after):
                bits |= 1 << i
        return bits


def _spaced(ways: Spacing, toks: Sequence[Tok], start: int, end: int, space_after: bool) -> bool:
    """Whether one way of deriving ``toks[start:end]`` has whitespace wherever it needs it
    (``space_after``: whitespace follows ``toks[end - 1]``)."""
    n = end - start
    return any(all(toks[start + j].spaced if j < n else space_after for j in way)
               for way in ways)


def _edge(slots: Sequence[Slot], at: int) -> frozenset[str]:
    out: set[str] = set()
    for s in slots:
        out.update(o[at] for o in s.options)
        if not s.optional:
            break
    return frozenset(out)


def _language(slots: Sequence[Slot]) -> dict[Option, Spacing]:
    """Every token sequence the slots accept, with where whitespace must follow in each way of
    deriving it."""
    ways: dict[Option, set[tuple[int, ...]]] = {}
    choices = [[*s.options, *([None] if s.optional else [])] for s in slots]
    for picked in product(*choices):
        toks: list[str] = []
        spaced: list[int] = []
        for s, option in zip(slots, picked, strict=True):
            if option is None:
                continue
            toks += option
            if s.spaced:
                spaced.append(len(toks))
        ways.setdefault(tuple(toks), set()).add(tuple(spaced))
    return {toks: tuple(sorted(found)) for toks, found in ways.items()}


def grammar(*slots: Slot) -> Grammar:
    return Grammar(slots, all(s.optional for s in slots), _edge(slots, 0),
                   _edge(slots[::-1], -1), sum(max(map(len, s.options)) for s in slots),
                   _language(slots))
