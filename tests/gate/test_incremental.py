"""Property: authorization at dispatch re-checks only what can change after validation (the
mission's progress, availability, preconditions, runtime bindings) and settles the rest once per
plan step; it always gives the verdict a full re-check of every rule gives (the same problems,
codes and details, in the same order, the same typed arguments and resolved bindings), whatever
the state, the bindings, the progress, the step presented and the order of dispatches."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewgate.adapters.sim import SimAdapter
from crewgate.codes import Code, Problem
from crewgate.gate import Gate, MissionGate, Mode, StepVerdict
from crewgate.plan import Plan, Step, parse_plan
from crewgate.spec import Crew, load_crew
from crewgate.suites import load_suite
from crewgate.world import BindingValue, World

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "study"
CREWS = {name: load_crew(name) for name in ("sar", "g1_go2")}
GATES = {name: Gate(crew) for name, crew in CREWS.items()}


def _missions(crew: str) -> list[tuple[str, Plan]]:
    """(request, plan): every reference plan of the crew's study suite and every recorded plan
    of the study for it (accepted or not: a mission gate judges whatever it is given)."""
    scenarios = {s.id: s for s in load_suite(crew).scenarios}
    out = []
    for s in scenarios.values():
        if s.reference_plan is not None:
            plan = parse_plan(s.reference_plan)
            if isinstance(plan, Plan) and plan.steps:
                out.append((s.request, plan))
    for path in sorted((CORPUS / crew).glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            plan = parse_plan(record["output"])
            if isinstance(plan, Plan) and plan.steps:
                out.append((scenarios[record["scenario"]].request, plan))
    return out


MISSIONS = {name: _missions(name) for name in CREWS}


def _field_values(crew: Crew, robot: str, name: str) -> list[Any]:
    spec = crew.robots[robot].state[name]
    values: dict[str, list[Any]] = {
        "bool": [True, False, None],
        "number": [0.0, 1.5, 3.0, -1.0, math.nan, None],
        "string": ["idle", "", None],
        "pose": [[0.0, 0.0], [5.0, 5.0], [40.0, 45.0], None],
        "location": [*crew.locations, "nowhere", None],
        "object": [*crew.objects, None],
    }
    return values[spec.type]


@st.composite
def _world(draw: st.DrawFn, crew: Crew) -> World:
    world = SimAdapter(crew).world
    for robot, fields in world.robots.items():
        fields["available"] = draw(st.sampled_from([True, True, False, None]))
        for name in crew.robots[robot].state:
            if draw(st.booleans()):
                fields[name] = draw(st.sampled_from(_field_values(crew, robot, name)))
    for obj in crew.objects:
        if draw(st.booleans()):
            world.objects[obj] = draw(st.sampled_from([*crew.locations, *crew.robots,
                                                       "requester"]))
    now = world.now()
    for name in crew.bindings:
        if draw(st.booleans()):
            value = draw(st.sampled_from([(5.0, 5.0), (1.0, -2.0), (40.0, 45.0),
                                          (math.nan, 1.0), None]))
            world.publish(name, BindingValue(
                value, stamp=now + draw(st.sampled_from([0.0, -0.5, -30.0, -600.0, 5.0,
                                                         math.nan])),
                confidence=draw(st.sampled_from([None, 0.0, 0.5, 0.9, 1.0]))))
    return world


def _full(mgate: MissionGate, index: int, step: Step, world: World
          ) -> tuple[StepVerdict, dict[str, Any], dict[str, BindingValue], bool]:
    """Every rule checked again, as before authorization was incremental: the verdict (with
    ``off_plan`` for a step that is not the plan's), the arguments and the resolved bindings."""
    check = mgate.gate.check(
        index, step, Mode.DISPATCH, workflow=mgate.workflow, facts=mgate.facts,
        state=world.state_view(), now=world.now(), bindings=world.bindings,
        started=mgate.started, completed=mgate.completed, planned=mgate.planned,
        held=mgate.held)
    verdict = check.verdict
    planned = mgate.plan.steps[index] if 0 <= index < len(mgate.plan.steps) else None
    if planned != step:
        off = Problem(Code.OFF_PLAN, f"step {index} {step.ref} is not the validated plan's "
                      f"step {index}", index)
        verdict = StepVerdict(index, step.robot, step.skill, (*verdict.problems, off))
    args = dict(check.typed) if check.typed is not None else dict(step.args)
    return verdict, args, dict(check.bindings), check.typed is not None


Dispatch = tuple[World, int, Step, Counter[str], Counter[str]]


@st.composite
def _case(draw: st.DrawFn) -> tuple[str, str, Plan, list[Dispatch]]:
    """A crew, a mission (request and plan), and a sequence of dispatches: each a world, the
    index presented, the step presented (the plan's, an equal copy, or another plan's) and the
    mission's progress then (steps started, steps completed)."""
    crew = draw(st.sampled_from(sorted(CREWS)))
    request, plan = draw(st.sampled_from(MISSIONS[crew]))
    others = [s for _, p in MISSIONS[crew] for s in p.steps]
    dispatches = []
    for _ in range(draw(st.integers(1, 4))):
        world = draw(_world(CREWS[crew]))
        index = draw(st.integers(-1, len(plan.steps)))
        planned = plan.steps[index] if 0 <= index < len(plan.steps) else plan.steps[0]
        step = draw(st.sampled_from([
            planned, Step(planned.robot, planned.skill, json.loads(json.dumps(planned.args))),
            draw(st.sampled_from(others))]))
        started = Counter({s.ref: draw(st.integers(0, 2)) for s in plan.steps})
        completed = Counter({ref: draw(st.integers(0, n)) for ref, n in started.items()})
        dispatches.append((world, index, step, started, completed))
    return crew, request, plan, dispatches


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case(), st.booleans())
def test_incremental_authorization_agrees_with_a_full_recheck(
        case: tuple[str, str, Plan, list[Dispatch]], enforce: bool) -> None:
    crew, request, plan, dispatches = case
    mgate = MissionGate(GATES[crew], "property", request, plan, enforce=enforce)
    for world, index, step, started, completed in dispatches:
        mgate.started, mgate.completed = started, completed
        expected, args, bindings, typed = _full(mgate, index, step, world)
        auth = mgate.authorize(index, step, world)
        assert auth.ok == expected.ok  # the same accept / refuse ...
        assert auth.verdict.codes == expected.codes  # ... for the same codes ...
        assert auth.verdict == expected  # ... with the same details, order, skip, deferral
        assert (dict(auth.args), auth.args_typed) == (args, typed)
        assert dict(auth.bindings) == bindings


def test_a_plan_step_is_settled_once_per_mission() -> None:
    """What a step's checks settle is computed once per plan step, never again for it."""
    request, plan = MISSIONS["sar"][0]
    mgate = MissionGate(GATES["sar"], "once", request, plan)
    world = SimAdapter(CREWS["sar"]).world
    first = mgate.settled(0, plan.steps[0])
    mgate.authorize(0, plan.steps[0], world)
    assert mgate.settled(0, plan.steps[0]) is first
    other = Step("tb3", "stop", {})
    assert mgate.settled(0, other) is not mgate.settled(0, other)  # off plan: afresh
