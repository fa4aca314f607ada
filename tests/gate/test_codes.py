"""Every verdict code of the gate, produced by the smallest plan that earns it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from crewgate.gate import Gate, MissionGate, PlanVerdict
from crewgate.plan import Plan, parse_plan
from crewgate.spec import Areas, Crew, KeepOut
from crewgate.world import BindingValue, World
from tests.conftest import SAD, SAD_PLAN, SAD_ZONE, plan, sim_world

ZONE = SAD_ZONE


def check(crew: Crew, request: str, p: dict[str, Any] | str, faults: Sequence[str] = ()
          ) -> PlanVerdict:
    return Gate(crew).validate(parse_plan(p), request, sim_world(crew, faults))


def step_codes(v: PlanVerdict) -> list[list[str]]:
    return [s.codes for s in v.steps]


def dispatch_codes(sar: Crew, world: World) -> list[str]:
    """The codes of the rover's dispatch to the victim, the search having completed."""
    plan_ = parse_plan(SAD_PLAN)
    assert isinstance(plan_, Plan)
    mission = MissionGate(Gate(sar), "m", SAD, plan_)
    for step in plan_.steps[:2]:
        mission.started[step.ref] += 1
        mission.completed[step.ref] += 1
    world.update("iris", airborne=True)
    return mission.authorize(2, plan_.steps[2], world).verdict.codes


def test_nominal_search_and_dispatch_is_accepted_and_defers_the_fix(sar: Crew) -> None:
    v = check(sar, SAD, SAD_PLAN)
    assert v.accepted, v.to_json()
    assert v.steps[2].deferred == ("victim",)


# -- grounding -----------------------------------------------------------------------------

def test_unknown_robot(sar: Crew) -> None:
    v = check(sar, SAD, plan("search_and_dispatch", ("drone1", "takeoff", {})))
    assert v.steps[0].codes == ["unknown_robot", "bad_assignment"]


def test_unknown_skill_suggests_the_real_one(sar: Crew) -> None:
    v = check(sar, SAD, plan("search_and_dispatch", ("iris", "take_off", {})))
    assert v.steps[0].codes == ["unknown_skill", "bad_assignment"]
    assert "did you mean 'takeoff'" in v.steps[0].problems[0].detail


def test_hidden_skill_is_unknown_to_plans(g1_go2: Crew) -> None:
    v = check(g1_go2, "go to charging", plan("navigation_only", ("go2", "stop", {})))
    assert v.steps[0].codes == ["unknown_skill", "bad_assignment"]


def test_missing_arg(g1_go2: Crew) -> None:
    v = check(g1_go2, "go to charging", plan("navigation_only", ("go2", "navigate_to_location",
                                                                 {})))
    assert v.steps[0].codes == ["missing_arg"]


def test_one_of_needs_exactly_one_group(sar: Crew) -> None:
    none = check(sar, "Rover: proceed to x 0.0, y 8.0.",
                 plan("dispatch_only", ("tb3", "navigate_to", {})))
    both = check(sar, "Rover: proceed to x 0.0, y 8.0.",
                 plan("dispatch_only", ("tb3", "navigate_to", {"x": 0, "y": 8,
                                                               "target": "victim"})))
    half = check(sar, "Rover: proceed to x 0.0, y 8.0.",
                 plan("dispatch_only", ("tb3", "navigate_to", {"x": 0})))
    assert none.steps[0].codes == ["missing_arg"]
    assert both.steps[0].codes == ["bad_argument"]
    assert half.steps[0].codes == ["missing_arg"]


@pytest.mark.parametrize(
    ("args", "code", "why"),
    [
        ({"altitude": 50}, "out_of_range", "altitude 50 m is outside [1, 10]"),
        ({"altitude": "high"}, "bad_argument", "must be a finite number, got 'high'"),
        ({"altitude": float("nan")}, "bad_argument", "must be a finite number, got nan"),
        ({"altitude": True}, "bad_argument", "must be a finite number, got True"),
        ({"altitude": 10**400}, "bad_argument", "an integer too large to be a number"),
        ({"speed": 2}, "unexpected_argument", "takes no argument 'speed'"),
    ],
)
def test_argument_codes(sar: Crew, args: dict[str, Any], code: str, why: str) -> None:
    v = check(sar, SAD, plan("search_and_dispatch", ("iris", "takeoff", args)))
    assert v.steps[0].codes == [code]
    assert why in " ".join(p.detail for p in v.steps[0].problems)


def test_numeric_strings_are_read_as_numbers(sar: Crew) -> None:
    v = check(sar, SAD, plan("search_and_dispatch", ("iris", "takeoff", {"altitude": "4"})))
    assert v.steps[0].codes == []


def test_unknown_location_and_alias_resolution(g1_go2: Crew) -> None:
    unknown = check(g1_go2, "go to the loading dock",
                    plan("navigation_only", ("go2", "navigate_to_location",
                                             {"location": "loading dock"})))
    alias = check(g1_go2, "send the dog to the charger",
                  plan("navigation_only", ("go2", "navigate_to_location",
                                           {"location": "Charger"})))
    assert unknown.steps[0].codes == ["unknown_location"]
    assert alias.accepted, alias.to_json()


def test_out_of_bounds_point_and_zone(sar: Crew) -> None:
    point = check(sar, "Drive the rover to the old ranger station at x 40.0, y 45.0.",
                  plan("dispatch_only", ("tb3", "navigate_to", {"x": 40.0, "y": 45.0})))
    zone = check(sar, "Sweep the zone x from 50 to 60, y from 50 to 60 for survivors, then land.",
                 plan("search_only", ("iris", "takeoff", {}),
                      ("iris", "search_target", {"x_min": 50, "x_max": 60, "y_min": 50,
                                                 "y_max": 60}), ("iris", "land", {})))
    assert point.steps[0].codes == ["out_of_bounds"]
    assert zone.steps[1].codes == ["out_of_bounds"]


def test_empty_zone_is_a_bad_argument(sar: Crew) -> None:
    v = check(sar, "search x from 5 to 1, y from 0 to 2",
              plan("search_only", ("iris", "takeoff", {}),
                   ("iris", "search_target", {"x_min": 5, "x_max": 1, "y_min": 0, "y_max": 2}),
                   ("iris", "land", {})))
    assert v.steps[1].codes == ["bad_argument"]


def test_keep_out_zone(sar: Crew) -> None:
    pond = KeepOut(name="pond", x=(2.0, 4.0), y=(-3.0, -1.0))
    crew = sar.model_copy(update={"area": Areas(operational=sar.area.operational,
                                                keep_out=[pond])})
    request = "Drive the rover to position x 3.0, y -2.0."
    inside = Gate(crew).validate(parse_plan(plan("dispatch_only", ("tb3", "navigate_to",
                                                                   {"x": 3.0, "y": -2.0}))),
                                 request, sim_world(crew))
    assert inside.steps[0].codes == ["out_of_bounds"]
    assert "keep-out zone 'pond'" in inside.steps[0].problems[0].detail
    zone = Gate(crew).validate(parse_plan(plan(
        "search_only", ("iris", "takeoff", {}), ("iris", "search_target", ZONE),
        ("iris", "land", {}))), "Take off, scan the search square between -5.5 and 5.5 on both "
        "axes for survivors, then land.", sim_world(crew))
    assert zone.steps[1].codes == ["out_of_bounds"]


# -- contract -------------------------------------------------------------------------------

def test_unknown_workflow_is_a_plan_level_problem(sar: Crew) -> None:
    v = check(sar, SAD, {**SAD_PLAN, "workflow": "search_and_rescue"})
    assert [p.code.value for p in v.problems] == ["unknown_workflow"]
    assert "did you mean 'search_and_dispatch'" in v.problems[0].detail
    none = check(sar, SAD, {"steps": SAD_PLAN["steps"]})
    assert [p.code.value for p in none.problems] == ["unknown_workflow"]


def test_bad_assignment_robot_and_step(sar: Crew) -> None:
    v = check(sar, "Drive the rover to position x 3.0, y -2.0.",
              plan("dispatch_only", ("iris", "takeoff", {}),
                   ("tb3", "navigate_to", {"x": 3.0, "y": -2.0})))
    assert v.steps[0].codes == ["bad_assignment", "unrequested_step"]
    abort = check(sar, "Emergency stop: land the drone and halt the rover immediately.",
                  plan("abort", ("iris", "land", {}), ("iris", "takeoff", {})))
    assert abort.steps[1].codes == ["bad_assignment", "unrequested_step"]


def test_cardinality_and_missing_step(sar: Crew) -> None:
    v = check(sar, SAD, plan("search_and_dispatch", ("iris", "takeoff", {}),
                             ("iris", "search_target", ZONE), ("iris", "search_target", ZONE),
                             ("tb3", "navigate_to", {"target": "victim"})))
    assert v.steps[2].codes == ["cardinality"]
    missing = check(sar, "Take off, scan the search square between -5.5 and 5.5 on both axes "
                    "for survivors, then land.",
                    plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", ZONE)))
    assert [p.code.value for p in missing.problems] == ["missing_step", "dropped_request"]
    assert "iris.land" in missing.problems[0].detail
    assert "'land' (iris.land); no step does" in missing.problems[1].detail


def test_empty_plan_misses_steps(sar: Crew) -> None:
    v = check(sar, "Emergency stop: land the drone and halt the rover immediately.",
              plan("abort"))
    assert not v.accepted
    assert [p.code.value for p in v.problems] == ["missing_step", "dropped_request",
                                                 "dropped_request"]
    assert [p.detail.split(";")[0] for p in v.problems[1:]] == [
        "the request asks to 'stop' (tb3.stop)", "the request asks to 'land' (iris.land)"]


def test_order_violation_quadruped_departs_before_loading(g1_go2: Crew) -> None:
    v = check(g1_go2, "bring the red cube to room_b",
              plan("carry", ("g1", "grab_from_table", {"object": "red cube"}),
                   ("go2", "navigate_to_location", {"location": "room_b"}),
                   ("g1", "place_on_table", {})))
    assert v.steps[1].codes == ["order_violation"]
    assert "may not depart before" in " ".join(p.detail for p in v.steps[1].problems)
    # and the humanoid cannot load a quadruped that has left (predicted state)
    assert v.steps[2].codes == ["precondition_failed"]


def test_optional_first_step_of_an_order_rule(g1_go2: Crew) -> None:
    v = check(g1_go2, "give me the bottle, I'm standing right at the table",
              plan("handover", ("g1", "hand_over", {"object": "bottle"})))
    assert v.accepted, v.to_json()
    late = check(g1_go2, "give me the bottle, I'm standing right at the table",
                 plan("handover", ("g1", "hand_over", {}),
                      ("g1", "grab_from_table", {"object": "bottle"})))
    assert late.steps[0].codes == ["order_violation"]


def test_substituted_value(g1_go2: Crew) -> None:
    v = check(g1_go2, "carry the red cube to the rooftop helipad",
              plan("carry", ("g1", "grab_from_table", {"object": "red cube"}),
                   ("g1", "place_on_table", {}),
                   ("go2", "navigate_to_location", {"location": "dropoff"})))
    assert v.steps[2].codes == ["substituted_value"]


def test_substituted_object(g1_go2: Crew) -> None:
    v = check(g1_go2, "take the bottle over to table_b for me",
              plan("carry", ("g1", "grab_from_table", {"object": "red_cube"}),
                   ("g1", "place_on_table", {}),
                   ("go2", "navigate_to_location", {"location": "table_b"})))
    assert v.steps[0].codes == ["substituted_value"]


def test_substituted_coordinates_and_zone(sar: Crew) -> None:
    point = check(sar, "Drive the rover to position x 3.0, y -2.0.",
                  plan("dispatch_only", ("tb3", "navigate_to", {"x": -2.0, "y": 3.0})))
    zone = check(sar, SAD, plan("search_and_dispatch", ("iris", "takeoff", {}),
                                ("iris", "search_target", {"x_min": -5, "x_max": 5, "y_min": -5,
                                                           "y_max": 5}),
                                ("tb3", "navigate_to", {"target": "victim"})))
    assert point.steps[0].codes == ["substituted_value"]
    assert zone.steps[1].codes == ["substituted_value"]


def test_binding_required(sar: Crew) -> None:
    v = check(sar, SAD, plan("search_and_dispatch", ("iris", "takeoff", {}),
                             ("iris", "search_target", ZONE),
                             ("tb3", "navigate_to", {"x": 5.0, "y": 5.0})))
    assert v.steps[2].codes == ["binding_required"]
    assert "not literal x, y" in " ".join(p.detail for p in v.steps[2].problems)


# -- state ----------------------------------------------------------------------------------

def test_robot_unavailable(sar: Crew) -> None:
    v = check(sar, SAD, SAD_PLAN, faults=["robot_unavailable:tb3"])
    assert step_codes(v) == [[], [], ["robot_unavailable"]]


def test_precondition_failed_on_predicted_state(sar: Crew) -> None:
    v = check(sar, "Take off, scan the search square between -5.5 and 5.5 on both axes for "
              "survivors, then land.",
              plan("search_only", ("iris", "search_target", ZONE), ("iris", "takeoff", {}),
                   ("iris", "land", {})))
    assert v.steps[0].codes == ["order_violation", "precondition_failed"]
    assert "airborne == true" in v.steps[0].problems[-1].detail


def test_precondition_with_argument_reference(g1_go2: Crew) -> None:
    v = check(g1_go2, "pick up the bottle from table_b and hold it",
              plan("manipulation_only", ("g1", "grab_from_table",
                                         {"object": "bottle", "location": "table_b"})))
    assert v.steps[0].codes == ["precondition_failed"]


def test_no_target_fix_without_a_search(sar: Crew) -> None:
    v = check(sar, "Drive the rover to the victim", plan(
        "dispatch_only", ("tb3", "navigate_to", {"target": "victim"})))
    # dispatch_only asks for stated coordinates (x, y), and no fix exists either
    assert v.steps[0].codes == ["missing_arg", "no_target_fix"]


@pytest.mark.parametrize(
    ("value", "age", "confidence", "code"),
    [
        ((float("nan"), 1.0), 0.0, 0.9, "no_target_fix"),
        ((1.0, 1.0), 0.0, 0.1, "no_target_fix"),
        ((1.0, 1.0), 500.0, 0.9, "stale_binding"),
        ((40.0, 45.0), 0.0, 0.9, "binding_out_of_bounds"),
    ],
)
def test_binding_rules_at_dispatch(
    sar: Crew, value: tuple[float, float], age: float, confidence: float, code: str
) -> None:
    world = sim_world(sar)
    world.publish("victim", BindingValue(value, world.now() - age, confidence, "iris"))
    assert dispatch_codes(sar, world) == [code]


def test_every_problem_is_reported_at_once(g1_go2: Crew) -> None:
    v = check(g1_go2, "carry the red cube to the rooftop helipad",
              plan("carry", ("g1", "grab_from_table", {"object": "red cube", "location": "table"}),
                   ("go2", "navigate_to_location", {"location": "rooftop helipad"}),
                   ("g1", "place_on_table", {"location": "room_b"})),
              faults=["robot_unavailable:go2"])
    assert step_codes(v) == [["unknown_location"],
                             ["unknown_location", "order_violation", "robot_unavailable"],
                             ["unexpected_argument"]]
    feedback = v.feedback()
    assert {f["index"] for f in feedback} == {0, 1, 2}
    assert all(f["detail"] for f in feedback)


def test_every_binding_rule_is_judged_at_once(sar: Crew) -> None:
    world = sim_world(sar)
    world.publish("victim", BindingValue((40.0, 45.0), world.now() - 500, 0.1, "iris"))
    assert dispatch_codes(sar, world) == ["no_target_fix", "binding_out_of_bounds",
                                          "stale_binding"]
