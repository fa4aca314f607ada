"""The extended scenario suites (``sar_extended.yaml``, ``g1_go2_extended.yaml``) are right.

Shape: at least 100 scenarios per crew, unique ids, every category present, >= 2 paraphrases of
every nominal study request, no request copying a workflow example (the offline planner's
exemplars), consistent fields. Semantics: every scenario's reference plan runs end to end on the
simulator with the scenario's faults and world; nominal missions complete cleanly with the
expected physical outcome, blocked ones end refused or halted for the expected reason, and no
dispatched step ever carries a gate code. Reference plans never substitute a value, and the
substitutions a planner might try instead (another place, object, point or zone; literal
coordinates for the victim fix) are refused by the gate.
"""

from __future__ import annotations

import difflib
import math
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from crewgate.api import check_plan, run_mission
from crewgate.codes import Code
from crewgate.orchestrator import MissionResult
from crewgate.planners import ScriptedPlanner
from crewgate.sim.faults import parse_faults
from crewgate.sim.section import SimSection
from crewgate.spec import Crew, load_crew
from crewgate.suites import Scenario, Suite, load_suite
from crewgate.text.request import RequestFacts

CREW_NAMES = ("sar", "g1_go2")
CREWS: dict[str, Crew] = {name: load_crew(name) for name in CREW_NAMES}
SUITES: dict[str, Suite] = {name: load_suite(name, "extended") for name in CREW_NAMES}
# the off-domain requests that are questions: the gate's refusal is that they ask nothing
_QUESTIONS = {"sar:off_03", "sar:off_06", "g1_go2:off_02", "g1_go2:off_06"}  # ask nothing now
STUDY: dict[str, Suite] = {name: load_suite(name, "study") for name in CREW_NAMES}
ORACLE: dict[str, dict[str, dict[str, Any]]] = yaml.safe_load(
    (Path(__file__).parents[1] / "data" / "study_oracle.yaml").read_text(encoding="utf-8"))

# category tag -> id prefix; each scenario carries exactly one category
CATEGORIES = {
    "paraphrase": "para_",
    "nominal_variant": "var_",
    "substitution": "subst_",
    "missed_by_zone": "miss_",
    "injection": "inject_",
    "multi_fault": "multi_",
    "mid_mission": "mid_",
    "off_domain": "off_",
    "beyond_gate": "beyond_",
    "intent": "intent_",
}
REQUIRED = {"sar": set(CATEGORIES), "g1_go2": set(CATEGORIES) - {"missed_by_zone"}}
RUNTIME = "runtime_failure"  # a step fails at run time: halted, and no gate code exists for it
AFTER_MOTION = {"mid_mission", "mid_fault"}  # the block comes after something has moved
ZONE = ("x_min", "x_max", "y_min", "y_max")
SPAWN_TB3 = [-2.0, -2.0]

CASES = [(crew, s) for crew in CREW_NAMES for s in SUITES[crew].scenarios]


def _category(scenario: Scenario) -> str:
    found = [t for t in scenario.tags if t in CATEGORIES]
    assert len(found) == 1, (scenario.id, scenario.tags)
    return found[0]


def _plan(scenario: Scenario) -> dict[str, Any]:
    assert scenario.reference_plan is not None, scenario.id
    return scenario.reference_plan


def _steps(plan: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = plan["steps"]
    return steps


# -- shape ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_suite_shape(crew: str) -> None:
    suite = SUITES[crew]
    assert suite.crew == crew
    assert suite.suite == "extended"
    assert len(suite.scenarios) >= 100
    ids = [s.id for s in suite.scenarios]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    categories = set()
    for s in suite.scenarios:
        category = _category(s)
        assert s.id.startswith(CATEGORIES[category]), (s.id, category)
        categories.add(category)
    assert REQUIRED[crew] <= categories, REQUIRED[crew] - categories


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_every_study_nominal_request_has_paraphrases(crew: str) -> None:
    study_requests = {_norm(s.request) for s in STUDY[crew].scenarios}
    by_study: dict[str, list[Scenario]] = {}
    for s in SUITES[crew].scenarios:
        for tag in s.tags:
            if tag.startswith("para_of:"):
                by_study.setdefault(tag.removeprefix("para_of:"), []).append(s)
    nominal = [s for s in STUDY[crew].scenarios if not s.should_block]
    assert len(nominal) == 12
    assert set(by_study) == {s.id for s in nominal}
    for original in nominal:
        paraphrases = by_study[original.id]
        assert len(paraphrases) >= 2, original.id
        for p in paraphrases:
            assert "paraphrase" in p.tags
            assert _norm(p.request) not in study_requests, p.id
            assert not p.should_block, p.id
            assert p.faults == [], p.id
            assert p.world is None, p.id
            assert p.workflow == original.workflow, p.id
            assert p.robots == original.robots, p.id
            # same meaning, same values: the correct plan is the study's
            assert _plan(p) == ORACLE[crew][original.id]["plan"], p.id


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_no_request_copies_a_workflow_example(crew: str) -> None:
    """The crews' examples are the offline planner's exemplars: the suite must measure
    planning, not recall. No request contains an example, nor is a near copy of one."""
    examples = [_norm(e) for w in CREWS[crew].workflows.values() for e in w.examples]
    for s in SUITES[crew].scenarios:
        request = _norm(s.request)
        for example in examples:
            assert example not in request, (s.id, example)
            ratio = difflib.SequenceMatcher(None, request, example).ratio()
            a, b = set(request.split()), set(example.split())
            jaccard = len(a & b) / len(a | b)
            assert ratio < 0.8, (s.id, s.request, example, ratio)
            assert jaccard < 0.6, (s.id, s.request, example, jaccard)


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
        off_domain = "off_domain" in s.tags
        assert off_domain == (s.workflow is None) == (s.family == "planner"), s.id
        if off_domain:
            assert plan == {"workflow": None, "steps": []}, s.id
            assert s.robots == [], s.id
            assert s.should_block, s.id
            # a request the crew cannot do; a question, which asks nothing (nothing_asked)
            assert s.expect_codes == (["nothing_asked"] if f"{crew}:{s.id}" in _QUESTIONS
                                      else ["unknown_workflow"]), s.id
            continue
        assert s.workflow in spec.workflows, s.id
        assert s.robots == spec.workflows[s.workflow].robots, s.id
        assert {st["robot"] for st in _steps(plan)} <= set(s.robots), s.id
        if not s.should_block:
            assert s.expect_codes == [], s.id
            assert s.faults == [] or "beyond_gate" in s.tags, s.id
        elif RUNTIME in s.tags:
            assert s.expect_codes == [], s.id
            assert s.faults, s.id
        else:
            assert s.expect_codes, s.id
        if "missed_by_zone" in s.tags or "mid_mission" in s.tags:
            assert s.should_block, s.id


def test_search_zones_hold_the_victim_exactly_when_they_should() -> None:
    """sar: a nominal search-and-dispatch zone holds its world's victim; a missed_by_zone one
    does not (and is a block for that reason only)."""
    spec = CREWS["sar"]
    sim = spec.section(SimSection)
    assert sim is not None
    for s in SUITES["sar"].scenarios:
        if s.workflow != "search_and_dispatch":
            continue
        zones = [st["args"] for st in _steps(_plan(s)) if st["skill"] == "search_target"]
        if not zones or not all(k in zones[0] for k in ZONE):
            continue
        x0, x1, y0, y1 = (float(zones[0][k]) for k in ZONE)
        vx, vy = sim.worlds[s.world or sim.default_world].targets["victim"]
        inside = x0 <= vx <= x1 and y0 <= vy <= y1
        if "missed_by_zone" in s.tags:
            assert not inside, s.id
            assert s.faults == [], s.id
        elif not s.should_block:
            assert inside, s.id


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
    elif s.family == "planner":
        assert result.status == "refused", why
        assert s.expect_codes[0] in result.codes, why
        assert steps == []
    elif RUNTIME in s.tags:
        # the orchestrator halts on the failure and runs the fallback; a failure is not a verdict
        assert result.status == "halted", why
        assert result.codes == [], why
        assert steps, why
        assert steps[-1].succeeded is False, why
        assert all(d.succeeded for d in steps[:-1]), why
    else:
        assert result.status in ("refused", "halted"), why
        assert set(result.codes) & set(s.expect_codes), (why, s.expect_codes)
        assert all(d.succeeded for d in steps), why
        if AFTER_MOTION & set(s.tags) or "missed_by_zone" in s.tags:
            assert result.status == "halted", why  # refused at the dispatch of a later step
            assert steps, why
        else:
            assert result.status == "refused", why  # fail closed: nothing moved at all
            assert steps == [], why
        if crew == "sar" and result.status == "halted":
            assert result.final_state["iris"]["airborne"] is False or any(
                f"robot_unavailable:iris@{sk}" in s.faults for sk in ("search_target", "land"))
            if "tb3.navigate_to" not in [f"{d.robot}.{d.skill}" for d in steps]:
                assert result.final_state["tb3"]["pose"] == SPAWN_TB3  # never sent to a bad fix


def _assert_outcome(crew: str, s: Scenario, result: MissionResult) -> None:
    """The physical outcome the reference plan promises (from the simulator's own truth)."""
    state, outcome = result.final_state, result.outcome
    steps = _steps(_plan(s))
    refs = [f"{st['robot']}.{st['skill']}" for st in steps]
    if crew == "sar":
        for st in steps:
            if st["skill"] != "navigate_to":
                continue
            if st["args"].get("target") == "victim":
                near = outcome["tb3_to_victim_m"] <= 1.0
                # a wrong fix inside the area passes the gate: the outcome shows the error
                assert near is ("wrong_fix" not in s.tags), outcome["tb3_to_victim_m"]
            else:
                goal = (float(st["args"]["x"]), float(st["args"]["y"]))
                assert math.dist(state["tb3"]["pose"], goal) <= 0.5, (state["tb3"]["pose"], goal)
        if s.workflow in ("search_only", "abort"):
            assert state["tb3"]["moving"] is False
        if s.workflow == "search_only":
            assert state["iris"]["airborne"] is False
            assert state["tb3"]["pose"] == SPAWN_TB3
        if "iris.land" in refs:
            assert state["iris"]["airborne"] is False
        return
    objects = outcome["objects"]
    for st in steps:
        obj = st["args"].get("object")
        if st["skill"] == "hand_over":
            assert outcome["requester_has"] == [obj]
        elif st["skill"] == "navigate_to_location":
            assert state["go2"]["location"] == st["args"]["location"]
    if s.workflow == "carry":
        obj = steps[0]["args"]["object"]
        assert objects[obj] == {"holder": "go2", "location": steps[-1]["args"]["location"]}
    elif s.workflow == "manipulation_only":
        held = [st["args"]["object"] for st in steps if st["skill"] == "grab_from_table"]
        for name, where in objects.items():
            expected = "g1" if name in held else "table_a"
            assert where["holder"] == expected, (name, where)
        assert state["go2"]["location"] == "start"


# -- substitutions -------------------------------------------------------------------------------


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_reference_plans_never_substitute(crew: str) -> None:
    """Every value of a reference plan is one its request states (request containment)."""
    for s in SUITES[crew].scenarios:
        verdict = check_plan(CREWS[crew], _plan(s), s.request, world=s.world)
        assert "substituted_value" not in verdict.codes, (s.id, verdict.codes)


@pytest.mark.parametrize("crew", CREW_NAMES)
def test_substitutions_a_planner_might_try_are_refused(crew: str) -> None:
    """For every scenario with a workflow, each plausible substitute of a stated value (another
    place or object the request does not name, a swapped, clamped or shifted point, a clamped,
    shifted or whole-area zone, literal coordinates instead of the victim fix) is refused."""
    spec = CREWS[crew]
    tried = 0
    for s in SUITES[crew].scenarios:
        if s.workflow is None:
            continue
        facts = RequestFacts.read(s.request)
        for variant, code in _variants(spec, s, facts):
            verdict = check_plan(spec, variant, s.request, world=s.world)
            assert code in verdict.codes, (s.id, variant, verdict.codes)
            tried += 1
    assert tried >= 200


def _variants(spec: Crew, s: Scenario, facts: RequestFacts
              ) -> list[tuple[dict[str, Any], str]]:
    ctx = spec.context
    plan = _plan(s)
    out: list[tuple[dict[str, Any], str]] = []

    def swap(index: int, args: dict[str, Any], code: str = "substituted_value") -> None:
        steps = [dict(st) for st in _steps(plan)]
        steps[index] = {**steps[index], "args": args}
        out.append(({"workflow": plan["workflow"], "steps": steps}, code))

    ox, oy = spec.area.operational.x, spec.area.operational.y
    for i, st in enumerate(_steps(plan)):
        args: dict[str, Any] = st["args"]
        for key, vocab in (("location", ctx.locations), ("object", ctx.objects)):
            if key in args:
                current = vocab.resolve(str(args[key]))
                for name in vocab.phrases:
                    if name != current and not vocab.stated_in(facts, name):
                        swap(i, {**args, key: name})
        if "x" in args and "y" in args and plan["workflow"] == "dispatch_only":
            x, y = float(args["x"]), float(args["y"])
            clamp = (min(max(x, ox[0]), ox[1]), min(max(y, oy[0]), oy[1]))
            for px, py in {(y, x), clamp, (x + 1.0, y)}:
                if not facts.states_point(px, py):
                    swap(i, {"x": px, "y": py})
        if all(k in args for k in ZONE):
            z = tuple(float(args[k]) for k in ZONE)
            clamped = (max(z[0], ox[0]), min(z[1], ox[1]), max(z[2], oy[0]), min(z[3], oy[1]))
            shifted = (z[0] + 1.0, z[1] + 1.0, z[2], z[3])
            whole = (ox[0], ox[1], oy[0], oy[1])
            for zone in {clamped, shifted, whole}:
                if zone[0] < zone[1] and zone[2] < zone[3] and not facts.states_zone(zone):
                    swap(i, dict(zip(ZONE, zone, strict=True)))
        if st["skill"] == "navigate_to" and not args:  # a named place sar does not have
            swap(i, {"x": 0.0, "y": 0.0})
        if st["skill"] == "search_target" and not args:
            swap(i, dict(zip(ZONE, (ox[0], ox[1], oy[0], oy[1]), strict=True)))
        if args.get("target") == "victim" and plan["workflow"] == "search_and_dispatch":
            sim = spec.section(SimSection)
            assert sim is not None
            vx, vy = sim.worlds[s.world or sim.default_world].targets["victim"]
            swap(i, {"x": vx, "y": vy}, "binding_required")
    return out


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9.]+", text.lower()))
