"""The tokenizer: numbers as the gate reads them, words and punctuation, with their offsets; and
the token patterns read ranges, zones and points as they read before (whole words only)."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from crewgate.text import RequestFacts, tokenize


def _tokens(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text)]


def test_numbers_words_and_marks() -> None:
    assert _tokens("Fly to x=3, y -2.5m (TB3).") == [
        ("word", "Fly"), ("word", "to"), ("word", "x"), ("mark", "="), ("number", "3"),
        ("mark", ","), ("word", "y"), ("number", "-2.5m"), ("mark", "("), ("word", "TB3"),
        ("mark", ")"), ("mark", ".")]


def test_a_lone_label_glued_to_a_number_is_a_label() -> None:
    assert _tokens("x3 y-2 ax3") == [("word", "x"), ("number", "3"), ("word", "y"),
                                     ("number", "-2"), ("word", "ax3")]


def test_a_hyphen_between_numbers_is_no_sign() -> None:
    assert _tokens("3-7") == [("number", "3"), ("mark", "-"), ("number", "7")]
    assert _tokens("3 -7") == [("number", "3"), ("number", "-7")]
    assert _tokens("1.2.3 1..2") == [("word", "1"), ("mark", "."), ("word", "2"), ("mark", "."),
                                     ("word", "3"), ("number", "1"), ("mark", ".."),
                                     ("number", "2")]


@given(st.text(alphabet="xy a1.-+,()[]m_é会\t", max_size=40))
def test_tokens_cover_every_character_but_whitespace_in_order(text: str) -> None:
    tokens = list(tokenize(text))
    assert all(text[t.start:t.end] == t.text for t in tokens)
    assert all(a.end <= b.start for a, b in pairwise(tokens))
    assert "".join(t.text for t in tokens) == "".join(text.split())


def test_keywords_are_whole_words() -> None:
    """Changed on purpose: a keyword glued to a word is no keyword ("axesxyz" is not "axes")."""
    assert RequestFacts.read("search 0 to 4 on both axes").zones == ((0, 4, 0, 4),)
    assert RequestFacts.read("search 0 to 4 on both axesxyz").zones == ()
    assert RequestFacts.read("search 0 to 4 in x and yes").zones == ()


def test_a_range_split_by_its_dots_still_reads() -> None:
    """"-4 ..4": the second dot begins the number ".4" for the tokenizer; the range is 4."""
    assert RequestFacts.read("x from -4 ..4, y from -4..4").zones == ((-4, 4, -4, 4),)
