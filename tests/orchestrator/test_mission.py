"""The mission loop: fail closed, one structured replan, dispatch-time re-authorization, halt and
safe fallback, enforcement off for the baselines."""

from __future__ import annotations

from typing import Any

import pytest

from crewgate.adapters.sim import SimAdapter
from crewgate.api import run_mission
from crewgate.errors import GateViolation, PlannerError
from crewgate.gate import Gate, MissionGate
from crewgate.journal import Journal
from crewgate.orchestrator import MissionResult
from crewgate.plan import Plan, Step, parse_plan
from crewgate.planners import Planner, PlanningRequest, Proposal, ScriptedPlanner
from crewgate.sim.faults import parse_faults
from crewgate.spec import Crew
from tests.conftest import SAD, SAD_PLAN, SAD_ZONE, Runner, plan, sim_world

ZONE = SAD_ZONE
DISPATCH = "Drive the rover to position x 3.0, y -2.0."
BAD_DISPATCH = plan("dispatch_only", ("tb3", "navigate_to", {"x": 40.0, "y": 45.0}))
GOOD_DISPATCH = plan("dispatch_only", ("tb3", "navigate_to", {"x": 3.0, "y": -2.0}))


def refs(result: MissionResult, kind: str = "step") -> list[str]:
    return [f"{d.robot}.{d.skill}" for d in result.dispatched if d.kind == kind]


def kinds(journal: Journal, result: MissionResult) -> list[str]:
    return [e.kind for e in journal.events(result.mission_id)]


def test_nominal_mission_completes_with_physical_outcome(sar: Crew, run: Runner) -> None:
    result = run(sar, SAD, SAD_PLAN)
    assert result.status == "completed"
    assert result.clean
    assert refs(result) == ["iris.takeoff", "iris.search_target", "tb3.navigate_to"]
    assert result.outcome["tb3_to_victim_m"] < 1.0
    assert result.execution_s > 30  # simulated seconds of flight and driving


def test_invalid_plan_moves_nothing_and_is_refused_after_one_replan(
    sar: Crew, run: Runner, journal: Journal
) -> None:
    result = run(sar, DISPATCH, BAD_DISPATCH)
    assert result.status == "refused"
    assert result.dispatched == []
    assert result.final_state["tb3"]["pose"] == [-2.0, -2.0]
    assert [a.number for a in result.attempts] == [1, 2]
    assert result.codes == ["out_of_bounds", "substituted_value"]
    assert [(r.index, r.codes, r.stage) for r in result.refusals] == [
        (0, result.attempts[1].verdict.steps[0].codes, "plan")]
    assert kinds(journal, result).count("replan") == 1
    assert "dispatch" not in kinds(journal, result)


def test_replan_gets_structured_feedback_and_can_succeed(sar: Crew, journal: Journal) -> None:
    planner = ScriptedPlanner([BAD_DISPATCH, GOOD_DISPATCH])
    from crewgate.api import run_mission

    result = run_mission(sar, DISPATCH, planner, journal=journal)
    assert result.status == "completed"
    assert len(planner.requests) == 2
    first, second = planner.requests
    assert first.feedback == ()
    assert first.attempt == 1
    assert second.attempt == 2
    feedback = list(second.feedback)
    assert {k: feedback[0][k] for k in ("index", "code")} == {"index": 0, "code": "out_of_bounds"}
    assert "(40, 45)" in feedback[0]["detail"]
    assert refs(result) == ["tb3.navigate_to"]


class SameAnswer(ScriptedPlanner):
    """Answers every attempt alike, as the exemplar does (its answer is the request's alone)."""

    replans = False


def test_a_planner_that_would_answer_the_same_is_not_asked_again(
        sar: Crew, journal: Journal) -> None:
    from crewgate.planners.exemplar.planner import ExemplarPlanner

    planner = SameAnswer([BAD_DISPATCH, GOOD_DISPATCH])
    result = run_mission(sar, DISPATCH, planner, journal=journal)
    assert result.status == "refused"
    assert len(planner.requests) == 1
    assert [a.number for a in result.attempts] == [1]
    assert result.codes == ["out_of_bounds", "substituted_value"]
    assert "replan" not in kinds(journal, result)
    assert ExemplarPlanner.replans is False
    assert ScriptedPlanner.replans is True


def test_malformed_output_is_refused_not_raised(sar: Crew, run: Runner) -> None:
    result = run(sar, DISPATCH, "Sorry, I can't produce JSON today.")
    assert result.status == "refused"
    assert result.codes == ["malformed_plan"]
    assert result.dispatched == []


class _Broken(Planner):
    name = "broken"

    def _propose(self, request: PlanningRequest) -> Proposal:
        raise PlannerError("connection refused by http://127.0.0.1:9/v1")


def test_planner_error_is_a_refused_mission(sar: Crew, journal: Journal) -> None:
    from crewgate.api import run_mission

    result = run_mission(sar, DISPATCH, _Broken(), journal=journal)
    assert result.status == "refused"
    assert result.planner_error is not None
    assert "connection refused" in result.planner_error
    assert result.dispatched == []
    assert "planner_error" in kinds(journal, result)


@pytest.mark.parametrize("condition", ["ro", "llm-only"])
def test_a_mission_begun_under_an_estop_halts_before_its_planner_is_asked(
        sar: Crew, journal: Journal, condition: str) -> None:
    class Counting(ScriptedPlanner):
        asked = 0

        def _propose(self, request: PlanningRequest) -> Proposal:
            Counting.asked += 1
            return super()._propose(request)

    adapter = SimAdapter(sar, None)
    adapter.engage_stop("e-stop engaged by vic")
    result = run_mission(sar, DISPATCH, Counting([GOOD_DISPATCH]), journal=journal,
                         adapter=adapter, condition=condition)
    assert Counting.asked == 0
    assert (result.status, result.reason) == (
        "halted", "stopped before planning: e-stop engaged by vic; nothing was planned or sent")
    assert (result.dispatched, result.attempts) == ([], [])
    assert kinds(journal, result) == ["mission_started", "halt", "mission_ended"]
    assert result.final_state["tb3"]["pose"] == [-2.0, -2.0]


def test_robot_dropping_out_mid_mission_halts_and_lands_the_drone(
    sar: Crew, run: Runner, journal: Journal
) -> None:
    result = run(sar, SAD, SAD_PLAN, faults=["robot_unavailable:tb3@search_target"])
    assert result.status == "halted"
    assert result.codes == ["robot_unavailable"]
    assert refs(result) == ["iris.takeoff", "iris.search_target"]
    assert refs(result, "fallback") == ["iris.land"]
    assert result.final_state["iris"]["airborne"] is False
    assert [(r.index, r.codes, r.stage, r.robot) for r in result.refusals] == [
        (2, ["robot_unavailable"], "dispatch", "tb3")]
    assert result.refusals[0].t > 30  # refused when the rover's turn came, after the search
    events = kinds(journal, result)
    assert events.index("halt") < events.index("fallback")


@pytest.mark.parametrize(
    ("fault", "code"),
    [
        ("missed_detection", "no_target_fix"),
        ("nan_fix", "no_target_fix"),
        ("stale_fix", "stale_binding"),
        ("fix_offset:40,45", "binding_out_of_bounds"),
    ],
)
def test_perception_faults_are_refused_at_the_rover_dispatch(
    sar: Crew, run: Runner, fault: str, code: str
) -> None:
    result = run(sar, SAD, SAD_PLAN, faults=[fault])
    assert result.status == "halted"
    assert result.codes == [code]
    assert "tb3.navigate_to" not in refs(result)
    assert result.final_state["tb3"]["pose"] == [-2.0, -2.0]
    assert result.final_state["iris"]["airborne"] is False


def test_a_wrong_but_plausible_fix_is_beyond_the_gate(sar: Crew, run: Runner) -> None:
    """A fix inside the area, fresh and finite, is dispatched: the outcome shows the error."""
    result = run(sar, SAD, SAD_PLAN, faults=["fix_offset:0,5"])
    assert result.status == "completed"
    assert result.outcome["tb3_to_victim_m"] > 3.0


def test_skill_failure_halts_and_runs_the_fallback(sar: Crew, run: Runner) -> None:
    result = run(sar, SAD, SAD_PLAN, faults=["skill_failure:iris.search_target"])
    assert result.status == "halted"
    assert "injected failure" in result.reason
    assert refs(result) == ["iris.takeoff", "iris.search_target"]
    assert refs(result, "fallback") == ["iris.land"]


def test_adapter_timeout_is_cancelled_not_retried(sar: Crew, run: Runner) -> None:
    result = run(sar, DISPATCH, GOOD_DISPATCH, faults=["adapter_timeout:tb3.navigate_to"])
    assert result.status == "halted"
    assert "timed out after 300 s" in result.reason
    assert refs(result) == ["tb3.navigate_to"]  # dispatched once, never again
    assert refs(result, "fallback") == ["tb3.stop"]
    assert result.execution_s >= 300


def test_enforcement_off_dispatches_and_records_the_same_verdicts(
    sar: Crew, run: Runner
) -> None:
    result = run(sar, SAD, SAD_PLAN, faults=["nan_fix"], condition="ro-prompt")
    assert result.status == "completed"  # ran to the end of the plan
    nav = result.dispatched[2]
    assert (nav.robot, nav.skill) == ("tb3", "navigate_to")
    assert nav.codes == ["no_target_fix"]
    assert result.codes == ["no_target_fix"]  # what the gate found and let through
    assert not result.clean
    assert len(result.attempts) == 1


def test_enforcement_off_executes_a_stale_fix(sar: Crew, run: Runner) -> None:
    result = run(sar, SAD, SAD_PLAN, faults=["stale_fix"], condition="ro-prompt")
    assert result.dispatched[2].codes == ["stale_binding"]
    assert result.outcome["tb3_to_victim_m"] < 1.0  # it drove, on an unchecked value


def test_enforcement_off_dispatches_an_invalid_plan(sar: Crew, run: Runner) -> None:
    result = run(sar, DISPATCH, BAD_DISPATCH, condition="skill-list")
    assert refs(result) == ["tb3.navigate_to"]
    assert "out_of_bounds" in result.dispatched[0].codes
    assert result.dispatched[0].succeeded is False  # the rover cannot plan a path there


def test_every_authorization_is_consumed_once(sar: Crew) -> None:
    gate = Gate(sar)
    world = sim_world(sar)
    p = parse_plan(plan("abort", ("iris", "land", {}), ("tb3", "stop", {})))
    assert isinstance(p, Plan)
    mg = MissionGate(gate, "m1", "Emergency stop: land the drone and halt the rover.", p)
    auth = mg.authorize(0, p.steps[0], world)
    assert auth.ok
    mg.redeem(auth)
    with pytest.raises(GateViolation, match="already used"):
        mg.redeem(auth)
    other = MissionGate(gate, "m2", "Emergency stop", p)
    foreign = other.authorize(1, p.steps[1], world)
    with pytest.raises(GateViolation):
        mg.redeem(foreign)


def test_a_refused_authorization_cannot_be_redeemed_under_enforcement(sar: Crew) -> None:
    gate = Gate(sar)
    world = sim_world(sar, ["robot_unavailable:tb3"])
    p = parse_plan(GOOD_DISPATCH)
    assert isinstance(p, Plan)
    mg = MissionGate(gate, "m", DISPATCH, p)
    auth = mg.authorize(0, p.steps[0], world)
    assert auth.verdict.codes == ["robot_unavailable"]
    with pytest.raises(GateViolation, match="refused"):
        mg.redeem(auth)


def test_a_step_outside_the_validated_plan_is_off_plan(sar: Crew) -> None:
    gate = Gate(sar)
    world = sim_world(sar)
    p = parse_plan(GOOD_DISPATCH)
    assert isinstance(p, Plan)
    mg = MissionGate(gate, "m", DISPATCH, p)
    swapped = Step("tb3", "navigate_to", {"x": 7.5, "y": 4.0})
    assert "off_plan" in mg.authorize(0, swapped, world).verdict.codes
    assert "off_plan" in mg.authorize(1, p.steps[0], world).verdict.codes


def test_dispatch_time_contract_progress(g1_go2: Crew) -> None:
    """The quadruped's step is refused at dispatch while the loading has not completed."""
    gate = Gate(g1_go2)
    world = sim_world(g1_go2)
    p = parse_plan(plan("carry", ("g1", "grab_from_table", {"object": "red cube"}),
                        ("g1", "place_on_table", {}),
                        ("go2", "navigate_to_location", {"location": "room_b"})))
    assert isinstance(p, Plan)
    mg = MissionGate(gate, "m", "bring the red cube to room_b", p)
    early = mg.authorize(2, p.steps[2], world)
    assert "order_violation" in early.verdict.codes


def test_fallback_skips_robots_the_mission_never_engaged(sar: Crew, run: Runner) -> None:
    result = run(sar, SAD, SAD_PLAN, faults=["skill_failure:iris.takeoff"])
    assert result.status == "halted"
    # it failed half-way up, so it lands; the rover was never engaged, so it is left alone
    assert refs(result, "fallback") == ["iris.land"]
    assert result.final_state["iris"]["airborne"] is False


def test_fallback_when_condition(sar: Crew, run: Runner, journal: Journal) -> None:
    abort = plan("abort", ("iris", "land", {}), ("tb3", "stop", {}))
    result = run(sar, "Emergency stop: land the drone and halt the rover immediately.", abort,
                 faults=["skill_failure:tb3.stop"])
    assert result.status == "halted"
    assert refs(result, "fallback") == ["tb3.stop"]  # iris is on the ground: no landing
    skipped = [e for e in journal.events(result.mission_id) if e.kind == "fallback"
               and e.detail.startswith("skipped")]
    assert [e.robot for e in skipped] == ["iris"]


def _plans_from(result: MissionResult) -> list[dict[str, Any]]:
    return [a.plan.to_json() for a in result.attempts if a.plan is not None]


def test_attempts_record_raw_output_and_planning_time(sar: Crew, run: Runner) -> None:
    result = run(sar, DISPATCH, GOOD_DISPATCH)
    assert _plans_from(result)[0]["steps"][0]["skill"] == "navigate_to"
    assert result.attempts[0].raw.startswith("{")
    assert result.planning_s >= 0.0


ABORT = "Emergency stop: land the drone and halt the rover immediately."
ABORT_PLAN = plan("abort", ("iris", "land", {}), ("tb3", "stop", {}))


def test_an_emergency_stop_stops_what_it_can(sar: Crew, run: Runner, journal: Journal) -> None:
    """abort is a partial (safety) workflow: the drone being down must not keep the rover
    going."""
    result = run(sar, ABORT, ABORT_PLAN, faults=["robot_unavailable:iris"])
    assert result.status == "completed"
    assert refs(result) == ["tb3.stop"]
    assert [(r.stage, r.robot) for r in result.refusals] == [("skip", "iris")]
    assert result.codes == ["robot_unavailable"]
    assert not result.clean  # something asked for could not be done
    assert result.attempts[0].verdict.accepted
    skipped = [e for e in journal.events(result.mission_id) if e.kind == "refusal"]
    assert "skipped" in skipped[0].detail


def test_partial_workflows_still_refuse_other_problems_and_empty_plans(
    sar: Crew, run: Runner
) -> None:
    everyone_down = run(sar, ABORT, ABORT_PLAN,
                        faults=["robot_unavailable:iris", "robot_unavailable:tb3"])
    assert everyone_down.status == "refused"
    assert everyone_down.dispatched == []
    wrong = run(sar, ABORT, plan("abort", ("iris", "land", {}), ("tb3", "navigate_to",
                                                                 {"x": 1, "y": 1})),
                faults=["robot_unavailable:iris"])
    assert wrong.status == "refused"  # bad_assignment is not skippable


def test_other_workflows_stay_fail_closed(sar: Crew, run: Runner) -> None:
    result = run(sar, SAD, SAD_PLAN, faults=["robot_unavailable:tb3"])
    assert result.status == "refused"
    assert result.dispatched == []


class _EstopAt(SimAdapter):
    """The simulator with an e-stop pressed at a given simulated time."""

    def __init__(self, crew: Crew, at_s: float, faults: tuple[str, ...] = ()) -> None:
        super().__init__(crew, faults=parse_faults(faults, crew))
        self.at_s = at_s

    def abort_reason(self) -> str | None:
        return "e-stop pressed" if self.now() >= self.at_s else None


@pytest.mark.parametrize("condition", ["ro", "ro-prompt"])
def test_an_estop_cancels_the_running_step_and_dispatches_nothing_more(
    sar: Crew, journal: Journal, condition: str
) -> None:
    adapter = _EstopAt(sar, at_s=10.0)  # mid-search
    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), adapter=adapter,
                         condition=condition, journal=journal)
    assert result.status == "halted"
    assert refs(result) == ["iris.takeoff", "iris.search_target"]  # never the rover
    assert refs(result, "fallback") == []  # the robots hold their own stop
    assert result.dispatched[1].message == "cancelled: e-stop pressed"
    halt = next(e for e in journal.events(result.mission_id) if e.kind == "halt")
    assert "e-stop" in halt.detail


def test_an_estop_during_the_fallback_cancels_it_too(sar: Crew, journal: Journal) -> None:
    # the rover is refused at ~36 s, and the drone is landing at 37 s
    adapter = _EstopAt(sar, at_s=37.0, faults=("robot_unavailable:tb3@search_target",))
    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), adapter=adapter,
                         journal=journal)
    assert result.status == "halted"
    assert result.codes == ["robot_unavailable"]
    assert refs(result, "fallback") == ["iris.land"]
    landing = next(d for d in result.dispatched if d.kind == "fallback")
    assert landing.message == "cancelled: e-stop pressed"
    assert landing.ended_at is not None
    assert landing.ended_at < 38.0
