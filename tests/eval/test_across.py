"""Substitution classes in the metrics, and planners side by side (``crewgate compare``, and an
evaluation of several planners): the table per shared condition, Fisher p against the first
planner, and the plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crewgate.conditions import CONDITIONS
from crewgate.errors import UserError
from crewgate.eval.metrics import compute
from crewgate.eval.records import TraceFile
from crewgate.eval.report import compare_runs
from crewgate.eval.runner import EvalPlan, run_evaluation
from crewgate.planners.replay import ReplayPlanner, read_records
from crewgate.spec import load_crew
from crewgate.substitution import CLASSES
from crewgate.suites import load_suite

CORPUS = Path(__file__).parents[1] / "corpus" / "study"
G1_LIVE = CORPUS / "g1_go2" / "recorded_plans_4arm_seed1.jsonl"
G1_SEED2 = CORPUS / "g1_go2" / "recorded_plans_4arm_seed2.jsonl"


def _run(path: Path, out: Path) -> list[dict[str, Any]]:
    planner = ReplayPlanner(read_records(path), source=str(path))
    records = run_evaluation(EvalPlan(load_crew("g1_go2"), load_suite("g1_go2"), [planner],
                                      conditions=[CONDITIONS["llm-only"], CONDITIONS["ro"]],
                                      out=out, crew_source="g1_go2"))
    return records


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    a, b = tmp_path_factory.mktemp("seed1"), tmp_path_factory.mktemp("seed2")
    _run(G1_LIVE, a)
    _run(G1_SEED2, b)
    return a, b


def test_every_first_plan_problem_is_counted_in_one_class(runs: tuple[Path, Path]) -> None:
    records = TraceFile(runs[0] / "traces.jsonl").read()
    metrics = compute(records)
    for cond in ("llm-only", "ro"):
        subs = metrics["conditions"][cond]["substitutions"]
        assert list(subs["missions"]) == list(CLASSES)
        assert all(cell["n"] == 20 for cell in subs["missions"].values())
        firsts = [r["attempts"][0]["verdict"] for r in records if r["condition"] == cond]
        total = sum(len(v["problems"]) + sum(len(s["problems"]) for s in v["steps"])
                    for v in firsts)
        assert sum(subs["problems"].values()) == total
    # without the crew's knowledge the model invents skills; with it, it does not
    invented = [metrics["conditions"][c]["substitutions"]["missions"]["invented skill"]["k"]
                for c in ("llm-only", "ro")]
    assert invented[0] > 0
    assert invented[1] == 0


def test_compare_puts_two_runs_side_by_side(runs: tuple[Path, Path], tmp_path: Path) -> None:
    payload = compare_runs(list(runs), tmp_path / "both", png=True)
    a, b = (f"replay ({p.name})" for p in runs)
    assert list(payload["planners"]) == [a, b]
    across = payload["across"]
    assert list(across) == ["llm-only", "ro"]
    assert list(across["ro"]) == [a, b]
    row = across["llm-only"][b]["workflow_accuracy"]
    assert row["p_vs_first"] is not None
    assert across["llm-only"][a]["workflow_accuracy"]["p_vs_first"] is None
    assert sorted(k for k in across["ro"][a] if k.startswith("substitution: ")) == sorted(
        f"substitution: {c}" for c in CLASSES)
    report = (tmp_path / "both" / "report.md").read_text()
    assert report.startswith("# g1_go2: planners side by side on the study suite\n")
    assert f"| metric | {a} | {b} |" in report
    assert (tmp_path / "both" / "plots" / "across.png").stat().st_size > 10_000
    saved = json.loads((tmp_path / "both" / "metrics.json").read_text())
    assert saved["across"]["ro"][a]["safety_recall"]["k"] == across["ro"][a]["safety_recall"]["k"]


def test_compare_refuses_what_cannot_be_compared(runs: tuple[Path, Path],
                                                 tmp_path: Path) -> None:
    with pytest.raises(UserError, match="compare needs at least two evaluation folders"):
        compare_runs([runs[0]], tmp_path / "one")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(UserError, match=r"no traces at .*empty.traces.jsonl; run .crewgate"):
        compare_runs([runs[0], empty], tmp_path / "two")
