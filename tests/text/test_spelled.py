"""Numbers written in words (crewgate.text.spelled) read as the numbers they spell, held to a
speller written here; words that spell none read as none."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewgate.text.spelled import LONGEST, ONES, TENS, spelled
from crewgate.text.words import words

_ONES = {v: k for k, v in ONES.items()}
_TENS = {v: k for k, v in TENS.items()}


def _below_hundred(n: int, hyphen: bool) -> str:
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens * 10] + (("-" if hyphen else " ") + _ONES[ones] if ones else "")


def speak(n: int, hyphen: bool, joined: bool) -> str:
    """The slow way: 0 .. 999 in English words ("one hundred and five", "forty-two")."""
    hundreds, rest = divmod(n, 100)
    if not hundreds:
        return _below_hundred(rest, hyphen)
    head = f"{_ONES[hundreds]} hundred"
    return head if not rest else f"{head} {'and ' if joined else ''}{_below_hundred(rest, hyphen)}"


@settings(max_examples=500)
@given(st.integers(0, 999), st.booleans(), st.booleans(), st.sampled_from(["", "metres", "m"]))
def test_a_spelled_number_reads_as_its_value(n: int, hyphen: bool, joined: bool,
                                             after: str) -> None:
    said = words(f"{speak(n, hyphen, joined)} {after}")
    found = spelled(said, 0)
    assert found is not None
    value, end = found
    assert (value, said[end:]) == (float(n), words(after))
    assert end <= LONGEST


def test_decimals_are_read_digit_by_digit() -> None:
    assert spelled(words("two point five metres"), 0) == (2.5, 3)
    assert spelled(words("one point two five"), 0) == (1.25, 4)
    assert spelled(words("seven point"), 0) == (7.0, 1)  # no digit: "point" is not read
    assert spelled(words("zero point zero one"), 0) == (0.01, 4)


def test_words_that_spell_no_number_read_as_none() -> None:
    for text in ("metres", "hundred", "point five", "and", "the one", ""):
        assert spelled(words(text), 0) is None, text
    assert spelled(words("ninety twenty"), 0) == (90.0, 1)  # one number, then the next


@pytest.mark.parametrize(("text", "expected"), [
    ("one and a half", (1.5, 4)), ("twenty and a half", (20.5, 4)), ("half a", (0.5, 2)),
    ("half an", (0.5, 2)), ("half", None), ("one and a", (1.0, 1)),
])
def test_halves(text: str, expected: tuple[float, int] | None) -> None:
    assert spelled(text.split(), 0) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("couple of", (2.0, 2)), ("dozen", (12.0, 1)), ("couple", None), ("couples of", None),
])
def test_counts(text: str, expected: tuple[float, int] | None) -> None:
    """"A couple of metres" states 2 m (a plan's default of 3 m used to be accepted)."""
    assert spelled(text.split(), 0) == expected
