"""Benchmark: the offline `exemplar` planner (MiniLM embeddings in numpy).

Measures, in a fresh child process each (so that loading is cold and memory is the planner's
own): the time to construct the planner for a crew (loading MiniLM and embedding the contracts'
example requests), the planning latency for each of the study's 40 requests after loading
(median and p90 over repetitions), and the peak memory (max RSS) of the child that loads both
crews' planners and plans all 40 requests. Each round runs two children on one empty embedding
cache directory (``$CREWGATE_EMBEDDINGS``, a temporary directory): the first encodes the
examples and keeps them (cold), the second reads them back (warm, as a second ``crewgate run``);
rounds: 3 (``--quick``: 1); the table gives the median of each. Targets: planning <= 50 ms, load
<= 2 s (cold), memory <= 400 MB. Also reports which encoder ran (minilm or the lexical fallback).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from typing import Any

from benchlib import Report, fmt, parse_args, print_header, table

PLAN_TARGET_MS = 50.0
LOAD_TARGET_S = 2.0
MEMORY_TARGET_MB = 400.0

CHILD = textwrap.dedent("""
    import json, resource, statistics, sys, time
    t0 = time.perf_counter()
    from crewgate.planners.exemplar import ExemplarPlanner
    from crewgate.planners.base import PlanningRequest
    from crewgate.suites import load_suite
    from crewgate.spec import load_crew
    crews = {n: load_crew(n) for n in ("sar", "g1_go2")}
    imported = time.perf_counter() - t0
    loads, planners = {}, {}
    for name, crew in crews.items():
        t = time.perf_counter()
        planners[name] = ExemplarPlanner(crew)
        loads[name] = time.perf_counter() - t
    reps = int(sys.argv[1])
    samples = []
    for name, planner in planners.items():
        for s in load_suite(name, "study").scenarios:
            ask = PlanningRequest(s.request, planner.crew, "", {})
            for _ in range(reps):
                t = time.perf_counter()
                planner.plan(ask)
                samples.append(time.perf_counter() - t)
    samples.sort()
    print(json.dumps({
        "encoder": planners["sar"].encoder.name, "import_s": imported, "load_s": loads,
        "kept": {n: p.examples_kept for n, p in planners.items()},
        "plan_median_ms": 1000 * statistics.median(samples),
        "plan_p90_ms": 1000 * samples[int(0.9 * (len(samples) - 1))],
        "plan_max_ms": 1000 * samples[-1], "n": len(samples),
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1000.0}))
""")


def child(reps: int, cache: str) -> dict[str, Any]:
    env = {**os.environ, "CREWGATE_EMBEDDINGS": cache}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(reps)], capture_output=True,
                          text=True, check=True, env=env)
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def main() -> int:
    args = parse_args(__doc__ or "", profile=False)
    print_header("bench_planner", "exemplar planner: load (examples encoded, and kept on disk), "
                 "planning latency, memory")
    reps = 2 if args.quick else 10
    runs: dict[str, list[dict[str, Any]]] = {"cold": [], "warm": []}
    for _ in range(1 if args.quick else 3):
        with tempfile.TemporaryDirectory(prefix="crewgate-bench-embeddings-") as cache:
            runs["cold"].append(child(reps, cache))
            runs["warm"].append(child(reps, cache))
    if any(any(r["kept"].values()) for r in runs["cold"]) or (
            runs["warm"][0]["encoder"] == "minilm"
            and not all(all(r["kept"].values()) for r in runs["warm"])):
        raise SystemExit("the embedding cache did not behave: cold runs must encode, warm read")

    def med(kind: str, get: Any) -> float:
        return float(statistics.median(get(r) for r in runs[kind]))

    data = runs["cold"][0]
    load_cold = {n: med("cold", lambda r, n=n: r["load_s"][n]) for n in ("sar", "g1_go2")}
    load_warm = {n: med("warm", lambda r, n=n: r["load_s"][n]) for n in ("sar", "g1_go2")}
    every = runs["cold"] + runs["warm"]
    plan_median = float(statistics.median(r["plan_median_ms"] for r in every))
    plan_p90 = float(statistics.median(r["plan_p90_ms"] for r in every))
    plan_max = max(r["plan_max_ms"] for r in every)
    rss = max(r["maxrss_mb"] for r in every)
    print(table(["figure", "value"], [
        ["encoder", data["encoder"]],
        ["import crewgate + load both crews", f"{fmt(med('cold', lambda r: r['import_s']), 3)} s"],
        *([f"load planner, {n}, examples encoded (cold)", f"{fmt(load_cold[n], 3)} s"]
          for n in load_cold),
        *([f"load planner, {n}, examples kept (warm)", f"{fmt(load_warm[n], 3)} s"]
          for n in load_warm),
        [f"plan, {data['n']} calls per child: median", f"{fmt(plan_median, 2)} ms"],
        ["plan: p90", f"{fmt(plan_p90, 2)} ms"],
        ["plan: max", f"{fmt(plan_max, 2)} ms"],
        ["peak memory (max RSS)", f"{fmt(rss, 1)} MB"],
    ]))
    report = Report("bench_planner")
    report.figure("exemplar encoder is minilm", float(data["encoder"] == "minilm"), "bool")
    for n in load_cold:
        report.figure(f"exemplar load {n}, examples encoded", load_cold[n], "s")
        report.figure(f"exemplar load {n}, examples kept", load_warm[n], "s")
    report.target("exemplar plan median", plan_median, "ms", "<=", PLAN_TARGET_MS)
    report.target("exemplar load (slowest crew, examples encoded)", max(load_cold.values()), "s",
                  "<=", LOAD_TARGET_S)
    report.target("exemplar peak memory", rss, "MB", "<=", MEMORY_TARGET_MB)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
