"""Request reading takes time linear in the request: 1 MB of adversarial padding is read in
under a second by every reader on the gate's and the offline planner's path (issue 9: the old
reader took a minute for "x" and 1,000 spaces, and never finished with 3,000).

``benchmarks/bench_request.py`` prints the times and their growth with the request's length."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import pytest

from crewgate.planners.exemplar.cues import Cues
from crewgate.planners.exemplar.phrases import delexicalize, sentences
from crewgate.spec import Crew, load_crew
from crewgate.text.phrases import DEST, OBJECT, SOURCE, attached_number, candidates, quote
from crewgate.text.request import RequestFacts

MB = 1_000_000
BOUND_S = 1.0  # the bound, per reader and request


def _repeat(unit: str) -> str:
    return (unit * (MB // len(unit) + 1))[:MB]


PADDING = {
    "spaces": lambda: "x" + " " * (MB - 1),
    "digits": lambda: _repeat("1"),
    "x and a space": lambda: _repeat("x "),
    "from 1 to": lambda: _repeat("from 1 to "),
    "open bracket, number, comma": lambda: _repeat("(1,"),
    "punctuation": lambda: _repeat(",.;:!?-–—…=∈"),
    "numbers and signs": lambda: _repeat("1 -.+1.2.. "),
    "non-ASCII letters": lambda: _repeat("会议室 Café "),
    "combining marks": lambda: _repeat("कमरा "),
    "nested brackets": lambda: "([" * (MB // 4) + "])" * (MB // 4),
    "phrase triggers": lambda: _repeat("bring me the to the "),
    "negations and retractions": lambda: _repeat("don't send the rover, no wait, never mind "),
    "negated points": lambda: _repeat("avoid (1, 2) and not x 3, y 4; "),
    # one clause of many robots, actions, places and quantities (the agent of each action, the
    # action of each quantity, the things an action may stand in are looked up, not scanned)
    "robots, actions and places": lambda: _repeat("send the dog and the drone to the charger "),
    "actions and quantities": lambda: _repeat("take off to 3 m and land "),
    # a whole that stays but for an exception (each robot's exception is looked up, not scanned)
    "a whole and its exception": lambda: _repeat("all robots except the drone stay; "),
    # subjects dropped by what follows them, and actions passed over (each a scope of its own)
    "dropped and passed over": lambda: _repeat(
        "searching x 1 to 2, y 3 is not needed, skip landing; "),
    # questions, suppositions and polite requests (each sentence read by its first words), and
    # one sentence of what happened and what is for later (each sentence looked at once)
    "questions": lambda: _repeat("is the rover able to? what if, rover, can you tell me "),
    "what happened and for later": lambda: _repeat(
        "the rover drove there yesterday and send it tomorrow at 3 pm in 10 minutes "),
    "typographic marks": lambda: _repeat("x \u20131\uff0c y \u22122 \u200bdon\u2019t ro\u00adver "),
    # many things taken back before the last cue (each quoted in constant length), robots kept
    # out of places (each place looked up), plans asked for then run (each cue looked at once)
    "corrections and dismissals": lambda: _repeat(
        "room_a, no wait, room_b. the rover stays. room_a... actually, room_b. rover? leave "
        "it. keep the dog out of room_a, make a plan then execute it when i give the word. "
        "take off to 3 m, no, 4 m. cancel! forget the rover. no, don't stop the drone. "),
}


@pytest.fixture(scope="module")
def crews() -> list[Crew]:
    """The packaged crews, with every reader run once on a short request (so that the crews
    are loaded and the patterns compiled outside the timed readings)."""
    loaded = [load_crew("sar"), load_crew("g1_go2")]
    for reader in _readers("x from 1 to 2, y in [3, 4]; bring me the cube to the charger",
                           loaded).values():
        reader()
    return loaded


def _readers(text: str, crews: list[Crew]) -> dict[str, Callable[[], object]]:
    """Every reader of a request on the gate's and the offline planner's path."""
    facts = [RequestFacts.read("")]  # the timed reading below replaces it

    def read() -> object:
        facts[0] = RequestFacts.read(text)
        return facts[0]

    def mentions(crew: Crew) -> object:
        return [crew.context.locations.named_in(facts[0]),
                crew.context.objects.named_in(facts[0])]

    readers: dict[str, Callable[[], object]] = {"RequestFacts.read": read}
    for crew in crews:
        readers[f"{crew.name} mentions"] = partial(mentions, crew)
        readers[f"{crew.name} Cues.read"] = partial(Cues.read, crew, text)
        readers[f"{crew.name} delexicalize"] = partial(
            delexicalize, text, crew.context.locations, crew.context.objects)
    places = crews[1].context.locations
    readers["candidates(DEST)"] = lambda: list(candidates(DEST, text))
    readers["quote(SOURCE)"] = partial(quote, SOURCE, text, places, known_only=True)
    readers["quote(OBJECT)"] = partial(quote, OBJECT, text, places)
    readers["attached_number"] = partial(attached_number, "altitude", text)
    readers["sentences"] = partial(sentences, text)
    return readers


def _timed(reader: Callable[[], object]) -> float:
    started = time.perf_counter()
    reader()
    return time.perf_counter() - started


@pytest.mark.parametrize("padding", PADDING)
def test_a_megabyte_of_padding_is_read_in_under_a_second(padding: str,
                                                          crews: list[Crew]) -> None:
    text = PADDING[padding]()
    assert len(text) == MB
    slow = {}
    for name, reader in _readers(text, crews).items():
        elapsed = _timed(reader)
        if elapsed >= BOUND_S:  # once more, in case the machine was busy: best of two
            elapsed = min(elapsed, _timed(reader))
        if elapsed >= BOUND_S:
            slow[name] = round(elapsed, 2)
    assert not slow, f"1 MB of {padding!r} read in over {BOUND_S} s (seconds): {slow}"


def test_requests_after_padding_read_as_before() -> None:
    """The issue's request reads as nothing, and what a request states after a megabyte of
    padding is still read."""
    assert RequestFacts.read("x" + " " * 3000).zones == ()
    padded = RequestFacts.read(PADDING["spaces"]() + " search x from -5.5 to 5.5, y in [-5.5, 5.5]")
    assert padded.zones == ((-5.5, 5.5, -5.5, 5.5),)
    assert padded.points == ()
    many = RequestFacts.read(_repeat("(7.5, 4.0) "))
    assert len(many.points) == MB // len("(7.5, 4.0) ")
    assert set(many.points) == {(7.5, 4.0)}


@pytest.mark.parametrize("padding", ["x and a space", "phrase triggers", "non-ASCII letters",
                                     "negations and retractions", "negated points",
                                     "robots, actions and places", "actions and quantities",
                                     "dropped and passed over", "a whole and its exception",
                                     "typographic marks", "corrections and dismissals"])
def test_the_intent_reader_reads_100k_characters_in_under_a_second(padding: str,
                                                                    crews: list[Crew]) -> None:
    """The request read into what it asks (issue 10's bound: 100,000 characters, under 1 s).
    Each mention's negation is looked up among the scopes near it, not all of them (a request
    of repeated negations took most of the second)."""
    text = PADDING[padding]()[:100_000]
    for crew in crews:
        elapsed = _timed(partial(crew.intent.read, text))
        if elapsed >= BOUND_S:
            elapsed = min(elapsed, _timed(partial(crew.intent.read, text)))
        assert elapsed < BOUND_S, (crew.name, padding, round(elapsed, 2))
