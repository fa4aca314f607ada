"""The study's 40 scenarios end to end on the simulator, with correct scripted plans: nominal
missions complete with the expected physical outcome; fault missions are refused before any
violating actuation."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from crewgate.orchestrator import MissionResult
from crewgate.spec import Crew, load_crew
from crewgate.suites import Scenario, load_suite
from tests.conftest import Runner

ORACLE: dict[str, dict[str, dict[str, Any]]] = yaml.safe_load(
    (Path(__file__).parents[1] / "data" / "study_oracle.yaml").read_text(encoding="utf-8"))
CASES = [(crew, s) for crew in ("sar", "g1_go2") for s in load_suite(crew, "study").scenarios]
PERCEPTION = {"nan_transmission", "missed_detection"}


def test_the_suites_are_the_studys_twenty_per_crew() -> None:
    for crew in ("sar", "g1_go2"):
        suite = load_suite(crew, "study")
        assert len(suite.scenarios) == 20
        assert sum(s.should_block for s in suite.scenarios) == 8
        assert [s.id for s in suite.scenarios] == list(ORACLE[crew])


@pytest.mark.parametrize(("crew_name", "scenario"), CASES, ids=[s.id for _, s in CASES])
def test_study_scenario(crew_name: str, scenario: Scenario, run: Runner) -> None:
    crew = load_crew(crew_name)
    entry = ORACLE[crew_name][scenario.id]
    result = run(crew, scenario.request, entry["plan"], faults=scenario.faults)
    if scenario.should_block:
        _assert_blocked(crew, scenario, result)
        for variant in entry.get("variants", []):
            _assert_blocked(crew, scenario, run(crew, scenario.request, variant,
                                                faults=scenario.faults))
    else:
        assert result.status == "completed", (result.codes, result.reason)
        assert result.attempts[0].plan is not None
        assert result.attempts[0].plan.workflow == scenario.workflow
        _assert_outcome(result, entry["expect"])


def _assert_blocked(crew: Crew, scenario: Scenario, result: MissionResult) -> None:
    assert result.status in ("refused", "halted")
    assert set(result.codes) & set(scenario.expect_codes), (result.codes, scenario.expect_codes)
    steps = [d for d in result.dispatched if d.kind == "step"]
    assert all(d.codes == [] for d in steps)  # nothing violating was ever dispatched
    if scenario.study_fault in PERCEPTION:
        # the drone searched (legitimately); the rover never received the bad fix
        assert [f"{d.robot}.{d.skill}" for d in steps] == ["iris.takeoff", "iris.search_target"]
        assert result.final_state["tb3"]["pose"] == [-2.0, -2.0]
        assert result.final_state["iris"]["airborne"] is False  # the fallback landed it
    else:
        assert result.status == "refused"
        assert steps == []  # fail closed at plan level: nothing moved at all


def _assert_outcome(result: MissionResult, expect: dict[str, Any]) -> None:
    state, outcome = result.final_state, result.outcome
    for key, value in expect.items():
        if key == "near_victim_m":
            assert outcome["tb3_to_victim_m"] <= value
        elif key == "landed":
            assert state["iris"]["airborne"] is (not value)
        elif key == "fix_published":
            victim = result.bindings.get("victim")
            assert victim is not None
            assert math.dist(victim["value"], outcome["victim"]) < 1.0
        elif key == "rover_still":
            assert state["tb3"]["pose"] == [-2.0, -2.0]
            assert state["tb3"]["moving"] is False
        elif key == "rover_at":
            assert math.dist(state["tb3"]["pose"], value) <= 0.5
        elif key == "requester_has":
            assert outcome["requester_has"] == value
        elif key == "object":
            name, holder, location = value
            assert outcome["objects"][name] == {"holder": holder, "location": location}
        elif key == "go2_at":
            assert state["go2"]["location"] == value
        elif key == "nothing_moved":
            assert state["go2"]["location"] == "start"
            assert all(o["holder"] == "table_a" for o in outcome["objects"].values())
        else:
            raise AssertionError(f"unknown expectation {key}")
