"""Token grammars: a pattern of a few word and punctuation tokens, matched by a bounded state
machine (used by :mod:`crewgate.text.shapes` around the numbers of a request).

A grammar is a sequence of slots; a slot accepts one of a few token sequences ("from", "ranging
from", "[", "both x and y"), may be optional, and may require whitespace after it (a regular
expression's ``\\s+``; between other slots any whitespace is allowed, none required). Matching
walks the slots once, keeping the set of token positions reachable so far: at most
``len(tokens) + 1`` positions per slot, and grammars are matched against at most
:data:`crewgate.text.tokens.HEAD` tokens, so a match costs a bounded number of steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from crewgate.text.tokens import Tok

Option = tuple[str, ...]


class Slot(NamedTuple):
    options: frozenset[Option]
    optional: bool
    spaced: bool  # whitespace must follow what the slot matched


def slot(*options: str, optional: bool = False, spaced: bool = False) -> Slot:
    """A slot accepting any of these token sequences (tokens separated by spaces)."""
    return Slot(frozenset(tuple(o.split()) for o in options), optional, spaced)


@dataclass(frozen=True, slots=True)
class Grammar:
    slots: tuple[Slot, ...]
    empty: bool  # every slot optional: no tokens at all is a match
    firsts: frozenset[str]  # the tokens a non-empty match can start with
    lasts: frozenset[str]  # ... and end with
    longest: int  # the most tokens a match can have

    def fits(self, toks: Sequence[Tok], space_after: bool) -> bool:
        """Whether these tokens, all of them, are one match (``space_after``: whether whitespace
        follows the last token)."""
        reach = {0}
        for s in self.slots:
            nxt = set(reach) if s.optional else set()
            for i in reach:
                for option in s.options:
                    j = i + len(option)
                    if j > len(toks) or any(toks[i + k].low != w for k, w in enumerate(option)):
                        continue
                    if s.spaced and not (toks[j].spaced if j < len(toks) else space_after):
                        continue
                    nxt.add(j)
            if not nxt:
                return False
            reach = nxt
        return len(toks) in reach

    def suffix(self, toks: Sequence[Tok], space_after: bool) -> int | None:
        """The index of the first token of the longest match ending with the last token (the
        leftmost start, as a regular expression would find it); ``len(toks)`` when only the
        empty match fits; None when nothing fits."""
        if toks and toks[-1].low in self.lasts:
            for k in range(max(0, len(toks) - self.longest), len(toks)):
                if self.fits(toks[k:], space_after):
                    return k
        return len(toks) if self.empty else None

    def prefix(self, toks: Sequence[Tok]) -> int | None:
        """The length of the longest match starting with the first token (0: the empty match
        only), or None."""
        if toks and toks[0].low in self.firsts:
            for n in range(min(len(toks), self.longest), 0, -1):
                if self.fits(toks[:n], toks[n].spaced if n < len(toks) else True):
                    return n
        return 0 if self.empty else None


def _edge(slots: Sequence[Slot], at: int) -> frozenset[str]:
    out: set[str] = set()
    for s in slots:
        out.update(o[at] for o in s.options)
        if not s.optional:
            break
    return frozenset(out)


def grammar(*slots: Slot) -> Grammar:
    return Grammar(slots, all(s.optional for s in slots), _edge(slots, 0),
                   _edge(slots[::-1], -1), sum(max(map(len, s.options)) for s in slots))
