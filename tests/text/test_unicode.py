"""Words and names in any script: folded with NFKC and casefold, letters, digits and combining
marks of every script kept (each ideograph or kana a word: Chinese and Japanese are written
without spaces), so a non-ASCII alias is a real alias (issue 9: "会议室" had an empty key, and
every request "stated" that location)."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from crewgate.adapters.sim import SimAdapter
from crewgate.gate import Gate
from crewgate.plan import Plan, parse_plan
from crewgate.planners.exemplar.phrases import delexicalize
from crewgate.spec import Crew, load_crew
from crewgate.text import RequestFacts, Vocabulary, fold, phrase_key, words
from crewgate.text.phrases import DEST, quote

ROOM_B = "  room_b: {pose: [0.0, -1.0]}\n"
# the module (crewgate.text's ``words`` is its function)
_WORDS = importlib.import_module("crewgate.text.words")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("会议室", ("会", "议", "室")), ("带狗去会议室", ("带", "狗", "去", "会", "议", "室")),
     ("ロボット犬", ("ロ", "ボ", "ッ", "ト", "犬")), ("Café", ("café",)), ("CAFÉ", ("café",)),
     ("cafe\u0301", ("café",)),
     ("ＲＯＯＭ Ｂ", ("room", "b")), ("room_b", ("room", "b")), ("Room B", ("room", "b")),
     ("room-b", ("room", "b")), ("Straße", ("strasse",)), ("कमरा", ("कमरा",)),
     ("हिन्दी कमरा", ("हिन्दी", "कमरा")),
     ("stop the TB3 and go2", ("stop", "the", "tb3", "and", "go2")),
     ("İstanbul", (fold("İstanbul"),)), ("x=3.5", ("x", "3", "5")), ("!!! ...", ()),
     # a negation typed without its apostrophe, or with another mark or a space in its place,
     # reads as the apostrophe writes it (not inside a longer word: "scant", "donut", "dont_b")
     ("Dont go", ("don", "t", "go")), ("don;t", ("don", "t")), ("do n't", ("don", "t")),
     ("DONOT", ("do", "not")), ("dnt", ("don", "t")), ("shouldnt", ("shouldn", "t")),
     ("cant", ("can", "t")), ("don\u00b4t", ("don", "t")), ("don\u2032t", ("don", "t")),
     ("scant donut dont_b", ("scant", "donut", "dont", "b")),
     # a Cyrillic or Greek letter drawn as a Latin one, in a word of Latin letters or digits,
     # reads as it shows ("drоne" named no robot; "Dоn't" negated nothing); a word of those
     # scripts alone keeps its letters
     ("the dr\u043ene", ("the", "drone")), ("D\u043en't", ("don", "t")),
     ("\u0422\u04123", ("tb3",)), ("r\u03bfver", ("rover",)),
     ("\u0434\u043e\u043c", ("\u0434\u043e\u043c",)),
     # a word spelled out letter by letter, one space, hyphen or dot apart throughout, reads as
     # the word ("D o n ' t drive the rover" drove it); two letters, or a change of separator,
     # are letters
     ("D o n ' t go", ("don", "t", "go")), ("N-O-T", ("not",)), ("n.o.t. the", ("not", "the")),
     ("D \u043e n ' t", ("don", "t")), ("x y 2", ("x", "y", "2")), ("a b-c", ("a", "b", "c")),
     ("a, b, c", ("a", "b", "c")), ("T B 3", ("t", "b", "3")), ("e.g. a", ("e", "g", "a")),
     # a sign written for "no" reads as the word, set apart from a word it touches
     ("y 3: \u274c", ("y", "3", "no")), ("\U0001f6abrover", ("no", "rover")),
     ("a\u2717b", ("a", "no", "b"))],
)
def test_words_are_folded_runs_of_letters_digits_and_marks(text: str,
                                                           expected: tuple[str, ...]) -> None:
    assert words(text) == expected


@pytest.mark.parametrize(("name", "key"), [
    ("room_b", "room b"), ("Room B", "room b"), ("room-b", "room b"), ("ＲＯＯＭ＿Ｂ", "room b"),
    ("会议室", "会 议 室"), ("Café", "café"), ("🚀", "🚀"), ("!!!", "!!!"), ("a  🚀", "a"),
])
def test_phrase_keys(name: str, key: str) -> None:
    assert phrase_key(name) == key


# three one-letter words in a row: a request spells a word out so ("D o n ' t"), and reads it
# as the word
SPELLED_OUT = re.compile(r"(?<![\w'])[^\W\d_] [^\W\d_] [^\W\d_](?![\w'])")


@given(st.text(min_size=1, max_size=24).filter(str.strip))
@example("0\u0345")  # (casefolding made a look-alike: "0ι", which a second fold read as "0i")
def test_no_name_that_is_not_blank_has_an_empty_key(name: str) -> None:
    """A key keys to itself, but one that spells a word out letter by letter ("A:B:C" keys to
    "a b c", which reads as "abc")."""
    key = phrase_key(name)
    assert key
    assume(not SPELLED_OUT.search(key))
    assert phrase_key(key) == key
    assert words(key) == words(name)


@pytest.fixture(scope="module")
def crew(tmp_path_factory: pytest.TempPathFactory) -> Crew:
    """g1_go2 with a Chinese alias of room_b ("meeting room") and a French one of table_b."""
    text = (Path(load_crew.__code__.co_filename).parent.parent / "crews" / "g1_go2.yaml"
            ).read_text(encoding="utf-8")
    assert ROOM_B in text
    text = text.replace(ROOM_B, '  room_b: {pose: [0.0, -1.0], aliases: ["会议室"]}\n').replace(
        "  table_b: {pose: [2.0, 1.0],", '  table_b: {pose: [2.0, 1.0], aliases: ["Café"],')
    path = tmp_path_factory.mktemp("crew") / "g1_go2_unicode.yaml"
    path.write_text(text, encoding="utf-8")
    return load_crew(path)


def test_a_non_ascii_alias_states_its_location_only_when_the_request_says_it(crew: Crew) -> None:
    places = Vocabulary.build("location", crew.locations)
    assert places.resolve("会议室") == "room_b"
    assert places.stated_in(RequestFacts.read("带狗去会议室"), "room_b")
    assert places.stated_in(RequestFacts.read("send the dog to the 会议室, please"), "room_b")
    for request in ("walk the dog to the kitchen", "带狗去厨房", "go to room a", ""):
        facts = RequestFacts.read(request)
        assert not places.stated_in(facts, "room_b"), request
        assert "room_b" not in places.named_in(facts), request
    assert places.stated_in(RequestFacts.read("Meet me at the CAFÉ"), "table_b")
    assert places.stated_in(RequestFacts.read("meet me at the cafe\u0301"), "table_b")
    assert not places.stated_in(RequestFacts.read("meet me at the cafeteria"), "table_b")


def test_the_gate_refuses_a_non_ascii_alias_the_request_does_not_state(crew: Crew) -> None:
    gate, world = Gate(crew), SimAdapter(crew).world
    plan = parse_plan({"workflow": "navigation_only", "steps": [
        {"robot": "go2", "skill": "navigate_to_location", "args": {"location": "会议室"}}]})
    assert isinstance(plan, Plan)
    assert gate.validate(plan, "带狗去会议室", world).accepted
    refused = gate.validate(plan, "walk the dog to the kitchen", world)
    assert "substituted_value" in refused.codes


def test_phrases_are_quoted_in_any_script(crew: Crew) -> None:
    places = Vocabulary.build("location", crew.locations)
    assert quote(DEST, "send the dog to the 会议室 now", places) == "room_b"
    assert quote(DEST, "send the dog to the 厨房 now", places) == "厨房"
    assert quote(DEST, "go to the café", places) == "table_b"


def test_the_offline_planner_masks_names_in_any_script(crew: Crew) -> None:
    places, things = crew.context.locations, crew.context.objects
    assert delexicalize("带狗去会议室", places, things) == "带狗去 place"
    assert delexicalize("Meet me at the CAFÉ", places, things) == "meet me at the place"


@dataclass
class _Place:
    aliases: list[str] = field(default_factory=list)


def test_an_alias_without_words_is_never_stated() -> None:
    """A blank alias matched everywhere before; one without letters or digits names its entry
    in a plan and is stated by no request."""
    places = Vocabulary.build("location", {"dock": _Place(["", "🚀", "!!!"]), "yard": _Place()})
    for request in ("go to the yard", "🚀 !!!", ""):
        assert places.named_in(RequestFacts.read(request)) == (
            ["yard"] if "yard" in request else []), request
    assert places.resolve("🚀") == "dock"
    assert places.resolve("!!!") == "dock"


_NEGATION_BITS = ("do", "Does", "DID", "is", "are", "Was", "were", "has", "HAVE", "had", "should",
                  "would", "could", "must", "need", "might", "ca", "Wo", "sha", "n", "nt", "N;T",
                  "n:t", "n`t", "n't", "t", "donot", "DoNot", "dnt", "DNT", "x", "1", "_", "-",
                  "'", " ", "  ", "\t", ",", ".")


@given(st.lists(st.sampled_from(_NEGATION_BITS), max_size=12).map("".join))
def test_a_negation_typed_without_its_apostrophe_is_found_as_the_case_blind_pattern_finds_it(
        text: str) -> None:
    # an ASCII text is searched lower-cased, with a case-sensitive pattern (a third of the
    # case-blind one's time): the same matches, each stem kept as written
    assert _WORDS._uncontracted(text) == _WORDS._CONTRACTED.sub(_WORDS._contraction, text)
