"""Objects are world state (issue 12): where each object is (a place, the robot holding it, the
requester) is kept by the backend and read by conditions, ``$param.at`` (the object an argument
names) or ``OBJECT.at``, at plan time on the world as the plan starts and at dispatch on live
state. "Move the red pallet to the first bay" with the pallet at bay_2 and the forklift at
bay_1 is refused with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crewgate.api import check_plan, run_mission
from crewgate.errors import SpecError
from crewgate.planners import ScriptedPlanner
from crewgate.spec import Crew, load_crew
from tests.conftest import WAREHOUSE, plan

RED_TO_BAY_1 = "Take the red pallet from bay_2 to the first bay."


def lift_then_go() -> dict[str, Any]:
    return plan("move_pallet", ("fork", "lift", {"pallet": "pallet_b"}),
                ("fork", "move_to", {"location": "bay_1"}), ("fork", "lower", {}))


def go_lift_go() -> dict[str, Any]:
    return plan("move_pallet", ("fork", "move_to", {"location": "bay_2"}),
                ("fork", "lift", {"pallet": "pallet_b"}),
                ("fork", "move_to", {"location": "bay_1"}), ("fork", "lower", {}))


def test_a_pallet_that_is_not_where_the_forklift_is_is_not_lifted(warehouse: Crew) -> None:
    v = check_plan(warehouse, lift_then_go(), RED_TO_BAY_1)
    assert [(s.index, p.code.value, p.detail) for s in v.steps for p in s.problems] == [
        (0, "precondition_failed",
         "fork.lift needs $pallet.at == $location but pallet_b is at bay_2")]


def test_going_to_the_pallet_first_is_accepted_and_moves_it(warehouse: Crew) -> None:
    assert check_plan(warehouse, go_lift_go(), RED_TO_BAY_1).accepted
    result = run_mission(warehouse, RED_TO_BAY_1, ScriptedPlanner([go_lift_go()]),
                         journal=":memory:")
    assert (result.status, result.codes) == ("completed", [])
    assert result.outcome["objects"]["pallet_b"] == {"holder": "bay_1", "location": "bay_1"}


def test_where_an_object_is_now_counts(g1_go2: Crew) -> None:
    """The humanoid can only grab what is on its table: once the cube rides on the dog, a
    plan to grab it again is refused, naming where it is."""
    carry = plan("carry", ("g1", "grab_from_table", {"object": "red_cube"}),
                 ("g1", "place_on_table", {}),
                 ("go2", "navigate_to_location", {"location": "room_b"}))
    again = plan("manipulation_only", ("g1", "grab_from_table", {"object": "red_cube"}))
    planner = ScriptedPlanner([carry])
    from crewgate.adapters.sim import SimAdapter
    from crewgate.journal import Journal

    adapter = SimAdapter(g1_go2)
    journal = Journal(":memory:")
    first = run_mission(g1_go2, "bring the red cube to room_b", planner, adapter=adapter,
                        journal=journal)
    assert first.status == "completed"
    second = run_mission(g1_go2, "pick up the red cube and hold it",
                         ScriptedPlanner([again]), adapter=adapter, journal=journal)
    assert (second.status, second.dispatched) == ("refused", [])
    details = [p.detail for r in second.refusals for p in r.problems]
    assert details == ["g1.grab_from_table needs $object.at == $at but red_cube is at go2"]


@pytest.mark.parametrize(("condition", "message"), [
    ("$pallet.weight == 3", "$pallet.weight: an object has one field, 'at' (where it is); "
     "write $pallet.at"),
    ("$palet.at == $location", "$palet names no parameter of the skill (did you mean "
     "'pallet'?)"),
    ("pallet_a.height == 1", "pallet_a.height: an object has one field, 'at'"),
])
def test_a_condition_on_an_object_is_checked_when_the_crew_loads(
        tmp_path: Path, condition: str, message: str) -> None:
    text = WAREHOUSE.read_text(encoding="utf-8").replace(
        '"$pallet.at == $location"', f'"{condition}"', 1)
    crew = tmp_path / "warehouse.yaml"
    crew.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_crew(crew)
    assert message in str(err.value)


def test_a_non_object_parameter_cannot_be_read_as_an_object(tmp_path: Path) -> None:
    text = WAREHOUSE.read_text(encoding="utf-8").replace(
        '"$pallet.at == $location"', '"$pallet.at == $location"', 1).replace(
        "      move_to:\n        description: Drive to a location.\n        params:\n"
        "          location: {type: location}\n",
        "      move_to:\n        description: Drive to a location.\n        params:\n"
        "          location: {type: location}\n        preconditions: [\"$location.at == x\"]\n",
        1)
    crew = tmp_path / "warehouse.yaml"
    crew.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_crew(crew)
    assert "$location is not an object parameter (its type is location)" in str(err.value)


def test_within_one_plan_the_objects_are_where_its_earlier_steps_put_them(g1_go2: Crew
                                                                          ) -> None:
    """Predicted, as the simulator moves them: once the plan has loaded the cube onto the dog,
    a later grab of it is refused at plan time, before anything moves."""
    twice = plan("manipulation_only", ("g1", "grab_from_table", {"object": "red_cube"}),
                 ("g1", "place_on_table", {}),
                 ("g1", "grab_from_table", {"object": "red_cube"}))
    v = check_plan(g1_go2, twice, "pick up the red cube, load it, and pick it up again")
    assert "g1.grab_from_table needs $object.at == $at but red_cube is at go2" in [
        p.detail for p in v.steps[2].problems]
    assert [p.code.value for p in v.steps[0].problems] == []
