"""Adding a crew needs a YAML file only: a third crew, defined in tests/data, is validated,
rendered for the planner, gated and run on the simulator without a line of code."""

from __future__ import annotations

from crewgate.conditions import Knowledge
from crewgate.gate import Gate
from crewgate.plan import parse_plan
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew
from tests.conftest import Runner, plan, sim_world

REQUEST = "Move the blue pallet from the first bay to the loading dock."
GOOD = plan("move_pallet", ("fork", "lift", {"pallet": "blue pallet"}),
            ("fork", "move_to", {"location": "loading dock"}), ("fork", "lower", {}))


def test_the_third_crew_is_rendered_from_its_yaml(warehouse: Crew) -> None:
    text = render_context(warehouse, Knowledge.CONTRACTS)
    assert "fork.move_to(location: a location name" in text
    assert "### move_pallet:" in text
    assert "fork.lower only after fork.lift has completed (lift before lowering)" in text
    assert "keep out of office" in text
    schema = plan_json_schema(warehouse)
    assert schema["properties"]["workflow"]["enum"] == ["move_pallet"]


def test_the_third_crew_is_gated(warehouse: Crew) -> None:
    gate = Gate(warehouse)
    assert gate.validate(parse_plan(GOOD), REQUEST, sim_world(warehouse)).accepted
    wrong = plan("move_pallet", ("fork", "lift", {"pallet": "red pallet"}),
                 ("fork", "move_to", {"location": "bay_2"}), ("fork", "lower", {}))
    verdict = gate.validate(parse_plan(wrong), REQUEST, sim_world(warehouse))
    # the red pallet is at bay_2, the forklift at bay_1: it cannot lift it where it stands
    assert [s.codes for s in verdict.steps] == [["substituted_value", "precondition_failed"],
                                                ["substituted_value"], []]
    early = plan("move_pallet", ("fork", "lower", {}), ("fork", "lift", {"pallet": "pallet_a"}))
    verdict = gate.validate(parse_plan(early), REQUEST, sim_world(warehouse))
    assert {"order_violation", "precondition_failed"} <= set(verdict.steps[0].codes)


def test_the_third_crew_runs_on_the_generic_simulator(warehouse: Crew, run: Runner) -> None:
    result = run(warehouse, REQUEST, GOOD)
    assert result.status == "completed"
    assert result.final_state["fork"]["location"] == "dock"
    assert result.outcome["objects"]["pallet_a"] == {"holder": "dock", "location": "dock"}
    assert result.outcome["objects"]["pallet_b"] == {"holder": "bay_2", "location": "bay_2"}
    assert result.execution_s >= 8 + 3 + 3  # the nominal durations of its three skills


def test_the_third_crew_halts_into_its_fallback(warehouse: Crew, run: Runner) -> None:
    result = run(warehouse, REQUEST, GOOD, faults=["skill_failure:fork.move_to"])
    assert result.status == "halted"
    assert [f"{d.robot}.{d.skill}" for d in result.dispatched if d.kind == "fallback"] == [
        "fork.lower"]  # it was carrying the pallet: put it down
    assert result.final_state["fork"]["load"] is None


def test_a_correction_takes_back_only_the_kind_of_thing_it_names(warehouse: Crew) -> None:
    """"... actually, bay_2" replaces the dock, not the pallet (the pallet's lift was refused
    as taken back); a correction that names no thing takes back every thing before it."""
    gate = Gate(warehouse)
    request = "Move the blue pallet to the dock... actually, bay_2."
    to = {place: plan("move_pallet", ("fork", "lift", {"pallet": "pallet_a"}),
                      ("fork", "move_to", {"location": place}), ("fork", "lower", {}))
          for place in ("bay_2", "dock")}
    assert gate.validate(parse_plan(to["bay_2"]), request, sim_world(warehouse)).accepted
    refused = gate.validate(parse_plan(to["dock"]), request, sim_world(warehouse))
    assert [(p.index, p.code.value, p.detail) for p in refused.all_problems] == [
        (1, "negated_step", "the request rules out fork.move_to here: 'dock... actually'")]
    taken = gate.validate(parse_plan(to["dock"]), "Move the blue pallet to the dock, no wait, "
                          "lower it first.", sim_world(warehouse))
    assert [(p.index, p.code.value) for p in taken.all_problems] == [
        (0, "negated_step"), (1, "negated_step")]
