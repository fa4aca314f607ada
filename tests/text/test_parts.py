"""Where each word's part of its clause begins (``Reading.part_start``): at a clause, and at a
joining word after a comma (", and the drone ..."), held to a slow oracle written here, word by
word, over generated texts of the characters and words that matter."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crewgate.spec import load_crew
from crewgate.spec.intent import IN_ORDER
from crewgate.text.intent import CLAUSE_JOINS, CUES, SCAN_WORDS, Reading, _alone

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


def test_a_decimal_point_ends_no_clause_a_full_stop_does() -> None:
    reading = Reading("Climb to 1.5 m, then land at 2. 5 robots wait.")
    assert reading.words == ("climb", "to", "1", "5", "m", "then", "land", "at", "2", "5",
                             "robots", "wait")
    assert reading.clause_of == [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]
    assert reading.clause_starts == [0, 9, 12]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["drone", "rover", "the", "go", "land", "stay", "x"]),
                min_size=1, max_size=150))
def test_a_word_is_found_where_it_stands_in_a_short_or_long_request(words: list[str]) -> None:
    # (one-letter words apart, three in a row spell a word out: "x x x" reads as "xxx")
    reading = Reading(" y2 ".join(words))
    words = [w for word in words for w in (word, "y2")][:-1]
    for word in dict.fromkeys(reversed(words)):
        assert reading._at(word) == [i for i, w in enumerate(words) if w == word]


def test_a_long_request_lists_every_word_at_once_a_short_one_only_those_looked_up() -> None:
    """Looking up many distinct words of a long request (a crew of 10,000 skills named in it)
    stays linear: one pass lists them all, not a scan of the request per word."""
    long = Reading(" ".join(f"w{i % 500}" for i in range(SCAN_WORDS * 20)))
    assert long._at("w7") == list(range(7, SCAN_WORDS * 20, 500))
    assert len(long._positions) == 500
    short = Reading("the drone and the rover")
    assert short._at("the") == [0, 3]
    assert list(short._positions) == ["the"]


_SAR_INTENT = load_crew("sar").intent
_CUE_WORDS = sorted({w for table in _SAR_INTENT._index.tables for phrase in table
                     for w in phrase[:3]})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*_CUE_WORDS, "the", "x", "5", ",", "."]), max_size=40))
def test_the_tables_looked_up_together_find_what_each_finds_alone(words: list[str]) -> None:
    """A crew's reading finds its cues and names in one pass (``PhraseIndex``): for every table,
    what that pass finds is what looking the table up alone finds."""
    reading = Reading(" ".join(words), index=_SAR_INTENT._index)
    tables = _SAR_INTENT._index.tables
    assert len(tables) == 20  # 12 cue tables, IN_ORDER and the crew's 7 tables of names
    for table in tables:
        assert sorted(reading._starts(table)) == sorted(reading._match(_alone(table))[0])
    # a table not indexed is looked up alone
    assert Reading("in that order", index=CUES).find(IN_ORDER) == [(0, 3)]
