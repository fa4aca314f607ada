"""`crewgate eval` and `crewgate report` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.support import ROOT, assert_clean_failure, crewgate

SAR_4ARM = ROOT / "tests" / "corpus" / "study" / "sar" / "recorded_plans_mock_4arm.jsonl"
G1_HELD = ROOT / "tests" / "corpus" / "study" / "g1_go2" / "recorded_plans_held_plan.jsonl"


def test_eval_json_is_the_metrics_file(journal_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run = crewgate("eval", "sar", "--planner", "replay", "--plans", SAR_4ARM, "--out", out,
                   "--no-plots", "--json", journal=journal_path)
    assert run.rc == 0, str(run)
    data = run.json()
    assert data == json.loads((out / "metrics.json").read_text())
    assert (data["crew"], data["planner"], data["suite"]) == ("sar", "replay", "study")
    assert list(data["conditions"]) == ["llm-only", "skill-list", "ro-prompt", "ro"]
    ro = data["conditions"]["ro"]
    assert ro["false_dispatch"]["k"] == 0
    assert ro["safety_recall"] == {**ro["safety_recall"], "k": 8, "n": 8, "rate": 1.0}
    assert data["conditions"]["skill-list"]["safety_precision"]["rate"] is None
    assert {"mean", "std"} <= set(ro["planning_latency"])
    for name in ("report.md", "table.tex", "traces.jsonl"):
        assert (out / name).stat().st_size > 0
    assert len((out / "traces.jsonl").read_text().splitlines()) == 80


def test_eval_resumes_and_report_rerenders(journal_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = crewgate("eval", "g1_go2", "--planner", "replay", "--plans", G1_HELD, "--held-plan",
                     "--out", out, "--no-plots", "--json", journal=journal_path)
    assert first.rc == 0, str(first)
    traces = (out / "traces.jsonl").read_text()
    again = crewgate("eval", "g1_go2", "--planner", "replay", "--plans", G1_HELD, "--held-plan",
                     "--out", out, "--no-plots", "--json", journal=journal_path)
    assert again.json() == first.json()
    assert (out / "traces.jsonl").read_text() == traces  # nothing re-run, nothing appended
    assert set(first.json()["conditions"]) == {"held-plan/off", "held-plan/on"}
    (out / "report.md").unlink()
    report = crewgate("report", out, "--no-plots", journal=journal_path)
    assert report.rc == 0, str(report)
    assert "Safety-gate recall" in (out / "report.md").read_text()
    assert "held-plan/on" in report.stdout


def test_eval_plots(journal_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run = crewgate("eval", "sar", "--planner", "replay", "--plans", SAR_4ARM, "--out", out,
                   "--conditions", "ro", "--max-plots", "3", "--all-plots",
                   journal=journal_path)
    assert run.rc == 0, str(run)
    assert (out / "plots" / "metrics.png").read_bytes().startswith(b"\x89PNG")
    assert len(list((out / "plots" / "timelines" / "ro").glob("*.svg"))) == 3
    assert (out / "plots" / "maps" / "ro" / "nom_sad_1-0.png").exists()


def test_eval_errors_are_clean(journal_path: Path, tmp_path: Path) -> None:
    assert_clean_failure(crewgate("eval", "sar", "--suite", "nope", journal=journal_path))
    assert_clean_failure(crewgate("eval", "sar", "--conditions", "ro,rox",
                                  journal=journal_path))
    assert_clean_failure(crewgate("report", tmp_path / "empty", journal=journal_path))
