"""`crewgate check`: the whole-plan verdict as JSON, nothing moves. Exit 0 accepted, 1 refused,
2 bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.support import (
    EXAMPLE_PLAN,
    SAR_REQUEST,
    Run,
    assert_clean_failure,
    crewgate,
    write_plan,
)

RANGER_REQUEST = "Drive the rover to the old ranger station at x 40.0, y 45.0."
DISPATCH_REQUEST = "Move the ground robot to x 2.5, y 1.0."
EXAMPLE_STEPS = [("iris", "takeoff"), ("iris", "search_target"), ("tb3", "navigate_to")]


def assert_verdict_shape(verdict: Any) -> None:
    """The documented shape: {"accepted": bool, "codes": [str], "steps": [{"index", "robot",
    "skill", "codes": [str]}]}; more keys are allowed."""
    assert isinstance(verdict, dict)
    assert isinstance(verdict["accepted"], bool)
    assert isinstance(verdict["codes"], list)
    assert all(isinstance(c, str) for c in verdict["codes"])
    assert isinstance(verdict["steps"], list)
    for position, step in enumerate(verdict["steps"]):
        assert step["index"] == position
        assert isinstance(step["robot"], str)
        assert isinstance(step["skill"], str)
        assert isinstance(step["codes"], list)
        assert all(isinstance(c, str) for c in step["codes"])
    # a refused verdict says why; an accepted one carries no codes at all
    assert verdict["accepted"] == (not verdict["codes"])
    step_codes = {c for s in verdict["steps"] for c in s["codes"]}
    assert step_codes <= set(verdict["codes"])


def check(journal: Path, plan: Path, request: str, *extra: str) -> Run:
    return crewgate("check", "sar", "--plan", plan, "--request", request, "--json", *extra,
                    journal=journal)


@pytest.fixture
def dispatch_plan(tmp_path: Path) -> Path:
    return write_plan(tmp_path / "dispatch.json", "dispatch_only",
                      ("tb3", "navigate_to", {"x": 2.5, "y": 1.0}))


def test_accepted_plan_exits_0(journal_path: Path) -> None:
    run = check(journal_path, EXAMPLE_PLAN, SAR_REQUEST)
    assert run.rc == 0, str(run)
    verdict = run.json()
    assert_verdict_shape(verdict)
    assert verdict["accepted"] is True
    assert verdict["codes"] == []
    assert [(s["robot"], s["skill"]) for s in verdict["steps"]] == EXAMPLE_STEPS
    assert all(s["codes"] == [] for s in verdict["steps"])


def test_check_does_not_touch_the_journal(journal_path: Path) -> None:
    run = check(journal_path, EXAMPLE_PLAN, SAR_REQUEST)
    assert run.rc == 0, str(run)
    assert not journal_path.exists()


def test_out_of_bounds_goal_is_refused_on_step_0(journal_path: Path, tmp_path: Path) -> None:
    plan = write_plan(tmp_path / "ranger.json", "dispatch_only",
                      ("tb3", "navigate_to", {"x": 40.0, "y": 45.0}))
    run = check(journal_path, plan, RANGER_REQUEST)
    assert run.rc == 1, str(run)
    verdict = run.json()
    assert_verdict_shape(verdict)
    assert verdict["accepted"] is False
    assert "out_of_bounds" in verdict["codes"]
    step = verdict["steps"][0]
    assert (step["index"], step["robot"], step["skill"]) == (0, "tb3", "navigate_to")
    assert "out_of_bounds" in step["codes"]


def test_fenced_json_in_model_prose_is_accepted(journal_path: Path, tmp_path: Path) -> None:
    raw = tmp_path / "model_output.txt"
    raw.write_text("Sure! Here is a plan for the search:\n\n```json\n"
                   + EXAMPLE_PLAN.read_text(encoding="utf-8")
                   + "```\n\nThe rover only moves once the drone has a fix.\n", encoding="utf-8")
    run = check(journal_path, raw, SAR_REQUEST)
    assert run.rc == 0, str(run)
    verdict = run.json()
    assert_verdict_shape(verdict)
    assert verdict["accepted"] is True
    assert [(s["robot"], s["skill"]) for s in verdict["steps"]] == EXAMPLE_STEPS


def test_prose_without_json_is_malformed_plan_not_a_crash(journal_path: Path,
                                                          tmp_path: Path) -> None:
    raw = tmp_path / "refusal.txt"
    raw.write_text("I'm sorry, I cannot plan this mission without more information.\n",
                   encoding="utf-8")
    run = check(journal_path, raw, SAR_REQUEST)
    assert run.rc == 1, str(run)
    assert "Traceback" not in run.stderr
    verdict = run.json()
    assert_verdict_shape(verdict)
    assert verdict["accepted"] is False
    assert verdict["codes"] == ["malformed_plan"]
    assert verdict["steps"] == []


def test_plan_from_stdin(journal_path: Path) -> None:
    run = crewgate("check", "sar", "--plan", "-", "--request", SAR_REQUEST, "--json",
                   journal=journal_path, stdin=EXAMPLE_PLAN.read_text(encoding="utf-8"))
    assert run.rc == 0, str(run)
    assert run.json()["accepted"] is True


def test_robot_unavailable_fault_refuses_the_dispatch(journal_path: Path,
                                                      dispatch_plan: Path) -> None:
    healthy = check(journal_path, dispatch_plan, DISPATCH_REQUEST)
    assert healthy.rc == 0, str(healthy)  # control: the plan itself is fine
    assert healthy.json()["accepted"] is True

    run = check(journal_path, dispatch_plan, DISPATCH_REQUEST, "--fault", "robot_unavailable:tb3")
    assert run.rc == 1, str(run)
    verdict = run.json()
    assert_verdict_shape(verdict)
    assert verdict["accepted"] is False
    assert "robot_unavailable" in verdict["codes"]
    assert "robot_unavailable" in verdict["steps"][0]["codes"]


def test_bogus_fault_is_a_user_error_naming_the_forms(journal_path: Path,
                                                      dispatch_plan: Path) -> None:
    run = check(journal_path, dispatch_plan, DISPATCH_REQUEST, "--fault", "bogus")
    assert_clean_failure(run)
    assert run.stdout == ""
    assert "unknown fault 'bogus'" in run.stderr
    for form in ("robot_unavailable:ROBOT", "robot_unavailable:ROBOT@SKILL", "nan_fix",
                 "fix_offset:X,Y", "skill_failure:ROBOT.SKILL"):
        assert form in run.stderr, form


def test_fault_naming_an_unknown_robot_is_a_user_error(journal_path: Path,
                                                       dispatch_plan: Path) -> None:
    run = check(journal_path, dispatch_plan, DISPATCH_REQUEST, "--fault", "robot_unavailable:tb4")
    assert_clean_failure(run)
    assert "no robot 'tb4'" in run.stderr
    assert "did you mean 'tb3'" in run.stderr


def test_missing_plan_file_is_a_user_error(journal_path: Path, tmp_path: Path) -> None:
    missing = tmp_path / "no_plan.json"
    run = check(journal_path, missing, SAR_REQUEST)
    assert_clean_failure(run)
    assert f"plan file '{missing}' does not exist" in run.stderr


def test_human_output_shows_the_refusal(journal_path: Path, tmp_path: Path) -> None:
    plan = write_plan(tmp_path / "ranger.json", "dispatch_only",
                      ("tb3", "navigate_to", {"x": 40.0, "y": 45.0}))
    run = crewgate("check", "sar", "--plan", plan, "--request", RANGER_REQUEST,
                   journal=journal_path)
    assert run.rc == 1, str(run)
    assert run.stdout.startswith("REFUSED")
    assert "tb3.navigate_to" in run.stdout
    assert "out_of_bounds" in run.stdout
