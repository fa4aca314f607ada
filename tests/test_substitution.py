"""Substitution classes of refusals (crewgate.substitution): every problem of a verdict falls in
exactly one class, told by its code and, for values, by its parameter's kind."""

from __future__ import annotations

from collections import Counter

from crewgate.api import check_plan
from crewgate.spec import Crew
from crewgate.substitution import CLASSES, classes
from tests.conftest import SAD, SAD_PLAN, plan


def _classes(crew: Crew, request: str, proposed: dict[str, object]) -> Counter[str]:
    verdict = check_plan(crew, proposed, request)
    problems = [*verdict.problems, *(p for s in verdict.steps for p in s.problems)]
    return classes(problems, crew)


def test_each_kind_of_substitution_has_its_class(sar: Crew, g1_go2: Crew) -> None:
    zone = {"x_min": 50, "x_max": 60, "y_min": 50, "y_max": 60}
    steps = SAD_PLAN["steps"]
    assert isinstance(steps, list)
    assert _classes(sar, SAD, {**SAD_PLAN, "steps": [steps[0], {
        **steps[1], "args": zone}, steps[2]]}) == Counter({"zone": 2})
    assert _classes(sar, SAD, {**SAD_PLAN, "steps": [steps[0], {
        "robot": "iris", "skill": "sweep_zone", "args": {}}, steps[2]]}) == Counter(
        {"invented skill": 1, "workflow": 1, "other": 2})
    assert _classes(g1_go2, "Send the dog to room_b.", plan(
        "navigation_only", ("go2", "navigate_to_location", {"location": "room_a"}))) == Counter(
        {"location": 1})
    assert _classes(g1_go2, "Send the dog to room_b.", plan(
        "navigation_only", ("g1", "navigate_to_location", {"location": "room_b"}))) == Counter(
        {"invented skill": 1, "workflow": 1, "other": 1})
    assert _classes(g1_go2, "Carry the bottle to table_b.", plan(
        "carry", ("g1", "grab_from_table", {"object": "block"}),
        ("g1", "place_on_table", {}), ("go2", "navigate_to_location",
                                       {"location": "table_b"}))) == Counter(
        {"object": 1, "action": 1})
    assert _classes(sar, "Move the ground robot to x 2.5, y 1.0.", plan(
        "dispatch_only", ("tb3", "navigate_to", {"x": 40, "y": 45}))) == Counter(
        {"point/number": 2})
    assert _classes(g1_go2, "Have the humanoid walk over to the charging dock.", plan(
        "navigation_only", ("go2", "navigate_to_location", {"location": "charging"}))) == \
        Counter({"robot": 1})
    assert CLASSES == ("location", "zone", "point/number", "object", "robot", "action",
                       "workflow", "invented skill", "other")
