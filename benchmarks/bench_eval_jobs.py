"""Benchmark: `crewgate eval` with a slow model, missions at once (issue 16).

400 missions (the first 100 scenarios of g1_go2's extended suite x the 4 conditions) planned by
the `openai` planner against a loopback OpenAI-compatible server that answers every request after
0.5 s with the scenario's reference plan (crewgate.testing.FakeOpenAIServer, latency_s=0.5), no
response cache. Runs the evaluation with --jobs 16, then --jobs 1, and compares the wall times
(target: >= 10x) and the results: metrics.json must be identical but for the planning latency
(the measured time of the calls), and the traces identical but for mission ids and call times.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import Report, fmt, parse_args, print_header, table

from crewgate.conditions import CONDITIONS
from crewgate.eval.report import write_reports
from crewgate.eval.runner import EvalPlan, run_evaluation
from crewgate.planners.llm.openai import OpenAIPlanner
from crewgate.spec import load_crew
from crewgate.suites import load_suite
from crewgate.testing import FakeOpenAIServer
from crewgate.testing.llm_servers import by_request

LATENCY_S = 0.5
TARGET_SPEEDUP = 10.0
TIMED = {"mission_id", "planning_s"}  # the measured times of the calls, and the random ids


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in TIMED}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def main() -> int:
    args = parse_args(__doc__ or "", profile=False)
    scenarios = 10 if args.quick else 100
    print_header("bench_eval_jobs", f"{scenarios * 4} missions, a {LATENCY_S} s loopback model")
    crew, suite = load_crew("g1_go2"), load_suite("g1_go2", "extended")
    chosen = list(suite.scenarios[:scenarios])
    answers = {s.request: s.reference_plan for s in chosen if s.reference_plan}
    report = Report("bench_eval_jobs")
    walls: dict[int, float] = {}
    metrics: dict[int, dict[str, Any]] = {}
    traces: dict[int, list[Any]] = {}
    calls: dict[int, int] = {}
    with FakeOpenAIServer(respond=by_request(answers, otherwise={"workflow": None, "steps": []}),
                          latency_s=LATENCY_S) as server, \
            tempfile.TemporaryDirectory() as tmp:
        for jobs in (16, 1):
            out = Path(tmp) / f"jobs{jobs}"
            planner = OpenAIPlanner("loopback-model", base_url=server.base_url)
            before = len(server.requests)
            start = time.perf_counter()
            records = run_evaluation(EvalPlan(crew, suite, [planner],
                                              tuple(CONDITIONS.values()), scenarios=chosen,
                                              jobs=jobs, out=out))
            walls[jobs] = time.perf_counter() - start
            calls[jobs] = len(server.requests) - before
            metrics[jobs] = write_reports(records, out, plots=False)
            traces[jobs] = [json.loads(line) for line in
                            (out / "traces.jsonl").read_text().splitlines()]
            planner.close()
    same_metrics = _untimed_metrics(metrics[16]) == _untimed_metrics(metrics[1])
    same_traces = _untimed(traces[16]) == _untimed(traces[1])
    rows = [[f"--jobs {j}", str(len(traces[j])), str(calls[j]), f"{fmt(walls[j], 1)} s",
             fmt(len(traces[j]) / walls[j], 2)] for j in (1, 16)]
    print(table(["run", "missions", "model calls", "wall", "missions/s"], rows))
    speedup = walls[1] / walls[16]
    print(f"speed-up {fmt(speedup, 1)}x; metrics.json identical but for planning latency: "
          f"{same_metrics}; traces identical but for ids and call times: {same_traces}")
    for j in (1, 16):
        latency = metrics[j]["conditions"]["ro"]["planning_latency"]
        print(f"  --jobs {j}: ro planning latency {fmt(latency['mean'], 3)} s/mission (measured)")
    report.figure("wall --jobs 1", walls[1], "s")
    report.figure("wall --jobs 16", walls[16], "s")
    report.target("speed-up --jobs 16 over --jobs 1", speedup, "x", ">=", TARGET_SPEEDUP)
    report.target("metrics identical (1 = yes)", float(same_metrics and same_traces), "", ">=",
                  1.0)
    return report.finish(args.json)


def _untimed_metrics(payload: dict[str, Any]) -> dict[str, Any]:
    return {cond: {k: v for k, v in cells.items() if k != "planning_latency"}
            for cond, cells in payload["conditions"].items()}


if __name__ == "__main__":
    sys.exit(main())
