"""What a gate keeps of the plans it validated (crewgate.gate.settled) never changes a verdict:
a plan validated after others, in any world, under any request, gets the verdict it gets from a
gate that keeps nothing; and plans that differ in any value (its type, the sign of a zero) are
never taken for one another."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewgate.adapters.sim import SimAdapter
from crewgate.gate import Gate
from crewgate.gate.settled import SettledPlans
from crewgate.plan import Plan, parse_plan
from crewgate.sim.faults import parse_faults
from crewgate.spec import load_crew
from crewgate.suites import load_suite
from crewgate.text.request import RequestFacts

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "study"
CREWS = {name: load_crew(name) for name in ("sar", "g1_go2")}
SCENARIOS = {name: load_suite(name).scenarios for name in CREWS}
TRICKY: list[Any] = [1, 1.0, True, 0, 0.0, -0.0, "1", None, [1, 2], [1.0, 2.0], (1, 2),
                     {"x": 1}, math.nan, 5.5, -5.5, "victim", "room_b", "red_cube", 3]


def _plans(crew: str) -> list[dict[str, Any]]:
    out = [s.reference_plan for s in SCENARIOS[crew] if s.reference_plan is not None]
    for path in sorted((CORPUS / crew).glob("*.jsonl")):
        out += [json.loads(line)["output"] for line in
                path.read_text(encoding="utf-8").splitlines()]
    return [p for p in out if isinstance(p, dict)]


PLANS = {name: _plans(name) for name in CREWS}


@st.composite
def _validation(draw: st.DrawFn) -> tuple[str, Any, str, list[str]]:
    crew = draw(st.sampled_from(sorted(CREWS)))
    raw = json.loads(json.dumps(draw(st.sampled_from(PLANS[crew]))))
    steps = raw.get("steps")
    if isinstance(steps, list) and steps and draw(st.booleans()):
        step = draw(st.sampled_from(steps))
        if isinstance(step, dict) and isinstance(step.get("args"), dict) and step["args"]:
            step["args"][draw(st.sampled_from(sorted(step["args"])))] = draw(
                st.sampled_from(TRICKY))
    scenario = draw(st.sampled_from(SCENARIOS[crew]))
    return crew, raw, scenario.request, list(scenario.faults)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_validation(), min_size=2, max_size=12))
def test_kept_plans_give_the_verdicts_of_a_gate_that_keeps_nothing(
        validations: list[tuple[str, Any, str, list[str]]]) -> None:
    keeping = {name: Gate(crew) for name, crew in CREWS.items()}
    for crew, raw, request, faults in [*validations, *validations]:  # each one met again
        world = SimAdapter(CREWS[crew], faults=parse_faults(faults, CREWS[crew])).world
        fresh = Gate(CREWS[crew])
        expected = fresh.validate(parse_plan(raw), request, world)
        assert keeping[crew].validate(parse_plan(raw), request, world) == expected


def test_plans_that_differ_in_any_value_have_different_keys() -> None:
    plans = SettledPlans()
    facts = RequestFacts.read("go to x 1, y 0")
    keys = set()
    for value in [v for v in TRICKY if not (isinstance(v, float) and math.isnan(v))]:
        plan = parse_plan({"workflow": "w", "steps": [{"robot": "tb3", "skill": "navigate_to",
                                                       "args": {"x": value}}]})
        assert isinstance(plan, Plan)
        keys.add(plans.key(plan, facts))
    assert len(keys) == len(TRICKY) - 1
    other = parse_plan({"workflow": "w", "steps": [{"robot": "tb3", "skill": "navigate_to",
                                                    "args": {"x": 1}}]})
    assert isinstance(other, Plan)
    assert plans.key(other, RequestFacts.read("go to x 1, y 0.")) not in keys  # another request


def test_a_reading_of_the_same_text_that_is_another_object_is_not_trusted() -> None:
    gate = Gate(CREWS["sar"])
    plan = parse_plan(PLANS["sar"][0])
    assert isinstance(plan, Plan)
    world = SimAdapter(CREWS["sar"]).world
    text = SCENARIOS["sar"][0].request
    first = RequestFacts._read(text)
    gate.validate(plan, first, world)
    key = gate.settled_plans.key(plan, first)
    assert gate.settled_plans.get(key, first) is not None
    assert gate.settled_plans.get(key, RequestFacts._read(text)) is None


def test_a_kept_step_met_at_another_index_has_its_problems_there() -> None:
    """A step's settled checks are kept whatever its place in the plan; met again elsewhere,
    its problems carry the new index, as a fresh gate gives them."""
    crew = CREWS["sar"]
    world = SimAdapter(crew).world
    request = "Rover, go to (6, -3)."
    bad = {"robot": "tb3", "skill": "navigate_to", "args": {"x": 60, "y": -3, "speed": 2}}
    good = {"robot": "tb3", "skill": "navigate_to", "args": {"x": 6, "y": -3}}
    keeping = Gate(crew)
    for steps in ([bad], [good, bad], [good, good, bad, bad], [bad, good]):
        plan = parse_plan({"workflow": "dispatch_only", "steps": steps})
        verdict = keeping.validate(plan, request, world)
        assert verdict == Gate(crew).validate(plan, request, world)
        assert all(p.index == s.index for s in verdict.steps for p in s.problems)
