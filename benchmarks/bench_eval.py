"""Benchmark: the evaluation harness on the study suites.

Runs both crews' study suites (20 scenarios each) under the four conditions with the `exemplar`,
`scripted` (the reference plans of tests/data/study_oracle.yaml) and `replay` (the study's own
recorded plans) planners: 160 missions per planner, every one executed on the simulator, then
computes the metrics (Wilson intervals, Fisher tests). Reports wall time and missions per second
per planner. Targets: <= 30 s for the 160 missions (issue 4, section 5), plots excluded; the
160 replayed missions in <= 5 s (issue 11).

Then the plots (issue 11): the study's `sar` replay (80 missions) evaluated and written to a
folder as `crewgate eval --out` does, with the default plots (the summary, and the timelines
and maps of the missions worth a look, all SVG written by crewgate: no matplotlib, whose PNGs
only `--png` asks for) and with `--no-plots`, interleaved; target: the default <= 2x the run
without plots (medians).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from benchlib import REPO, Report, fmt, parse_args, print_header, table

from crewgate.eval.metrics import compute
from crewgate.eval.plots import notable
from crewgate.eval.report import write_reports
from crewgate.eval.runner import EvalPlan, run_evaluation
from crewgate.plan import parse_plan
from crewgate.planners.base import Planner, PlanningRequest, Proposal
from crewgate.planners.exemplar import ExemplarPlanner
from crewgate.planners.replay import ReplayPlanner, read_records
from crewgate.spec import Crew, load_crew
from crewgate.suites import load_suite

TARGET_S = 30.0
TARGET_REPLAY_S = 5.0
TARGET_PLOTS_RATIO = 2.0
CORPUS = REPO / "tests" / "corpus" / "study"
REPLAYS = {"sar": CORPUS / "sar" / "recorded_plans_mock_4arm.jsonl",
           "g1_go2": CORPUS / "g1_go2" / "recorded_plans_4arm_seed1.jsonl"}


class OraclePlanner(Planner):
    """The study suites' reference plans, by scenario id (the scripted planner of the tests)."""

    name = "scripted"

    def __init__(self, crew: str) -> None:
        data = yaml.safe_load((REPO / "tests" / "data" / "study_oracle.yaml").read_text())
        self.plans: dict[str, Any] = {sid: e["plan"] for sid, e in data[crew].items()}

    def _propose(self, request: PlanningRequest) -> Proposal:
        plan = self.plans[request.scenario or ""]
        return Proposal(str(plan), parse_plan(plan), planning_s=0.0)


def _factories() -> dict[str, Callable[[Crew], Planner]]:
    return {
        "exemplar": ExemplarPlanner,
        "scripted": lambda crew: OraclePlanner(crew.name),
        "replay": lambda crew: ReplayPlanner(read_records(Path(REPLAYS[crew.name]))),
    }


def main() -> int:
    args = parse_args(__doc__ or "", profile=False)
    print_header("bench_eval", "study suites x 4 conditions x 2 crews, per planner")
    report = Report("bench_eval")
    rows = []
    for name, factory in _factories().items():
        start = time.perf_counter()
        missions = 0
        for crew_name in ("sar", "g1_go2"):
            crew = load_crew(crew_name)
            records = run_evaluation(EvalPlan(crew, load_suite(crew_name), [factory(crew)]))
            compute(records)
            missions += len(records)
        wall = time.perf_counter() - start
        rows.append([name, str(missions), f"{fmt(wall, 2)} s", f"{fmt(missions / wall, 1)}"])
        report.figure(f"{name} missions per second", missions / wall, "1/s")
        report.target(f"eval {name} {missions} missions", wall, "s", "<=", TARGET_S)
        if name == "replay":
            report.target(f"eval replay {missions} missions (issue 11)", wall, "s", "<=",
                          TARGET_REPLAY_S)
        if args.quick:
            break
    print(table(["planner", "missions", "wall", "missions/s"], rows))
    _plots(report, repeat=1 if args.quick else 3)
    return report.finish(args.json)


def _plots(report: Report, *, repeat: int) -> None:
    """The sar replay written with the default plots and without, interleaved."""
    crew = load_crew("sar")
    walls: dict[bool, list[float]] = {False: [], True: []}
    drawn = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeat):
            for plots in (False, True):
                out = Path(tmp) / f"{i}-{plots}"
                start = time.perf_counter()
                records = run_evaluation(EvalPlan(crew, load_suite("sar"),
                                                  [_factories()["replay"](crew)], out=out))
                write_reports(records, out, plots=plots)
                walls[plots].append(time.perf_counter() - start)
                drawn = sum(notable(r) for r in records)
    without, default = statistics.median(walls[False]), statistics.median(walls[True])
    print()
    print(table(["sar study replay, 80 missions", "wall (median)"],
                [["--no-plots", f"{fmt(without, 2)} s"],
                 [f"default ({drawn} missions drawn)", f"{fmt(default, 2)} s"]]))
    report.figure("eval sar replay --no-plots", without, "s")
    report.figure("eval sar replay, default plots", default, "s")
    report.target("default plots over --no-plots", default / without, "x", "<=",
                  TARGET_PLOTS_RATIO)


if __name__ == "__main__":
    sys.exit(main())
