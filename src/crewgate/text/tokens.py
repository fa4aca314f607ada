"""The tokens of a request: numbers, words and punctuation marks, each with its character offsets.

A request is read in one linear pass: :data:`NUMBER` splits it at its number tokens, and the text
between two numbers (a *gap*) holds word and punctuation tokens. The structures a request states
(ranges, zones, points: :mod:`crewgate.text.shapes`) are token patterns around two consecutive
numbers, so a reader needs only the few tokens at each end of a gap that a pattern can reach
(:func:`head_of`, :func:`tail_of`), never a whole gap; :func:`tokenize` lists every token, for
whoever wants them all.

Bounds (why every expression here is linear): no expression has nested or adjacent unbounded
repetitions, and every lookaround is at most three characters wide. :data:`NUMBER` starts with
one character class (the regular expression engine skips to the next sign, digit or dot without
trying the rest), and an attempt gets past its lookbehinds only at the first character of a run of
signs, digits and dots that follows a non-word character (or a lone ``x``/``y`` label), so each
run is read by at most three attempts; a gap token is one run of one character class. At either
end of a gap, only as many tokens are read as the longest pattern has (and one more).
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator
from typing import Literal, NamedTuple

from crewgate.values import tuple_of

# A number as requests write it: a sign, digits and an optional decimal part (or ".5"), and an
# optional unit "m"; never glued to a word ("TB3") nor part of a longer decimal ("1.2.3"). A lone
# x or y glued before it is a label, not part of a word ("x3", "y-2.0" read as "x 3", "y -2.0").
# Two groups: the number and its unit ("" when it has none); ``NUMBER.split`` yields
# [gap, number, unit, gap, number, unit, ..., gap].
NUMBER = re.compile(
    # the first character, then where it stands: after a non-word character (and not after a
    # word's "."), or after a lone x/y label when a digit follows ...
    r"([-+.\d](?:(?<!\w.)(?<!\w\..)|(?<=(?<!\w)[xyXY]\d)|(?<=(?<!\w)[xyXY][-+])(?=\d))"
    # ... then the rest of the number, by its first character
    r"(?:(?<=[-+])(?:\d+(?:\.\d+)?|\.\d+)|(?<=\d)\d*(?:\.\d+)?|(?<=\.)\d+))"
    r"([mM](?!\w)|)(?!\w)(?!\.\d)"
)
# a word, "..", or one punctuation mark (the first character first: whitespace is skipped fast)
TOKEN = re.compile(r"\S(?:(?<=\w)\w*|(?<=\.)\.?|)")

Kind = Literal["number", "word", "mark"]


class Tok(NamedTuple):
    """A word or punctuation token of a gap; offsets are the gap's, ``low`` is lower-case."""

    low: str
    start: int
    end: int
    spaced: bool  # whitespace precedes it


class Token(NamedTuple):
    """A token of the request, with its offsets in the text."""

    kind: Kind
    text: str
    start: int
    end: int


def split_numbers(text: str) -> list[str]:
    """[gap, number, unit, gap, number, unit, ..., gap]: the request cut at its numbers."""
    return NUMBER.split(text)


def _tok(gap: str, start: int, end: int) -> Tok:
    return tuple_of(Tok, (gap[start:end].lower(), start, end,
                          start > 0 and gap[start - 1].isspace()))


def tail_of(gap: str, endings: Container[tuple[str, ...]]) -> list[Tok]:
    """The last tokens of a gap, in reading order, as many as end some token sequence of
    ``endings`` (lower-case words): no pattern that ends the gap reaches further back, so the
    rest is never read. Bounded by the longest of ``endings``. Read from the end: a word
    reversed is a word, a mark reversed is the same mark."""
    size = len(gap)
    found: list[Tok] = []
    lows: tuple[str, ...] = ()
    for m in TOKEN.finditer(gap[::-1]):
        back, ahead = m.span()
        tok = _tok(gap, size - ahead, size - back)
        lows = (tok.low, *lows)
        if lows not in endings:
            break
        found.append(tok)
    found.reverse()
    return found


def head_of(gap: str, beginnings: Container[tuple[str, ...]]) -> list[Tok]:
    """The first tokens of a gap that begin some token sequence of ``beginnings`` (lower-case
    words), and the token after them (its spacing ends a match before it): the gap is one of
    the sequences as a whole only if these are all its tokens. Bounded by the longest of
    ``beginnings``."""
    found: list[Tok] = []
    lows: tuple[str, ...] = ()
    for m in TOKEN.finditer(gap):
        tok = _tok(gap, *m.span())
        found.append(tok)
        lows = (*lows, tok.low)
        if lows not in beginnings:
            break
    return found


def tokenize(text: str) -> Iterator[Token]:
    """Every token of the request in reading order: numbers (sign, decimals and unit included),
    words (runs of letters, digits and underscores) and punctuation marks; whitespace separates
    tokens and is not one."""
    offset = 0
    pieces = split_numbers(text)
    for i in range(0, len(pieces), 3):
        gap = pieces[i]
        for m in TOKEN.finditer(gap):
            kind: Kind = "word" if m.group()[0].isalnum() or m.group()[0] == "_" else "mark"
            yield Token(kind, m.group(), offset + m.start(), offset + m.end())
        offset += len(gap)
        if i + 2 < len(pieces):
            literal = pieces[i + 1] + pieces[i + 2]
            yield Token("number", literal, offset, offset + len(literal))
            offset += len(literal)
