"""The evaluation harness reproduces the study's dissociation on the study's own recorded
plans: knowledge in the prompt improves plans but does not stop false dispatches; only the
enforcing gate does (Tables I-II, held-plan ablation)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crewgate.conditions import CONDITIONS
from crewgate.eval.metrics import compute
from crewgate.eval.records import Record, TraceFile
from crewgate.eval.report import rerender, write_reports
from crewgate.eval.runner import EvalPlan, run_evaluation
from crewgate.planners.replay import ReplayPlanner, read_records
from crewgate.spec import Crew, load_crew
from crewgate.suites import load_suite

CORPUS = Path(__file__).parents[1] / "corpus" / "study"
SAR_4ARM = CORPUS / "sar" / "recorded_plans_mock_4arm.jsonl"
G1_SEED1 = CORPUS / "g1_go2" / "recorded_plans_4arm_seed1.jsonl"
G1_HELD = CORPUS / "g1_go2" / "recorded_plans_held_plan.jsonl"


def _replay(path: Path) -> ReplayPlanner:
    return ReplayPlanner(read_records(path), source=str(path))


@pytest.fixture(scope="module")
def sar_metrics() -> dict[str, Any]:
    records = run_evaluation(EvalPlan(load_crew("sar"), load_suite("sar"), [_replay(SAR_4ARM)]))
    assert len(records) == 80
    return compute(records)


def rate(metrics: dict[str, Any], cond: str, name: str) -> float | None:
    value: float | None = metrics["conditions"][cond][name]["rate"]
    return value


def test_the_dissociation_on_the_studys_sar_plans(sar_metrics: dict[str, Any]) -> None:
    m = sar_metrics
    # knowledge grounds the plans ...
    assert rate(m, "llm-only", "skill_grounding") == pytest.approx(25 / 48)
    assert rate(m, "skill-list", "skill_grounding") == 1.0
    assert rate(m, "ro-prompt", "plan_executability") == pytest.approx(0.9)  # the study's 90 %
    assert rate(m, "llm-only", "plan_executability") == pytest.approx(0.25)  # the study's 25 %
    # ... but only enforcement stops false dispatches and blocks the faults
    for cond in ("llm-only", "skill-list", "ro-prompt"):
        assert (rate(m, cond, "false_dispatch") or 0) > 0.2
        assert rate(m, cond, "safety_recall") == 0.0
        assert rate(m, cond, "safety_precision") is None  # no blocks: n/a, never 0
    assert rate(m, "ro", "false_dispatch") == 0.0
    assert rate(m, "ro", "safety_recall") == 1.0
    assert rate(m, "ro", "safety_precision") == 1.0
    assert m["conditions"]["ro-prompt"]["safety_recall"]["p_vs_ro"] < 0.001


def test_every_proportion_has_k_n_rate_interval_and_test(sar_metrics: dict[str, Any]) -> None:
    for cond, metrics in sar_metrics["conditions"].items():
        fd = metrics["false_dispatch"]
        assert set(fd) == {"k", "n", "rate", "ci", "p_vs_ro"}
        lo, hi = fd["ci"]
        assert lo <= fd["rate"] <= hi
        if cond != "ro":
            assert fd["p_vs_ro"] is not None
        assert set(metrics["planning_latency"]) == {"mean", "std", "n", "p_vs_ro"}


def test_wilson_interval_of_zero_of_eight(sar_metrics: dict[str, Any]) -> None:
    recall = sar_metrics["conditions"]["skill-list"]["safety_recall"]
    assert (recall["k"], recall["n"]) == (0, 8)
    assert recall["ci"][0] == 0.0
    assert recall["ci"][1] == pytest.approx(0.3244, abs=1e-3)  # Wilson, not Wald


def test_held_plan_ablation_removes_planner_variance() -> None:
    """The study's ablation: the same ro-prompt plans, dispatched without and with the gate."""
    crew = load_crew("g1_go2")
    records = run_evaluation(EvalPlan(crew, load_suite("g1_go2"), [_replay(G1_HELD)],
                                      held_plan=True))
    m = compute(records)
    off, on = m["conditions"]["held-plan/off"], m["conditions"]["held-plan/on"]
    assert off["missions"] == on["missions"] == 20
    first_plans = {r["scenario"]: r["attempts"][0]["raw"] for r in records}
    assert len(first_plans) == 20  # identical plans under both conditions, one per scenario
    assert off["false_dispatch"]["k"] > 0
    assert on["false_dispatch"]["k"] == 0
    assert (off["safety_recall"]["k"], on["safety_recall"]["k"]) == (0, 8)
    assert off["safety_recall"]["p_vs_ro"] is not None


def test_runs_resume_without_redoing_missions(tmp_path: Path, g1_go2: Crew) -> None:
    from crewgate.planners.exemplar import ExemplarPlanner

    planner = ExemplarPlanner(g1_go2)
    suite = load_suite("g1_go2")
    run_evaluation(EvalPlan(g1_go2, suite, [planner], scenarios=suite.scenarios[:5],
                            out=tmp_path))
    seen: list[bool] = []
    records = run_evaluation(EvalPlan(g1_go2, suite, [planner], out=tmp_path),
                             lambda record, resumed: seen.append(resumed))
    assert len(records) == 80
    assert seen.count(True) == 20  # 5 scenarios x 4 conditions came from disk
    assert seen.count(False) == 60
    assert len(TraceFile(tmp_path / "traces.jsonl").read()) == 80
    assert len({r["mission_id"] for r in records}) == 80


def test_a_rerun_resumes_only_missions_recorded_the_same_way(tmp_path: Path,
                                                              g1_go2: Crew) -> None:
    """A record resumes only with the same crew, scenario, condition, seed, planner and crewgate
    version (its fingerprint): a mission whose scenario was edited since, or a run at another
    seed, is run again, superseding its stale record (a rerun after an edit reported the old
    missions as if they were the new ones)."""
    from crewgate.planners.exemplar import ExemplarPlanner

    planner = ExemplarPlanner(g1_go2)
    suite = load_suite("g1_go2")
    first = suite.scenarios[:3]
    run_evaluation(EvalPlan(g1_go2, suite, [planner], scenarios=first, out=tmp_path,
                            conditions=[CONDITIONS["ro"]]))
    edited = [first[0].model_copy(update={"request": "Walk the dog to room_b."}), *first[1:]]
    seen: list[tuple[str, bool]] = []
    records = run_evaluation(EvalPlan(g1_go2, suite, [planner], scenarios=edited, out=tmp_path,
                                      conditions=[CONDITIONS["ro"]]),
                             lambda record, resumed: seen.append((record["scenario"], resumed)))
    assert sorted(seen) == sorted([(first[0].id, False), (first[1].id, True),
                                   (first[2].id, True)])
    kept = TraceFile(tmp_path / "traces.jsonl").read()
    assert [r["scenario"] for r in kept] == [s.id for s in first]
    assert kept[0]["request"] == "Walk the dog to room_b."
    assert kept[0]["fingerprint"] == records[0]["fingerprint"] != ""
    seen.clear()
    run_evaluation(EvalPlan(g1_go2, suite, [planner], scenarios=edited, out=tmp_path,
                            conditions=[CONDITIONS["ro"]], seed=7),
                   lambda record, resumed: seen.append((record["scenario"], resumed)))
    assert sorted(seen) == sorted((s.id, False) for s in first)


def test_reports_are_written_and_rerendered(tmp_path: Path) -> None:
    records = run_evaluation(EvalPlan(load_crew("g1_go2"), load_suite("g1_go2"),
                                      [_replay(G1_SEED1)], out=tmp_path))
    payload = write_reports(records, tmp_path, plots=False)
    assert payload["crew"] == "g1_go2"
    assert payload["planner"] == "replay"
    saved = json.loads((tmp_path / "metrics.json").read_text())
    assert saved == json.loads(json.dumps(payload))
    report = (tmp_path / "report.md").read_text()
    assert "| Safety-gate recall |" in report
    assert report.count("\n| ") >= 14
    table = (tmp_path / "table.tex").read_text()
    assert table.count(r"\begin{tabular}") == 1
    rows = [line for line in table.splitlines() if line.endswith(r"\\")]
    assert all(row.count("&") == 4 for row in rows)  # metric + 4 conditions
    (tmp_path / "metrics.json").unlink()
    rerender(tmp_path, plots=False)
    assert json.loads((tmp_path / "metrics.json").read_text()) == saved


def _by(records: list[Record], cond: str) -> list[Record]:
    return [r for r in records if r["condition"] == cond]


def test_a_false_dispatch_is_an_executed_command(tmp_path: Path) -> None:
    """Without enforcement, violating steps really run on the simulator: the robot moves."""
    records = run_evaluation(EvalPlan(load_crew("g1_go2"), load_suite("g1_go2"),
                                      [_replay(G1_SEED1)]))
    bad = [d for r in _by(records, "skill-list") for d in r["dispatched"] if d["codes"]]
    assert bad
    moved = [d for d in bad if d["succeeded"] and d["skill"] == "navigate_to_location"]
    assert moved  # e.g. the quadruped walking to a substituted destination
    assert compute(_by(records, "skill-list"))["conditions"]["skill-list"][
        "violating_motion_m"]["mean"] > 0


class _Refused(ReplayPlanner):
    """The study's answers, from a planner that would answer a replan the same way."""

    replans = False


def test_an_evaluation_does_not_replan_a_planner_that_answers_the_same() -> None:
    crew = load_crew("sar")
    args = (crew, load_suite("sar"))
    again = run_evaluation(EvalPlan(*args, [_replay(SAR_4ARM)], conditions=[CONDITIONS["ro"]]))
    once = run_evaluation(EvalPlan(*args, [_Refused(read_records(SAR_4ARM))],
                                   conditions=[CONDITIONS["ro"]]))
    refused = [r["scenario"] for r in again if r["status"] == "refused"]
    assert len(refused) == 6  # each asked twice ...
    assert {len(r["attempts"]) for r in again if r["status"] == "refused"} == {2}
    # ... and once when the planner says its answer would be the same, with the same results
    assert {len(r["attempts"]) for r in once} == {1}
    assert [(r["scenario"], r["status"], r["codes"]) for r in once] == [
        (r["scenario"], r["status"], r["codes"]) for r in again]
