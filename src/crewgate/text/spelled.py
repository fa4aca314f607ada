"""Numbers written in words ("six", "twenty-five", "one hundred and ten", "two point five"): a
request states "take off to six metres" as surely as "6 metres", and the gate must hold a plan
to it alike.

A spelled number is read from folded words (:mod:`crewgate.text.words`: "twenty-five" is the
words "twenty" and "five"), at most a few words long, from 0 to 999 with an optional decimal part
read digit by digit ("two point five", "one point two five"), and "a couple of" (2) and "a dozen"
(12). Reading one is bounded by its
longest form (``LONGEST`` words); a reader looks it up only where a word of :data:`FIRST` stands.
"""

from __future__ import annotations

from collections.abc import Sequence

from crewgate.text.units import UNITS

ONES: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}
TENS: dict[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}
# "a couple of metres", "a dozen metres": a number said as a word of quantity
COUNTS: dict[tuple[str, ...], int] = {("couple", "of"): 2, ("dozen",): 12}
# the words a spelled number begins with
FIRST = frozenset(ONES) | frozenset(TENS) | {"half"} | {c[0] for c in COUNTS}
DECIMALS = 4  # digits read after "point", at most
AND_A_HALF = ("and", "a", "half")  # "one and a half", "2 and a half"
# "nine hundred and ninety nine point d d d d", or "... and a half"
LONGEST = 6 + 1 + DECIMALS


def _below_hundred(words: Sequence[str], i: int) -> tuple[int, int] | None:
    """A number below 100 from ``words[i]`` ("seven", "forty", "forty two"), and where it ends."""
    if i >= len(words):
        return None
    word = words[i]
    if word in ONES:
        return ONES[word], i + 1
    if word in TENS:
        value = TENS[word]
        if i + 1 < len(words) and 1 <= ONES.get(words[i + 1], 0) <= 9:
            return value + ONES[words[i + 1]], i + 2
        return value, i + 1
    return None


def spelled(words: Sequence[str], i: int) -> tuple[float, int] | None:
    """The number spelled from ``words[i]`` and the index past its last word, or None when no
    number begins there ("half a" is 0.5: "half a metre")."""
    if i < len(words) and words[i] == "half":
        return (0.5, i + 2) if tuple(words[i + 1:i + 2]) in (("a",), ("an",)) else None
    for count, value in COUNTS.items():
        if tuple(words[i:i + len(count)]) == count:
            return float(value), i + len(count)
    first = _below_hundred(words, i)
    if first is None:
        return None
    value, end = first
    if value < 10 and end < len(words) and words[end] == "hundred":
        value, end = value * 100, end + 1
        rest_at = end + 1 if end < len(words) and words[end] == "and" else end
        rest = _below_hundred(words, rest_at)
        if rest is not None:
            value, end = value + rest[0], rest[1]
    if end + 1 < len(words) and words[end] == "point" and ONES.get(words[end + 1], 10) < 10:
        digits = ""
        k = end + 1
        while k < len(words) and len(digits) < DECIMALS and ONES.get(words[k], 10) < 10:
            digits += str(ONES[words[k]])
            k += 1
        return float(f"{value}.{digits}"), k
    return and_a_half(words, float(value), end)


def and_a_half(words: Sequence[str], value: float, end: int) -> tuple[float, int]:
    """A whole number read up to ``end``, and a half more where "and a half" follows it ("one
    and a half", "2 and a half metres")."""
    if tuple(words[end:end + 3]) == AND_A_HALF:
        return value + 0.5, end + 3
    return value, end


def with_unit(words: Sequence[str], i: int) -> tuple[float, str, int] | None:
    """A number spelled from ``words[i]`` with a unit right after it ("six metres"): its
    value, the unit's name as written ("metres", a key of UNITS) and the index past the unit;
    None otherwise (a number written in words counts only with its unit)."""
    found = spelled(words, i)
    if found is None or found[1] >= len(words) or words[found[1]] not in UNITS:
        return None
    value, end = found
    return value, words[end], end + 1


__all__ = ["AND_A_HALF", "COUNTS", "FIRST", "LONGEST", "ONES", "TENS", "and_a_half", "spelled",
           "with_unit"]
