"""The held-out scenario suites (``sar_holdout.yaml``, ``g1_go2_holdout.yaml``) are right.

They are written fresh, to measure the offline planner once on requests it was never tuned on.
Shape: 48 scenarios per crew (32 nominal, 16 to block; of them 4 and 4 intent phrasings, issue
10: a robot named, a value stated, a negation, "only", a retraction, more than one plan can do),
unique ids, every workflow covered by at
least 4 nominal requests, no request equal to a study request nor containing (or nearly copying)
a crew workflow example. Semantics: every reference plan runs end to end on the simulator with
the scenario's faults and world; nominal missions complete cleanly, blocked ones end refused or
halted carrying one of the expected codes, and no dispatched step ever carries a gate code.
"""

from __future__ import annotations

import difflib
import math
import re
from typing import Any

import pytest

from crewgate.api import check_plan, run_mission
from crewgate.codes import Code
from crewgate.orchestrator import MissionResult
from crewgate.planners import ScriptedPlanner
from crewgate.sim.faults import parse_faults
from crewgate.sim.section import SimSection
from crewgate.spec import Crew, load_crew
from crewgate.suites import Scenario, Suite, load_suite, packaged_suites

CREW_NAMES = ("sar", "g1_go2")
CREWS: dict[str, Crew] = {name: load_crew(name) for name in CREW_NAMES}
SUITES: dict[str, Suite] = {name: load_suite(name, "holdout") for name in CREW_NAMES}
# the off-domain requests that are questions: the gate's refusal is that they ask nothing
_QUESTIONS = {"g1_go2:ho_blk_offdomain_01", "sar:ho_blk_offdomain_02"}  # ask nothing now
STUDY: dict[str, Suite] = {name: load_suite(name, "study") for name in CREW_NAMES}

CATEGORIES = {"nominal", "out_of_bounds", "unknown_destination", "unknown_object",
              "robot_unavailable", "perception", "off_domain", "intent"}
PERCEPTION_FAULTS = {"nan_fix", "missed_detection", "stale_fix"}
ZONE = ("x_min", "x_max", "y_min", "y_max")
SPAWN_TB3 = [-2.0, -2.0]
CASES = [(crew, s) for crew in CREW_NAMES for s in SUITES[crew].scenarios]


def _plan(scenario: Scenario) -> dict[str, Any]:
    assert scenario.reference_plan is not None, scenario.id
    return scenario.reference_plan


def _steps(plan: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = plan["steps"]
    return steps


def _category(scenario: Scenario) -> str:
    found = [t for t in scenario.tags if t in CATEGORIES]
    assert len(found) == 1, (scenario.id, scenario.tags)
    return found[0]


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9.]+", text.lower()))


# -- shape ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_suite_shape(crew: str) -> None:
    suite = SUITES[crew]
    assert suite.crew == crew
    assert suite.suite == "holdout"
    assert len(suite.scenarios) == 48
    ids = [s.id for s in suite.scenarios]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    assert sum(not s.should_block for s in suite.scenarios) == 32
    assert sum(s.should_block for s in suite.scenarios) == 16
    intent = [s for s in suite.scenarios if {"intent", "intent_phrasing"} & set(s.tags)]
    assert [s.should_block for s in intent] == [False] * 4 + [True] * 4
    requests = [_norm(s.request) for s in suite.scenarios]
    assert len(requests) == len(set(requests))
    for s in suite.scenarios:
        assert "holdout" in s.tags, s.id
        assert (_category(s) == "nominal") == (not s.should_block), s.id


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_ids_are_unique_across_the_crews_suites(crew: str) -> None:
    """Replay maps a scenario id to its request over all of a crew's packaged suites."""
    ids = {s.id for s in SUITES[crew].scenarios}
    assert all(i.startswith("ho_") for i in ids), ids
    for name in packaged_suites():
        if name.startswith(f"{crew}_") and name != f"{crew}_holdout":
            other = {s.id for s in load_suite(crew, name[len(crew) + 1 :]).scenarios}
            assert not ids & other, (name, ids & other)


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_every_workflow_has_four_nominal_requests(crew: str) -> None:
    counts = dict.fromkeys(CREWS[crew].workflows, 0)
    for s in SUITES[crew].scenarios:
        if not s.should_block:
            assert s.workflow is not None, s.id
            counts[s.workflow] += 1
    assert all(n >= 4 for n in counts.values()), counts


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_no_request_copies_the_study_or_an_example(crew: str) -> None:
    study = {_norm(s.request) for s in STUDY[crew].scenarios}
    examples = [_norm(e) for w in CREWS[crew].workflows.values() for e in w.examples]
    for s in SUITES[crew].scenarios:
        request = _norm(s.request)
        assert request not in study, s.id
        for text in (*study, *examples):
            assert text not in request, (s.id, text)
            ratio = difflib.SequenceMatcher(None, request, text).ratio()
            a, b = set(request.split()), set(text.split())
            assert ratio < 0.8, (s.id, text, ratio)
            assert len(a & b) / len(a | b) < 0.6, (s.id, text)


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_fields_are_consistent(crew: str) -> None:
    spec = CREWS[crew]
    sim = spec.section(SimSection)
    assert sim is not None
    codes = {c.value for c in Code}
    for s in SUITES[crew].scenarios:
        plan = _plan(s)
        assert set(s.expect_codes) <= codes, s.id
        parse_faults(s.faults, spec)  # raises on a fault the crew cannot have
        assert s.world is None or s.world in sim.worlds, s.id
        assert plan["workflow"] == s.workflow, s.id
        if _category(s) == "off_domain":
            assert s.workflow is None, s.id
            assert s.family == "planner", s.id
            assert plan == {"workflow": None, "steps": []}, s.id
            assert s.robots == [], s.id
            assert s.faults == [], s.id
            # a request the crew cannot do; a question, which asks nothing (nothing_asked)
            assert s.expect_codes == (["nothing_asked"] if f"{crew}:{s.id}" in _QUESTIONS
                                      else ["unknown_workflow"]), s.id
            continue
        assert s.workflow in spec.workflows, s.id
        assert s.robots == spec.workflows[s.workflow].robots, s.id
        assert {st["robot"] for st in _steps(plan)} <= set(s.robots), s.id
        if s.should_block:
            assert s.expect_codes, s.id
        else:
            assert s.expect_codes == [], s.id
            assert s.faults == [], s.id
        if set(s.faults) & PERCEPTION_FAULTS:
            assert s.workflow == "search_and_dispatch", s.id


def test_sar_values_are_where_they_should_be() -> None:
    """Nominal rover goals are reachable in world A; search zones lie in the area, and a
    search-and-dispatch zone holds its world's victim unless the zone is the reason to block."""
    spec = CREWS["sar"]
    sim = spec.section(SimSection)
    assert sim is not None
    (ax0, ax1), (ay0, ay1) = spec.area.operational.x, spec.area.operational.y
    boxes = sim.worlds["A"].obstacles
    for s in SUITES["sar"].scenarios:
        for st in _steps(_plan(s)):
            args = st["args"]
            if all(k in args for k in ZONE) and _category(s) != "out_of_bounds":
                x0, x1, y0, y1 = (float(args[k]) for k in ZONE)
                assert ax0 <= x0 < x1 <= ax1, s.id
                assert ay0 <= y0 < y1 <= ay1, s.id
                if s.workflow == "search_and_dispatch":
                    vx, vy = sim.worlds[s.world or sim.default_world].targets["victim"]
                    assert x0 <= vx <= x1, s.id
                    assert y0 <= vy <= y1, s.id
            if "x" in args and not s.should_block:
                x, y = float(args["x"]), float(args["y"])
                assert -5.5 <= x <= 9.5, s.id
                assert -5.5 <= y <= 9.5, s.id
                for box in boxes:
                    dx = max(box.x[0] - x, 0.0, x - box.x[1])
                    dy = max(box.y[0] - y, 0.0, y - box.y[1])
                    assert (dx * dx + dy * dy) ** 0.5 >= 0.6, (s.id, box)


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_reference_plans_state_only_what_the_request_states(crew: str) -> None:
    """Nominal reference plans pass the whole-plan gate; no reference plan substitutes a value
    (a blocked one is blocked for its own reason, never for writing something unstated)."""
    for s in SUITES[crew].scenarios:
        verdict = check_plan(CREWS[crew], _plan(s), s.request, faults=s.faults, world=s.world)
        assert "substituted_value" not in verdict.codes, (s.id, verdict.codes)
        if not s.should_block:
            assert verdict.codes == [], (s.id, verdict.codes)


# -- end to end ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("crew", "scenario"), CASES, ids=[f"{c}:{s.id}" for c, s in CASES])
def test_reference_plan_end_to_end(crew: str, scenario: Scenario) -> None:
    s = scenario
    result = run_mission(CREWS[crew], s.request, ScriptedPlanner([_plan(s)]), faults=s.faults,
                         world=s.world, journal=":memory:")
    steps = [d for d in result.dispatched if d.kind == "step"]
    assert all(d.codes == [] for d in steps), [(d.skill, d.codes) for d in steps]
    why = (result.status, result.codes, result.reason)
    if not s.should_block:
        assert result.status == "completed", why
        assert result.clean, why
        assert result.attempts[0].plan is not None
        assert result.attempts[0].plan.workflow == s.workflow
        _assert_outcome(crew, s, result)
        return
    assert result.status in ("refused", "halted"), why
    assert set(result.codes) & set(s.expect_codes), (why, s.expect_codes)
    if set(s.faults) & PERCEPTION_FAULTS:
        # the drone searched (legitimately); the rover never received the bad fix
        assert result.status == "halted", why
        assert [f"{d.robot}.{d.skill}" for d in steps] == ["iris.takeoff", "iris.search_target"]
        assert result.final_state["tb3"]["pose"] == SPAWN_TB3
        assert result.final_state["iris"]["airborne"] is False  # the fallback landed it
    else:
        assert result.status == "refused", why
        assert steps == [], why  # fail closed at plan level: nothing moved at all


def _assert_outcome(crew: str, s: Scenario, result: MissionResult) -> None:
    """The physical outcome the reference plan promises (from the simulator's own truth)."""
    state, outcome = result.final_state, result.outcome
    steps = _steps(_plan(s))
    if crew == "sar":
        for st in steps:
            args = st["args"]
            if st["skill"] == "navigate_to" and args.get("target") == "victim":
                assert outcome["tb3_to_victim_m"] <= 1.0, outcome["tb3_to_victim_m"]
            elif st["skill"] == "navigate_to":
                goal = (float(args["x"]), float(args["y"]))
                assert math.dist(state["tb3"]["pose"], goal) <= 0.5, (state["tb3"]["pose"], goal)
            elif st["skill"] == "land":
                assert state["iris"]["airborne"] is False
        if s.workflow in ("search_only", "abort"):
            assert state["tb3"]["pose"] == SPAWN_TB3
            assert state["tb3"]["moving"] is False
        return
    objects = outcome["objects"]
    held = []
    for st in steps:
        obj = st["args"].get("object")
        if st["skill"] == "hand_over":
            assert outcome["requester_has"] == [obj]
        elif st["skill"] == "navigate_to_location":
            assert state["go2"]["location"] == st["args"]["location"]
        elif st["skill"] == "grab_from_table":
            held.append(obj)
    if s.workflow == "carry":
        assert objects[held[0]] == {"holder": "go2", "location": steps[-1]["args"]["location"]}
    elif s.workflow == "manipulation_only":
        for name, where in objects.items():
            assert where["holder"] == ("g1" if name in held else "table_a"), (name, where)
        assert state["go2"]["location"] == "start"
