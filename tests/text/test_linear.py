"""Request reading takes time linear in the request (issue 9: the old reader took a minute for
"x" and 1,000 spaces, and never finished with 3,000; issue 10: the intent reader).

Tests time nothing (the machines are shared): the work a reader does is counted as the Python
lines and calls it executes (``sys.settrace`` events, the same on every run), at two lengths of
the same adversarial padding; a linear reader does about ten times the work on ten times the
text, a quadratic one a hundred times. ``benchmarks/bench_request.py`` times the readings
against the issues' bounds (100,000 characters read in under a second) and prints their growth
with the request's length."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from types import FrameType
from typing import Any

import pytest

from crewgate.planners.exemplar.cues import Cues
from crewgate.planners.exemplar.phrases import delexicalize, sentences
from crewgate.spec import Crew, load_crew
from crewgate.text.phrases import DEST, OBJECT, SOURCE, attached_number, candidates, quote
from crewgate.text.request import RequestFacts, forget_readings, strips

MB = 1_000_000
SHORT, LONG = 2_000, 20_000  # the two lengths whose work is compared
# the work on ten times the text, at most, relative to the short text's: linear readers measure
# up to about 12 (fixed costs weigh on the short one both ways), quadratic ones 100 and more
GROWTH = 15.0


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
        "take off to 3 m, no, 4 m. cancel! forget the rover. no, don't stop the drone. "
        "send the rover later. later, land. the rover? no, it stays. "),
    # zones left out (a strip read in each), robots of no crew sent, used and placed (each
    # looked back from a few words), corrections and pauses of other words
    "zones left out, robots not the crew's": lambda: _repeat(
        "search x 0 to 9, y 0 to 9 except x 1 to 2 but not y 3 to 4; send the boat, the "
        "the the humanoid should go with the drone to the tank. i mean room_b, make that x 2, "
        "y 3. wait. hold on. once i confirm, prepare to fly the helicopter. "),
    # arithmetic around quantities, parts of space said of them, and suppositions (each
    # quantity's part looked up by bisection)
    "arithmetic and parts": lambda: _repeat(
        "take off to half of 8 m plus 1, twice 2 dm + 3 m, half of 2 m times 2 and the east "
        "the rover might go. "),
    # words spelled out letter by letter (joined by one pattern), and runs that end as a word
    # goes on ("a b cd"), or change their separator ("a b-c")
    "words spelled out": lambda: _repeat("D o n ' t d-r-i-v-e n.o.t. x y cd a b-c "),
    # robots addressed, or named after the verb in a long clause (each verb looks a few words
    # on at most)
    "robots addressed and named after verbs": lambda: _repeat(
        "drone: go to room_a with the rover, walk there, dog. go with the dog overhead, "),
}


@pytest.fixture(scope="module")
def crews() -> list[Crew]:
    """The packaged crews, with every reader run once on a short request (so that the crews
    are loaded and the patterns compiled outside the counted readings)."""
    loaded = [load_crew("sar"), load_crew("g1_go2")]
    for reader in _readers("x from 1 to 2, y in [3, 4]; bring me the cube to the charger",
                           loaded).values():
        reader()
    return loaded


def _readers(text: str, crews: list[Crew]) -> dict[str, Callable[[], object]]:
    """Every reader of a request on the gate's and the offline planner's path."""
    facts = [RequestFacts.read("")]  # the reading below replaces it

    def read() -> object:
        facts[0] = RequestFacts.read(text)
        return facts[0]

    def mentions(crew: Crew) -> object:
        return [crew.context.locations.named_in(facts[0]),
                crew.context.objects.named_in(facts[0])]

    readers: dict[str, Callable[[], object]] = {"RequestFacts.read": read,
                                                "strips": partial(strips, text)}
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


def _work(reader: Callable[[], object], crews: list[Crew]) -> int:
    """The Python lines and calls ``reader`` executes (``sys.settrace`` events): a count that
    does not move with the machine's load, as a time would. It reads once before (what is built
    once per crew or table is not counted), then forgets the readings kept across requests."""
    reader()
    forget_readings()
    for crew in crews:
        crew.intent.forget()
    events = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal events
        events += 1
        return tracer

    sys.settrace(tracer)
    try:
        reader()
    finally:
        sys.settrace(None)
    return events


def intent_growth(text: str, crews: list[Crew]) -> dict[str, float]:
    """Per crew, the work of its intent reader on ``text[:LONG]`` over that on ``text[:SHORT]``
    (the padding tests of tests/gate read each crew's cues so)."""
    return {crew.name: round(_work(partial(crew.intent.read, text[:LONG]), crews) / max(
        1, _work(partial(crew.intent.read, text[:SHORT]), crews)), 1) for crew in crews}


def _every_reader(text: str, crews: list[Crew]) -> dict[str, Callable[[], object]]:
    """The readers of :func:`_readers` and each crew's intent reader (issue 10)."""
    readers = _readers(text, crews)
    for crew in crews:
        readers[f"{crew.name} Intent.read"] = partial(crew.intent.read, text)
    return readers


@pytest.mark.parametrize("padding", PADDING)
def test_the_work_of_reading_grows_linearly_with_the_request(padding: str,
                                                            crews: list[Crew]) -> None:
    """Ten times the padding takes each reader at most ``GROWTH`` times the work. The
    intent reader's quadratic cases of the past measured 150 times ("corrections and
    dismissals": each thing before a cue quoted from itself to the cue)."""
    text = PADDING[padding]()
    short, long = _every_reader(text[:SHORT], crews), _every_reader(text[:LONG], crews)
    growth = {name: round(_work(long[name], crews) / max(1, _work(reader, crews)), 1)
              for name, reader in short.items()}
    assert {name: g for name, g in growth.items() if g > GROWTH} == {}, growth


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
