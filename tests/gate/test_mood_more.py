"""More requests that ask nothing now (crewgate.text.mood), each of which used to move a robot:
a condition on an event or on the operator's approval, a contingency, a trigger the operator
gives, a time or a delay or a recurrence, a hold said after the request, a question that opens
with no cue word, a statement of what is under way or only weighed, a supposition said after
the request, and a plan only said in other words. Each is refused as ``nothing_asked`` with a
detail that quotes the words that say so; the controls beside them, said now, still run."""

from __future__ import annotations

from typing import Any

import pytest

from crewgate.spec import Crew, load_crew
from tests.conftest import plan
from tests.gate.test_intent import GO_23, check, found, walk
from tests.gate.test_intent import SEARCH_LAND as SEARCH
from tests.text.test_linear import GROWTH, _repeat, intent_growth

WALK_B = walk("room_b")
_NOTHING = "and asks nothing to move now: no step may run"
_ASK = "to have it done now, ask for it"


def _later(said: str) -> tuple[str, str]:
    return f"asks for it later ({said!r})", f"to have it done now, ask without {said!r}"


@pytest.mark.parametrize(("request_", "p", "says", "fix"), [
    # ... what a fire or the weather does, a pause first
    ("Drive the rover to x 2, y 3 when the smoke clears.", GO_23, *_later("when the smoke")),
    ("Drive the rover to x 2, y 3 once the fire is out.", GO_23, *_later("once the fire")),
    ("Give it a minute, then drive the rover to x 2, y 3.", GO_23, *_later("give it a minute")),
    ("Count to ten, then drive the rover to x 2, y 3.", GO_23, *_later("count to")),
    # a condition on an event the crew cannot see, or on the operator's approval (each drove or
    # searched now)
    ("Drive the rover to x 2, y 3 when the alarm goes off.", GO_23, *_later("when the alarm")),
    ("Drive the rover to x 2, y 3, pending approval.", GO_23, *_later("pending approval")),
    ("If approved, search x 0 to 5, y 0 to 5 and land.", SEARCH, *_later("if approved")),
    ("Drive the rover to x 2, y 3 once approved.", GO_23, *_later("once approved")),
    ("Drive the rover to x 2, y 3 subject to my approval.", GO_23,
     *_later("subject to my approval")),
    ("Wait for clearance, then search x 0 to 5, y 0 to 5 and land.", SEARCH,
     *_later("wait for clearance")),
    # a contingency, quoted by its sentence's first words as a question is
    ("Plan B: drive the rover to x 2, y 3.", GO_23,
     "keeps it for a contingency ('plan b: drive the rover to x 2 ...')", _ASK),
    ("In case of emergency, drive the rover to x 2, y 3.", GO_23,
     "keeps it for a contingency ('in case of emergency, drive the rover to ...')", _ASK),
    ("Fallback: drive the rover to x 2, y 3.", GO_23,
     "keeps it for a contingency ('fallback: drive the rover to x 2, y ...')", _ASK),
    # the operator's trigger ("when I say so" was refused; "when I say" ending a clause is too)
    ("Drive the rover to x 2, y 3 when I say.", GO_23, *_later("when i say")),
    ("Drive the rover to x 2, y 3 on my cue.", GO_23, *_later("on my cue")),
    # a time of day in four digits, a delay, a recurrence
    ("Drive the rover to x 2, y 3 at 1400.", GO_23, *_later("at 1400")),
    ("Drive the rover to x 2, y 3 at 0900 hours.", GO_23, *_later("at 0900 hours")),
    ("Wait 10 minutes, then search x 0 to 5, y 0 to 5 and land.", SEARCH,
     *_later("wait 10 minutes")),
    ("Drive the rover to x 2, y 3 ten minutes from now.", GO_23,
     *_later("ten minutes from now")),
    ("Search x 0 to 5, y 0 to 5 and land every hour.", SEARCH, *_later("every hour")),
    ("Every morning, search x 0 to 5, y 0 to 5 and land.", SEARCH, *_later("every morning")),
    ("Search x 0 to 5, y 0 to 5 and land daily.", SEARCH, *_later("daily")),
    # a hold said as a sentence of its own after the request: said of it
    ("Search x 0 to 5, y 0 to 5 and land. Not until I say so.", SEARCH,
     *_later("not until i say so")),
    ("Search x 0 to 5, y 0 to 5 and land. Confirm before starting.", SEARCH,
     *_later("confirm before starting")),
    ("Drive the rover to x 2, y 3. Confirm with me first.", GO_23, *_later("confirm with me")),
    # a question with its mark and no word that opens one: a tag, an ability with "is it" left
    # off, a choice
    ("Rover to x 2, y 3, correct?", GO_23, "asks a question ('rover to x 2, y 3, correct?')",
     _ASK),
    ("Possible to drive the rover to x 2, y 3?", GO_23,
     "asks a question ('possible to drive the rover to x 2 ...')", _ASK),
    ("Rover or drone to x 2, y 3?", GO_23, "asks a question ('rover or drone to x 2, y 3?')",
     _ASK),
    # statements: what is under way, what is only weighed, a supposition after the request
    ("The rover is on its way to x 2, y 3.", GO_23, "tells what is under way ('on its way')",
     _ASK),
    ("I'm considering sending the rover to x 2, y 3.", GO_23,
     "only weighs it (\"i'm considering sending the rover to x ...\")", _ASK),
    ("Drive the rover to x 2, y 3 (hypothetically).", GO_23, "supposes ('hypothetically')",
     _ASK),
    ("Drive the rover to x 2, y 3. Hypothetically.", GO_23, "supposes ('hypothetically')",
     _ASK),
    # a plan only, or the words said back, in other words
    ("Read back: search x 0 to 5, y 0 to 5 and land.", SEARCH,
     "asks for a plan only ('read back')", "to run it, ask without 'read back'"),
    ("Validate this plan: search x 0 to 5, y 0 to 5 and land.", SEARCH,
     "asks for a plan only ('validate this plan')",
     "to run it, ask without 'validate this plan'"),
    ("Translate to French: search x 0 to 5, y 0 to 5 and land.", SEARCH,
     "asks to be told ('translate to french: search x 0 to 5 ...')", _ASK),
])
def test_a_request_that_asks_nothing_now_in_other_words_moves_nothing(
        sar: Crew, request_: str, p: dict[str, Any], says: str, fix: str) -> None:
    """The refusal quotes the words that say it asks nothing now, and what to ask instead."""
    assert found(check(sar, request_, p)) == [
        (None, "nothing_asked", f"the request {says} {_NOTHING} ({fix})")]


def test_the_operators_trigger_holds_any_crews_motion(g1_go2: Crew) -> None:
    """The mood is crew-agnostic: "when I say" holds the dog's walk as the rover's drive."""
    says, fix = _later("when i say")
    assert found(check(g1_go2, "Walk the dog to room_b when I say.", WALK_B)) == [
        (None, "nothing_asked", f"the request {says} {_NOTHING} ({fix})")]


@pytest.mark.parametrize(("request_", "p"), [
    # now, in so many words (a polite request asks, a tag that asks for it does)
    ("Drive the rover to x 2, y 3 now.", GO_23),
    ("Drive the rover to x 2, y 3 shortly.", GO_23),
    ("Drive the rover to x 2, y 3 ASAP.", GO_23),
    ("Drive the rover to x 2, y 3 soon.", GO_23),
    ("Can you drive the rover to x 2, y 3?", GO_23),
    ("Could you drive the rover to x 2, y 3?", GO_23),
    ("Please drive the rover to x 2, y 3.", GO_23),
    ("Drive the rover to x 2, y 3, will you?", GO_23),
    ("Drive the rover to x 2, y 3, ok?", GO_23),
    ("Drive the rover to x 2, y 3, all right?", GO_23),
    ("Drive the rover to x 2, y 3, right now.", GO_23),
    # a condition on the world is the planner's (by policy), a precaution is now
    ("If the drone goes down, drive the rover to x 2, y 3.", GO_23),
    ("In case the victim is there, drive the rover to x 2, y 3.", GO_23),
    # a plan switched to, not kept in reserve
    ("Go with plan B: drive the rover to x 2, y 3.", GO_23),
    # a pause in speech, not a delay; a wait inside the plan; a time that is no time of day
    ("Wait, drive the rover to x 2, y 3.", GO_23),
    ("Wait a second, drive the rover to x 2, y 3.", GO_23),
    ("Take off, search x 0 to 5, y 0 to 5, wait 10 seconds, then land.", SEARCH),
    # what recurs is what is told, or no recurrence at all
    ("Drive the rover to x 2, y 3, reporting every 10 seconds.", GO_23),
    ("Hurry, every minute counts: drive the rover to x 2, y 3.", GO_23),
    ("Search x 0 to 5, y 0 to 5 and land. Every minute counts.", SEARCH),
    # what need not be waited for
    ("Drive the rover to x 2, y 3, no need to wait for my go.", GO_23),
    ("Drive the rover to x 2, y 3, you don't need to wait for my go.", GO_23),
    ("Drive the rover to x 2, y 3, no need to confirm first.", GO_23),
    # a choice that is asked of the crew, a supposition ruled out
    ("Drive the rover or the drone to x 2, y 3?", GO_23),
    ("Drive the rover to x 2, y 3 (not hypothetically).", GO_23),
    # what is under way beside what is asked
    ("The drone is on its way, send the rover to x 2, y 3.", GO_23),
    ("Drive the rover to x 2, y 3 on the way back.", GO_23),
    # a plan judged, then run
    ("Validate this plan and then execute it: search x 0 to 5, y 0 to 5 and land.", SEARCH),
    # (the probe of this session's over-blocks, each refused by a cue above before it was
    # bounded) an order said with a tag; a value confirmed before the order; a choice beside
    # an action; a recurrence of what else happens; a pause of seconds; a time that is no
    # order's; consent said of another, or with "now"; a report back; an emergency now
    ("Land the drone now, right?", plan("abort", ("iris", "land", {}))),
    ("That's x 2, y 3, correct? Drive the rover there.", GO_23),
    ("Rover or ground robot, drive to x 2, y 3, please?", GO_23),
    ("Drive the rover to x 2, y 3; the victim's condition worsens every minute.", GO_23),
    ("Drive the rover to x 2, y 3 like we do every day.", GO_23),
    ("Wait 2 seconds for the gate to open, then drive the rover to x 2, y 3.", GO_23),
    ("Drive the rover to x 2, y 3; the medics arrive 10 minutes from now.", GO_23),
    ("The hiker was last seen at 1400; search x 0 to 5, y 0 to 5 with the drone and land.",
     SEARCH),
    ("The drone must wait for clearance; drive the rover to x 2, y 3.", GO_23),
    ("Pending approval of the drone flight, drive the rover to x 2, y 3 now.", GO_23),
    ("Rover, drive to x 2, y 3 and check in with me.", GO_23),
    ("Drive the rover to x 2, y 3, then read back its position.", GO_23),
    ("No need to review the plan, just drive the rover to x 2, y 3.", GO_23),
    ("Get the rover on its way to x 2, y 3 now.", GO_23),
    ("I'm considering all options; for now drive the rover to x 2, y 3.", GO_23),
    ("Outline the search area as x 0 to 5, y 0 to 5; take off, search it and land.", SEARCH),
    ("Plan A failed. Plan B: drive the rover to x 2, y 3 now.", GO_23),
    ("When the alarm went off, someone was at x 2, y 3: drive the rover there.", GO_23),
])
def test_the_same_words_said_now_still_ask(sar: Crew, request_: str, p: dict[str, Any]) -> None:
    assert found(check(sar, request_, p)) == []


@pytest.fixture(scope="module")
def crews() -> list[Crew]:
    return [load_crew("sar"), load_crew("g1_go2")]


# the new cues, many times over in one sentence and in many (each looked at once, each
# sentence by its first and last few words)
PADDING = {
    "holds and triggers": lambda: _repeat(
        "drive when i say, pending approval, on my cue at 1400 when the alarm goes off, wait "
        "10 minutes, then search every hour and land daily, not until i say so "),
    "holds as sentences": lambda: _repeat(
        "plan b: drive there. wait 10 minutes, then land. not until i say so. confirm before "
        "starting. hypothetically. in case of fire, go. "),
    "questions and statements": lambda: _repeat(
        "rover or drone to x 2, y 3, correct? possible to go? the rover is on its way, "
        "hypothetically. i'm considering sending it? "),
    # the gate's own new cues (crewgate.spec.intent, crewgate.text.intent): each was quadratic
    # in its first form (a robot looked for among all those named, for each cue)
    # (quadratic before: 47x, 20x, 18x the work on ten times the text)
    "robots replaced": lambda: _repeat("use the drone instead. "),
    "robots addressed as you": lambda: _repeat("walk to room_b, but not you, dog. "),
    "robots stopped": lambda: _repeat("stop the dog, walk it. "),
    "robots corrected, left, put": lambda: _repeat(
        "drive the rover. no, the drone. drone! go to x 2, y 3. leave room_b. put the red cube "
        "on the table. withdraw the rover from x 2, y 3. replace the rover with the drone. "),
}


@pytest.mark.parametrize("padding", PADDING)
def test_the_new_cues_read_in_linear_work(padding: str, crews: list[Crew]) -> None:
    """Ten times the padding takes each crew's intent reader at most ``GROWTH`` times the work
    (tests/text/test_linear.py)."""
    growth = intent_growth(PADDING[padding](), crews)
    assert {name: g for name, g in growth.items() if g > GROWTH} == {}, growth
