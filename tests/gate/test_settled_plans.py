"""What a gate keeps of the plans it validated (crewgate.gate.settled) never changes a verdict:
a plan validated after others, in any world, under any request, gets the verdict it gets from a
gate that keeps nothing; and plans that differ in any value (its type, the sign of a zero) are
never taken for one another."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewgate.adapters.sim import SimAdapter
from crewgate.gate import Gate, Mode, PlanVerdict
from crewgate.gate.settled import SettledPlans
from crewgate.plan import Plan, parse_plan
from crewgate.sim.faults import parse_faults
from crewgate.spec import Crew, load_crew
from crewgate.spec.loader import parse_crew
from crewgate.suites import load_suite
from crewgate.text.request import RequestFacts
from crewgate.world import World

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


def _available_written() -> Crew:
    """g1_go2 where grabbing leaves the humanoid unavailable (an effect on ``available``, which
    every later step reads)."""
    text = (Path(load_crew.__code__.co_filename).parent.parent / "crews" / "g1_go2.yaml"
            ).read_text(encoding="utf-8")
    marked = "effects: {holding: $object}"
    assert text.count(marked) == 1
    return parse_crew(text.replace(marked, "effects: {holding: $object, available: false}"),
                      "g1_go2 (variant)")


VARIANT = _available_written()
NO_PROGRESS: Counter[str] = Counter()  # a plan's transitions are settled with the plan


def _fully_predicted(gate: Gate, plan: Plan, request: str, world: World) -> PlanVerdict:
    """The verdict as first written: every step judged on a copy of the state into which every
    step before it wrote its effects."""
    settled = gate.settle_plan(plan, RequestFacts.read(request))
    state, produced, verdicts = world.copy_state(), set[str](), []
    for index, step in enumerate(plan.steps):
        at = settled.steps[index]
        check = gate.judge(at, index, step, Mode.PLAN, plan.workflow, state, world.now(),
                           dict(world.bindings), NO_PROGRESS, NO_PROGRESS, settled.planned,
                           produced)
        verdicts.append(check.verdict)
        skill = settled.skills[index]
        if skill is not None:
            if at.typed is not None and step.robot in state:
                gate.prediction.after(skill, step.robot, at.typed, state)
            produced.update(skill.produces)
    return PlanVerdict(settled.problems, tuple(verdicts), plan.workflow)



@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_validation(), min_size=1, max_size=6), st.booleans())
def test_predicting_only_what_a_later_step_reads_gives_the_fully_predicted_verdict(
        validations: list[tuple[str, Any, str, list[str]]], variant: bool) -> None:
    for crew_name, raw, request, faults in validations:
        crew = VARIANT if variant and crew_name == "g1_go2" else CREWS[crew_name]
        plan = parse_plan(raw)
        if not isinstance(plan, Plan):
            continue
        world = SimAdapter(crew, faults=parse_faults(faults, crew)).world
        gate = Gate(crew)
        assert gate.validate(plan, request, world) == _fully_predicted(gate, plan, request, world)


def test_an_effect_on_availability_is_read_by_the_steps_after_it() -> None:
    """Grabbing leaves the humanoid unavailable (the variant crew): the wave after it (which has
    no preconditions) is refused for it, which predicting only up to the last step with
    preconditions would miss."""
    world = SimAdapter(VARIANT).world
    plan = parse_plan({"workflow": "manipulation_only", "steps": [
        {"robot": "g1", "skill": "grab_from_table", "args": {}},
        {"robot": "g1", "skill": "wave", "args": {}}]})
    assert isinstance(plan, Plan)
    request = "Grab something from the table, then wave."
    verdict = Gate(VARIANT).validate(plan, request, world)
    assert [[p.code.value for p in s.problems] for s in verdict.steps] == [
        [], ["robot_unavailable"]]
    assert verdict == _fully_predicted(Gate(VARIANT), plan, request, world)
