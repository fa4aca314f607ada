"""Where each word's part of its clause begins (``Reading.part_start``): at a clause, and at a
joining word after a comma (", and the drone ..."), held to a slow oracle written here, word by
word, over generated texts of the characters and words that matter."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crewgate.text.intent import CLAUSE_JOINS, Reading

PIECES = ["and", "but", "or", "then", "so", "yet", "while", "the", "drone", "rover", "go",
          "land", "x", "5", "2.5", ",", ".", ";", ":", "!", "?", " - ", "—", "–", ", and"]


def _oracle(reading: Reading) -> list[int]:
    words, seps = reading.words, reading.seps
    starts = set(reading.clause_starts)
    out, begin = [], 0
    for i in range(len(words)):
        if i in starts or (i > 0 and "," in seps[i - 1] and words[i] in CLAUSE_JOINS):
            begin = i
        out.append(begin)
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=16), st.sampled_from([" ", "", "  "]))
def test_each_word_knows_where_its_part_begins(pieces: list[str], glue: str) -> None:
    reading = Reading(glue.join(pieces))
    assert reading.part_start == _oracle(reading)


def test_a_comma_then_a_joining_word_begins_a_part_and_a_stop_a_clause() -> None:
    reading = Reading("Land the drone, and the rover goes home. Then wave, please")
    assert reading.words == ("land", "the", "drone", "and", "the", "rover", "goes", "home",
                             "then", "wave", "please")
    assert reading.part_start == [0, 0, 0, 3, 3, 3, 3, 3, 8, 8, 8]
