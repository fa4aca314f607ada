"""`crewgate plan` and the planner options of `run`: the offline default planner, the replay
planner, the study's conditions, the prompt, the JSON shape."""

from __future__ import annotations

from pathlib import Path

from tests.cli.support import ROOT, SAR_REQUEST, assert_clean_failure, crewgate

G1_SEED1 = ROOT / "tests" / "corpus" / "study" / "g1_go2" / "recorded_plans_4arm_seed1.jsonl"


def test_plan_json_shape_with_the_default_planner(journal_path: Path) -> None:
    run = crewgate("plan", "g1_go2", "bring the red cube to room_b", "--json",
                   journal=journal_path)
    assert run.rc == 0, str(run)
    data = run.json()
    assert {"raw", "plan", "verdict", "planning_s"} <= set(data)
    assert data["planner"] == "exemplar"
    assert data["plan"]["workflow"] == "carry"
    assert data["verdict"]["accepted"] is True
    assert data["verdict"]["steps"][2]["codes"] == []
    assert isinstance(data["planning_s"], float)
    assert not journal_path.exists()  # planning moves nothing and journals nothing


def test_plan_shows_the_prompt_of_each_condition(journal_path: Path) -> None:
    full = crewgate("plan", "sar", SAR_REQUEST, "--show-prompt", "--condition", "ro",
                    journal=journal_path)
    bare = crewgate("plan", "sar", SAR_REQUEST, "--show-prompt", "--condition", "llm-only",
                    journal=journal_path)
    assert full.rc == 0, str(full)
    assert "## Workflow contracts" in full.stdout
    assert "tb3.navigate_to(" in full.stdout
    assert "## Workflow contracts" not in bare.stdout
    assert "navigate_to" not in bare.stdout.split("raw output")[0]


def test_plan_refuses_what_no_workflow_fits(journal_path: Path) -> None:
    run = crewgate("plan", "sar", "make me a coffee", journal=journal_path)
    assert run.rc == 1, str(run)
    assert "no workflow of crew 'sar' fits the request" in run.stdout
    assert "REFUSED" in run.stdout


def test_plan_replays_the_studys_recorded_outputs(journal_path: Path) -> None:
    run = crewgate("plan", "g1_go2", "go to the loading dock", "--planner", "replay",
                   "--plans", G1_SEED1, "--condition", "ro", "--json", journal=journal_path)
    assert run.rc == 1, str(run)
    data = run.json()
    assert data["plan"]["steps"][0]["args"] == {"location": "dropoff"}
    assert data["verdict"]["codes"] == ["substituted_value"]


def test_run_defaults_to_the_offline_planner(journal_path: Path) -> None:
    run = crewgate("run", "sar", SAR_REQUEST, "--json", journal=journal_path)
    assert run.rc == 0, str(run)
    data = run.json()
    assert data["status"] == "completed"
    assert [d["skill"] for d in data["dispatched"]] == ["takeoff", "search_target",
                                                        "navigate_to"]


def test_run_with_a_baseline_condition_does_not_enforce(journal_path: Path) -> None:
    run = crewgate("run", "g1_go2", "carry the red cube to the rooftop helipad", "--planner",
                   "replay", "--plans", G1_SEED1, "--condition", "skill-list", "--json",
                   journal=journal_path)
    data = run.json()
    assert data["enforce"] is False
    assert data["status"] == "completed"  # dispatched anyway
    assert any(d["codes"] for d in data["dispatched"])  # with the violations recorded
    assert run.rc == 1


def test_planner_option_errors_are_clean(journal_path: Path, tmp_path: Path) -> None:
    assert_clean_failure(crewgate("plan", "sar", "x", "--planner", "gpt9", journal=journal_path))
    missing = crewgate("plan", "sar", "x", "--planner", "replay", journal=journal_path)
    assert_clean_failure(missing)
    assert missing.stderr == ("error: planner replay needs option 'plans' (Recorded outputs: a "
                              "JSON Lines file, one record a line (scenario, condition, "
                              "attempt, output; optionally request, planning_s).)\n")
    bad = crewgate("run", "sar", "x", "--condition", "roo", journal=journal_path)
    assert_clean_failure(bad)
    assert "did you mean 'ro'" in bad.stderr
    clash = crewgate("run", "sar", "x", "--no-enforce", "--condition", "ro",
                     journal=journal_path)
    assert_clean_failure(clash)


def test_a_planner_that_cannot_be_reached_has_its_own_exit_status(journal_path: Path) -> None:
    """Not a refusal (1), not bad input (2): 3, and nothing moved (port 9 on loopback: no
    server listens there)."""
    args = ("--planner", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
            "--timeout", "2")
    planned = crewgate("plan", "sar", SAR_REQUEST, *args, journal=journal_path)
    assert planned.rc == 3, str(planned)
    assert "planner error" in planned.stdout
    ran = crewgate("run", "sar", SAR_REQUEST, *args, "--json", journal=journal_path)
    assert ran.rc == 3, str(ran)
    data = ran.json()
    assert (data["status"], data["dispatched"]) == ("refused", [])
    assert data["planner_error"]
