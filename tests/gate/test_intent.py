"""The request held to the plan in both directions (issue 10): named robots, stated values,
destinations, actions, negation and retraction. Each row of the issue's table is a hand-written
plan that used to run to COMPLETED; here it is refused with exact codes and a detail naming the
fact. Paraphrases of each class, and the controls (the partners a workflow needs, context that no
step carries), are accepted or refused as the rule says."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from crewgate.gate import Gate, MissionGate, PlanVerdict
from crewgate.plan import Plan, parse_plan
from crewgate.spec import Crew
from crewgate.suites import load_suite
from crewgate.text.request import RequestFacts
from tests.conftest import plan, sim_world

Step = tuple[str, str, dict[str, Any]]
ZONE = {"x_min": 0, "x_max": 5, "y_min": 0, "y_max": 5}
SEARCH: tuple[Step, Step] = (("iris", "takeoff", {}), ("iris", "search_target", ZONE))
DISPATCH: Step = ("tb3", "navigate_to", {"target": "victim"})
LAND: Step = ("iris", "land", {})
GO_23 = plan("dispatch_only", ("tb3", "navigate_to", {"goal": [2.0, 3.0]}))
SEARCH_LAND = plan("search_only", *SEARCH, LAND)


def carry(obj: str, place: str) -> dict[str, Any]:
    return plan("carry", ("g1", "grab_from_table", {"object": obj}), ("g1", "place_on_table", {}),
                ("go2", "navigate_to_location", {"location": place}))


def walk(place: str) -> dict[str, Any]:
    return plan("navigation_only", ("go2", "navigate_to_location", {"location": place}))


def check(crew: Crew, request: str, p: dict[str, Any]) -> PlanVerdict:
    return Gate(crew).validate(parse_plan(p), request, sim_world(crew))


def found(v: PlanVerdict) -> list[tuple[int | None, str, str]]:
    """(step index or None for the plan, code, detail) of every problem, plan first."""
    return [(None, p.code.value, p.detail) for p in v.problems] + [
        (s.index, p.code.value, p.detail) for s in v.steps for p in s.problems]


def codes(v: PlanVerdict) -> list[tuple[int | None, str]]:
    return [(i, c) for i, c, _ in found(v)]


# -- the issue's table, row by row ---------------------------------------------------------------


def test_a_robot_that_cannot_do_it_is_not_swapped_for_one_that_can(g1_go2: Crew) -> None:
    v = check(g1_go2, "Have the humanoid walk over to the charging dock.", walk("charging"))
    assert found(v) == [(0, "substituted_robot", "the request gives 'charging dock' to g1; g1 "
                         "has no skill that moves it to a place, and go2 may not take its place")]


@pytest.mark.parametrize(("request_", "p", "said"), [
    ("Use the rover to search x 0 to 5, y 0 to 5.", plan("search_only", *SEARCH, LAND),
     (1, "the request asks tb3 to 'search'; tb3 has no such skill, and iris may not take its "
         "place")),
    # the rover in the plan, carrying nothing its clause states: the search is still swapped
    ("Use the rover to search x 0 to 5, y 0 to 5.", plan("search_and_dispatch", *SEARCH,
                                                         DISPATCH),
     (1, "the request asks tb3 to 'search'; tb3 has no such skill, and iris may not take its "
         "place")),
    ("Have the drone drive to x 2, y 3.",
     plan("dispatch_only", ("tb3", "navigate_to", {"goal": [2.0, 3.0]})),
     (0, "the request asks iris to 'drive'; iris has no such skill, and tb3 may not take its "
         "place")),
    # the robot as the subject, modals between
    ("The rover should search x 0 to 5, y 0 to 5.", plan("search_only", *SEARCH, LAND),
     (1, "the request asks tb3 to 'search'; tb3 has no such skill, and iris may not take its "
         "place")),
])
def test_an_action_told_to_a_robot_that_cannot_do_it_is_not_swapped(
        sar: Crew, request_: str, p: dict[str, Any], said: tuple[int, str]) -> None:
    """A telling verb ("use", "have", "tell", ...) hands the action to the robot after it: the
    drone's search for "use the rover to search" was accepted (with the rover's drive to the
    victim too)."""
    assert found(check(sar, request_, p)) == [(said[0], "substituted_robot", said[1])]


@pytest.mark.parametrize(("request_", "p", "said"), [
    ("Stop the drone.", plan("abort", ("tb3", "stop", {})),
     (0, "the request asks iris to 'stop'; iris has no such skill, and tb3 may not take its "
         "place")),
    ("Land the rover.", plan("abort", LAND),
     (0, "the request asks tb3 to 'land'; tb3 has no such skill, and iris may not take its "
         "place")),
    ("Drive the drone to x 2, y 3.", GO_23,
     (0, "the request asks iris to 'drive'; iris has no such skill, and tb3 may not take its "
         "place")),
    ("Halt the aircraft.", plan("abort", ("tb3", "stop", {})),
     (0, "the request asks iris to 'halt'; iris has no such skill, and tb3 may not take its "
         "place")),
])
def test_an_action_said_of_the_robot_after_it_is_not_done_by_another(
        sar: Crew, request_: str, p: dict[str, Any], said: tuple[int, str]) -> None:
    """The robot right after the verb is the one it is said of, for an action that moves or
    changes its own robot: each plan was accepted, the verb being the other robot's."""
    assert found(check(sar, request_, p)) == [(said[0], "substituted_robot", said[1])]


@pytest.mark.parametrize("request_", [
    "Send the drone to search x 0 to 5, y 0 to 5 and send the rover to the victim.",
    "Dispatch the drone to survey x 0 to 5, y 0 to 5 and the rover to the victim.",
])
def test_a_robot_after_a_verb_it_cannot_do_leaves_that_verb_asked_of_the_robot_it_names(
        sar: Crew, request_: str) -> None:
    """"Send the drone" is no drive of the rover; the rover's drive is asked all the same where
    the request asks it of the rover, by its own verb or in the same clause."""
    assert found(check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH))) == []


@pytest.mark.parametrize(("request_", "p"), [
    ("Stop the rover.", plan("abort", ("tb3", "stop", {}))),
    ("Land the drone.", plan("abort", LAND)),
    ("Drone lands, rover stops.", plan("abort", LAND, ("tb3", "stop", {}))),  # no object
    # the object of a search is what it looks for, not who searches
    ("Find the rover in x 0 to 5, y 0 to 5.", plan("search_only", *SEARCH, LAND)),
])
def test_an_action_said_of_its_own_robot_or_of_what_it_looks_for_is_accepted(
        sar: Crew, request_: str, p: dict[str, Any]) -> None:
    assert found(check(sar, request_, p)) == []


@pytest.mark.parametrize(("request_", "p"), [
    ("Bring the dog to the charger.", walk("charging")),  # the dog's walk among the verb's
    ("Greet the dog.", plan("manipulation_only", ("g1", "wave", {}))),  # a gesture toward it
])
def test_a_robot_after_a_verb_that_is_also_its_own_or_a_gesture_is_accepted(
        g1_go2: Crew, request_: str, p: dict[str, Any]) -> None:
    assert found(check(g1_go2, request_, p)) == []


@pytest.mark.parametrize(("request_", "p", "said"), [
    ("Fly the drone to x 2, y 3.", GO_23,
     (0, "the request gives the point (2, 3) to iris ('Fly the drone to x 2, y 3'); iris has "
         "no skill that moves it to a place, and tb3 may not take its place")),
    ("Drone: x 2, y 3.", GO_23,
     (0, "the request gives the point (2, 3) to iris ('Drone: x 2, y 3'); iris has no skill "
         "that moves it to a place, and tb3 may not take its place")),
    ("Rover, sweep x 0 to 5, y 0 to 5.", plan("search_only", *SEARCH, LAND),
     (1, "the request gives the zone x [0, 5], y [0, 5] to tb3 ('Rover, sweep x 0 to 5, y 0 to "
         "5'); tb3 has no skill that takes a zone, and iris may not take its place")),
])
def test_a_point_or_zone_given_to_a_robot_is_not_taken_by_one_not_named(
        sar: Crew, request_: str, p: dict[str, Any], said: tuple[int, str]) -> None:
    """Each of these plans was accepted: the step carried a value the request states, and
    that asked for it, whoever the request gave the value to."""
    assert found(check(sar, request_, p)) == [(said[0], "substituted_robot", said[1])]


def test_a_point_addressed_to_a_robot_then_a_way_back_is_both_refused(sar: Crew) -> None:
    """"Drone: x 2, y 3, then back.": the point is the drone's, and the way back is owed too
    (tests/gate/test_intent_more.py)."""
    assert found(check(sar, "Drone: x 2, y 3, then back.", GO_23)) == [
        (None, "dropped_request", "the request asks for the way back ('then back'); no step "
         "comes back (ask for it with where to come back to: a point or one of the crew's "
         "locations)"),
        (0, "substituted_robot", "the request gives the point (2, 3) to iris ('Drone: x 2, y "
         "3'); iris has no skill that moves it to a place, and tb3 may not take its place")]


def test_a_zone_said_before_and_a_verb_naming_another_robot_is_not_that_robots(
        sar: Crew) -> None:
    """"Fly over ... and send the rover to whoever you find" gave the zone to the rover (one
    part, naming only the rover) and refused the drone's search; a part of its own begins at
    "and" before a verb that names a robot, and "and" before one that names none goes on with
    the robot before it (the point of "make the drone go up and drive to x 2, y 3" is the
    drone's, as the test above holds)."""
    request_ = "Fly over x 0 to 5, y 0 to 5 and send the rover to whoever you find."
    assert found(check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH))) == []


def test_a_zone_said_beside_another_robot_with_its_action_as_a_gerund_is_searched(
        sar: Crew) -> None:
    request_ = "Send the rover to the victim after searching x 0 to 5, y 0 to 5."
    assert found(check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH))) == []


@pytest.mark.parametrize("request_", [
    "The drone spotted the victim at x 2, y 3; send the rover there.",  # the rover named
    "The drone is at x 2, y 3. Go there.",  # asked by its action
    "Go to x 2, y 3.",  # the point given to no robot
])
def test_a_point_said_beside_another_robot_still_asks_the_step_that_goes_there(
        sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


def test_a_verb_joined_after_a_robot_that_cannot_do_it_is_asked_of_the_robot_acting(
        sar: Crew) -> None:
    """"... send the rover to the victim and land": the landing was read as the rover's and
    refused as not asked; it is the drone's, asked to search already. A robot asked nothing
    else is not asked it ("make the drone go up and drive ...")."""
    for request_ in ("Search x 0 to 5, y 0 to 5, then send the rover to the victim and land.",
                     "Search x 0 to 5, y 0 to 5, send the rover to the victim, land."):
        assert found(check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH,
                                               LAND))) == [], request_
    v = check(sar, "Make the drone go up and drive to x 2, y 3.", GO_23)
    assert [(i, c) for i, c, _ in found(v)] == [(0, "substituted_robot")]


@pytest.mark.parametrize(("request_", "place"), [
    ("Have the dog take the red cube to room_b.", "room_b"),  # the humanoid's grab: a partner
    ("Get the dog to fetch the red cube to room_a.", "room_a"),
])
def test_a_robot_told_an_action_that_acts_in_the_plan_is_not_swapped(
        g1_go2: Crew, request_: str, place: str) -> None:
    assert found(check(g1_go2, request_, carry("red_cube", place))) == []


def test_a_stated_altitude_is_not_replaced_by_the_default(sar: Crew) -> None:
    v = check(sar, "Take off to 6 metres, survey x from 0 to 5, y from 0 to 5, then land.",
              plan("search_only", *SEARCH, LAND))
    assert found(v) == [(0, "substituted_value", "the request states '6 metres' for iris.takeoff "
                         "altitude; the plan gives 3 (the default)")]


def test_a_stated_altitude_out_of_range_refuses_the_plan_and_an_unasked_dispatch(sar: Crew
                                                                                    ) -> None:
    request = "Make the drone go up to 25 metres and look around x 0 to 5, y 0 to 5."
    v = check(sar, request, plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert codes(v) == [(None, "out_of_range"), (2, "unrequested_step")]
    assert found(v)[0][2] == ("the request states '25 metres' (for iris.takeoff altitude, "
                              "iris.search_target altitude), outside what it takes: [1, 10]")
    assert "nothing in the request asks for tb3.navigate_to" in found(v)[1][2]


def test_a_robot_ruled_out_does_not_act_and_the_asked_action_is_owed(g1_go2: Crew) -> None:
    v = check(g1_go2, "Do NOT send the dog to the charger. Just wave hello.", walk("charging"))
    assert found(v) == [
        (None, "dropped_request", "the request asks to 'wave' (g1.wave); no step does"),
        (0, "excluded_robot", "the request rules out go2 here: 'do not send the dog'"),
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'do not send "
         "the dog to the charger'")]
    assert check(g1_go2, "Do NOT send the dog to the charger. Just wave hello.",
                 plan("manipulation_only", ("g1", "wave", {}))).accepted


@pytest.mark.parametrize(("request_", "cue"), [
    ("Bring the red cube to room_a. Actually no, never mind, don't move anything.",
     "don't move anything"),
    ("Bring the red cube to room_a. Cancel that.", "cancel that"),
    ("Bring the red cube to room_a. Stop, forget it.", "forget it"),
    # a sentence that is a bare no, after one that asks no question (the carry ran)
    ("Bring the red cube to room_a. Not really.", "not really"),
    ("Bring the red cube to room_a. No.", "no"),
    ("Bring the red cube to room_a. No, thanks.", "no, thanks"),
    ("Bring the red cube to room_a, lol jk", "jk"),
    # a sentence of just a word that calls off (the carry ran)
    ("Bring the red cube to room_a. Cancel!", "cancel"),
    ("Bring the red cube to room_a. Abort.", "abort"),
    ("Bring the red cube to room_a. Okay, scrap.", "okay, scrap"),
    # ... or waits (each carry ran)
    ("Bring the red cube to room_a. Actually, hold on.", "actually, hold on"),
    ("Bring the red cube to room_a. Wait.", "wait"),
    ("Bring the red cube to room_a. Not so fast!", "not so fast"),
    ("Bring the red cube to room_a. One moment.", "one moment"),
    ("Bring the red cube to room_a - wait, no.", "wait, no"),
    ("Bring the red cube to room_a. Hold that thought.", "hold that thought"),
    ("Bring the red cube to room_a. Belay my last.", "belay my last"),
    ("Bring the red cube to room_a. I changed my mind.", "i changed my mind"),
    ("Bring the red cube to room_a. Actually, let's not.", "actually, let's not"),
    ("Bring the red cube to room_a. On reflection, no.", "on reflection"),
    ("Bring the red cube to room_a. Strike that.", "strike that"),
    ("Bring the red cube to room_a. Or not.", "or not"),
    ("Bring the red cube to room_a. Kidding!", "kidding"),
    # ... or holds off, stands by, undoes (each carry ran)
    ("Bring the red cube to room_a. Actually, hold off.", "actually, hold off"),
    ("Bring the red cube to room_a. Stand by.", "stand by"),
    ("Bring the red cube to room_a. Undo.", "undo"),
    ("Bring the red cube to room_a. Forget I said that.", "forget i said that"),
])
def test_a_retracted_request_dispatches_nothing(g1_go2: Crew, request_: str, cue: str) -> None:
    v = check(g1_go2, request_, carry("red_cube", "room_a"))
    assert found(v) == [(None, "retracted_request",
                         f"the request takes back what it asked ({cue!r}): no step may run")]


def test_a_retraction_refuses_every_step_at_dispatch_too(g1_go2: Crew) -> None:
    request = "Bring the red cube to room_a. Actually no, never mind."
    p = parse_plan(carry("red_cube", "room_a"))
    assert isinstance(p, Plan)
    mission = MissionGate(Gate(g1_go2), "m", request, p)
    verdict = mission.authorize(0, p.steps[0], sim_world(g1_go2)).verdict
    assert [(c.code.value, c.detail) for c in verdict.problems] == [
        ("retracted_request", "the request takes back what it asked ('never mind'): "
         "g1.grab_from_table may not run")]


_NOTHING = "and asks nothing to move now: no step may run"
_FOREIGN_FIX = ("to have the crew do it, name a robot of the crew (or give the word to one as an "
                "alias in the crew spec)")


@pytest.mark.parametrize(("request_", "says", "fix"), [
    ("How long would it take the rover to drive to x 2, y 3?",
     "asks a question ('how long would it take the rover to ...')",
     "to have it done now, ask for it"),
    ("Is the rover able to drive to x 2, y 3?",
     "asks a question ('is the rover able to drive to x ...')",
     "to have it done now, ask for it"),
    ("Would the rover be able to reach x 2, y 3?",
     "asks a question ('would the rover be able to reach x ...')",
     "to have it done now, ask for it"),
    ("Did the rover reach x 2, y 3?",
     "asks a question ('did the rover reach x 2, y 3?')",
     "to have it done now, ask for it"),
    ("Can you tell me whether the rover can reach x 2, y 3?",
     "asks to be told ('can you tell me whether the rover can ...')",
     "to have it done now, ask for it"),
    ("What if the rover drove to x 2, y 3?",
     "supposes ('what if the rover drove to x 2 ...')",
     "to have it done now, ask for it"),
    ("The rover drove to x 2, y 3 yesterday.",
     "tells what happened ('yesterday')",
     "to have it done now, ask for it"),
    ("Tomorrow, drive the rover to x 2, y 3.",
     "asks for it later ('tomorrow')",
     "to have it done now, ask without 'tomorrow'"),
    ("Wait for my go, then drive the rover to x 2, y 3.",
     "asks for it later ('wait for my go')",
     "to have it done now, ask without 'wait for my go'"),
    ("Plan a drive of the rover to x 2, y 3 but don't execute it.",
     "asks for a plan only ('plan a drive')", "to run it, ask without 'plan a drive'"),
    # a question first, then one that names nothing: still nothing asked
    ("Thanks! How far is x 2, y 3 from the rover?",
     "asks a question ('how far is x 2, y 3 from ...')",
     "to have it done now, ask for it"),
    # someone else does it: the speaker, or people told or said to move
    ("I will drive to x 2, y 3 myself.",
     "leaves it to someone else ('i will drive to x 2, y 3 ...')",
     "to have the crew do it, ask it of the crew"),
    ("Tell the field medics to go to x 2, y 3.",
     "leaves it to someone else ('tell the field medics to go to x ...')",
     "to have the crew do it, ask it of the crew"),
    ("The firefighters are heading to x 2, y 3.",
     "leaves it to someone else ('firefighters are heading to x 2, y 3')",
     "to have the crew do it, ask it of the crew"),
    # a question said as a statement, or of what may have been; another time; a plan to review
    ("I wonder whether the rover can drive to x 2, y 3.",
     "asks a question ('i wonder whether the rover can drive to ...')",
     "to have it done now, ask for it"),
    ("Could the rover have reached x 2, y 3 by now?",
     "asks a question ('could the rover have reached x 2, y ...')",
     "to have it done now, ask for it"),
    ("Next time, drive the rover to x 2, y 3.",
     "asks for it later ('next time')",
     "to have it done now, ask without 'next time'"),
    ("Drive the rover to x 2, y 3 after the meeting.",
     "asks for it later ('after the meeting')",
     "to have it done now, ask without 'after the meeting'"),
    ("Once the storm passes, drive the rover to x 2, y 3.",
     "asks for it later ('once the storm')",
     "to have it done now, ask without 'once the storm'"),
    ("Prepare a plan to drive the rover to x 2, y 3 for review.",
     "asks for a plan only ('prepare a plan')",
     "to run it, ask without 'prepare a plan'"),
    ("Make a plan to drive the rover to x 2, y 3, but don't execute it.",
     "asks for a plan only ('make a plan')",
     "to run it, ask without 'make a plan'"),
    # the operator's word, waited for
    ("When I give the word, drive the rover to x 2, y 3.",
     "asks for it later ('when i give the word')",
     "to have it done now, ask without 'when i give the word'"),
    ("Only if I say so, drive the rover to x 2, y 3.",
     "asks for it later ('if i say so')",
     "to have it done now, ask without 'if i say so'"),
    ("Drive the rover to x 2, y 3 at my signal.",
     "asks for it later ('at my signal')",
     "to have it done now, ask without 'at my signal'"),
    # a reckoning, a check of what the crew can do, a route to plan (each drove)
    ("Estimate how long the rover needs to reach x 2, y 3.",
     "asks to be told ('estimate how long the rover needs to reach ...')",
     "to have it done now, ask for it"),
    ("Check whether the rover can reach x 2, y 3.",
     "asks to be told ('check whether the rover can reach x 2 ...')",
     "to have it done now, ask for it"),
    ("I'd like to know if the rover can drive to x 2, y 3.",
     'asks to be told ("i\'d like to know if the rover ...")', "to have it done now, ask for it"),
    ("Plan a route for the rover to x 2, y 3.",
     "asks for a plan only ('plan a route')", "to run it, ask without 'plan a route'"),
    # the speaker back, people's doings, a day, later this week; someone else (each drove)
    ("Drive the rover to x 2, y 3 after I'm back.",
     'asks for it later ("after i\'m back")', 'to have it done now, ask without "after i\'m back"'),
    ("Drive the rover to x 2, y 3 when the visitors leave.",
     "asks for it later ('when the visitors leave')",
     "to have it done now, ask without 'when the visitors leave'"),
    ("On Monday, drive the rover to x 2, y 3.",
     "asks for it later ('on monday')", "to have it done now, ask without 'on monday'"),
    ("Drive the rover to x 2, y 3 later this week.",
     "asks for it later ('later this week')",
     "to have it done now, ask without 'later this week'"),
    ("Someone else will drive the rover to x 2, y 3.",
     "leaves it to someone else ('someone else will drive the rover to x ...')",
     "to have the crew do it, ask it of the crew"),
    # a robot the crew does not have, sent, told or said to move (the rover went in its place)
    ("Send the boat to x 2, y 3.",
     "asks it of a robot the crew does not have ('send the boat to x 2, y 3')", _FOREIGN_FIX),
    ("The humanoid should go to x 2, y 3.",
     "asks it of a robot the crew does not have ('humanoid should go to x 2, y 3')",
     _FOREIGN_FIX),
    ("Have the forklift move to x 2, y 3.",
     "asks it of a robot the crew does not have ('have the forklift move to x 2, y ...')",
     _FOREIGN_FIX),
    # a supposition; a simulation; confirmed, approved, or asked for first; made ready for
    # (each drove)
    ("If I asked you to drive the rover to x 2, y 3, would you?",
     "supposes ('if i asked you to drive the rover ...')",
     "to have it done now, ask for it"),
    ("Drive the rover to x 2, y 3 in simulation only.",
     "asks for a plan only ('in simulation only')",
     "to run it, ask without 'in simulation only'"),
    ("Drive the rover to x 2, y 3 once I confirm.",
     "asks for it later ('once i confirm')",
     "to have it done now, ask without 'once i confirm'"),
    ("Drive the rover to x 2, y 3 after my approval.",
     "asks for it later ('after my approval')",
     "to have it done now, ask without 'after my approval'"),
    ("Wait for my confirmation and drive the rover to x 2, y 3.",
     "asks for it later ('wait for my confirmation')",
     "to have it done now, ask without 'wait for my confirmation'"),
    ("Check with me before driving the rover to x 2, y 3.",
     "asks for it later ('check with me')",
     "to have it done now, ask without 'check with me'"),
    ("Drive the rover to x 2, y 3 but ask me first.",
     "asks for it later ('ask me first')",
     "to have it done now, ask without 'ask me first'"),
    ("Before you drive the rover to x 2, y 3, ask me.",
     "asks for it later ('ask me')", "to have it done now, ask without 'ask me'"),
    ("Get my permission before driving the rover to x 2, y 3.",
     "asks for it later ('get my permission')",
     "to have it done now, ask without 'get my permission'"),
    ("When you hear my signal, drive the rover to x 2, y 3.",
     "asks for it later ('when you hear my signal')",
     "to have it done now, ask without 'when you hear my signal'"),
    ("Prepare to drive the rover to x 2, y 3.",
     "asks for it later ('prepare to')",
     "to have it done now, ask without 'prepare to'"),
    ("Stand by to drive the rover to x 2, y 3.",
     "asks for it later ('stand by to')",
     "to have it done now, ask without 'stand by to'"),
    # a question the request answers no; what happened already
    ("Rover to x 2, y 3? Absolutely not.",
     "asks a question ('rover to x 2, y 3')",
     "to have it done now, ask for it"),
    # ... or with "no," and a reason (the drive ran)
    ("Rover to x 2, y 3? No, it is needed here.",
     "asks a question ('rover to x 2, y 3')",
     "to have it done now, ask for it"),
    ("The rover drove to x 2, y 3 already.",
     "tells what happened ('already')",
     "to have it done now, ask for it"),
    # for later, said as a sentence of its own after what it is said of
    ("Drive the rover to x 2, y 3. Not yet.",
     "asks for it later ('not yet')",
     "to have it done now, ask without 'not yet'"),
    # ... with no more than asides beside it (each drove)
    ("Drive the rover to x 2, y 3. But not yet.",
     "asks for it later ('not yet')",
     "to have it done now, ask without 'not yet'"),
    ("Drive the rover to x 2, y 3? Sure, but not now.",
     "asks for it later ('not now')",
     "to have it done now, ask without 'not now'"),
    ("Drive the rover to x 2, y 3. Do it tomorrow.",
     "asks for it later ('tomorrow')",
     "to have it done now, ask without 'tomorrow'"),
    ("Drive the rover to x 2, y 3. Not today.",
     "asks for it later ('not today')",
     "to have it done now, ask without 'not today'"),
    # the operator's go awaited, or what the operator does first
    ("The rover waits for my go: drive it to x 2, y 3.",
     "asks for it later ('waits for my go')",
     "to have it done now, ask without 'waits for my go'"),
    ("Drive the rover to x 2, y 3, but only after I check the map.",
     "asks for it later ('after i check')",
     "to have it done now, ask without 'after i check'"),
    # what happened, told by its verb alone (each drove)
    ("The rover went to x 2, y 3.", "tells what happened ('went')",
     "to have it done now, ask for it"),
    ("The rover should have gone to x 2, y 3.", "tells what happened ('gone')",
     "to have it done now, ask for it"),
    ("I sent the rover to x 2, y 3.", "tells what happened ('sent')",
     "to have it done now, ask for it"),
    # what a robot might do: a supposition (each drove)
    ("The rover might go to x 2, y 3.", "supposes ('might go')",
     "to have it done now, ask for it"),
    ("I think the rover might need to drive to x 2, y 3.", "supposes ('might need')",
     "to have it done now, ask for it"),
    ("We might drive the rover to x 2, y 3.", "supposes ('might drive')",
     "to have it done now, ask for it"),
    # some day, not now (each drove)
    ("It would be nice if the rover drove to x 2, y 3 at some point.",
     "asks for it later ('at some point')",
     "to have it done now, ask without 'at some point'"),
    ("Drive the rover to x 2, y 3 someday.", "asks for it later ('someday')",
     "to have it done now, ask without 'someday'"),
    # a question with its mark left off (each drove)
    ("Would driving the rover to x 2, y 3 be safe",
     "asks a question ('would driving the rover to x 2, y ...')",
     "to have it done now, ask for it"),
    ("Would it be safe to drive the rover to x 2, y 3",
     "asks a question ('would it be safe to drive the rover ...')",
     "to have it done now, ask for it"),
    ("Will it be safe to drive the rover to x 2, y 3",
     "asks a question ('will it be safe to drive the rover ...')",
     "to have it done now, ask for it"),
    ("I want to know whether driving the rover to x 2, y 3 is safe",
     "asks to be told ('i want to know whether driving the rover ...')",
     "to have it done now, ask for it"),
    ("I'd like to know if sending the rover to x 2, y 3 is okay.",
     "asks to be told (\"i'd like to know if sending the ...\")",
     "to have it done now, ask for it"),
])


def test_a_request_that_asks_nothing_now_moves_nothing(sar: Crew, request_: str, says: str,
                                                       fix: str) -> None:
    """The refusal says how the request asks nothing, and what to ask instead."""
    assert found(check(sar, request_, GO_23)) == [
        (None, "nothing_asked", f"the request {says} {_NOTHING} ({fix})")]


@pytest.mark.parametrize(("crew_name", "request_", "steps"), [
    # told beside a sentence that asks: where things are
    ("sar", "The drone landed at x 2, y 3. Send the rover to x 2, y 3.",
     (("tb3", "navigate_to", {"goal": [2.0, 3.0]}),)),
    ("sar", "The drone landed at x 2, y 3; drive the rover there.",
     (("tb3", "navigate_to", {"goal": [2.0, 3.0]}),)),
    # a participle asked for
    ("g1_go2", "Please have the red cube carried over to room_b.",
     (("g1", "grab_from_table", {"object": "red_cube"}), ("g1", "place_on_table", {}),
      ("go2", "navigate_to_location", {"location": "room_b"}))),
    ("g1_go2", "I need the red cube moved to room_b.",
     (("g1", "grab_from_table", {"object": "red_cube"}), ("g1", "place_on_table", {}),
      ("go2", "navigate_to_location", {"location": "room_b"}))),
])
def test_a_verb_in_the_past_beside_what_is_asked_leaves_it_asked(
        sar: Crew, g1_go2: Crew, crew_name: str, request_: str, steps: tuple[Step, ...]) -> None:
    crew = sar if crew_name == "sar" else g1_go2
    workflow = "dispatch_only" if crew_name == "sar" else "carry"
    assert found(check(crew, request_, plan(workflow, *steps))) == []


@pytest.mark.parametrize("request_", [
    "Could you drive the rover to x 2, y 3?",
    "Can the rover drive to x 2, y 3?",
    "Would you mind sending the rover to x 2, y 3?",
    "Why don't you send the rover to x 2, y 3?",
    "Send the rover to x 2, y 3, will you?",
    "Rover, can you go to x 2, y 3?",
    "Is the rover free? Send it to x 2, y 3.",
    "How far is it? Anyway, drive the rover to x 2, y 3.",
    "The rover was stuck yesterday; drive it to x 2, y 3.",
    "Send the rover to x 2, y 3 now, not tomorrow.",
    "When the path is clear, drive the rover to x 2, y 3.",
    # a sentence for later that says more than an aside is not said of the one before
    "Drive the rover to x 2, y 3. I'll be back tomorrow.",
    "Drive the rover to x 2, y 3. The drone lands tomorrow.",
    # a consent said not to be needed, nor waited for
    "Don't wait for my signal; drive the rover to x 2, y 3.",
    "Drive the rover to x 2, y 3 without waiting for my go.",
    "Drive the rover to x 2, y 3; no need to ask me.",
    # "ask me" that does not end its sentence asks for no consent first
    "Drive the rover to x 2, y 3 and ask me if anything goes wrong.",
    # a plan asked for, then to be run (it was refused as a plan only)
    "Prepare a plan to drive the rover to x 2, y 3, then execute it.",
    "Make a plan: drive the rover to x 2, y 3. Run it.",
    # "might" in a polite request
    "You might want to drive the rover to x 2, y 3.",
    "We might want to drive the rover to x 2, y 3.",
    "You might as well drive the rover to x 2, y 3.",
])
def test_a_polite_request_or_one_beside_a_question_asks(sar: Crew, request_: str) -> None:
    """Questions that are requests ask; a question beside a request takes nothing from it.
    ("Why don't you send ..." is no prohibition either.)"""
    assert found(check(sar, request_, GO_23)) == []


@pytest.mark.parametrize(("request_", "later"), [
    ("Search x 0 to 5, y 0 to 5 with the drone and land. Send the rover tomorrow.",
     "asks for it later ('tomorrow')"),
    ("Is the rover free? Search x 0 to 5, y 0 to 5 with the drone and land.",
     "asks a question ('is the rover free?')"),
    ("Search x 0 to 5, y 0 to 5 with the drone and land; we'll drive the rover ourselves.",
     "leaves it to someone else (\"we'll drive the rover ourselves\")"),
    ("Search x 0 to 5, y 0 to 5 with the drone and land. The rover might drive there later.",
     "supposes ('might drive')"),
])
def test_what_a_part_that_asks_nothing_names_is_not_asked(sar: Crew, request_: str,
                                                          later: str) -> None:
    """The search is asked; the rover is named only where nothing is asked now."""
    p = plan("search_and_dispatch", *SEARCH, DISPATCH, LAND)
    assert found(check(sar, request_, p)) == [
        (2, "unrequested_step", "nothing in the request asks for tb3.navigate_to now: it names "
         f"tb3 or this action only where it {later}")]
    assert check(sar, request_, plan("search_only", *SEARCH, LAND)).accepted


@pytest.mark.parametrize("request_", [
    "I wonder if you could drive the rover to x 2, y 3.",
    "Could you have the rover drive to x 2, y 3?",
])
def test_a_request_put_as_wondering_or_with_have_asks(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


@pytest.mark.parametrize(("request_", "said"), [
    ("Keep the rover away from x 2, y 3.", "away from x 2, y 3"),
    ("Keep the rover clear of x 2, y 3.", "clear of x 2, y 3"),
])
def test_a_point_a_robot_is_kept_away_from_is_ruled_out(sar: Crew, request_: str,
                                                        said: str) -> None:
    """The robot between "keep" and "away from" used to hide the cue: the drive was accepted."""
    assert found(check(sar, request_, GO_23)) == [
        (0, "negated_step", f"the request rules out tb3.navigate_to here: {said!r}")]


@pytest.mark.parametrize("request_", [
    "Drive the rover to x 2, y 3. Wait, no, don't.",
    "Drive the rover to x 2, y 3. Actually, don't.",
    "Drive the rover to x 2, y 3, wait, no, don't!",
])
def test_a_prohibition_with_nothing_after_it_takes_back_what_came_before(
        sar: Crew, request_: str) -> None:
    """"Wait, no, don't." read as two negations that cancel: the drive was accepted."""
    assert found(check(sar, request_, GO_23)) == [
        (None, "retracted_request",
         "the request takes back what it asked (\"don't\"): no step may run")]


@pytest.mark.parametrize("request_", [
    "No, don't send the drone, drive the rover to x 2, y 3.",
    "Don't. Drive the rover to x 2, y 3.",
])
def test_a_prohibition_of_something_takes_nothing_back(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


def test_a_request_said_in_jest_is_taken_back(sar: Crew) -> None:
    assert found(check(sar, "Drive the rover to x 2, y 3 - just kidding.", GO_23)) == [
        (None, "retracted_request",
         "the request takes back what it asked ('just kidding'): no step may run")]


def test_where_people_go_is_no_value_a_robot_owes(g1_go2: Crew) -> None:
    """The walk to room_a is asked; room_b is where the visitors go (a walk there used to be
    accepted)."""
    request = "Walk the dog to room_a while the visitors walk to room_b."
    assert check(g1_go2, request, walk("room_a")).accepted
    assert found(check(g1_go2, request, walk("room_b"))) == [
        (0, "substituted_value",
         "go2.navigate_to_location: location 'room_b' is not what the request states")]


@pytest.mark.parametrize("request_", [
    "The medics are waiting at x 2, y 3, send the rover to x 2, y 3.",
    "Send the rover to the medics at x 2, y 3.",
    "Drive the rover to x 2, y 3 so I can see for myself.",
    "When the person is found, drive the rover to x 2, y 3.",
])
def test_people_named_beside_what_is_asked_take_nothing_from_it(sar: Crew,
                                                               request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


def test_a_value_named_only_in_a_question_is_not_stated(sar: Crew, g1_go2: Crew) -> None:
    request = "How far is x 5, y 5? Drive the rover to x 2, y 3."
    assert check(sar, request, GO_23).accepted
    to_55 = plan("dispatch_only", ("tb3", "navigate_to", {"goal": [5.0, 5.0]}))
    assert found(check(sar, request, to_55)) == [
        (0, "substituted_value", "tb3.navigate_to: goal (5, 5) is not what the request states")]
    request = "How far is room_b? Walk the dog to room_a."
    assert check(g1_go2, request, walk("room_a")).accepted  # room_b is owed by no step
    assert found(check(g1_go2, request, walk("room_b"))) == [
        (0, "substituted_value",
         "go2.navigate_to_location: location 'room_b' is not what the request states")]


@pytest.mark.parametrize("request_", [
    "Search x 0 to 5, y 0 to 5 with the drone and don't forget to land.",
    "Search x 0 to 5, y 0 to 5 with the drone; do not forget to land it afterwards.",
    "Search x 0 to 5, y 0 to 5 and never forget to land.",
    "Search x 0 to 5, y 0 to 5 and land; do not skip the landing.",
])
def test_a_negation_of_a_negation_rules_nothing_out(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, plan("search_only", *SEARCH, LAND))) == []


@pytest.mark.parametrize(("request_", "said"), [
    ("No, don't land the drone.", "\"don't land the drone\""),
    ("No. Never land the drone.", "'never land the drone'"),
])
def test_an_answer_no_before_a_prohibition_does_not_undo_it(
        sar: Crew, request_: str, said: str) -> None:
    """"No," then "don't": an answer and a prohibition, not two negations that cancel (the
    landing was accepted)."""
    assert found(check(sar, request_, plan("abort", LAND))) == [
        (0, "excluded_robot", f"the request rules out iris: {said}")]


@pytest.mark.parametrize("request_", [
    "Don't hesitate to send the rover to x 2, y 3.",
    "Don't wait, send the rover to x 2, y 3.",
])
def test_a_negated_hesitation_asks(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


def test_what_a_negation_of_a_negation_names_is_asked(sar: Crew) -> None:
    request = "Search x 0 to 5, y 0 to 5 and land. Do not forget about the rover: send it."
    assert found(check(sar, request, plan("search_only", *SEARCH, LAND))) == [
        (None, "dropped_request", "the request asks to 'send' (tb3.navigate_to); no step does")]
    assert found(check(sar, "Search x 0 to 5, y 0 to 5 and land. Forget about the rover.",
                       plan("search_and_dispatch", *SEARCH, DISPATCH, LAND))) == [
        (2, "excluded_robot", "the request rules out tb3: 'forget about the rover'")]


def _search_at(takeoff: float | None, search: float | None) -> dict[str, Any]:
    return plan("search_only",
                ("iris", "takeoff", {} if takeoff is None else {"altitude": takeoff}),
                ("iris", "search_target", {**ZONE, **({} if search is None
                                                      else {"altitude": search})}), LAND)


@pytest.mark.parametrize(("request_", "takeoff", "search", "refused"), [
    # a bound holds for every value of its unit of the robot (the takeoff's altitude too)
    ("Stay below 4 metres: search x 0 to 5, y 0 to 5 and land.", 9.0, 4.0,
     [(0, "iris.takeoff altitude ('below 4 metres'); the plan gives 9"),
      (1, "iris.search_target altitude ('below 4 metres'); the plan gives 4")]),
    ("Stay below 4 metres: search x 0 to 5, y 0 to 5 and land.", None, None, []),
    ("Search x 0 to 5, y 0 to 5 under 4 metres and land.", None, 3.5, []),
    ("Search x 0 to 5, y 0 to 5 and land; the drone must stay under 4 metres.", 9.0, None,
     [(0, "iris.takeoff altitude ('under 4 metres'); the plan gives 9")]),
    ("Search x 0 to 5, y 0 to 5 and land, never above 4 metres.", 4.0, None, []),
    ("Do not fly above 4 metres; search x 0 to 5, y 0 to 5 and land.", 9.0, None,
     [(0, "iris.takeoff altitude ('do not fly above 4 metres'); the plan gives 9")]),
    ("Search x 0 to 5, y 0 to 5 at least 5 metres up and land.", None, None,
     [(0, "iris.takeoff altitude ('at least 5 metres'); the plan gives 3 (the default)"),
      (1, "iris.search_target altitude ('at least 5 metres'); the plan gives 3 (the "
          "default)")]),
    ("Search x 0 to 5, y 0 to 5 at least 5 metres up and land.", 5.0, 5.0, []),
    # a range of altitudes bounds both ways (a takeoff to 7 m was accepted)
    ("Search x 0 to 5, y 0 to 5 and land, between 3 and 5 metres up.", 7.0, 2.0,
     [(0, "iris.takeoff altitude ('between 3 and 5 metres'); the plan gives 7"),
      (1, "iris.search_target altitude ('between 3 and 5 metres'); the plan gives 2")]),
    ("Search x 0 to 5, y 0 to 5 and land, between 3 and 5 metres up.", None, 5.0, []),
    # a bound said of a measure before its number (read as a value to carry, refusing 3 m)
    ("Search x 0 to 5, y 0 to 5 and land, max altitude 4 m.", 5.0, 3.0,
     [(0, "iris.takeoff altitude ('max altitude 4 m'); the plan gives 5")]),
    ("Search x 0 to 5, y 0 to 5 and land, maximum height of 4 m.", None, 3.0, []),
])
def test_a_bound_holds_for_every_value_it_is_said_of(
        sar: Crew, request_: str, takeoff: float | None, search: float | None,
        refused: list[tuple[int, str]]) -> None:
    assert found(check(sar, request_, _search_at(takeoff, search))) == [
        (i, "beyond_bound", f"the request bounds {said}") for i, said in refused]


@pytest.mark.parametrize(("request_", "takeoff", "search", "expected"), [
    # a number without a unit right after the measure it gives is that measure's, in its
    # parameters' own unit (each of these accepted a takeoff to 5)
    ("Search x 0 to 5, y 0 to 5 and land, max altitude 4.", 5.0, 3.0,
     [(0, "beyond_bound", "the request bounds iris.takeoff altitude ('max altitude 4'); the "
       "plan gives 5")]),
    ("Search x 0 to 5, y 0 to 5 and land; altitude at most 4.", 5.0, 3.0,
     [(0, "beyond_bound", "the request bounds iris.takeoff altitude ('altitude at most 4'); "
       "the plan gives 5")]),
    ("Search x 0 to 5, y 0 to 5 and land; altitude limit 4.", 5.0, 3.0,
     [(0, "beyond_bound", "the request bounds iris.takeoff altitude ('altitude limit 4'); the "
       "plan gives 5")]),
    ("Search x 0 to 5, y 0 to 5 and land; keep the height below 4.", 5.0, 3.0,
     [(0, "beyond_bound", "the request bounds iris.takeoff altitude ('height below 4'); the "
       "plan gives 5")]),
    ("Search x 0 to 5, y 0 to 5 at altitude 4 and land.", 4.0, 5.0,
     [(1, "substituted_value", "the request states 'altitude 4' for iris.search_target "
       "altitude; the plan gives 5")]),
    ("Search x 0 to 5, y 0 to 5 and land, altitude: 4.", 5.0, 4.0, []),
    ("Search x 0 to 5, y 0 to 5 and land, max altitude 4.", 4.0, 3.0, []),
    # a count, an axis's number: no measure
    ("Search x 0 to 5, y 0 to 5 and land, 2 passes.", 5.0, 5.0, []),
])
def test_a_measure_said_without_a_unit_is_its_parameters(
        sar: Crew, request_: str, takeoff: float, search: float,
        expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, _search_at(takeoff, search))) == expected


def test_a_bound_no_value_keeps_to_is_out_of_range(sar: Crew) -> None:
    v = check(sar, "Search x 0 to 5, y 0 to 5 above 12 metres and land.", _search_at(None, None))
    assert codes(v) == [(None, "out_of_range"), (0, "beyond_bound"), (1, "beyond_bound")]
    assert found(v)[0][2] == ("the request bounds iris.takeoff altitude, iris.search_target "
                              "altitude ('above 12 metres'); no value they take is: [1, 10]")


def test_a_couple_of_metres_is_two(sar: Crew) -> None:
    request = "Take off to a couple of metres, search x 0 to 5, y 0 to 5 and land."
    assert found(check(sar, request, _search_at(None, None))) == [
        (0, "substituted_value", "the request states 'couple of metres' for iris.takeoff "
         "altitude; the plan gives 3 (the default)")]
    assert check(sar, request, _search_at(2.0, None)).accepted


def test_a_speed_is_no_altitude(sar: Crew) -> None:
    """"2 m/s" used to state an altitude of 2 m for the search; it is a speed, which no skill of
    this crew takes (it was then passed over: the search flew at whatever speed it flies)."""
    assert found(check(sar, "Search x 0 to 5, y 0 to 5 at 2 m/s and land.",
                       _search_at(None, None))) == [
        (None, "dropped_request", "the request states '2 m/s', a speed no skill of the crew "
         "takes: no step can keep to it (leave it out, or give the skill a speed parameter)")]


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 5, y 0 to 5 with the drone; the rover, however, stays.",
     "rover, however, stays"),
    ("Search x 0 to 5, y 0 to 5 with the drone; the rover, meanwhile, should stay where it is.",
     "rover, meanwhile, should stay"),
])
def test_a_stay_said_past_an_aside_rules_the_robot_out(sar: Crew, request_: str,
                                                       said: str) -> None:
    assert found(check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH))) == [
        (2, "excluded_robot", f"the request rules out tb3: {said!r}")]


def test_never_mind_before_a_thing_takes_nothing_back(sar: Crew) -> None:
    """"Never mind the mud" is no retraction ("never mind." is); "never mind the rover" rules
    the rover out."""
    assert found(check(sar, "Send the rover to x 2, y 3 and never mind the mud.", GO_23)) == []
    sad = plan("search_and_dispatch", *SEARCH, DISPATCH)
    assert found(check(sar, "Search x 0 to 5, y 0 to 5 with the drone; never mind the rover.",
                       sad)) == [
        (2, "excluded_robot", "the request rules out tb3: 'never mind the rover'")]
    assert codes(check(sar, "Search x 0 to 5, y 0 to 5 and send the rover. Never mind that.",
                       sad)) == [(None, "retracted_request")]


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 5, y 0 to 5 and stay airborne.", "stay airborne"),
    ("Search x 0 to 5, y 0 to 5 and keep hovering.", "keep hovering"),
    ("Search x 0 to 5, y 0 to 5, then keep the drone in the air.", "keep the drone in the air"),
    ("Search x 0 to 5, y 0 to 5; the drone must stay airborne.", "stay airborne"),
    # (each landing was accepted)
    ("Search x 0 to 5, y 0 to 5 and stay up there.", "stay up there"),
    ("Search x 0 to 5, y 0 to 5, then stay overhead.", "stay overhead"),
    ("Search x 0 to 5, y 0 to 5 and stay up.", "stay up"),
    ("Search x 0 to 5, y 0 to 5; keep the drone up.", "keep the drone up"),
    # "hover" said after every action asked: where the drone ends (the landing was accepted)
    ("Search x 0 to 5, y 0 to 5 and hover.", "hover"),
    ("Search x 0 to 5, y 0 to 5, then hover there.", "hover"),
])
def test_a_state_the_request_keeps_rules_out_what_ends_it(sar: Crew, request_: str,
                                                          said: str) -> None:
    assert found(check(sar, request_, plan("search_only", *SEARCH, LAND))) == [
        (2, "negated_step", f"the request keeps iris airborne ({said!r}); iris.land ends it")]


@pytest.mark.parametrize("request_", [
    "Keep up the good work: search x 0 to 5, y 0 to 5 and land.",
    "Keep up with the plan: search x 0 to 5, y 0 to 5 and land.",
])
def test_keeping_up_with_something_keeps_no_robot_up(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, plan("search_only", *SEARCH, LAND))) == []


@pytest.mark.parametrize("request_", [
    "Take off and hover at 3 m, then search x 0 to 5, y 0 to 5 and land.",  # a landing after
    "Search x 0 to 5, y 0 to 5 and land; don't hover.",
])
def test_a_hover_before_the_landing_keeps_nothing(sar: Crew, request_: str) -> None:
    assert Gate(sar).intent.brief(request_).keeps == []


@pytest.mark.parametrize("request_", [
    "Search x 0 to 5, y 0 to 5, then do not stay airborne, land.",
    "Search x 0 to 5, y 0 to 5 and don't keep the drone in the air, land it.",
    "Search x 0 to 5, y 0 to 5 and don't stay up there, land.",
    "Search x 0 to 5, y 0 to 5; don't just remain aloft.",
])
def test_a_state_let_go_rules_nothing_out(sar: Crew, request_: str) -> None:
    """"Do not stay airborne, land" lets the state go: the landing is asked (it was ruled out,
    and "don't keep the drone in the air" ruled the drone out)."""
    assert found(check(sar, request_, plan("search_only", *SEARCH, LAND))) == []


@pytest.mark.parametrize(("request_", "said"), [
    ("Take off, and don't keep searching x 0 to 5, y 0 to 5.",
     "don't keep searching x 0 to 5, y 0 to 5"),
    ("Don't stay at x 0 to 5, y 0 to 5: search it and land.",
     "don't stay at x 0 to 5, y 0 to 5"),
])
def test_a_negated_keeping_of_an_action_or_a_value_still_rules_it_out(
        sar: Crew, request_: str, said: str) -> None:
    assert found(check(sar, request_, plan("search_only", *SEARCH, LAND))) == [
        (1, "negated_step", f"the request rules out iris.search_target here: {said!r}")]


def test_a_robot_kept_in_a_state_is_not_ruled_out(sar: Crew) -> None:
    """"The drone must stay airborne" used to rule the drone out, its search too."""
    request = ("Search x 0 to 5, y 0 to 5; the drone must stay airborne, and send the rover to "
               "the victim.")
    assert found(check(sar, request, plan("search_and_dispatch", *SEARCH, DISPATCH))) == []


def test_a_request_that_asks_nothing_refuses_every_step_at_dispatch_too(sar: Crew) -> None:
    request = "What if the rover drove to x 2, y 3?"
    p = parse_plan(GO_23)
    assert isinstance(p, Plan)
    mission = MissionGate(Gate(sar), "m", request, p)
    verdict = mission.authorize(0, p.steps[0], sim_world(sar)).verdict
    assert [(c.code.value, c.detail) for c in verdict.problems] == [
        ("nothing_asked", "the request supposes ('what if the rover drove to x 2 ...') and "
         "asks nothing to move now: tb3.navigate_to may not run (to have it done now, ask for "
         "it)")]


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 5, y 0 to 5 and land. Rover: no.", "rover: no"),
    ("Search x 0 to 5, y 0 to 5 and land. Rover? Not today.", "rover? not today"),
    ("Search x 0 to 5, y 0 to 5 and land; give the rover a rest.", "rover a rest"),
    ("Search x 0 to 5, y 0 to 5 and land, and the rover? Leave it.", "rover? leave it"),
    ("Search x 0 to 5, y 0 to 5 and land. Rover: skip.", "rover: skip"),
    # a robot that cannot act now
    ("Search x 0 to 5, y 0 to 5 and land; the rover is out of battery.",
     "rover is out of battery"),
    ("Search x 0 to 5, y 0 to 5 and land. The rover is needed elsewhere.",
     "rover is needed elsewhere"),
    ("Put the rover on hold; search x 0 to 5, y 0 to 5 and land.", "rover on hold"),
    ("Search x 0 to 5, y 0 to 5 and land. Ground vehicle: hold.", "ground vehicle: hold"),
    ("Search x 0 to 5, y 0 to 5, land and keep tb3 at base.", "keep tb3 at base"),
])
def test_a_robot_given_a_bare_no_or_a_rest_is_ruled_out(sar: Crew, request_: str,
                                                         said: str) -> None:
    """The rover's dispatch was accepted beside each of these."""
    assert found(check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH, LAND))) == [
        (2, "excluded_robot", f"the request rules out tb3: {said!r}")]


@pytest.mark.parametrize(("request_", "said"), [
    ("Minus the dog, take the red cube to room_b.", "minus the dog"),
    ("Take the red cube to room_b and keep the dog still.", "keep the dog still"),
    ("Take the red cube to room_b; the dog is grounded.", "dog is grounded"),
    ("Take the red cube to room_b; the dog is on a break.", "dog is on a break"),
    ("Take the red cube to room_b. Dog: off.", "dog: off"),
])
def test_more_ways_of_keeping_a_robot_out(g1_go2: Crew, request_: str, said: str) -> None:
    """Each of these accepted the dog's walk in the carry."""
    assert found(check(g1_go2, request_, carry("red_cube", "room_b"))) == [
        (2, "excluded_robot", f"the request rules out go2: {said!r}")]


@pytest.mark.parametrize("request_", [
    "The drone? No. The rover: drive to x 2, y 3.",
    "Drive the rover to x 2, y 3, leave it there.",  # no dismissal: it goes on
    "Drive to x 2, y 3 with the rover, leave it.",  # set off by a comma only
    "Should I send the drone? No, send the rover to x 2, y 3.",
])
def test_a_no_that_is_no_refusal_of_the_robot_rules_nothing_out(sar: Crew,
                                                                request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


def test_air_assets_only_keeps_the_rover_out(sar: Crew) -> None:
    v = check(sar, "Air assets only - do not send the rover. Search x 0 to 5, y 0 to 5.",
              plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert found(v) == [
        (2, "excluded_robot", "the request rules out tb3: 'do not send the rover'")]


def test_a_step_nothing_asks_for_is_refused(g1_go2: Crew) -> None:
    v = check(g1_go2, "Say hi to the visitors with a wave.",
              plan("manipulation_only", ("g1", "wave", {}),
                   ("g1", "grab_from_table", {"object": "red_cube"})))
    assert codes(v) == [(1, "substituted_value"), (1, "unrequested_step")]
    assert found(v)[1][2] == ("nothing in the request asks for g1.grab_from_table: it names "
                              "neither g1 nor this action, and no value it states goes into it")


def test_a_dropped_destination_is_named_and_the_one_plan_bound_said(g1_go2: Crew) -> None:
    v = check(g1_go2, "Carry the bottle to table_b and then come back home.",
              carry("bottle", "table_b"))
    assert found(v) == [(None, "dropped_request", (
        "the request names 'home' (start) as a destination; no step goes there (the workflow "
        "allows go2.navigate_to_location once in one plan: the request cannot be done in one "
        "plan; ask for the rest in another request)"))]


# -- paraphrases of each class -------------------------------------------------------------------


@pytest.mark.parametrize("request_", ["Send g1 to the charger.", "Humanoid, go to room_a.",
                                      "Get the Unitree G1 over to table_b."])
def test_named_robot_paraphrases(g1_go2: Crew, request_: str) -> None:
    place = {"Send g1": "charging", "Humanoid,": "room_a", "Get the U": "table_b"}
    v = check(g1_go2, request_, walk(next(p for k, p in place.items() if request_.startswith(k))))
    assert codes(v) == [(0, "substituted_robot")]
    assert "g1 has no skill that moves it to a place" in found(v)[0][2]


@pytest.mark.parametrize(("request_", "takeoff", "search", "where"), [
    ("Take off to 6m, survey x from 0 to 5, y from 0 to 5, then land.", {"altitude": 3.0}, {},
     (0, "the request states '6m' for iris.takeoff altitude; the plan gives 3")),
    ("Lift off to 6 m and search x 0 to 5, y 0 to 5, then land.", {}, {},
     (0, "the request states '6 m' for iris.takeoff altitude; the plan gives 3 (the default)")),
    ("Search x 0 to 5, y 0 to 5 at an altitude of 7 metres, then land.", {"altitude": 7}, {},
     (1, "the request states '7 metres' for iris.search_target altitude; the plan gives 3 "
         "(the default)")),
    # numbers written in words (they were not read: the default altitude was accepted)
    ("Take off to six metres, survey x from 0 to 5, y from 0 to 5, then land.", {}, {},
     (0, "the request states 'six metres' for iris.takeoff altitude; the plan gives 3 "
         "(the default)")),
    ("Take off to two point five m, search x 0 to 5, y 0 to 5, then land.", {}, {},
     (0, "the request states 'two point five m' for iris.takeoff altitude; the plan gives 3 "
         "(the default)")),
    ("Search x 0 to 5, y 0 to 5 at an altitude of seven metres, then land.", {"altitude": 7},
     {}, (1, "the request states 'seven metres' for iris.search_target altitude; the plan "
             "gives 3 (the default)")),
])
def test_stated_value_paraphrases(sar: Crew, request_: str, takeoff: dict[str, Any],
                                  search: dict[str, Any], where: tuple[int, str]) -> None:
    v = check(sar, request_, plan("search_only", ("iris", "takeoff", takeoff),
                                  ("iris", "search_target", {**ZONE, **search}), LAND))
    assert found(v) == [(where[0], "substituted_value", where[1])]


@pytest.mark.parametrize("request_", [
    "Search x 0 to 5, y 0 to 5 and keep the rover parked.",
    "Search x 0 to 5, y 0 to 5 with the drone only.",
    "Search x 0 to 5, y 0 to 5 without the rover.",
    "Search x 0 to 5, y 0 to 5; the rover stays where it is.",
    # the robot first, then modals and a negation or a stay cue
    "Search x 0 to 5, y 0 to 5; the rover must stay where it is.",
    "Search x 0 to 5, y 0 to 5; the rover should not be used.",
    "Search x 0 to 5, y 0 to 5; the rover shouldn't be involved.",
    "Search x 0 to 5, y 0 to 5. The rover must remain parked.",
    "Search x 0 to 5, y 0 to 5; the rover cannot help.",
    "Search x 0 to 5, y 0 to 5; the rover will never be needed.",
    "Search x 0 to 5, y 0 to 5, rover excluded.",
    "Search x 0 to 5, y 0 to 5; the rover is out of service.",
    "Drone, search x 0 to 5, y 0 to 5; rover, hold position.",
    # the robot's part said otherwise: held off, not to be moved, left, skipped, not allowed
    "Search x 0 to 5, y 0 to 5 but hold off on sending the rover.",
    "Search x 0 to 5, y 0 to 5. The rover is not to be moved.",
    "Search x 0 to 5, y 0 to 5. Leave the rover.",
    "Search x 0 to 5, y 0 to 5. Rover: do nothing.",
    "Search x 0 to 5, y 0 to 5; skip the rover.",
    "Search x 0 to 5, y 0 to 5; forget about the rover.",
    "Search x 0 to 5, y 0 to 5; the rover is not required.",
    "Search x 0 to 5, y 0 to 5; the rover should sit this one out.",
    "Search x 0 to 5, y 0 to 5; dispatching the rover is not allowed.",
    "Search x 0 to 5, y 0 to 5; sending the rover is forbidden.",
    "Search x 0 to 5, y 0 to 5; refrain from sending the rover.",
    # passed over, or dropped as its clause's subject
    "Search x 0 to 5, y 0 to 5 with the drone instead of the rover.",
    "Search x 0 to 5, y 0 to 5 with the drone in place of the rover.",
    "Search x 0 to 5, y 0 to 5 with the drone in lieu of the rover.",
    "Search x 0 to 5, y 0 to 5. The last thing I want is the rover moving.",
    # the speaker's to decide, held, or dismissed for later
    "Search x 0 to 5, y 0 to 5; I'll decide about the rover.",
    "Search x 0 to 5, y 0 to 5. Hold the rover.",
    "Search x 0 to 5, y 0 to 5, and the rover? Maybe later.",
    "Search x 0 to 5, y 0 to 5. Rover: not yet.",
    # ... left running, let be, or let finish
    "Search x 0 to 5, y 0 to 5 but leave the rover running.",
    "Search x 0 to 5, y 0 to 5. The rover? Let it be.",
    "Search x 0 to 5, y 0 to 5 and send the rover, no, let the rover finish.",
    "Search x 0 to 5, y 0 to 5; the rover keeps running.",
    "Search x 0 to 5, y 0 to 5; cancel the rover.",
    "Search x 0 to 5, y 0 to 5; the rover is not wanted.",
    "Search x 0 to 5, y 0 to 5; the rover isn't necessary.",
    # a robot that cannot act now
    "Search x 0 to 5, y 0 to 5; the rover is broken.",
    "Search x 0 to 5, y 0 to 5; the rover is down for maintenance.",
    "Search x 0 to 5, y 0 to 5; the rover isn't available.",
    "Search x 0 to 5, y 0 to 5; the rover is on standby.",
    "Search x 0 to 5, y 0 to 5 with the drone; the rover should sit tight.",
    "Search x 0 to 5, y 0 to 5 with the drone; the rover is not involved.",
    "Search x 0 to 5, y 0 to 5 with the drone; nothing for the rover.",
    "Search x 0 to 5, y 0 to 5 with the drone; the rover has nothing to do.",
    "Search x 0 to 5, y 0 to 5 with the drone; the rover is off duty.",
    "Search x 0 to 5, y 0 to 5 with the drone; let the rover rest.",
    "Search x 0 to 5, y 0 to 5 with the drone; leave the rover be.",
    "Search x 0 to 5, y 0 to 5 with the drone; the rover can sit this out.",
    "Search x 0 to 5, y 0 to 5 with the drone; the rover waits.",
    "Search x 0 to 5, y 0 to 5 with the drone; the rover stays out of it.",
    "Search x 0 to 5, y 0 to 5 with the drone; the rover should wait here.",
])
def test_excluded_robot_paraphrases(sar: Crew, request_: str) -> None:
    v = check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert [c for c in codes(v) if c[1] == "excluded_robot"] == [(2, "excluded_robot")]
    assert {i for i, _ in codes(v)} == {2}  # the drone's steps are untouched


@pytest.mark.parametrize(("request_", "robot", "step"), [
    ("Send the robot that isn't the rover to x 2, y 3.", "that isn't the rover",
     "that isn't the rover to x 2, y 3"),
    ("Use whichever robot isn't the rover to go to x 2, y 3.", "robot isn't the rover",
     "robot isn't the rover to go to x 2, y 3"),
])
def test_a_robot_that_is_not_the_rover_is_not_the_rover(sar: Crew, request_: str, robot: str,
                                                          step: str) -> None:
    """A relative clause that negates a robot rules it out (the rover was sent)."""
    assert found(check(sar, request_, GO_23)) == [
        (0, "excluded_robot", f"the request rules out tb3 here: {robot!r}"),
        (0, "negated_step", f"the request rules out tb3.navigate_to here: {step!r}")]


@pytest.mark.parametrize(("request_", "said"), [
    # (each carried the bottle there)
    ("Carry the bottle to whichever room isn't room_b.", "room isn't room_b"),
    ("Carry the bottle wherever isn't room_b.", "wherever isn't room_b"),
    ("Carry the bottle to any place that isn't room_b.", "that isn't room_b"),
])
def test_a_place_that_is_not_the_place_is_not_the_place(g1_go2: Crew, request_: str,
                                                        said: str) -> None:
    assert found(check(g1_go2, request_, carry("bottle", "room_b"))) == [
        (2, "negated_step", f"the request rules out go2.navigate_to_location here: {said!r}")]


@pytest.mark.parametrize("request_", [
    "Carry the bottle to room_a with the dog alone.",
    "Carry the bottle to room_a with the dog on its own.",
    "Carry the bottle to room_a, dog, on your own.",
    "Have the dog, all by itself, carry the bottle to room_a.",
])
def test_a_robot_said_to_act_alone_leaves_the_others_out(g1_go2: Crew, request_: str) -> None:
    """The humanoid's grab and load are not asked ("on its own" was not read: the carry ran)."""
    assert found(check(g1_go2, request_, carry("bottle", "room_a"))) == [
        (0, "excluded_robot", "the request asks for go2 only; not g1"),
        (1, "excluded_robot", "the request asks for go2 only; not g1")]


@pytest.mark.parametrize("noun", ["copter", "multirotor", "quadrotor", "air support",
                                  # said by its flying (each named no robot: the rover drove)
                                  "one that flies", "robot that can fly"])
def test_a_word_for_a_type_of_robot_names_the_crews_robots_of_it(sar: Crew, noun: str) -> None:
    """"The copter" is the crew's drone (it named no robot: the rover drove); "the UGV" is the
    rover."""
    assert found(check(sar, f"Send the {noun} to x 2, y 3.", GO_23)) == [
        (0, "substituted_robot", "the request asks iris to 'send'; iris has no such skill, and "
         "tb3 may not take its place")]
    assert found(check(sar, "Send the UGV to x 2, y 3.", GO_23)) == []
    assert found(check(sar, "Send whichever robot can fly to x 2, y 3.", GO_23)) == [
        (0, "substituted_robot", "the request asks iris to 'send'; iris has no such skill, and "
         "tb3 may not take its place")]


@pytest.mark.parametrize("altitude", ["2", "2.5"])
def test_a_decimal_point_does_not_end_a_prohibition(sar: Crew, altitude: str) -> None:
    """"1.5" is one number, not the end of a sentence: the prohibition reaches the rover past it,
    as it does past "2" (it used to stop there, leaving only an unclear negation). What it says
    of the altitude is a bound (at most 2 m), which the default 3 m goes beyond."""
    v = check(sar, f"Search x 0 to 5, y 0 to 5; do not climb above {altitude} m or send the rover.",
              plan("search_and_dispatch", *SEARCH, DISPATCH))
    said = f"do not climb above {altitude} m or send"
    assert found(v) == [
        (0, "beyond_bound", f"the request bounds iris.takeoff altitude ('do not climb above "
         f"{altitude} m'); the plan gives 3 (the default)"),
        (1, "beyond_bound", f"the request bounds iris.search_target altitude ('do not climb "
         f"above {altitude} m'); the plan gives 3 (the default)"),
        (2, "excluded_robot", f"the request rules out tb3: '{said} the rover'")]


# a number as the suites write it (not glued to a word, not part of a longer decimal)
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]\d)")


def _brief_facts(gate: Gate, request: str) -> tuple[object, ...]:
    """What a request's reading holds a plan to, apart from the values themselves (the words
    it quotes folded to one case and single spaces)."""
    b = gate.intent.read(request)

    def said(text: str | None) -> str | None:
        return None if text is None else " ".join(text.lower().split())

    return (sorted(b.excluded), sorted(b.only), sorted(b.named), sorted(b.free),
            [said(m.phrase) for m in b.negated], [said(m.phrase) for m in b.actions],
            sorted(b.only_actions), said(b.unclear), said(b.retracted), len(b.zones),
            len(b.points), b.universal, [s.params for s in b.stated])


def _values(gate: Gate, request: str) -> tuple[object, ...]:
    """The values a request states, as its reading and its facts hold them."""
    b, facts = gate.intent.read(request), RequestFacts.read(request)
    return (b.zones, b.points, [s.quantity.value for s in b.stated], facts.numbers,
            facts.points, facts.zones, facts.tokens)


def test_how_a_number_is_written_changes_nothing_else_the_request_says(sar: Crew) -> None:
    """Every numeric request of the packaged sar suites, its numbers written as integers or
    with decimals ("5", "5.5", "5.0", "5.25"), is read alike: who is named, excluded or alone,
    what is negated or asked, what is unclear. (A decimal point used to end a clause: 25 of
    these requests were read otherwise.)"""
    gate = Gate(sar)
    requests = sorted({s.request for suite in ("study", "extended", "holdout")
                       for s in load_suite("sar", suite).scenarios})
    numeric = [r for r in requests if _NUMBER.search(r)]
    assert len(numeric) == 176
    for request in numeric:
        readings = {fraction: _brief_facts(gate, _written(request, fraction))
                    for fraction in ("", ".5", ".0", ".25")}
        assert len(set(map(repr, readings.values()))) == 1, (request, readings)


def _written(request: str, fraction: str) -> str:
    """The request with each number's integer part followed by ``fraction``."""
    return _NUMBER.sub(lambda m: m.group().split(".")[0] + fraction, request)


# ways of writing a request that say the same: how it is spaced, cased, or its dashes typed
_REWRITES: dict[str, Callable[[str], str]] = {
    "tabs": lambda r: r.replace(" ", "\t"),
    "double spaces": lambda r: r.replace(" ", "  "),
    "a line break after each comma": lambda r: r.replace(", ", ",\n"),
    "upper case": str.upper,
    "a double hyphen for a dash": lambda r: r.replace(" - ", " -- "),
    "non-breaking spaces": lambda r: r.replace(" ", "\u00a0"),
    "zero-width spaces": lambda r: r.replace(" ", " \u200b"),
    "soft hyphens inside words": lambda r: re.sub(r"([a-z]{3})([a-z]{3})", "\\1\u00ad\\2", r),
    "curly apostrophes": lambda r: r.replace("'", "\u2019"),
    "fullwidth commas": lambda r: r.replace(",", "\uff0c"),
    "minus signs": lambda r: re.sub(r"(?<=[\s(\[])-(?=\d)", "\u2212", r),
    "en dashes for minus signs": lambda r: re.sub(r"(?<=[\s(\[])-(?=\d)", "\u2013", r),
}


@pytest.mark.parametrize("rewrite", list(_REWRITES))
def test_how_a_request_is_typed_changes_nothing(sar: Crew, g1_go2: Crew,
                                                                rewrite: str) -> None:
    """Every request of both packaged crews' suites reads alike rewritten, the values it states
    included. (A hyphen between tabs, or a double hyphen, did not end a clause: "No walking for
    the quadruped today\t-\tthe humanoid should just wave" ruled out the humanoid too; an en
    dash written for a minus was dropped, "x –2" stating 2; a zero-width space or a fullwidth
    comma hid the zones.)"""
    changed = 0
    for crew in (sar, g1_go2):
        gate = Gate(crew)
        for request in sorted({s.request for suite in ("study", "extended", "holdout")
                               for s in load_suite(crew.name, suite).scenarios}):
            other = _REWRITES[rewrite](request)
            changed += other != request
            assert _brief_facts(gate, other) == _brief_facts(gate, request), (request, other)
            assert _values(gate, other) == _values(gate, request), (request, other)
    assert changed > 0


def _courteous(request: str) -> str:
    return f"Please, {request[0].lower()}{request[1:]} Thanks!"


def _codes_of(v: PlanVerdict) -> list[tuple[int | None, str]]:
    return sorted(codes(v), key=lambda c: (-1 if c[0] is None else c[0], c[1]))


def test_a_reference_plan_gets_the_same_verdict_however_its_request_is_typed(
        sar: Crew, g1_go2: Crew) -> None:
    """What moves does not depend on how the request is typed: every packaged scenario's
    reference plan, against its request rewritten as above (and with "Please, " before it and
    " Thanks!" after it), gets the codes it gets against the request as written."""
    rewrites = {**_REWRITES, "courtesy": _courteous}
    checked = 0
    for crew in (sar, g1_go2):
        gate = Gate(crew)
        for suite in ("study", "extended", "holdout"):
            for s in load_suite(crew.name, suite).scenarios:
                if s.reference_plan is None:
                    continue
                world = sim_world(crew, s.faults, s.world)
                p = parse_plan(s.reference_plan)
                expected = _codes_of(gate.validate(p, s.request, world))
                for rewrite in rewrites.values():
                    other = rewrite(s.request)
                    assert _codes_of(gate.validate(p, other, world)) == expected, (s.id, other)
                    checked += 1
    assert checked == 387 * len(rewrites)


@pytest.mark.parametrize("request_", [
    "Search x 0 to 5, y 0 to 5; the rover can then go to the victim.",
    "Search x 0 to 5, y 0 to 5; the rover is not far, send it to the victim.",
    "Search x 0 to 5, y 0 to 5; if the rover cannot go, land; else send it to the victim.",
    "Search x 0 to 5, y 0 to 5, leave the drone up and send the rover to the victim.",
])
def test_a_robot_followed_by_a_modal_or_a_negation_elsewhere_is_still_asked(
        sar: Crew, request_: str) -> None:
    """The controls: a modal that rules nothing out, a negation past a copula ("is not far"),
    or one in a condition ("if the rover cannot go"), leave the rover asked."""
    v = check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert codes(v) == []


def test_a_modal_negation_of_an_action_rules_out_the_action_not_the_robot(g1_go2: Crew) -> None:
    """"the dog must not go to the charger" refuses the step that goes there for the negated
    action, as "do not send the dog to the charger" does; the dog itself is not ruled out."""
    v = check(g1_go2, "Walk the dog to room_a; the dog must not go to the charger.",
              walk("charging"))
    assert found(v) == [(0, "negated_step", "the request rules out go2.navigate_to_location "
                         "here: 'must not go to the charger'")]
    assert codes(check(g1_go2, "Walk the dog to room_a; the dog must not go to the charger.",
                       walk("room_a"))) == []


@pytest.mark.parametrize(("request_", "asked", "ruled_out"), [
    ("Walk the dog to room_a, but do not go to the charger.", walk("room_a"), walk("charging")),
    ("Send the dog to room_a. Do not send it to the charger.", walk("room_a"), walk("charging")),
    ("Carry the bottle to room_b, do not carry the cube.", carry("bottle", "room_b"),
     carry("red_cube", "room_b")),
])
def test_an_action_negated_with_a_thing_is_ruled_out_with_it_only(
        g1_go2: Crew, request_: str, asked: dict[str, Any], ruled_out: dict[str, Any]) -> None:
    """"do not go to the charger" rules out going to the charger, not going: the walk the
    request asks for is accepted (it was refused, every go step negated), the one it rules
    out refused."""
    assert codes(check(g1_go2, request_, asked)) == []
    assert (0, "negated_step") in codes(check(g1_go2, request_, ruled_out))


@pytest.mark.parametrize("request_", [
    "Walk the dog to room_a; do not send the dog to the charger.",
    "Do not send the dog to the charger; walk it to room_a.",
    "Walk the dog to room_a, but never take the dog to the charger.",
])
def test_a_robot_negated_with_a_place_is_ruled_out_there_only(g1_go2: Crew,
                                                              request_: str) -> None:
    """"do not send the dog to the charger" rules the dog out of going there, not out of the
    walk the request asks for (it refused the walk: the dog was ruled out outright)."""
    assert codes(check(g1_go2, request_, walk("room_a"))) == []
    assert codes(check(g1_go2, request_, walk("charging"))) == [
        (0, "excluded_robot"), (0, "negated_step")]


def test_a_thing_past_a_comma_does_not_narrow_a_prohibition(g1_go2: Crew) -> None:
    """"Do not send the dog, the charger is broken": the charger says why, it does not narrow
    the prohibition; the dog is ruled out everywhere."""
    v = check(g1_go2, "Walk the dog to room_a. Do not send the dog, the charger is broken.",
              walk("room_a"))
    assert codes(v) == [(0, "excluded_robot")]


def test_an_action_negated_with_a_point_is_ruled_out_with_it_only(sar: Crew) -> None:
    request = "Rover, do not go to x 2, y 3; go to x 4, y 5 instead."
    assert codes(check(sar, request, _go(4, 5))) == []
    assert found(check(sar, request, _go(2, 3))) == [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'do not go to x 2, y 3'")]


def test_an_action_negated_alone_is_ruled_out_wherever_it_goes(g1_go2: Crew) -> None:
    assert (0, "negated_step") in codes(check(g1_go2, "Do not go anywhere.", walk("room_a")))


@pytest.mark.parametrize("cue", ["anywhere but", "everywhere but", "anything but"])
def test_anywhere_but_a_place_rules_the_place_out(g1_go2: Crew, cue: str) -> None:
    v = check(g1_go2, f"Send the dog {cue} the charger.", walk("charging"))
    assert found(v) == [(0, "negated_step", "the request rules out go2.navigate_to_location "
                         f"here: '{cue} the charger'")]


def test_a_number_written_in_words_is_carried_and_held_to_its_range(sar: Crew) -> None:
    """"six metres" states 6 as "6 metres" does: a plan that carries it is accepted, and
    "twenty-five metres" is out of the altitude's range."""
    six = plan("search_only", ("iris", "takeoff", {"altitude": 6}), ("iris", "search_target", ZONE),
               LAND)
    assert codes(check(sar, "Take off to six metres, search x 0 to 5, y 0 to 5, then land.",
                       six)) == []
    v = check(sar, "Take off to twenty-five metres, search x 0 to 5, y 0 to 5, then land.",
              plan("search_only", *SEARCH, LAND))
    assert found(v) == [(None, "out_of_range", "the request states 'twenty-five metres' (for "
                         "iris.takeoff altitude), outside what it takes: [1, 10]")]


@pytest.mark.parametrize(("request_", "said"), [
    ("Walk the dog to room_a; leave the bottle where it is.", "leave the bottle where"),
    ("Walk the dog to room_a; the bottle stays on the table.", "bottle stays"),
    ("Walk the dog to room_a; the bottle must stay put.", "bottle must stay"),
    # (it carried the bottle)
    ("Walk the dog to room_a; keep the bottle on the table.", "keep the bottle on"),
])
def test_a_thing_left_where_it_is_is_not_carried(g1_go2: Crew, request_: str, said: str) -> None:
    """An object the request leaves ("stays", "leave it where it is") is no object it states:
    carrying it is refused (it was taken as stated, and the carry accepted)."""
    v = check(g1_go2, request_, carry("bottle", "room_a"))
    assert found(v) == [(0, "negated_step", "the request rules out g1.grab_from_table here: "
                         f"'{said}'")]


@pytest.mark.parametrize("request_", ["Hold the bottle and carry it to room_b.",
                                      "Keep the bottle upright and carry it to room_b.",
                                      "Carry the bottle to room_b; the charger is off limits."])
def test_holding_or_keeping_a_thing_is_no_rule_against_it(g1_go2: Crew, request_: str) -> None:
    assert codes(check(g1_go2, request_, carry("bottle", "room_b"))) == []


def _go(x: float, y: float) -> dict[str, Any]:
    return plan("dispatch_only", ("tb3", "navigate_to", {"x": x, "y": y}))


@pytest.mark.parametrize(("request_", "said"), [
    ("Rover: go to x 4, y 5, not x 2, y 3.", "not x 2, y 3"),
    ("Rover: go to x 4, y 5 and avoid (2, 3).", "avoid (2, 3)"),
    ("Rover, go to (4, 5), never to (2, 3).", "never to (2, 3)"),
    ("Rover: go to (4, 5) but not (2, 3).", "not (2, 3)"),
])
def test_a_point_the_request_rules_out_is_not_gone_to(sar: Crew, request_: str,
                                                      said: str) -> None:
    """A point a negation covers (read past the scope's end while the value goes on) refuses
    the step that goes there; the point the request asks for is accepted. (Both points were
    stated alike, and the rover's drive to the one ruled out was accepted.)"""
    assert found(check(sar, request_, _go(2, 3))) == [
        (0, "negated_step", f"the request rules out tb3.navigate_to here: '{said}'")]
    assert codes(check(sar, request_, _go(4, 5))) == []


def test_a_zone_the_request_rules_out_is_not_searched(sar: Crew) -> None:
    """Neither the zone left out nor a zone over it is searched: the drone would sweep what
    the request says not to (the search over it was accepted)."""
    request = "Search x from 0 to 5, y from 0 to 5, not x from 1 to 2, y from 1 to 2, then land."
    inner = {"x_min": 1, "x_max": 2, "y_min": 1, "y_max": 2}
    said = "the request rules out iris.search_target here: 'not x from 1 to 2, y from 1 to 2'"
    v = check(sar, request, plan("search_only", ("iris", "takeoff", {}),
                                 ("iris", "search_target", inner), LAND))
    assert found(v) == [(1, "negated_step", said)]
    assert found(check(sar, request, plan("search_only", *SEARCH, LAND))) == [
        (1, "negated_step", said)]


def _search(x0: float, x1: float, y0: float, y1: float) -> dict[str, Any]:
    return plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", {
        "x_min": x0, "x_max": x1, "y_min": y0, "y_max": y1}), LAND)


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 10, y 0 to 10 except x 0 to 2, then land.", "except x 0 to 2"),
    ("Search x 0 to 10, y 0 to 10 but not x from 0 to 2, then land.", "not x from 0 to 2"),
    ("Search x 0 to 10, y 0 to 10 excluding x 0 to 2, y 0 to 10, then land.",
     "excluding x 0 to 2, y 0 to 10"),
    ("Search x 0 to 10, y 0 to 10, then land. Do not search x 0 to 2, y -1 to 11.",
     "do not search x 0 to 2, y -1 to 11"),
])
def test_a_strip_left_out_of_a_search_leaves_the_rest_to_search(sar: Crew, request_: str,
                                                                 said: str) -> None:
    """A zone (or an axis range alone: a strip) left out of a zone the request states is
    searched by no step (the whole was accepted); what is left of the zone, a rectangle, is
    the zone asked for (it was refused as a value the request does not state)."""
    assert found(check(sar, request_, _search(0, 10, 0, 10))) == [
        (1, "negated_step", f"the request rules out iris.search_target here: '{said}'")]
    assert found(check(sar, request_, _search(2, 10, 0, 10))) == []
    assert found(check(sar, request_, _search(3, 10, 0, 10))) == [
        (1, "substituted_value", "iris.search_target: zone x [3, 10] y [0, 10] is not what "
         "the request states")]


def test_keep_the_drone_on_the_ground_rules_out_every_drone_step(sar: Crew) -> None:
    v = check(sar, "Drive the rover to x 2, y 1; keep the drone on the ground.",
              plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert [c for c in codes(v) if c[1] == "excluded_robot"] == [(0, "excluded_robot"),
                                                                  (1, "excluded_robot")]


@pytest.mark.parametrize(("request_", "cue"), [
    ("Don't walk anywhere; wave hello.", "don't walk"),
    ("The dog should not move; wave hello.", "should not move"),
])
def test_negated_action_paraphrases(g1_go2: Crew, request_: str, cue: str) -> None:
    v = check(g1_go2, request_, walk("charging"))
    assert (0, "negated_step", f"the request rules out go2.navigate_to_location here: {cue!r}") \
        in found(v)
    assert (None, "dropped_request") in codes(v)


def test_just_one_action_refuses_the_rest(g1_go2: Crew) -> None:
    v = check(g1_go2, "Just wave.", plan("manipulation_only", ("g1", "wave", {}),
                                         ("g1", "grab_from_table", {"object": "red_cube"})))
    assert codes(v) == [(1, "substituted_value"), (1, "unrequested_step")]


def test_a_second_destination_is_owed(g1_go2: Crew) -> None:
    v = check(g1_go2, "Take the bottle to table_b, then to room_a.", carry("bottle", "table_b"))
    assert codes(v) == [(None, "dropped_request")]
    assert found(v)[0][2].startswith("the request names 'room a' (room_a) as a destination")


def test_an_unasked_dispatch_after_a_look_around(sar: Crew) -> None:
    v = check(sar, "Look around x 0 to 5, y 0 to 5 with the drone.",
              plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert codes(v) == [(2, "unrequested_step")]


# -- controls: what the request needs is never refused -------------------------------------------


@pytest.mark.parametrize(("crew", "request_", "p"), [
    # the carry needs g1 though the request names only the dog
    ("g1_go2", "Have the dog take the red cube to room_b.", carry("red_cube", "room_b")),
    # search-and-dispatch needs the drone though the request names only the ground robot
    ("sar", "Someone is lost in x 0 to 5, y 0 to 5: find them and send the ground robot.",
     plan("search_and_dispatch", *SEARCH, DISPATCH)),
    # the requester's position is context: no step needs to carry it
    ("g1_go2", "I'm at table_a; hand me the bottle.",
     plan("handover", ("g1", "grab_from_table", {"object": "bottle"}), ("g1", "hand_over", {}))),
    ("g1_go2", "Don't grab anything, just wave.", plan("manipulation_only", ("g1", "wave", {}))),
    ("g1_go2", "Not the cube but the bottle: hand it to me.",
     plan("handover", ("g1", "grab_from_table", {"object": "bottle"}), ("g1", "hand_over", {}))),
    ("sar", "Take off to 6 metres, survey x from 0 to 5, y from 0 to 5, then land.",
     plan("search_only", ("iris", "takeoff", {"altitude": 6}), ("iris", "search_target", ZONE),
          LAND)),
    ("g1_go2", "Carry the bottle to table_b.", carry("bottle", "table_b")),
    # a negated detail ends at its comma: table_b is still the destination
    ("g1_go2", "Carry the bottle, not the cube, to table_b.", carry("bottle", "table_b")),
    # a verb's noun after a possessive asks no action ("hands" asked the hand-over)
    ("g1_go2", "Say hello and keep your hands empty.", plan("manipulation_only",
                                                            ("g1", "wave", {}))),
])
def test_controls_are_accepted(crew: str, request_: str, p: dict[str, Any],
                               request: pytest.FixtureRequest) -> None:
    v = check(request.getfixturevalue(crew), request_, p)
    assert found(v) == []


@pytest.mark.parametrize(("request_", "said"), [
    ("Carry the bottle to table_b, but don't let it fall.", "don't let it fall"),
    ("Carry the bottle to table_b and do not bump into the shelf.", "do not bump into the shelf"),
])
def test_an_unclear_negation_fails_closed(g1_go2: Crew, request_: str, said: str) -> None:
    v = check(g1_go2, request_, carry("bottle", "table_b"))
    assert found(v) == [(None, "unclear_negation", f"the request says {said!r}, and the gate "
                         "cannot tell which robot, action or place it rules out; name it")]


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 5, y 0 to 5, except the northern half, then land.",
     "except the northern half"),
    ("Search x 0 to 5, y 0 to 5 but not the corner near the fence, then land.",
     "not the corner near the fence"),
    ("Search x 0 to 5, y 0 to 5, avoiding the lake, then land.", "avoiding the lake"),
    ("Search x 0 to 5, y 0 to 5 without the top half, then land.", "without the top half"),
    # a part near a point (the point alone was ruled out)
    ("Search x 0 to 5, y 0 to 5 except the part near x 5, y 5 and land.",
     "except the part near x 5"),
    # ... and a part the request keeps to
    ("Search x 0 to 5, y 0 to 5 and land; only the western half.", "only the western half"),
    ("Search just the north side of x 0 to 5, y 0 to 5 and land.", "just the north side"),
    ("Search the western half of x 0 to 5, y 0 to 5 and land.", "the western half of"),
])
def test_a_part_of_space_left_out_that_the_gate_cannot_place_fails_closed(
        sar: Crew, request_: str, said: str) -> None:
    """A part of the zone left out in words (each whole-zone search was accepted); a place,
    not a negation, is what the gate cannot tell (``unclear_place``)."""
    v = check(sar, request_, plan("search_only", *SEARCH, LAND))
    assert found(v) == [(None, "unclear_place", f"the request says {said!r}, a place the gate "
                         "cannot tell; state the point or zone it means, or name one of the "
                         "crew's locations")]


@pytest.mark.parametrize("request_", [
    "Search x 0 to 5, y 0 to 5 without delay, then land.",
    "Search x 0 to 5, y 0 to 5 except if it rains, then land.",
    "Search x 0 to 5, y 0 to 5, not too fast, then land.",
    # "not" said of what comes before it, time, and two negations
    "Search x 0 to 5, y 0 to 5 and land; the rover is not part of this.",
    "Search x 0 to 5, y 0 to 5 and land without stopping at the end.",
    "Search x 0 to 5, y 0 to 5 and land, without missing any area.",
    "Search x 0 to 5, y 0 to 5 from the north edge and land.",
    "Just search x 0 to 5, y 0 to 5 and land.",
])
def test_a_detail_left_out_that_is_no_part_of_space_is_no_unclear_negation(
        sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, plan("search_only", *SEARCH, LAND))) == []


def test_a_stated_point_no_step_goes_to_is_dropped(sar: Crew) -> None:
    v = check(sar, "Survey x 0 to 5, y 0 to 5 by air, land, and also park the rover at x 2, y -2.",
              plan("search_only", *SEARCH, LAND))
    assert found(v) == [(None, "dropped_request",
                         "the request states the point (2, -2); no step goes there")]


def test_a_point_in_a_negated_clause_is_owed_by_no_step(sar: Crew) -> None:
    v = check(sar, "Search x 0 to 5, y 0 to 5 and land. Do not drive the rover to x 2, y -2.",
              plan("search_only", *SEARCH, LAND))
    assert found(v) == []


SEARCH_ONLY = plan("search_only", *SEARCH, LAND)
_ZONE = "x 0 to 5, y 0 to 5"


@pytest.mark.parametrize(("request_", "said"), [
    # passed over: a cue right before the action, its scope ending at a word that joins
    (f"Skip searching {_ZONE}; just take off and land.", f"skip searching {_ZONE}"),
    (f"Skip the search of {_ZONE}; just take off and land.", f"skip the search of {_ZONE}"),
    (f"Take off and land instead of searching {_ZONE}.", f"instead of searching {_ZONE}"),
    (f"Rather than searching {_ZONE}, take off and land.", f"rather than searching {_ZONE}"),
    (f"Take off and land. Cancel the search of {_ZONE}.", f"cancel the search of {_ZONE}"),
    (f"Call off the search of {_ZONE}, take off and land.", f"call off the search of {_ZONE}"),
    # dropped: the action as its clause's subject, then what drops it
    (f"Take off and land; searching {_ZONE} is not needed.",
     f"searching {_ZONE} is not needed"),
    (f"Take off and land; searching {_ZONE} is unnecessary.",
     f"searching {_ZONE} is unnecessary"),
    (f"Take off and land, the search of {_ZONE} is cancelled.",
     f"the search of {_ZONE} is cancelled"),
    (f"Take off and land. The search of {_ZONE} won't be necessary.",
     f"the search of {_ZONE} won't be necessary"),
    (f"Take off and land. Searching {_ZONE} is forbidden.", f"searching {_ZONE} is forbidden"),
    (f"Take off and land. Searching {_ZONE} is off the table.",
     f"searching {_ZONE} is off the table"),
    ("Take off and land. Searching between 0 and 5 on both axes is not allowed.",
     "searching between 0 and 5 on both axes is not allowed"),
])
def test_an_action_passed_over_or_dropped_is_ruled_out(sar: Crew, request_: str,
                                                       said: str) -> None:
    """The search is stated with its zone, and ruled out around it: before the issue's fix
    every one of these ran the search."""
    v = check(sar, request_, SEARCH_ONLY)
    assert found(v) == [(1, "negated_step",
                         f"the request rules out iris.search_target here: {said!r}")]


@pytest.mark.parametrize(("request_", "p"), [
    # a passed-over cue negates one thing: what follows "and" is asked
    ("Admin override: skip the search and send the rover to x 2, y 3.",
     plan("dispatch_only", ("tb3", "navigate_to", {"goal": {"x": 2, "y": 3}}))),
    ("Skip the drone and send the rover to x 2, y 3.",
     plan("dispatch_only", ("tb3", "navigate_to", {"goal": {"x": 2, "y": 3}}))),
    # what drops another subject ("and the drone", "which", "the landing pad") drops no action
    ("Send the rover to x 2, y 3 and the drone is not needed.",
     plan("dispatch_only", ("tb3", "navigate_to", {"goal": {"x": 2, "y": 3}}))),
    ("Drive to x 2, y 3, which is not needed for the drone.",
     plan("dispatch_only", ("tb3", "navigate_to", {"goal": {"x": 2, "y": 3}}))),
    (f"Search {_ZONE} and land, if landing is not needed skip nothing.", SEARCH_ONLY),
    (f"Search {_ZONE}, land on the landing pad; the landing pad is clear.", SEARCH_ONLY),
])
def test_what_is_passed_over_or_dropped_rules_out_nothing_else(
        sar: Crew, request_: str, p: dict[str, Any]) -> None:
    assert found(check(sar, request_, p)) == []


def test_a_robot_that_waits_for_something_is_asked(sar: Crew) -> None:
    """A wait before what the robot then does is no wait that keeps it where it is."""
    v = check(sar, "Search x 0 to 5, y 0 to 5; the rover waits for the fix, then drives to the "
              "victim.", plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert found(v) == []


def test_a_robot_that_cannot_act_in_a_condition_is_not_ruled_out(sar: Crew) -> None:
    """"Once the drone is on standby" is when the rover goes, not a drone ruled out."""
    v = check(sar, "Search x 0 to 5, y 0 to 5; once the drone is on standby, send the rover to "
              "the victim.", plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert found(v) == []


def test_no_flying_rules_out_the_air_robots(sar: Crew) -> None:
    v = check(sar, "Search x 0 to 5, y 0 to 5 and send the rover to the victim; no flying.",
              plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert found(v) == [(i, "excluded_robot", "the request rules out iris: 'no flying'")
                        for i in (0, 1)]


def test_a_gerund_only_rules_out(sar: Crew) -> None:
    """"The landing zone" asks for no landing; "no landing" rules it out."""
    intent = Gate(sar).intent
    asked = intent.brief(f"Fly to the landing zone and search {_ZONE}.")
    assert [sorted(m.referents) for m in asked.actions] == [["iris.search_target"]]
    assert asked.negated == []
    ruled_out = intent.brief(f"Search {_ZONE}; no landing.")
    assert [(sorted(m.referents), m.negated) for m in ruled_out.negated] == [
        (["iris.land"], "no landing")]


@pytest.mark.parametrize(("request_", "place", "expected"), [
    ("Walk the dog to room_a; going to the charger is not allowed.", "room_a", []),
    ("Walk the dog to room_a; going to the charger is not allowed.", "charging", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'going to the "
         "charger is not allowed'")]),
    ("Walk the dog to room_a instead of the charger.", "room_a", []),
    ("Walk the dog to room_a instead of the charger.", "charging", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'instead of "
         "the charger'")]),
])
def test_a_dropped_action_is_ruled_out_with_what_it_names(
        g1_go2: Crew, request_: str, place: str,
        expected: list[tuple[int | None, str, str]]) -> None:
    """A subject dropped with a place names where the action is ruled out, not everywhere."""
    assert found(check(g1_go2, request_, walk(place))) == expected


@pytest.mark.parametrize("request_", [
    "Walk the dog, but stay out of the charging dock.",
    "Walk the dog; keep away from the charger.",
    "Walk the dog; stay away from the charger.",
    "Walk the dog but steer clear of the charger.",
    "Walk the dog; keep clear of the charger.",
    "Walk the dog; nobody goes to the charger.",
    "Walk the dog; the charger is closed.",
    "Walk the dog; the charger is blocked.",
    "Walk the dog; the charger is occupied.",
    "Walk the dog; the charger is out of bounds.",
    "Walk the dog (the charger is being serviced).",
    "Walk the dog; the charger isn't to be visited.",
])
def test_a_place_kept_away_from_is_not_gone_to(g1_go2: Crew, request_: str) -> None:
    """The charger is named only to be kept away from: the walk there used to be accepted (the
    place stated), and "stay away" ruled the dog out instead."""
    assert codes(check(g1_go2, request_, walk("charging"))) == [(0, "negated_step")]


@pytest.mark.parametrize(("crew", "request_", "p"), [
    ("g1_go2", "Walk the dog to room_a; stay out of the charger and keep clear of room_b.",
     walk("room_a")),
    # a robot told to keep away from a place is not told to stay
    ("g1_go2", "Dog, stay out of the charger and walk to room_a.", walk("room_a")),
    # a stay cue past a clause's end says it of the robot only where it ends that clause
    ("sar", "Search x 0 to 5, y 0 to 5 and send the rover to the victim. Stay safe.",
     plan("search_and_dispatch", *SEARCH, DISPATCH)),
])
def test_keeping_away_rules_out_nothing_else(crew: str, request_: str, p: dict[str, Any],
                                             request: pytest.FixtureRequest) -> None:
    assert found(check(request.getfixturevalue(crew), request_, p)) == []


@pytest.mark.parametrize("said", ["rover: stay", "rover: stay put", "rover: stay where you are"])
def test_a_robot_told_to_stay_is_ruled_out(sar: Crew, said: str) -> None:
    request_ = f"Search x 0 to 5, y 0 to 5 with the drone. {said.capitalize()}."
    v = check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH))
    assert found(v) == [(2, "excluded_robot", "the request rules out tb3: 'rover: stay'")]


@pytest.mark.parametrize("request_", [
    # a prohibition's list ends at a comma before a verb the crew knows, unless "or" follows
    "Do not send the drone, drive the rover to x 2, y 3.",
    "Do not search, just send the rover to x 2, y 3.",
    # an action negated with the robot it names is that robot's: sending the rover is asked
    "Do not send the drone; send the rover to x 2, y 3.",
    "Don't bother sending the drone, drive the rover to x 2, y 3.",
])
def test_a_prohibition_then_what_is_asked(sar: Crew, request_: str) -> None:
    p = plan("dispatch_only", ("tb3", "navigate_to", {"goal": {"x": 2, "y": 3}}))
    assert found(check(sar, request_, p)) == []


def test_a_prohibition_without_a_verb_before_its_comma_reaches_past_it(sar: Crew) -> None:
    """"Do not, under any circumstances, search": the comma ends no prohibition that has not
    named what it forbids yet."""
    v = check(sar, "Take off and land but do not, under any circumstances, search x 0 to 5, y 0 "
              "to 5.", SEARCH_ONLY)
    assert codes(v) == [(1, "negated_step")]


def test_a_prohibition_over_a_list_of_actions_reaches_each(sar: Crew) -> None:
    p = plan("dispatch_only", ("tb3", "navigate_to", {"goal": {"x": 2, "y": 3}}))
    assert codes(check(sar, "Do not take off, search or send the rover to x 2, y 3.", p)) == [
        (0, "excluded_robot"), (0, "negated_step")]


@pytest.mark.parametrize(("x", "expected"), [
    (2, []),
    (4, [(0, "substituted_value", "tb3.navigate_to: goal (4, 3) is not what the request states")]),
])
def test_nowhere_else_rules_out_what_is_not_stated(sar: Crew, x: int,
                                                   expected: list[tuple[int, str, str]]) -> None:
    """"Do not go anywhere else" used to refuse the drive it follows."""
    v = check(sar, "Drive the rover to x 2, y 3 and do not go anywhere else.",
              plan("dispatch_only", ("tb3", "navigate_to", {"goal": {"x": x, "y": 3}})))
    assert found(v) == expected


@pytest.mark.parametrize(("request_", "said"), [
    ("Walk the dog to room_a, no wait, room_b.", "room_a, no wait"),
    ("Walk the dog to room_a - scratch that, room_b.", "room_a - scratch that"),
    ("Walk the dog to room_a; on second thought, room_b.", "room_a; on second thought"),
    # a correction
    ("Walk the dog to room_a. Sorry, I meant room_b.", "room_a. sorry, i meant"),
    ("Walk the dog to room_a... correction: room_b.", "room_a... correction"),
    ("Walk the dog to room_a, or rather room_b.", "room_a, or rather"),
    ("Walk the dog to room_a. Change of plan: room_b.", "room_a. change of plan"),
    # "actually," or "no," set off before a few words that name no action, up to a comma or
    # the sentence's end (both walks were refused with "no,": room_b read as ruled out)
    ("Walk the dog to room_a... actually, room_b.", "room_a... actually"),
    ("Walk the dog to room_a, no, room_b.", "room_a, no"),
    ("Walk the dog to room_a. No, room_b.", "room_a. no"),
    # ... and these (each walk to room_b was refused: room_a was still owed)
    ("Walk the dog to room_a - I mean room_b.", "room_a - i mean"),
    ("Walk the dog to room_a. Make that room_b.", "room_a. make that"),
    ("Walk the dog to room_a, sorry, room_b.", "room_a, sorry"),
    ("Walk the dog to room_a. Oops, room_b.", "room_a. oops"),
    ("Walk the dog to room_a. My bad, room_b.", "room_a. my bad"),
    ("Walk the dog to room_a, or better, room_b.", "room_a, or better"),
    ("Walk the dog to room_a. Let me rephrase: room_b.", "room_a. let me rephrase"),
    ("Walk the dog to room_a. Change that to room_b.", "room_a. change that to"),
])
def test_a_place_taken_back_is_not_gone_to(g1_go2: Crew, request_: str, said: str) -> None:
    """What a cue takes back is ruled out, what follows it asked: the walk to room_a used to
    be accepted (room_a was still stated)."""
    assert found(check(g1_go2, request_, walk("room_a"))) == [
        (0, "negated_step", f"the request rules out go2.navigate_to_location here: {said!r}")]
    assert found(check(g1_go2, request_, walk("room_b"))) == []


@pytest.mark.parametrize(("request_", "altitudes", "expected"), [
    # the value after the correction is the takeoff's still (it was read as the search's)
    ("Take off to 3 m, no, 4 m, search x 0 to 5, y 0 to 5 and land.", (4, 3), []),
    ("Take off to 3 m, no wait, 4 m, search x 0 to 5, y 0 to 5 and land.", (4, 3), []),
    ("Take off to 3 m, actually, 4 m, search x 0 to 5, y 0 to 5 and land.", (4, 3), []),
    ("Take off to 3 m, no, 4 m, search x 0 to 5, y 0 to 5 and land.", (3, 3),
     [(0, "substituted_value", "the request states '4 m' for iris.takeoff altitude; the plan "
       "gives 3")]),
    # a correction naming a value takes back no zone (the search was ruled out)
    ("Search x 0 to 5, y 0 to 5 at 3 m, no, 4 m, and land.", (3, 4), []),
    # the number a correction gives without a unit is in the corrected one's (each took off
    # to 3 m)
    ("Take off to 3 m... no, 4, search x 0 to 5, y 0 to 5 and land.", (4, 3), []),
    ("Take off to 3 m... no, 4, search x 0 to 5, y 0 to 5 and land.", (3, 3),
     [(0, "substituted_value", "the request states '4' for iris.takeoff altitude; the plan "
       "gives 3")]),
    ("Take off to 3 m, sorry, 4, search x 0 to 5, y 0 to 5 and land.", (4, 3), []),
    ("Take off to 3 m (I mean 4), search x 0 to 5, y 0 to 5 and land.", (4, 3), []),
    ("Take off to 3 m; actually make it 4, search x 0 to 5, y 0 to 5 and land.", (4, 3), []),
    ("Take off to 10 ft, no, 13, search x 0 to 5, y 0 to 5 and land.", (3.9624, 3), []),
    # a number said without a unit right after the action and "to" is its one parameter's, in
    # its unit (any altitude was accepted)
    ("Take off to 4, search x 0 to 5, y 0 to 5 and land.", (4, 3), []),
    ("Take off to 4, search x 0 to 5, y 0 to 5 and land.", (5, 3),
     [(0, "substituted_value", "the request states 'to 4' for iris.takeoff altitude; the plan "
       "gives 5")]),
    ("Take off to 40, search x 0 to 5, y 0 to 5 and land.", (5, 3),
     [(None, "out_of_range", "the request states 'to 40' (for iris.takeoff altitude), outside "
       "what it takes: [1, 10]")]),
])
def test_a_value_corrected_is_the_same_actions(
        sar: Crew, request_: str, altitudes: tuple[float, float],
        expected: list[tuple[int | None, str, str]]) -> None:
    takeoff, search = altitudes
    p = plan("search_only", ("iris", "takeoff", {"altitude": takeoff}),
             ("iris", "search_target", {**ZONE, "altitude": search}), LAND)
    assert found(check(sar, request_, p)) == expected


@pytest.mark.parametrize(("request_", "p", "expected"), [
    ("Forget the rover; search x 0 to 5, y 0 to 5 and land.",
     plan("search_and_dispatch", *SEARCH, DISPATCH, LAND),
     [(2, "excluded_robot", "the request rules out tb3: 'forget the rover'")]),
    ("Forget landing; search x 0 to 5, y 0 to 5.", plan("search_only", *SEARCH, LAND),
     [(2, "negated_step", "the request rules out iris.land here: 'forget landing'")]),
    # a negation before "forget" asks what follows
    ("Don't forget the rover; search x 0 to 5, y 0 to 5 and land.",
     plan("search_and_dispatch", *SEARCH, DISPATCH, LAND), []),
])
def test_what_the_request_says_to_forget_is_ruled_out(
        sar: Crew, request_: str, p: dict[str, Any],
        expected: list[tuple[int | None, str, str]]) -> None:
    """Both plans were accepted: "forget" ruled nothing out but "forget about"."""
    assert found(check(sar, request_, p)) == expected


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 5, y 0 to 5 and land. As for the rover, it stays.", "rover, it stays"),
    ("Search x 0 to 5, y 0 to 5 and land; the rover is staying put.", "rover is staying"),
])
def test_a_robot_said_to_stay_by_a_pronoun_or_a_progressive_stays(
        sar: Crew, request_: str, said: str) -> None:
    """The rover's drive to the victim was accepted with each."""
    p = plan("search_and_dispatch", *SEARCH, DISPATCH, LAND)
    assert found(check(sar, request_, p)) == [
        (2, "excluded_robot", f"the request rules out tb3: {said!r}")]


def test_a_robot_that_may_not_leave_a_place_stays(g1_go2: Crew) -> None:
    """"The dog must not leave the start position" negated going to the start position, and
    the carry to room_a ran."""
    v = check(g1_go2, "Bring the cube to room_a, but the dog must not leave the start position.",
              carry("red_cube", "room_a"))
    assert found(v) == [(2, "excluded_robot", "the request rules out go2: 'dog must not leave'")]


@pytest.mark.parametrize("request_", [
    "Hand me the bottle. The dog stays home.",
    "Hand me the bottle; the dog remains at the charger.",
])
def test_where_a_robot_kept_in_place_stays_is_no_destination(g1_go2: Crew, request_: str) -> None:
    """The handover was refused (`dropped_request`: no step went home)."""
    p = plan("handover", ("g1", "grab_from_table", {"object": "bottle"}), ("g1", "hand_over", {}))
    assert found(check(g1_go2, request_, p)) == []


def hand(obj: str) -> dict[str, Any]:
    return plan("handover", ("g1", "grab_from_table", {"object": obj}), ("g1", "hand_over", {}))


@pytest.mark.parametrize(("request_", "said"), [
    ("Hand me whatever isn't the bottle.", "whatever isn't the bottle"),
    ("Hand me something that isn't the bottle.", "that isn't the bottle"),
])
def test_a_thing_a_relative_clause_negates_is_not_handed_over(g1_go2: Crew, request_: str,
                                                              said: str) -> None:
    """(The bottle was handed over.)"""
    assert found(check(g1_go2, request_, hand("bottle"))) == [
        (0, "negated_step", f"the request rules out g1.grab_from_table here: {said!r}")]


@pytest.mark.parametrize("request_", [
    "Walk the dog to room_a? No, room_b.",
    "Walk the dog to room_a? No, walk it to room_b.",
])
def test_a_question_answered_no_then_corrected_asks_the_correction(g1_go2: Crew,
                                                                   request_: str) -> None:
    """Both walks were refused (`dropped_request`: room_a was still owed)."""
    assert found(check(g1_go2, request_, walk("room_b"))) == []
    assert [c for _, c, _ in found(check(g1_go2, request_, walk("room_a")))] == [
        "substituted_value"]


@pytest.mark.parametrize(("request_", "p", "expected"), [
    # either of two things named as alternatives is what is asked (both plans were refused,
    # `dropped_request`, for the one they did not carry)
    ("Bring me the cube or the bottle, whichever is closer.", hand("red_cube"), []),
    ("Bring me the cube or the bottle, whichever is closer.", hand("bottle"), []),
    ("Walk the dog to room_a or room_b.", walk("room_b"), []),
    # ... but no third
    ("Bring me the cube or the bottle, whichever is closer.", hand("block"),
     [(None, "dropped_request", "the request names 'cube or the bottle' (bottle, red_cube); no "
       "step carries it"),
      (0, "substituted_value", "g1.grab_from_table: object 'block' is not what the request "
       "states")]),
    # both asked, each one owed
    ("Bring me the cube and the bottle.", hand("red_cube"),
     [(None, "dropped_request", "the request names 'bottle' (bottle); no step carries it")]),
])
def test_things_named_as_alternatives_ask_for_either(
        g1_go2: Crew, request_: str, p: dict[str, Any],
        expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(g1_go2, request_, p)) == expected


@pytest.mark.parametrize(("request_", "place", "expected"), [
    # the robot kept out of a place is not ruled out: the place is (the dog was, so its walk
    # to room_b was refused)
    ("Keep the dog out of room_a and walk it to room_b.", "room_b", []),
    ("Keep the dog out of room_a and walk it to room_b.", "room_a",
     [(0, "negated_step", "the request rules out go2.navigate_to_location here: 'keep the "
       "dog out of room_a'")]),
    ("Walk the dog to room_b; keep it clear of room_a.", "room_a",
     [(0, "negated_step", "the request rules out go2.navigate_to_location here: 'clear of "
       "room_a'")]),
    # ... and is asked nothing by it
    ("Keep the dog out of room_a.", "room_b",
     [(0, "substituted_value", "go2.navigate_to_location: location 'room_b' is not what the "
       "request states"),
      (0, "unrequested_step", "nothing in the request asks for go2.navigate_to_location: it "
       "names neither go2 nor this action, and no value it states goes into it")]),
    # kept out of what is no place: the dog is ruled out, as before
    ("Keep the dog out of it and walk the humanoid to room_b.", "room_b",
     [(0, "excluded_robot", "the request rules out go2: 'keep the dog out'"),
      (0, "substituted_robot", "the request gives 'room b' to g1; g1 has no skill that moves "
       "it to a place, and go2 may not take its place")]),
])
def test_a_robot_kept_out_of_a_place_keeps_out_of_the_place(
        g1_go2: Crew, request_: str, place: str,
        expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(g1_go2, request_, walk(place))) == expected


@pytest.mark.parametrize(("x", "expected"), [
    (2, []),
    (4, [(0, "substituted_value", "tb3.navigate_to: goal (4, 3) is not what the request "
          "states")]),
])
def test_no_further_than_a_point_is_a_bound_not_a_negation(
        sar: Crew, x: int, expected: list[tuple[int | None, str, str]]) -> None:
    """"No further than x 2, y 3" used to rule the point out; "do not drive the rover further
    than x 2, y 3" ruled the rover out."""
    for request_ in ("Send the rover no further than x 2, y 3.",
                     "Do not drive the rover further than x 2, y 3."):
        v = check(sar, request_, plan("dispatch_only", ("tb3", "navigate_to", {"goal": [x, 3]})))
        assert found(v) == expected, request_


def test_any_robot_but_one_rules_that_one_out(sar: Crew) -> None:
    """The rover's drive was accepted (as with "except", what follows is ruled out with it)."""
    assert found(check(sar, "Send any robot but the rover to x 2, y 3.", GO_23)) == [
        (0, "excluded_robot", "the request rules out tb3 here: 'any robot but the rover'"),
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'any robot but the "
         "rover to x 2, y 3'")]


@pytest.mark.parametrize(("request_", "expected"), [
    ("Send nothing to x 2, y 3.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'send nothing to x 2, "
       "y 3'")]),
    ("None of the robots should drive to x 2, y 3.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'none of the robots "
       "should drive to x 2, y 3'")]),
    # nothing else, nothing more, nothing to carry: no negation
    ("Drive the rover to x 2, y 3 and do nothing else.", []),
    ("Drive the rover to x 2, y 3, nothing more.", []),
    ("Send nothing to x 4, y 4; drive the rover to x 2, y 3.", []),
])
def test_nothing_sent_somewhere_goes_there(
        sar: Crew, request_: str, expected: list[tuple[int | None, str, str]]) -> None:
    """The first two drives were accepted: "nothing" and "none" negated nothing."""
    assert found(check(sar, request_, GO_23)) == expected


@pytest.mark.parametrize(("request_", "expected"), [
    # a place or point said to be a hazard is kept away from
    ("x 2, y 3 is blocked.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'x 2, y 3 is "
       "blocked'")]),
    ("The point x 2, y 3 is unsafe.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'the point x 2, y 3 is "
       "unsafe'")]),
    ("x 2, y 3 is dangerous; keep everything away.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'x 2, y 3 is "
       "dangerous'")]),
    ("x 2, y 3 is a hazard; send nothing there.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'x 2, y 3 is a "
       "hazard'")]),
    # a verb with nothing for its object is not asked
    ("About x 2, y 3: send nothing there.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'send nothing'")]),
    # another point's hazard leaves this one asked (the first was refused for a dropped
    # request: the hazard's point read as stated)
    ("x 5, y 5 is blocked; drive the rover to x 2, y 3.", []),
    ("Drive the rover to x 2, y 3; x 5, y 5 is dangerous.", []),
    ("Send nothing but the rover to x 2, y 3.", []),
    ("Drive the rover to x 2, y 3 if it is safe.", []),
])
def test_a_hazard_is_kept_away_from_and_nothing_sent_is_no_send(
        sar: Crew, request_: str, expected: list[tuple[int | None, str, str]]) -> None:
    """The first five drives were accepted."""
    assert found(check(sar, request_, GO_23)) == expected


@pytest.mark.parametrize(("request_", "expected"), [
    # each of these drove the rover
    ("It would be a mistake to drive the rover to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3 here: 'a mistake to drive the rover'"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'a mistake to drive the "
       "rover to x 2, y 3'")]),
    ("Driving the rover to x 2, y 3 would be a mistake.",
     [(0, "excluded_robot", "the request rules out tb3 here: 'driving the rover to x 2, y 3 "
       "would be a mistake'"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'driving the rover to x "
       "2, y 3 would be a mistake'")]),
    ("I forbid you to drive the rover to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3 here: 'forbid you to drive the rover'"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'forbid you to drive "
       "the rover to x 2, y 3'")]),
    ("I'd rather you didn't drive the rover to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3 here: \"rather you didn't drive the "
       "rover\""),
      (0, "negated_step", "the request rules out tb3.navigate_to here: \"rather you didn't "
       "drive the rover to x 2, y 3\"")]),
    # "didn't" as "did not" (each drove)
    ("I'd rather the rover didn't go to x 2, y 3.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: \"didn't go to x 2, y "
       "3\"")]),
    ("The rover didn't go to x 2, y 3.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: \"didn't go to x 2, y "
       "3\"")]),
    ("The drone didn't find anyone; drive the rover to x 2, y 3.", []),
    ("Negative on the rover move to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3 here: 'negative on the rover'"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'negative on the rover "
       "move to x 2, y 3'")]),
    # what the rover is kept from, not the rover
    ("Prevent the rover from reaching x 2, y 3.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'prevent the rover from "
       "reaching x 2, y 3'")]),
    ("Prevent the rover from reaching x 5, y 5; drive it to x 2, y 3.", []),
    # "don't just" asks more (refused as an unclear negation)
    ("Don't just stand there, drive the rover to x 2, y 3.", []),
])
def test_what_is_called_a_mistake_forbidden_or_prevented_is_ruled_out(
        sar: Crew, request_: str, expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == expected


@pytest.mark.parametrize(("request_", "expected"), [
    # an "if" after a word of wanting says what is wanted: each drove the rover
    ("It would be better if the rover did not go to x 2, y 3.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'not go to x 2, y 3'")]),
    ("I'd prefer it if the rover didn't drive to x 2, y 3.",
     [(0, "negated_step", "the request rules out tb3.navigate_to here: \"didn't drive to x 2, "
       "y 3\"")]),
    ("I would appreciate it if the rover did not move.",
     [(0, "substituted_value", "tb3.navigate_to: goal (2, 3) is not what the request states"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'not move'")]),
    ("It would be best if the rover stayed put.",
     [(0, "substituted_value", "tb3.navigate_to: goal (2, 3) is not what the request states"),
      (0, "excluded_robot", "the request rules out tb3: 'rover stayed'")]),
    ("It would be great if the rover drove to x 2, y 3.", []),
    # a condition, what is allowed, and what happened rule nothing out
    ("If the rover does not find anyone, drive it to x 2, y 3.", []),
    ("It's fine if the rover doesn't go to x 2, y 3.", []),
    ("The rover stayed at x 2, y 3 last time; drive the rover to x 2, y 3.", []),
])
def test_an_if_that_says_what_is_wanted_is_no_condition(
        sar: Crew, request_: str, expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == expected


@pytest.mark.parametrize("request_", [
    # the drone addressed, or what is done said to be done with it or by air: each drove the
    # rover (a verb with no robot before it in its part was asked of whoever has the skill)
    "Drone: go to x 2, y 3.", "Hey drone: go to x 2, y 3.", "Go to x 2, y 3, drone.",
    "Go to x 2, y 3 with the drone.", "Go to x 2, y 3 by air.",
])
def test_a_verb_said_to_or_with_a_robot_is_that_robots(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == [
        (0, "substituted_robot", "the request asks iris to 'go'; iris has no such skill, and "
         "tb3 may not take its place")]


@pytest.mark.parametrize("request_", ["Fly to x 2, y 3.", "Get eyes on x 2, y 3 from above."])
def test_a_point_said_to_be_reached_by_air_is_the_air_robots(sar: Crew, request_: str) -> None:
    said = request_.rstrip(".")
    assert found(check(sar, request_, GO_23)) == [
        (0, "substituted_robot", f"the request gives the point (2, 3) to iris ({said!r}); iris "
         "has no skill that moves it to a place, and tb3 may not take its place")]


def test_a_verb_said_to_a_robot_without_the_skill_is_refused_for_another(g1_go2: Crew) -> None:
    """"Humanoid: walk to room_b." walked the dog."""
    walk_b = plan("navigation_only", ("go2", "navigate_to_location", {"location": "room_b"}))
    assert found(check(g1_go2, "Humanoid: walk to room_b.", walk_b)) == [
        (0, "substituted_robot", "the request asks g1 to 'walk'; g1 has no such skill, and go2 "
         "may not take its place")]
    assert found(check(g1_go2, "Dog: walk to room_b.", walk_b)) == []


@pytest.mark.parametrize("request_", [
    "Rover: go to x 2, y 3.", "Go to x 2, y 3, rover.", "Go to x 2, y 3 with the rover.",
    # (the drone named in the middle of the clause: not what the drive is done with)
    "Drive to x 2, y 3 with the drone overhead.",
])
def test_a_verb_said_to_the_robot_that_does_it_is_asked(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


@pytest.mark.parametrize(("request_", "said"), [
    # each took off to 6 m (the value, read as stated, licensed it; a 4 m takeoff was refused
    # as a substitution)
    ("Take off, but not to 6 m, search x 0 to 5, y 0 to 5 and land.", "not to 6 m"),
    ("Take off to any altitude except 6 m, search x 0 to 5, y 0 to 5 and land.", "except 6 m"),
    ("Take off to any altitude but 6 m, search x 0 to 5, y 0 to 5 and land.",
     "any altitude but 6 m"),
    ("Avoid 6 m: take off, search x 0 to 5, y 0 to 5 and land.", "avoid 6 m"),
    ("Take off to an altitude other than 6 m, search x 0 to 5, y 0 to 5 and land.",
     "other than 6 m"),
    ("Take off to 4 m, not 6 m, search x 0 to 5, y 0 to 5 and land.", "not 6 m"),
    ("Don't take off to 6 m, search x 0 to 5, y 0 to 5 and land.", "don't take off to 6 m"),
    # said too high, or answered no
    ("Take off, search x 0 to 5, y 0 to 5 and land; 6 m is too high.", "6 m is too high"),
    ("6 m? No way. Take off, search x 0 to 5, y 0 to 5 and land.", "6 m? no way"),
    ("Take off to 6 m? No. Search x 0 to 5, y 0 to 5 and land.", "6 m? no"),
])
def test_a_value_ruled_out_is_no_value_stated(sar: Crew, request_: str, said: str) -> None:
    six, four = (plan("search_only", ("iris", "takeoff", {"altitude": a}),
                      ("iris", "search_target", ZONE), LAND) for a in (6, 4))
    assert found(check(sar, request_, six)) == [
        (0, "negated_step", f"the request rules out iris.takeoff here: {said!r}")]
    assert found(check(sar, request_, four)) == []


def test_a_point_fallen_short_of_is_not_where_to_go(sar: Crew) -> None:
    """(The drive to the point itself was accepted.)"""
    assert found(check(sar, "Drive the rover 1 m short of x 2, y 3.", GO_23)) == [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'short of x 2, y 3'")]


@pytest.mark.parametrize(("request_", "cue"), [
    # (each drove the rover)
    ("Drive the rover to x 2, y 3; that's too far.", "that's too far"),
    ("Drive the rover to x 2, y 3 \u2014 that would be a mistake.", "that would be a mistake"),
])
def test_what_was_asked_said_to_be_wrong_is_taken_back(sar: Crew, request_: str,
                                                        cue: str) -> None:
    assert found(check(sar, request_, GO_23)) == [
        (None, "retracted_request", f"the request takes back what it asked ({cue!r}): no step "
         "may run")]


def test_a_robot_answered_no_way_is_ruled_out(sar: Crew) -> None:
    assert found(check(sar, "The rover? No way. Land the drone.",
                       plan("abort", ("tb3", "stop", {})))) == [
        (None, "dropped_request", "the request asks to 'land' (iris.land); no step does"),
        (0, "excluded_robot", "the request rules out tb3: 'rover? no way'")]


def test_whoever_is_not_the_robot_rules_it_out(sar: Crew) -> None:
    assert found(check(sar, "Whoever isn't the rover goes to x 2, y 3.", GO_23)) == [
        (0, "excluded_robot", "the request rules out tb3 here: \"whoever isn't the rover\""),
        (0, "negated_step", "the request rules out tb3.navigate_to here: \"whoever isn't the "
         "rover goes to x 2, y 3\"")]


@pytest.mark.parametrize(("request_", "expected"), [
    # each drove the rover
    ("It is forbidden to drive the rover to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3 here: 'forbidden to drive the rover'"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'forbidden to drive the "
       "rover to x 2, y 3'")]),
    ("It's prohibited to drive the rover to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3 here: 'prohibited to drive the rover'"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'prohibited to drive "
       "the rover to x 2, y 3'")]),
    ("Driving the rover to x 2, y 3 is a no-go.",
     [(0, "excluded_robot", "the request rules out tb3 here: 'driving the rover to x 2, y 3 is "
       "a no-go'"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'driving the rover to x "
       "2, y 3 is a no-go'")]),
    ("Rover to x 2, y 3 is a no.",
     [(0, "excluded_robot", "the request rules out tb3 here: 'rover to x 2, y 3 is a no'"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'rover to x 2, y 3 is a "
       "no'")]),
    ("I'd hate for the rover to drive to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3 here: 'hate for the rover'"),
      (0, "negated_step", "the request rules out tb3.navigate_to here: 'hate for the rover to "
       "drive to x 2, y 3'")]),
    # what is said of another point, and a polite opening, rule nothing out
    ("Drive the rover to x 2, y 3; x 5, y 5 is a no.", []),
    ("I hate to ask, but drive the rover to x 2, y 3.", []),
])
def test_what_is_forbidden_or_a_no_is_ruled_out(
        sar: Crew, request_: str, expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == expected


@pytest.mark.parametrize(("request_", "expected"), [
    # a word spelled out letter by letter reads as the word: each drove the rover
    ("D o n ' t drive the rover to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3 here: \"don't drive the rover\""),
      (0, "negated_step", "the request rules out tb3.navigate_to here: \"don't drive the rover "
       "to x 2, y 3\"")]),
    ("D.o.n.t. drive the rover to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3 here: \"don't drive the rover\""),
      (0, "negated_step", "the request rules out tb3.navigate_to here: \"don't drive the rover "
       "to x 2, y 3\"")]),
    ("N-O-T the rover. Drive it to x 2, y 3.",
     [(0, "excluded_robot", "the request rules out tb3: 'not the rover'")]),
    ("Drive the rover to x 2, y 3. N e v e r m i n d.",
     [(None, "retracted_request", "the request takes back what it asked ('nevermind'): no "
       "step may run")]),
    ("Drive the r o v e r to x 2, y 3.", []),
])
def test_a_word_spelled_out_letter_by_letter_reads_as_the_word(
        sar: Crew, request_: str, expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == expected


@pytest.mark.parametrize(("place", "expected"), [
    ("room_a", [(0, "negated_step", "the request rules out go2.navigate_to_location here: "
                "'room_a is a no-go zone'")]),
    # the dog's walk elsewhere was refused: "no" read as negating "go", the dog's walk
    ("room_b", []),
])
def test_a_no_go_zone_rules_out_the_place_not_going(
        g1_go2: Crew, place: str, expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(g1_go2, "Room_a is a no-go zone; walk the dog to room_b.",
                       walk(place))) == expected


ABORT_BOTH = plan("abort", ("iris", "land", {}), ("tb3", "stop", {}))


@pytest.mark.parametrize("request_", [
    "Abort the mission.", "Abort!", "Call off the mission.", "Stop the mission.", "Stand down.",
    "Kill the mission."])
def test_a_workflow_alias_asks_for_the_workflows_steps(sar: Crew, request_: str) -> None:
    """Each refused the abort plan (unrequested_step twice: the request names no robot nor
    action of its own); the abort workflow's aliases ask for its steps."""
    assert found(check(sar, request_, ABORT_BOTH)) == []


def test_an_action_aborted_is_ruled_out(sar: Crew) -> None:
    """"Abort the drive to x 2, y 3." drove the rover; the abort itself is asked (the stop)."""
    assert found(check(sar, "Abort the drive to x 2, y 3.", GO_23)) == [
        (None, "dropped_request", "the request asks to 'abort' (iris.land, tb3.stop); no step "
         "does"),
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'abort the drive to x "
         "2, y 3'")]
    assert found(check(sar, "Abort the drive to x 2, y 3.",
                       plan("abort", ("tb3", "stop", {})))) == []


def test_a_workflow_alias_said_of_a_robot_asks_that_robots_step_only(sar: Crew) -> None:
    assert found(check(sar, "Abort the drone.", ABORT_BOTH)) == [
        (1, "unrequested_step", "nothing in the request asks for tb3.stop: it names neither "
         "tb3 nor this action, and no value it states goes into it")]
    assert found(check(sar, "Abort the drone.", plan("abort", ("tb3", "stop", {})))) == [
        (None, "dropped_request", "the request asks to 'abort' (iris.land); no step does"),
        (0, "unrequested_step", "nothing in the request asks for tb3.stop: it names neither "
         "tb3 nor this action, and no value it states goes into it")]
    assert found(check(sar, "Don't abort the mission.", ABORT_BOTH)) == [
        (0, "negated_step", "the request rules out iris.land here: \"don't abort\""),
        (1, "negated_step", "the request rules out tb3.stop here: \"don't abort\"")]


@pytest.mark.parametrize("request_", [
    "Land the drone; the rover keeps going.",
    "Land the drone, the rover can carry on.",
    "Land the drone but let the rover continue.",
    "Land the drone and let the rover be.",
])
def test_a_robot_that_goes_on_as_it_is_is_not_stopped(sar: Crew, request_: str) -> None:
    """Each accepted the rover's stop (the rover named with no action of its own)."""
    p = plan("abort", ("iris", "land", {}), ("tb3", "stop", {}))
    assert [(i, c) for i, c, _ in found(check(sar, request_, p))] == [(1, "excluded_robot")]
    assert found(check(sar, request_, plan("abort", ("iris", "land", {})))) == []


def test_a_final_stay_cue_is_no_stay_inside_its_clause(sar: Crew) -> None:
    """"continues" and "be" rule a robot out only where they end the clause."""
    p = plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", {
        "x_min": 0, "x_max": 5, "y_min": 0, "y_max": 5}), LAND)
    assert found(check(sar, "The drone continues searching x 0 to 5, y 0 to 5, then lands.",
                       p)) == []


@pytest.mark.parametrize(("request_", "first"), [
    ("Land the drone followed by stopping the rover.", "iris.land"),
    ("Stop the rover, followed by landing the drone.", "tb3.stop"),
])
def test_followed_by_orders_as_before_does(sar: Crew, request_: str, first: str) -> None:
    """The stop first was accepted for the first request."""
    land_first = plan("abort", ("iris", "land", {}), ("tb3", "stop", {}))
    stop_first = plan("abort", ("tb3", "stop", {}), ("iris", "land", {}))
    right, wrong = (land_first, stop_first) if first == "iris.land" else (stop_first,
                                                                          land_first)
    assert found(check(sar, request_, right)) == []
    assert [c for _, c, _ in found(check(sar, request_, wrong))] == ["out_of_order"]


def test_not_only_asks_for_both(sar: Crew) -> None:
    """The rover's stop was refused: "only land the drone" read as the drone's landing alone."""
    p = plan("abort", ("iris", "land", {}), ("tb3", "stop", {}))
    assert found(check(sar, "Not only land the drone but also stop the rover.", p)) == []


def test_send_nothing_else_rules_out_the_send(sar: Crew) -> None:
    """The rover's drive was accepted: "send" was read as asked, "nothing else" as nothing."""
    p = plan("search_and_dispatch", ("iris", "takeoff", {}), ("iris", "search_target", {
        "x_min": 0, "x_max": 5, "y_min": 0, "y_max": 5}), ("tb3", "navigate_to", {
            "target": "victim"}), LAND)
    assert found(check(sar, "Search x 0 to 5, y 0 to 5 and land; send nothing else.", p)) == [
        (2, "negated_step", "the request rules out tb3.navigate_to here: 'send nothing'")]


@pytest.mark.parametrize(("request_", "expected"), [
    ("Drive the rover to x 2, y 3. Actually, quickly.", []),  # names nothing: no correction
    ("Drive the rover to x 2, y 3, actually.", []),
    ("Actually, drive the rover to x 2, y 3.", []),
    # ... and it is passed over for the cue before it
    ("Drive the rover to x 2, y 3. Never mind. Actually, quickly.",
     [(None, "retracted_request", "the request takes back what it asked ('never mind'): "
       "no step may run")]),
])
def test_actually_before_nothing_named_takes_nothing_back(
        sar: Crew, request_: str, expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == expected


@pytest.mark.parametrize(("request_", "p", "expected"), [
    # a point in, or a zone over, a zone kept away from: both were accepted
    ("Search x 0 to 10, y 0 to 10 but avoid x 0 to 2, y 0 to 2. Land.",
     plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", {
         "x_min": 0, "x_max": 10, "y_min": 0, "y_max": 10}), LAND),
     [(1, "negated_step", "the request rules out iris.search_target here: 'avoid x 0 to 2, "
       "y 0 to 2'")]),
    # a zone left out of a search is not searched over either (it was)
    ("Search x 0 to 10, y 0 to 10 except x 0 to 2, y 0 to 2. Land.",
     plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", {
         "x_min": 0, "x_max": 10, "y_min": 0, "y_max": 10}), LAND),
     [(1, "negated_step", "the request rules out iris.search_target here: 'except x 0 to 2, "
       "y 0 to 2'")]),
    # ... nor a zone said to be a hazard (the search over it was accepted)
    ("Search x 0 to 10, y 0 to 10 and land; x 1 to 2, y 1 to 2 is off limits.",
     plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", {
         "x_min": 0, "x_max": 10, "y_min": 0, "y_max": 10}), LAND),
     [(1, "negated_step", "the request rules out iris.search_target here: 'x 1 to 2, y 1 to 2 "
       "is off limits'")]),
    ("X 0 to 5, y 0 to 5 is flooded. Drive the rover to x 2, y 3.", GO_23,
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'x 0 to 5, y 0 to 5 "
       "is flooded'")]),
    # a zone replaced is only itself: the one that replaces it, over it, is asked
    ("Search x 0 to 10, y 0 to 10 instead of x 0 to 5, y 0 to 5. Land.",
     plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", {
         "x_min": 0, "x_max": 10, "y_min": 0, "y_max": 10}), LAND), []),
    ("Avoid x 0 to 5, y 0 to 5. Drive the rover to x 2, y 3.", GO_23,
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'avoid x 0 to 5, y 0 "
       "to 5'")]),
    # a zone beside it, sharing an edge, is not over it
    ("Do not search x 0 to 5, y 0 to 5; search x 5 to 10, y 0 to 5 and land.",
     plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", {
         "x_min": 5, "x_max": 10, "y_min": 0, "y_max": 5}), LAND), []),
    # a zone taken back is only itself: the corrected one over it is asked
    ("Search x 0 to 5, y 0 to 5... no wait, x 0 to 10, y 0 to 10. Land.",
     plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", {
         "x_min": 0, "x_max": 10, "y_min": 0, "y_max": 10}), LAND), []),
])
def test_a_zone_kept_away_from_holds_for_points_in_it_and_zones_over_it(
        sar: Crew, request_: str, p: dict[str, Any],
        expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, p)) == expected


@pytest.mark.parametrize(("request_", "said"), [
    ("Send the rover, sorry, the drone, to x 2, y 3.", "rover, sorry"),
    ("Send the rover \u2014 I mean the drone \u2014 to x 2, y 3.", "rover \u2014 i mean"),
])
def test_a_robot_corrected_to_another_is_ruled_out(sar: Crew, request_: str, said: str) -> None:
    """(The rover drove.)"""
    assert found(check(sar, request_, GO_23)) == [
        (0, "excluded_robot", f"the request rules out tb3: {said!r}")]


def test_a_bare_no_ending_the_request_takes_it_back_but_one_said_of_a_robot_rules_it_out(
        sar: Crew) -> None:
    """A "no" or a "not!" set off at the end takes all back (each drove); "the rover, no"
    is said of the rover (the search and landing stand)."""
    for request_ in ("Drive the rover to x 2, y 3, no.",
                     "Drive the rover to x 2, y 3 \u2014 NOT!",
                     "Drive the rover to x 2, y 3 (not!).",
                     "Drive the rover to x 2, y 3 \u2014 or not.",
                     "Drive the rover to x 2, y 3 (not really).",
                     "Drive the rover to x 2, y 3, not really.",
                     "Drive the rover to x 2, y 3 NOT",
                     "Drive the rover to x 2, y 3 (kidding)",
                     "Drive the rover to x 2, y 3 /s",
                     "Drive the rover to x 2, y 3 \u2014 said no one.",
                     # (each drove: a no right after a value, glued to its label or not, or
                     # after a colon; "never"; a sign written for no)
                     "drive rover x2 y3 NOT", "Drive the rover to x 2, y 3 no",
                     "Rover to x 2, y 3: no", "Drive the rover to x 2, y 3 never.",
                     "Drive the rover to x 2, y 3, never.", "Rover to x 2, y 3: \u274c",
                     "Rover \u2192 x 2, y 3? \u2717", "Drive the rover to x 2, y 3 \U0001f44e"):
        assert codes(check(sar, request_, GO_23)) == [(None, "retracted_request")], request_
    assert codes(check(sar, "Search x 0 to 5, y 0 to 5 and land; the rover, no.",
                       plan("search_only", *SEARCH, LAND))) == []
    # "no kidding" before what is asked, and a speed's "/s", take nothing back (the speed is
    # one no skill of the crew takes)
    assert codes(check(sar, "No kidding, drive the rover to x 2, y 3.", GO_23)) == []
    assert codes(check(sar, "Drive the rover to x 2, y 3 at 0.5 m/s", GO_23)) == [
        (None, "dropped_request")]


@pytest.mark.parametrize("request_", [
    "Send the rover to x 2, y 3. Oops, wrong robot.",
    "Send the rover to x 2, y 3. Not that one.",
    "Send the rover to x 2, y 3. No, the other one.",
    "Send the rover to x 2, y 3. I meant the other robot.",
])
def test_a_robot_said_to_be_the_wrong_one_takes_the_request_back(sar: Crew,
                                                                  request_: str) -> None:
    """Which robot is right goes unsaid: nothing runs (the rover drove)."""
    assert codes(check(sar, request_, GO_23)) == [(None, "retracted_request")]


def test_a_bare_no_before_a_new_request_corrects_what_came_before(sar: Crew) -> None:
    request_ = "Drive the rover to x 2, y 3. No. Drive it to x 4, y 3."
    assert found(check(sar, request_, plan("dispatch_only", ("tb3", "navigate_to", {
        "goal": [4.0, 3.0]})))) == []
    assert found(check(sar, request_, GO_23)) == [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'drive the rover to x "
         "2, y 3. no'")]


ABORT_STOP_FIRST = plan("abort", ("tb3", "stop", {}), ("iris", "land", {}))
ABORT_LAND_FIRST = plan("abort", ("iris", "land", {}), ("tb3", "stop", {}))


@pytest.mark.parametrize(("request_", "said"), [
    ("Land the drone first, then stop the rover.", "land the drone first, then stop"),
    ("Land the drone. Afterwards, stop the rover.", "land the drone. afterwards, stop"),
    # "before" and "after", with an action or a gerund right after them
    ("Land the drone before you stop the rover.", "land the drone before you stop"),
    ("Stop the rover after landing the drone.", "stop the rover after landing"),
    ("Before stopping the rover, land the drone.", "stopping the rover, land"),
    # the actions of a clause said to be in order
    ("Land the drone and stop the rover, in that order.", "land the drone and stop"),
    ("Land the drone, stop the rover, one after the other.", "land the drone, stop"),
])
def test_actions_asked_one_after_the_other_are_done_in_that_order(sar: Crew, request_: str,
                                                                  said: str) -> None:
    """The rover's stop before the landing was accepted: the request's order was not read."""
    assert found(check(sar, request_, ABORT_STOP_FIRST)) == [
        (None, "out_of_order", f"the request asks for iris.land before tb3.stop ({said!r}); "
         "the plan does tb3.stop first")]
    assert found(check(sar, request_, ABORT_LAND_FIRST)) == []


@pytest.mark.parametrize("request_", [
    "Stop the rover and land the drone.",
    "Stop the rover and land the drone before dark.",  # no action after "before"
])
def test_actions_asked_together_are_done_in_any_order(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, ABORT_LAND_FIRST)) == []
    assert found(check(sar, request_, ABORT_STOP_FIRST)) == []


def test_a_question_answered_no_asks_nothing_and_its_place_is_ruled_out(g1_go2: Crew) -> None:
    """The walk to room_b used to be refused (room_a was owed)."""
    request_ = "Room_a? No. Walk the dog to room_b."
    assert found(check(g1_go2, request_, walk("room_b"))) == []
    assert found(check(g1_go2, request_, walk("room_a"))) == [
        (0, "substituted_value", "go2.navigate_to_location: location 'room_a' is not what the "
         "request states"),
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'room_a? "
         "no'")]


def test_a_point_taken_back_is_not_gone_to_nor_owed(sar: Crew) -> None:
    """"No wait, x 4, y 3" asks for (4, 3): it used to take the whole request back."""
    request_ = "Drive the rover to x 2, y 3. No wait, x 4, y 3."
    def drive(x: int) -> dict[str, Any]:
        return plan("dispatch_only", ("tb3", "navigate_to", {"goal": {"x": x, "y": 3}}))
    assert found(check(sar, request_, drive(2))) == [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'drive the rover to x "
         "2, y 3. no wait'")]
    assert found(check(sar, request_, drive(4))) == []


def _climb(altitude: float) -> dict[str, Any]:
    return plan("search_only", ("iris", "takeoff", {"altitude": altitude}),
                ("iris", "search_target", {**ZONE, "altitude": altitude}), LAND)


@pytest.mark.parametrize(("stated", "altitude", "expected"), [
    # a quantity in another unit is held to the parameter in the parameter's unit: "10 feet"
    # used to let the drone climb to 10 m (the number was stated, its unit never read)
    ("10 feet", 10, [(0, "substituted_value", "the request states '10 feet' for iris.takeoff "
                      "altitude; the plan gives 10")]),
    ("10 feet", 3.048, []),
    ("ten feet", 10, [(0, "substituted_value", "the request states 'ten feet' for iris.takeoff "
                       "altitude; the plan gives 10")]),
    ("10ft", 3.048, []),
    ("300 cm", 3, []),
    ("4000 mm", 4, []),
    ("5 yards", 5, [(0, "substituted_value", "the request states '5 yards' for iris.takeoff "
                     "altitude; the plan gives 5")]),
    # a half, in words or after digits: the default used to be accepted
    ("one and a half metres", 3, [(0, "substituted_value", "the request states 'one and a half "
                                   "metres' for iris.takeoff altitude; the plan gives 3")]),
    ("2 and a half m", 2.5, []),
    ("half a metre", 3, [(None, "out_of_range", "the request states 'half a metre' (for "
                          "iris.takeoff altitude), outside what it takes: [1, 10]")]),
    # decimetres, inches and miles are lengths too ("50 dm" was read as 50, out of range)
    ("50 dm", 5, []),
    ("40 dm", 5, [(0, "substituted_value", "the request states '40 dm' for iris.takeoff "
                   "altitude; the plan gives 5")]),
    ("120 inches", 3.048, []),
    ("120 inches", 3, [(0, "substituted_value", "the request states '120 inches' for "
                        "iris.takeoff altitude; the plan gives 3")]),
    # the value that arithmetic around a quantity makes (the quantity alone was taken: "twice
    # 2 m" let the drone climb to 2 m)
    ("twice 2 m", 4, []),
    ("twice 2 m", 2, [(0, "substituted_value", "the request states 'twice 2 m' for "
                       "iris.takeoff altitude; the plan gives 2")]),
    ("5 m plus 1", 6, []),
    ("5 m plus 1", 5, [(0, "substituted_value", "the request states '5 m plus 1' for "
                        "iris.takeoff altitude; the plan gives 5")]),
    ("6 m minus 50 cm", 5.5, []),
    ("4 m + 1 m", 5, []),
    ("2 m times 2", 4, []),
    ("3 times 2 m", 6, []),
    ("half of 8 m", 4, []),
    # a number in words said as a measure's, without a unit, as one in digits (any altitude
    # was accepted)
    ("an altitude of four", 4, []),
    ("an altitude of four", 5, [(0, "substituted_value", "the request states 'altitude of four' "
                                "for iris.takeoff altitude; the plan gives 5")]),
])
def test_a_quantity_in_another_unit_is_held_in_the_parameters(
        sar: Crew, stated: str, altitude: float,
        expected: list[tuple[int, str, str]]) -> None:
    v = check(sar, f"Take off to {stated}, search x 0 to 5, y 0 to 5 and land.",
              _climb(altitude))
    assert found(v) == expected


def test_a_negative_quantity_is_said_with_its_sign_and_a_range_dash_is_no_sign(sar: Crew) -> None:
    """"-2 m" is refused naming '-2 m' (it named '2 m', which the range takes); "5-6 m" states
    6 m, not -6 m (it was refused as '6 m' outside [1, 10])."""
    assert found(check(sar, "Take off to -2 m, search x 0 to 5, y 0 to 5 and land.",
                       _climb(2))) == [
        (None, "out_of_range", "the request states '-2 m' (for iris.takeoff altitude), outside "
         "what it takes: [1, 10]")]
    assert found(check(sar, "Take off to 5-6 m, search x 0 to 5, y 0 to 5 and land.",
                       _climb(6))) == []


@pytest.mark.parametrize(("request_", "said"), [
    ("All robots except the drone stay; search x 0 to 5, y 0 to 5.",
     "all robots except the drone stay"),
    ("Everyone except the drone stays put: search x 0 to 5, y 0 to 5.",
     "everyone except the drone stays"),
    ("Everybody but the drone stays; search x 0 to 5, y 0 to 5.",
     "everybody but the drone stays"),
])
def test_the_exception_to_a_whole_that_stays_acts(sar: Crew, request_: str, said: str) -> None:
    """The drone acts and every other robot stays: the exception used to rule the drone out
    (or take the whole request back) and leave the rover's dispatch accepted."""
    assert found(check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH))) == [
        (2, "excluded_robot", f"the request rules out tb3: {said!r}")]
    assert found(check(sar, request_, plan("search_only", *SEARCH, LAND))) == []


def test_stop_before_a_gerund_rules_the_action_out(sar: Crew) -> None:
    """"Stop searching" rules the search out; its "stop" is not the rover's stop (which the
    request used to owe)."""
    assert found(check(sar, "Take off and land. Stop searching x 0 to 5, y 0 to 5.",
                       SEARCH_ONLY)) == [
        (1, "negated_step", "the request rules out iris.search_target here: 'stop searching'")]
    assert found(check(sar, "Stop the rover and land the drone.",
                       plan("abort", LAND, ("tb3", "stop", {})))) == []


@pytest.mark.parametrize("request_", [
    # a robot the crew does not have where it is a place or a thing, or beside the crew's own
    "Drive the rover to the boat at x 2, y 3.",
    "The boat is at x 2, y 3; send the rover there.",
    "Drive the rover to x 2, y 3 to meet the boat.",
    "Send the rover and the boat to x 2, y 3.",
    "Use the rover, not the boat, to reach x 2, y 3.",
    "No boats: drive the rover to x 2, y 3.",
    # ... or as what a prohibition's action acts on (sending was ruled out: the drive refused)
    "Don't send the boat; drive the rover to x 2, y 3.",
    "Do not send a boat, send the rover to x 2, y 3.",
])
def test_a_robot_the_crew_lacks_named_as_no_actor_takes_nothing_from_the_request(
        sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


def test_what_is_asked_of_a_robot_the_crew_lacks_is_done_by_none_of_its_robots(
        g1_go2: Crew) -> None:
    """The dog walked where the drone was sent; the wave asked besides was refused as a
    dropped request (the walk owed)."""
    request_ = "Wave, and have the drone go to room_a."
    assert found(check(g1_go2, request_, plan("manipulation_only", ("g1", "wave", {})))) == []
    assert found(check(g1_go2, request_, walk("room_a"))) == [
        (None, "dropped_request", "the request asks to 'wave' (g1.wave); no step does"),
        (0, "substituted_value", "go2.navigate_to_location: location 'room_a' is not what the "
         "request states"),
        (0, "unrequested_step", "nothing in the request asks for go2.navigate_to_location now: "
         "it names go2 or this action only where it asks it of a robot the crew does not have "
         "('have the drone go to room_a')")]
    assert found(check(g1_go2, "Fly the drone to room_a.", walk("room_a"))) == [
        (None, "nothing_asked", "the request asks it of a robot the crew does not have ('fly "
         "the drone to room_a') and asks nothing to move now: no step may run (to have the "
         "crew do it, name a robot of the crew (or give the word to one as an alias in the "
         "crew spec))")]


@pytest.mark.parametrize(("request_", "both"), [
    # the rover's stop was accepted: "everything" read as the whole crew addressed
    ("Land the drone; leave everything else as is.",
     [(1, "unrequested_step", "nothing in the request asks for tb3.stop: it names neither tb3 "
       "nor this action, and no value it states goes into it")]),
    ("Land the drone; keep everything else where it is.",
     [(1, "unrequested_step", "nothing in the request asks for tb3.stop: it names neither tb3 "
       "nor this action, and no value it states goes into it")]),
    # the landing alone was refused: "don't move anything" read as taking everything back, and
    # "don't touch anything else" as an unclear negation
    ("Land the drone; don't move anything else.",
     [(1, "unrequested_step", "nothing in the request asks for tb3.stop: it names neither tb3 "
       "nor this action, and no value it states goes into it")]),
    ("Land the drone; don't touch anything else.",
     [(1, "unrequested_step", "nothing in the request asks for tb3.stop: it names neither tb3 "
       "nor this action, and no value it states goes into it")]),
])
def test_everything_else_left_as_it_is_is_not_asked_to_act(
        sar: Crew, request_: str, both: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, plan("abort", ("iris", "land", {})))) == []
    assert found(check(sar, request_, ABORT_LAND_FIRST)) == both


@pytest.mark.parametrize(("request_", "said"), [
    # a part of the way there only
    ("Walk the dog halfway to room_b.", "halfway to room_b"),
    ("Walk the dog part of the way to room_b.", "part of the way to room_b"),
    # a place said as where another is
    ("Walk the dog next to room_b.", "next to room_b"),
    ("Walk the dog to the room beside room_b.", "beside room_b"),
    ("Walk the dog to the spot next to room_b.", "next to room_b"),
    ("Walk the dog in front of room_b.", "in front of room_b"),
    ("Walk the dog behind room_b.", "behind room_b"),
    ("Walk the dog past room_b.", "past room_b"),
    ("Walk the dog beyond room_b.", "beyond room_b"),
    ("Walk the dog across from room_b.", "across from room_b"),
    ("Walk the dog opposite room_b.", "opposite room_b"),
    ("Walk the dog adjacent to room_b.", "adjacent to room_b"),
    ("Walk the dog to the left of room_b.", "left of room_b"),
    ("Walk the dog to the neighbour of room_b.", "neighbour of room_b"),
    ("Walk the dog to room_b's neighbour.", "room_b's neighbour"),
    ("Walk the dog out of room_b.", "out of room_b"),
])
def test_a_place_gone_part_of_the_way_to_or_said_beside_is_not_gone_to(
        g1_go2: Crew, request_: str, said: str) -> None:
    """Each walked the dog to room_b itself: more than, or other than, the request asks."""
    assert found(check(g1_go2, request_, walk("room_b"))) == [
        (0, "negated_step", f"the request rules out go2.navigate_to_location here: {said!r}")]


@pytest.mark.parametrize("request_", [
    "Walk the dog past the charger to room_b.",  # the cue's reach ends at where to go
    "Walk the dog to room_b, next to the charger.",
    "Walk the dog to room_b next to room_a.",
    "Walk the dog out of the charger and into room_b.",
    "Walk the dog close to room_b.",  # going there is going near it
    "Walk the dog towards room_b.",
    "Walk the dog to room_b's door.",
    "I'm in front of the humanoid; walk the dog to room_b.",  # a robot there: not ruled out
])
def test_a_place_said_beside_the_one_gone_to_leaves_it_asked(g1_go2: Crew,
                                                             request_: str) -> None:
    assert found(check(g1_go2, request_, walk("room_b"))) == []


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 5, y 0 to 5 and send the rover halfway to the victim.",
     "halfway to the victim"),
    ("Search x 0 to 5, y 0 to 5 and send the rover past the victim.", "past the victim"),
    ("Search x 0 to 5, y 0 to 5 and drive the rover next to the victim.",
     "next to the victim"),
])
def test_a_binding_gone_part_of_the_way_to_or_said_beside_is_not_gone_to(
        sar: Crew, request_: str, said: str) -> None:
    """A runtime binding named as where another place is: the rover's drive to the victim
    fix itself was accepted."""
    assert found(check(sar, request_, plan("search_and_dispatch", *SEARCH, DISPATCH))) == [
        (2, "negated_step", f"the request rules out tb3.navigate_to here: {said!r}")]
    # ... and one said as where to go, past something else, is still asked
    assert found(check(sar, "Search x 0 to 5, y 0 to 5 and drive the rover past the tree to "
                       "the victim.", plan("search_and_dispatch", *SEARCH, DISPATCH))) == []


def test_a_thing_said_as_where_the_one_asked_is_is_not_taken(g1_go2: Crew) -> None:
    """The cube beside the bottle is asked for, not the bottle."""
    request_ = "Hand me the cube next to the bottle."
    assert found(check(g1_go2, request_, hand("red_cube"))) == []
    assert found(check(g1_go2, request_, hand("bottle"))) == [
        (None, "dropped_request", "the request names 'cube' (red_cube); no step carries it"),
        (0, "negated_step", "the request rules out g1.grab_from_table here: 'next to the "
         "bottle'")]


_NO_WALK = [
    (0, "excluded_robot", "the request rules out go2 here: \"don't walk the dog\""),
    (0, "negated_step", "the request rules out go2.navigate_to_location here: \"don't walk the "
     "dog to room_b\"")]


@pytest.mark.parametrize(("request_", "problems"), [
    # a negation typed without its apostrophe or with another mark in its place (each walked)
    ("Dont walk the dog to room_b.", _NO_WALK),
    # a Cyrillic "o" in a Latin word: it reads as it shows
    ("D\u043en't walk the dog to room_b.", _NO_WALK),
    ("Don;t walk the dog to room_b.", _NO_WALK),
    ("Do n't walk the dog to room_b.", _NO_WALK),
    ("Dnt walk the dog to room_b.", _NO_WALK),
    ("Don\u00b4t walk the dog to room_b.", _NO_WALK),  # an acute accent for the apostrophe
    ("Donot walk the dog to room_b.", [
        (0, "excluded_robot", "the request rules out go2 here: 'do not walk the dog'"),
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'do not walk "
         "the dog to room_b'")]),
    ("The dog shouldnt go to room_b.", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: \"shouldn't "
         "go to room_b\"")]),
    ("The dog cant go to room_b.", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: \"can't go "
         "to room_b\"")]),
    ("The dog shan't go to room_b.", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: \"shan't go "
         "to room_b\"")]),
    ("The dog isnt going to room_b.", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: \"isn't "
         "going to room_b\"")]),
    # a place kept clear
    ("Keep room_b clear.", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'keep room_b "
         "clear'")]),
    # a question answered no by a word that forbids, and a sarcastic retraction
    ("Walk the dog to room_b? Forbidden.", [
        (None, "nothing_asked", "the request asks a question ('walk the dog to room_b') "
         f"{_NOTHING} (to have it done now, ask for it)")]),
    ("Walk the dog to room_b? Hell no.", [
        (None, "nothing_asked", "the request asks a question ('walk the dog to room_b') "
         f"{_NOTHING} (to have it done now, ask for it)")]),
    ("Walk the dog to room_b. Denied.", [
        (None, "retracted_request", "the request takes back what it asked ('denied'): no step "
         "may run")]),
    ("Walk the dog to room_b... said no one ever.", [
        (None, "retracted_request", "the request takes back what it asked ('said no one "
         "ever'): no step may run")]),
])
def test_a_negation_however_typed_rules_the_walk_out(
        g1_go2: Crew, request_: str, problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(g1_go2, request_, walk("room_b"))) == problems


@pytest.mark.parametrize(("request_", "said"), [
    ("Hand the bottle to the dog.", "hand the bottle to the dog"),
    ("Give the water bottle to the robot dog, please.", "give the water bottle to the robot dog"),
    ("Bring the bottle to the quadruped.", "bring the bottle to the quadruped"),
    # "over" after the verb or the thing, and a thing put in or on the robot (each was handed
    # over to the person)
    ("Hand over the bottle to the dog.", "hand over the bottle to the dog"),
    ("Hand the bottle over to the dog.", "hand the bottle over to the dog"),
    ("Put the bottle in the dog's bin.", "put the bottle in the dog"),
])
def test_a_thing_given_to_a_robot_is_not_handed_to_a_person(g1_go2: Crew, request_: str,
                                                           said: str) -> None:
    """The humanoid's hand-over gives to the person at the table: it was accepted for a thing
    the request gives to the dog. Only a step whose effects reach the dog gives it anything
    (the load onto its bin), and no workflow of the crew loads it without a walk."""
    put = [(None, "dropped_request", "the request asks to 'put' (g1.place_on_table); no step "
            "does")] if request_.startswith("Put") else []  # (the putting asked of its own)
    assert found(check(g1_go2, request_, hand("bottle"))) == [
        (None, "dropped_request", f"the request gives something to go2 ({said!r}); no step "
         "gives go2 anything"), *put]
    if " to " in request_:
        assert found(check(g1_go2, request_.replace("the dog", "me").replace(
            "the robot dog", "me").replace("the quadruped", "me"), hand("bottle"))) == []


@pytest.mark.parametrize(("request_", "goal", "problems"), [
    ("Drive the rover past x 2, y 3 to x 5, y 5.", [5.0, 5.0], []),
    ("Drive the rover past x 2, y 3 to x 5, y 5.", [2.0, 3.0],
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'past x 2, y 3'")]),
    ("Drive the rover to a point beyond (2, 3).", [2.0, 3.0],
     [(0, "negated_step", "the request rules out tb3.navigate_to here: 'beyond (2, 3)'")]),
    ("Drive the rover behind the drone to x 2, y 3.", [2.0, 3.0], []),
])
def test_a_point_said_as_where_another_is_is_not_gone_to(
        sar: Crew, request_: str, goal: list[float],
        problems: list[tuple[int | None, str, str]]) -> None:
    p = plan("dispatch_only", ("tb3", "navigate_to", {"goal": goal}))
    assert found(check(sar, request_, p)) == problems


@pytest.mark.parametrize("request_", [
    "The drone is ready; send it to x 2, y 3.",
    "Wake the drone up. Then move it to x 2, y 3.",
])
def test_a_robot_named_again_by_a_pronoun_is_the_one_asked(sar: Crew, request_: str) -> None:
    """"It" after the verb, past a clause's end, is the drone: the rover drove there."""
    [(index, code, detail)] = found(check(sar, request_, GO_23))
    assert (index, code) == (0, "substituted_robot")
    assert detail.startswith("the request gives the point (2, 3) to iris (")
    assert detail.endswith("iris has no skill that moves it to a place, and tb3 may not take "
                           "its place")
    assert found(check(sar, request_.replace("drone", "rover"), GO_23)) == []


@pytest.mark.parametrize(("request_", "said"), [
    # "red block" is the red cube's alias: the carry of the red cube was accepted
    ("Bring the non-red block to room_a.", "non-red block"),
    # "keep" a thing with where it stays ("keep the bottle" alone is holding it)
    ("Bring an object to room_a but keep the bottle here.", "keep the bottle here"),
    ("Bring an object to room_a; keep the red cube where it is.", "keep the red cube where"),
])
def test_a_thing_named_not_to_be_moved_is_not_carried(g1_go2: Crew, request_: str,
                                                      said: str) -> None:
    thing = "bottle" if "bottle" in request_ else "red_cube"
    [problem] = [p for p in found(check(g1_go2, request_, carry(thing, "room_a")))
                 if p[1] == "negated_step"]
    assert problem == (0, "negated_step", "the request rules out g1.grab_from_table here: "
                       f"{said!r}")


HAND_CUBE = plan("handover", ("g1", "grab_from_table", {"object": "red_cube"}),
                 ("g1", "hand_over", {"object": "red_cube"}))


@pytest.mark.parametrize(("request_", "said"), [
    # each handed the red cube over
    ("Hand me the cube that isn't red.", "cube that isn't red"),
    ("Hand me the cube which is not red.", "cube which is not red"),
])
def test_a_thing_denied_a_word_of_its_own_name_is_ruled_out(g1_go2: Crew, request_: str,
                                                            said: str) -> None:
    assert found(check(g1_go2, request_, HAND_CUBE)) == [
        (0, "negated_step", f"the request rules out g1.grab_from_table here: {said!r}"),
        (1, "negated_step", f"the request rules out g1.hand_over here: {said!r}")]


@pytest.mark.parametrize(("request_", "expected"), [
    # each handed the red cube over
    ("Hand the red cube to nobody.",
     [(0, "negated_step", "the request rules out g1.grab_from_table here: 'hand the red cube "
       "to nobody'"),
      (1, "negated_step", "the request rules out g1.hand_over here: 'hand the red cube to "
       "nobody'")]),
    ("Hand me the red cube. Don't do it.",
     [(None, "retracted_request", "the request takes back what it asked (\"don't do it\"): no "
       "step may run")]),
    ("Hand me the red cube. Don't bother.",
     [(None, "retracted_request", "the request takes back what it asked (\"don't bother\"): "
       "no step may run")]),
    ("Hand me the red cube \u2014 but only after I ask.",
     [(None, "nothing_asked", "the request asks for it later ('after i ask') and asks nothing "
       "to move now: no step may run (to have it done now, ask without 'after i ask')")]),
    ("Hand me the red cube once I'm seated.",
     [(None, "nothing_asked", "the request asks for it later (\"once i'm seated\") and asks "
       "nothing to move now: no step may run (to have it done now, ask without \"once i'm "
       "seated\")")]),
])
def test_a_handover_to_no_one_called_off_or_for_later_moves_nothing(
        g1_go2: Crew, request_: str, expected: list[tuple[int | None, str, str]]) -> None:
    assert found(check(g1_go2, request_, HAND_CUBE)) == expected


def test_a_relative_clause_that_denies_a_thing_another_word_rules_nothing_out(
        g1_go2: Crew) -> None:
    assert found(check(g1_go2, "Hand me the cube that is not heavy.", HAND_CUBE)) == []


@pytest.mark.parametrize("request_", [
    "Search the non-flooded area x 0 to 5, y 0 to 5 and land.",
    "Do a non-invasive search of x 0 to 5, y 0 to 5 and land.",
])
def test_non_before_what_is_no_robot_place_or_thing_rules_nothing_out(
        sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, plan("search_only", *SEARCH, LAND))) == []


@pytest.mark.parametrize("request_", [
    # what is found out by acting, or tried, is asked
    "Check whether anyone is in x 0 to 5, y 0 to 5, then land.",
    "See if you can find anyone in x 0 to 5, y 0 to 5, then land.",
])
def test_a_check_that_is_done_by_searching_is_asked(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, plan("search_only", *SEARCH, LAND))) == []


@pytest.mark.parametrize(("request_", "problems"), [
    # a thing put on or in a place is the putting asked (it was a light verb, owing nothing,
    # and the hand-over carrying the stated cube ran)
    ("Put the red cube on the table.", [
        (None, "dropped_request", "the request asks to 'put' (g1.place_on_table); no step does")]),
    ("Put the cube into the bin.", [
        (None, "dropped_request", "the request asks to 'put' (g1.place_on_table); no step does")]),
    # ... not into a person's hands: a hand-over (the holdout suite's request)
    ("G1, please put the red cube in my hand.", []),
    ("Put the cube in my hands, please.", []),
    ("Put the red cube in the palm of my hand.", []),
])
def test_a_thing_put_somewhere_asks_the_putting(
        g1_go2: Crew, request_: str, problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(g1_go2, request_, hand("red_cube"))) == problems


@pytest.mark.parametrize(("request_", "problems"), [
    # a gerund said of "the one" a robot is gives its point to that robot (the rover drove)
    ("The drone should be the one going to x 2, y 3.", [
        (0, "substituted_robot", "the request gives the point (2, 3) to iris ('The drone "
         "should be the one going to x 2, y 3'); iris has no skill that moves it to a place, "
         "and tb3 may not take its place")]),
    ("The one going to x 2, y 3 is the drone.", [
        (0, "substituted_robot", "the request gives the point (2, 3) to iris ('The one going "
         "to x 2, y 3 is the drone'); iris has no skill that moves it to a place, and tb3 may "
         "not take its place")]),
    ("The rover should be the one going to x 2, y 3.", []),
    ("Send the rover to x 2, y 3 after going over its checklist.", []),
])
def test_the_one_a_robot_is_said_to_be_does_what_follows(
        sar: Crew, request_: str, problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == problems


@pytest.mark.parametrize(("request_", "problems"), [
    # the robot addressed as the "you" a negation rules out (each walked the dog)
    ("Walk to room_b, but not you, dog.", [
        (0, "excluded_robot", "the request rules out go2: 'not you, dog'")]),
    ("Not you, dog: walk to room_b.", [
        (0, "excluded_robot", "the request rules out go2: 'not you, dog'")]),
    ("Everyone walk to room_b, except you, dog.", [
        (0, "excluded_robot", "the request rules out go2: 'except you, dog'")]),
    ("Dog, not you: walk to room_b.", [
        (0, "excluded_robot", "the request rules out go2: 'dog, not you'")]),
    # controls: the dog addressed alone, or said instead of "you"
    ("Walk to room_b, dog.", []),
    ("Humanoid, not you, the dog: walk to room_b.", []),
])
def test_a_robot_addressed_as_the_you_ruled_out_takes_no_step(
        g1_go2: Crew, request_: str, problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(g1_go2, request_, walk("room_b"))) == problems


@pytest.mark.parametrize(("request_", "cue"), [
    # a bare prohibition after "or" leaves nothing asked (each handed the cube over)
    ("Hand me the red cube, or actually don't bother.", "don't bother"),
    ("Hand me the red cube, or don't.", "don't"),
    ("Hand me the red cube or don't.", "don't"),
])
def test_a_request_left_open_by_or_and_a_prohibition_is_taken_back(
        g1_go2: Crew, request_: str, cue: str) -> None:
    assert found(check(g1_go2, request_, hand("red_cube"))) == [
        (None, "retracted_request", f"the request takes back what it asked ({cue!r}): no step "
         "may run")]
    assert found(check(g1_go2, "Hand me the red cube or don't hand me anything.",
                       hand("red_cube"))) == [
        (1, "negated_step", "the request rules out g1.hand_over here: \"don't hand\"")]


@pytest.mark.parametrize("request_", [
    # polite requests and requests after a check stay asked
    "Would you drive the rover to x 2, y 3",
    "Will you drive the rover to x 2, y 3.",
    "Check that the rover is ok, then drive it to x 2, y 3.",
    "Should it be safe, drive the rover to x 2, y 3.",
    "Would it be possible to drive the rover to x 2, y 3",
    "Will it be ok to drive the rover to x 2, y 3",
    "Would it be safe to drive the rover to x 2, y 3, please",
])
def test_a_polite_request_or_a_check_before_one_still_asks(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


@pytest.mark.parametrize(("request_", "problems"), [
    # take-backs, denials and hazards in words the cue lists lacked (each drove the rover)
    ("Drive the rover to x 2, y 3. Request withdrawn.", [
        (None, "retracted_request", "the request takes back what it asked ('request "
         "withdrawn'): no step may run")]),
    ("Drive the rover to x 2, y 3. Ignore what I just said.", [
        (None, "retracted_request", "the request takes back what it asked ('ignore what i "
         "just said'): no step may run")]),
    ("Drive the rover to x 2, y 3. Better not.", [
        (None, "retracted_request", "the request takes back what it asked ('better not'): no "
         "step may run")]),
    ("Drive the rover to x 2, y 3. Permission denied.", [
        (None, "retracted_request", "the request takes back what it asked ('permission "
         "denied'): no step may run")]),
    ("Drive the rover to x 2, y 3. Pause.", [
        (None, "retracted_request", "the request takes back what it asked ('pause'): no step "
         "may run")]),
    ("Driving the rover to x 2, y 3 is not authorised.", [
        (0, "excluded_robot", "the request rules out tb3 here: 'driving the rover to x 2, y 3 "
         "is not authorised'"),
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'driving the rover to "
         "x 2, y 3 is not authorised'")]),
    ("x 2, y 3 is mined. Drive the rover to x 2, y 3.", [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'x 2, y 3 is mined'")]),
    ("Drive the rover to x 2, y 3; x 2, y 3 is a restricted area.", [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'x 2, y 3 is a "
         "restricted area'")]),
    # controls
    ("The rover is not going anywhere else: drive it to x 2, y 3.", []),
    ("Drive the rover to x 2, y 3. Pause there for a moment before you report.", []),
])
def test_a_take_back_denial_or_hazard_in_other_words_refuses_the_drive(
        sar: Crew, request_: str, problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == problems


@pytest.mark.parametrize(("request_", "said"), [
    ("Walk to room_b; the dog is under repair.", "dog is under repair"),
    ("Walk to room_b; the dog is out of commission.", "dog is out of commission"),
    ("Walk to room_b, the dog is being repaired.", "dog is being repaired"),
])
def test_a_robot_said_unable_in_other_words_takes_no_step(g1_go2: Crew, request_: str,
                                                          said: str) -> None:
    assert found(check(g1_go2, request_, walk("room_b"))) == [
        (0, "excluded_robot", f"the request rules out go2: {said!r}")]


@pytest.mark.parametrize(("crew_name", "request_", "problems"), [
    # a place left is not where to go (each drove the rover or walked the dog there)
    ("sar", "Rover, leave x 2, y 3.", [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'leave x 2, y 3'")]),
    ("sar", "Withdraw the rover from x 2, y 3.", [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'withdraw the rover "
         "from x 2, y 3'")]),
    ("g1_go2", "Evacuate the dog from room_b.", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'evacuate "
         "the dog from room_b'")]),
    ("g1_go2", "Dog, exit room_b.", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'exit "
         "room_b'")]),
    ("g1_go2", "Dog, leave room_b.", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'leave "
         "room_b'")]),
    # controls: where to go after the place left; "leave" keeping what it names
    ("sar", "Withdraw the rover from x 5, y 5 to x 2, y 3.", []),
    ("sar", "Leave x 5, y 5 and drive the rover to x 2, y 3.", []),
    ("g1_go2", "Evacuate the dog from room_a to room_b.", []),
    ("g1_go2", "Leave room_a and walk to room_b.", []),
    # ... and a negated leaving still keeps the robot where it is
    ("g1_go2", "The dog must not leave room_a.", [
        (0, "substituted_value", "go2.navigate_to_location: location 'room_b' is not what the "
         "request states"),
        (0, "excluded_robot", "the request rules out go2: 'dog must not leave'")]),
])
def test_a_place_left_is_not_where_to_go(sar: Crew, g1_go2: Crew, crew_name: str, request_: str,
                                        problems: list[tuple[int | None, str, str]]) -> None:
    crew = sar if crew_name == "sar" else g1_go2
    p = GO_23 if crew_name == "sar" else walk("room_b")
    assert found(check(crew, request_, p)) == problems


@pytest.mark.parametrize(("request_", "problems"), [
    # the robot replaced after the request, or by "replace", "in ...'s place" (each drove the
    # rover)
    ("Drive the rover to x 2, y 3. No, the drone.", [
        (0, "excluded_robot", "the request rules out tb3: 'rover to x 2, y 3. no'")]),
    ("Drive the rover to x 2, y 3. Actually, the drone.", [
        (0, "excluded_robot", "the request rules out tb3: 'rover to x 2, y 3. actually'")]),
    ("Send the rover to x 2, y 3. Make that the drone.", [
        (0, "excluded_robot", "the request rules out tb3: 'rover to x 2, y 3. make that'")]),
    ("Drive the rover to x 2, y 3. Use the drone instead.", [
        (0, "excluded_robot", "the request rules out tb3: 'drone instead'")]),
    ("Replace the rover with the drone: go to x 2, y 3.", [
        (0, "excluded_robot", "the request rules out tb3: 'replace the rover'")]),
    ("The drone goes to x 2, y 3 in the rover's place.", [
        (0, "excluded_robot", "the request rules out tb3: \"in the rover's place\"")]),
    # controls: the rover is the one asked
    ("Drive the rover to x 2, y 3. No, the rover.", []),
    ("Replace the drone with the rover: go to x 2, y 3.", []),
    ("The rover goes to x 2, y 3 in the drone's place.", []),
    ("Drive the rover to x 2, y 3 instead.", []),
])
def test_a_robot_replaced_takes_no_step(sar: Crew, request_: str,
                                       problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == problems


@pytest.mark.parametrize(("request_", "problems"), [
    # a robot told to stop, whose stop no plan may hold (the dog's is the safe fallback's
    # alone): the walk the sentence before describes was accepted
    ("The dog is heading to room_b, stop it.", [
        (0, "excluded_robot", "the request rules out go2: 'stop it'")]),
    ("Stop the dog before it reaches room_b.", [
        (0, "excluded_robot", "the request rules out go2: 'stop the dog'")]),
    ("The dog keeps walking to room_b, make it stop.", [
        (0, "excluded_robot", "the request rules out go2: 'make it stop'")]),
    ("The dog is walking to room_b \u2014 stop!", [
        (0, "excluded_robot", "the request rules out go2: 'stop'")]),
    # controls: a stop after the walk is part of it; another robot stopped
    ("Walk the dog to room_b and stop.", []),
    ("Walk the dog to room_b, then stop.", []),
    ("Stop the humanoid and walk the dog to room_b.", []),
])
def test_a_robot_told_to_stop_takes_no_step(g1_go2: Crew, request_: str,
                                           problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(g1_go2, request_, walk("room_b"))) == problems


def test_a_robot_whose_stop_the_plan_can_hold_still_owes_it(sar: Crew) -> None:
    """The rover's stop is a skill of its own: asked, and owed, as before."""
    assert found(check(sar, "The rover is heading to x 2, y 3, stop it.", GO_23)) == [
        (None, "dropped_request", "the request asks to 'stop' (tb3.stop); no step does")]


@pytest.mark.parametrize(("request_", "plan_", "problems"), [
    # an action ended, abandoned, paused or put off is called off (the search ran; the rover
    # drove)
    ("Terminate the search of x 0 to 5, y 0 to 5 and land.", SEARCH_LAND, [
        (1, "negated_step", "the request rules out iris.search_target here: 'terminate the "
         "search of x 0 to 5, y 0 to 5'")]),
    ("Abandon the search of x 0 to 5, y 0 to 5 and land.", SEARCH_LAND, [
        (1, "negated_step", "the request rules out iris.search_target here: 'abandon the "
         "search of x 0 to 5, y 0 to 5'")]),
    ("Pause the search of x 0 to 5, y 0 to 5 and land.", SEARCH_LAND, [
        (1, "negated_step", "the request rules out iris.search_target here: 'pause the search "
         "of x 0 to 5, y 0 to 5'")]),
    ("Postpone the drive to x 2, y 3.", GO_23, [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'postpone the drive "
         "to x 2, y 3'")]),
    # controls: "the end", an end of no action, where an action ends
    ("Search x 0 to 5, y 0 to 5 and land at the end.", SEARCH_LAND, []),
    ("Drive the rover to x 2, y 3 and end the drive there.", GO_23, []),
    ("Search x 0 to 5, y 0 to 5, then end the mission by landing.", SEARCH_LAND, []),
])
def test_an_action_ended_or_put_off_is_called_off(
        sar: Crew, request_: str, plan_: dict[str, Any],
        problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, plan_)) == problems


@pytest.mark.parametrize(("request_", "problems"), [
    # a robot addressed alone before "!", "." or "...", or in brackets after the verb (each
    # drove the rover)
    ("Drone! Go to x 2, y 3.", [
        (0, "substituted_robot", "the request asks iris to 'go'; iris has no such skill, and "
         "tb3 may not take its place")]),
    ("Hey drone! Go to x 2, y 3.", [
        (0, "substituted_robot", "the request asks iris to 'go'; iris has no such skill, and "
         "tb3 may not take its place")]),
    ("Drone... go to x 2, y 3.", [
        (0, "substituted_robot", "the request asks iris to 'go'; iris has no such skill, and "
         "tb3 may not take its place")]),
    ("Go to x 2, y 3 (drone).", [
        (0, "substituted_robot", "the request asks iris to 'go'; iris has no such skill, and "
         "tb3 may not take its place")]),
    # controls: the rover addressed; a sentence that sends the drone is no address
    ("Rover! Go to x 2, y 3.", []),
    ("Go to x 2, y 3 (rover).", []),
    ("Send the drone. Go to x 2, y 3.", []),
])
def test_a_robot_addressed_with_a_mark_is_the_one_asked(
        sar: Crew, request_: str, problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == problems


@pytest.mark.parametrize(("crew_name", "request_", "problems"), [
    # "besides" after "anywhere", "anything", ...: as "but" (each went there, or handed it over)
    ("sar", "Drive the rover anywhere besides x 2, y 3.", [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'anywhere besides x 2, "
         "y 3'")]),
    ("g1_go2", "Walk the dog anywhere besides room_b.", [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'anywhere "
         "besides room_b'")]),
    # negations in other words
    ("sar", "In no case should the rover drive to x 2, y 3.", [
        (0, "excluded_robot", "the request rules out tb3 here: 'in no case should the rover'"),
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'in no case should "
         "the rover drive to x 2, y 3'")]),
    ("sar", "You aren't allowed to drive the rover to x 2, y 3.", [
        (0, "excluded_robot", "the request rules out tb3 here: \"aren't allowed to drive the "
         "rover\""),
        (0, "negated_step", "the request rules out tb3.navigate_to here: \"aren't allowed to "
         "drive the rover to x 2, y 3\"")]),
    ("sar", "The rover oughtn't go to x 2, y 3.", [
        (0, "negated_step", "the request rules out tb3.navigate_to here: \"oughtn't go to x 2, "
         "y 3\"")]),
    ("sar", "I'd advise against driving the rover to x 2, y 3.", [
        (0, "excluded_robot", "the request rules out tb3 here: 'advise against driving the "
         "rover'"),
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'advise against "
         "driving the rover to x 2, y 3'")]),
    # a robot for later, kept back or parked, ending its clause
    ("sar", "Drone to x 2, y 3; rover later.", [
        (0, "excluded_robot", "the request rules out tb3: 'rover later'"),
        (0, "substituted_robot", "the request gives the point (2, 3) to iris ('Drone to x 2, "
         "y 3'); iris has no skill that moves it to a place, and tb3 may not take its place")]),
    ("sar", "Drone to x 2, y 3; rover parked.", [
        (0, "excluded_robot", "the request rules out tb3: 'rover parked'"),
        (0, "substituted_robot", "the request gives the point (2, 3) to iris ('Drone to x 2, "
         "y 3'); iris has no skill that moves it to a place, and tb3 may not take its place")]),
    # sarcasm
    ("sar", "Drive the rover to x 2, y 3? Sure, when pigs fly.", [
        (None, "retracted_request", "the request takes back what it asked ('when pigs fly'): "
         "no step may run")]),
    ("sar", "Drive the rover to x 2, y 3 (sarcasm)", [
        (None, "retracted_request", "the request takes back what it asked ('sarcasm'): no step "
         "may run")]),
    # controls: "besides" alone adds; a robot parked at a point is sent there
    ("g1_go2", "Besides the bottle, hand me the red cube.", [
        (None, "dropped_request", "the request names 'bottle' (bottle); no step carries it")]),
    ("sar", "We need the rover parked at x 2, y 3 for the radio relay.", []),
])
def test_other_words_for_except_not_and_later_rule_it_out(
        sar: Crew, g1_go2: Crew, crew_name: str, request_: str,
        problems: list[tuple[int | None, str, str]]) -> None:
    crew = sar if crew_name == "sar" else g1_go2
    p = GO_23 if crew_name == "sar" else (walk("room_b") if "dog" in request_ else
                                          hand("red_cube"))
    assert found(check(crew, request_, p)) == problems


@pytest.mark.parametrize(("request_", "problems"), [
    # how the drone gets there, said by its flying (each drove the rover)
    ("Hover at x 2, y 3.", [
        (0, "substituted_robot", "the request gives the point (2, 3) to iris ('Hover at x 2, y "
         "3'); iris has no skill that moves it to a place, and tb3 may not take its place")]),
    ("Overfly x 2, y 3.", [
        (0, "substituted_robot", "the request gives the point (2, 3) to iris ('Overfly x 2, y "
         "3'); iris has no skill that moves it to a place, and tb3 may not take its place")]),
    ("Go to x 2, y 3 by drone.", [
        (0, "substituted_robot", "the request asks iris to 'go'; iris has no such skill, and "
         "tb3 may not take its place")]),
    ("Go to x 2, y 3 via the air.", [
        (0, "substituted_robot", "the request asks iris to 'go'; iris has no such skill, and "
         "tb3 may not take its place")]),
    ("Drive the rover to x 2, y 3 while the drone hovers.", []),
])
def test_a_point_reached_by_flying_is_the_drones(
        sar: Crew, request_: str, problems: list[tuple[int | None, str, str]]) -> None:
    assert found(check(sar, request_, GO_23)) == problems


ABORT = plan("abort", LAND, ("tb3", "stop", {}))


@pytest.mark.parametrize(("crew_name", "request_", "plan_"), [
    # this session's new cues, bounded where they refused what the request asks (a probe of
    # ordinary requests, the emergencies first): a robot whose safe fallback a plan can hold
    # is stopped by it, not ruled out; a stop said with where or when it happens; a robot
    # low on battery still lands; "depart for", "the exit at" go there; a thing put in
    # front of the speaker is handed over; "not you" said to another robot
    ("sar", "Stop the drone and the rover.", ABORT),
    ("sar", "Freeze the drone and the rover.", ABORT),
    ("sar", "Stop flying and land the drone.", plan("abort", LAND)),
    ("sar", "The drone is low on battery, land it now and stop the rover.", ABORT),
    ("sar", "Land the drone and stop the rover at once, the alarm is on.", ABORT),
    ("sar", "In an emergency like this, land the drone and stop the rover.", ABORT),
    ("sar", "Stop the rover, not you, drone.", plan("abort", ("tb3", "stop", {}))),
    ("sar", "Rover, depart for x 2, y 3.", GO_23),
    ("sar", "Drive the rover to the exit at x 2, y 3.", GO_23),
    ("g1_go2", "Walk the dog to room_b and stop it there.", walk("room_b")),
    ("g1_go2", "Walk the dog to room_b but stop it if anyone gets in the way.", walk("room_b")),
    ("g1_go2", "Stop the dog from wandering: walk it to room_b.", walk("room_b")),
    ("g1_go2", "Send the dog to room_b - non-stop!", walk("room_b")),
    ("g1_go2", "The dog, not you, humanoid, walks to room_b.", walk("room_b")),
    ("g1_go2", "Put the cube in front of me, I'm at the table.", hand("red_cube")),
    ("g1_go2", "Remove the red cube from the table, load it on the dog and send the dog to "
     "room_a.", carry("red_cube", "room_a")),
])
def test_the_new_cues_leave_what_is_asked_asked(sar: Crew, g1_go2: Crew, crew_name: str,
                                                request_: str, plan_: dict[str, Any]) -> None:
    assert found(check(sar if crew_name == "sar" else g1_go2, request_, plan_)) == []
