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
from crewgate.gate.settled import MAX_STATE_BYTES, SettledPlans
from crewgate.plan import Plan, Step, parse_plan
from crewgate.sim.faults import parse_faults
from crewgate.spec import Crew, load_crew
from crewgate.spec.loader import parse_crew
from crewgate.suites import load_suite
from crewgate.text.request import RequestFacts
from crewgate.world import BindingValue, World

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


def test_a_plan_with_a_value_of_no_built_in_type_is_checked_not_kept() -> None:
    class Name(str):
        pass

    gate = Gate(CREWS["g1_go2"])
    world = SimAdapter(CREWS["g1_go2"]).world
    for odd in (Name("red_cube"), {"nested": Name("red_cube")}):
        plan = Plan("handover", (Step("g1", "hand_over", {"object": odd}),))
        assert gate.settled_plans.key(plan, RequestFacts.read("pass me the red cube")) is None
        assert gate.validate(plan, "pass me the red cube", world) == Gate(
            CREWS["g1_go2"]).validate(plan, "pass me the red cube", world)
    assert not gate.settled_plans._kept


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


# what changes a world between two validations: a robot's availability or a field of its state,
# where an object is, a runtime binding published (or dropped), the clock
_CHANGES: dict[str, list[tuple[Any, ...]]] = {
    "sar": [("available", "iris", False), ("available", "tb3", False),
            ("field", "iris", "airborne", True), ("field", "tb3", "pose", [6.0, -3.0]),
            ("binding", "victim", (2.0, 3.0)), ("binding", "victim", (2.0, 3.5)),
            ("binding", "victim", None), ("clock", 5.0), ("clock", 500.0)],
    "g1_go2": [("available", "g1", False), ("available", "go2", False),
               ("field", "g1", "holding", "red_cube"), ("field", "go2", "location", "room_b"),
               ("object", "red_cube", "g1"), ("object", "bottle", "table_b"), ("clock", 50.0)],
}


# plans whose verdict the bindings decide (the rover sent to the victim fix, no search before
# it to publish one), drawn as often as the study's
_READING = {"sar": [{"workflow": w, "steps": [{"robot": "tb3", "skill": "navigate_to",
                                               "args": {"target": "victim"}}]}
                    for w in ("search_and_dispatch", "dispatch_only")] * 40, "g1_go2": []}


@st.composite
def _session(draw: st.DrawFn) -> tuple[str, list[Any]]:
    """A crew, and validations of its study plans under its scenarios' requests with changes
    to the one world between them."""
    crew = draw(st.sampled_from(sorted(CREWS)))
    plans = draw(st.lists(st.sampled_from(PLANS[crew] + _READING[crew]), min_size=1,
                          max_size=3))
    requests = [s.request for s in SCENARIOS[crew]]
    ops = draw(st.lists(st.one_of(
        st.tuples(st.just("validate"), st.sampled_from(plans), st.sampled_from(requests)),
        st.sampled_from(_CHANGES[crew])), min_size=2, max_size=16))
    return crew, ops


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_session())
def test_a_plan_judged_again_gets_the_verdict_of_the_world_as_it_is_now(
        session: tuple[str, list[Any]]) -> None:
    """A gate keeps a plan's verdicts per state judged (crewgate.gate.settled.exact): whatever
    changed in between (availability, state, objects, bindings, the clock), a plan validated
    again gets what a gate that keeps nothing gives."""
    name, ops = session
    crew = CREWS[name]
    world = SimAdapter(crew).world
    clock = [0.0]
    world.clock = lambda: clock[0]
    keeping = Gate(crew)
    for op in [*ops, *ops]:
        kind = op[0]
        if kind == "validate":
            plan = parse_plan(op[1])
            assert keeping.validate(plan, op[2], world) == Gate(crew).validate(plan, op[2], world)
        elif kind == "available":
            world.set_available(op[1], op[2])
        elif kind == "field":
            world.update(op[1], **{op[2]: op[3]})
        elif kind == "object":
            world.move_object(op[1], op[2])
        elif kind == "binding":
            if op[2] is None:
                world.clear_binding(op[1])
            else:
                world.publish(op[1], BindingValue(op[2], clock[0], 0.9, "test"))
        else:
            clock[0] = op[1]


def test_a_state_of_no_built_in_type_is_judged_every_time() -> None:
    """A backend's own value type in the state (a numpy float, say) cannot be told apart as
    bytes: the plan is judged on it each time, and nothing is kept for it."""

    class Metres(float):
        pass

    crew = CREWS["g1_go2"]
    plan = parse_plan({"workflow": "carry", "steps": [
        {"robot": "g1", "skill": "grab_from_table", "args": {"object": "red_cube"}},
        {"robot": "g1", "skill": "place_on_table", "args": {"object": "red_cube"}},
        {"robot": "go2", "skill": "navigate_to_location", "args": {"location": "room_b"}}]})
    request = "bring the red cube to room_b"
    kept = []
    for pose in ([0.0, 0.0], [Metres(0.0), Metres(0.0)]):
        world = SimAdapter(crew).world
        world.update("go2", pose=pose)
        gate = Gate(crew)
        first = gate.validate(plan, request, world)
        assert first.accepted
        assert gate.validate(plan, request, world) == first == Gate(crew).validate(
            plan, request, world)
        kept.append([len(p.judged) for p in gate.settled_plans._kept.values()])
    assert kept == [[1], [0]]


def test_a_long_state_is_judged_every_time_and_what_is_kept_stays_small() -> None:
    """A state longer than MAX_STATE_BYTES as bytes (a crew of many robots) keeps no verdict,
    so that what a gate keeps is bounded whatever the crew."""
    crew = CREWS["g1_go2"]
    plan = parse_plan({"workflow": "carry", "steps": [
        {"robot": "g1", "skill": "grab_from_table", "args": {"object": "red_cube"}},
        {"robot": "go2", "skill": "navigate_to_location", "args": {"location": "room_b"}}]})
    request = "bring the red cube to room_b"
    kept = []
    for note in ("short", "x" * MAX_STATE_BYTES):
        world = SimAdapter(crew).world
        world.update("go2", note=note)
        gate = Gate(crew)
        assert gate.validate(plan, request, world) == Gate(crew).validate(plan, request, world)
        kept.append([len(p.judged) for p in gate.settled_plans._kept.values()])
    assert kept == [[1], [0]]
