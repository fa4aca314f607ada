"""Benchmark: the evaluation harness on the study suites.

Runs both crews' study suites (20 scenarios each) under the four conditions with the `exemplar`,
`scripted` (the reference plans of tests/data/study_oracle.yaml) and `replay` (the study's own
recorded plans) planners: 160 missions per planner, every one executed on the simulator, then
computes the metrics (Wilson intervals, Fisher tests). Reports wall time and missions per second
per planner. Target: <= 30 s for the 160 missions (issue 4, section 5), plots excluded.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from benchlib import REPO, Report, fmt, parse_args, print_header, table

from crewgate.eval.metrics import compute
from crewgate.eval.runner import EvalPlan, run_evaluation
from crewgate.plan import parse_plan
from crewgate.planners.base import Planner, PlanningRequest, Proposal
from crewgate.planners.exemplar import ExemplarPlanner
from crewgate.planners.replay import ReplayPlanner, read_records
from crewgate.spec import Crew, load_crew
from crewgate.suites import load_suite

TARGET_S = 30.0
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
        if args.quick:
            break
    print(table(["planner", "missions", "wall", "missions/s"], rows))
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
