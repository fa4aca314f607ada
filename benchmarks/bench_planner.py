"""Benchmark: the offline `exemplar` planner (MiniLM embeddings in numpy).

Measures, in a fresh child process each (so that loading is cold and memory is the planner's
own): the time to construct the planner for a crew (loading MiniLM and embedding the contracts'
example requests), the planning latency for each of the study's 40 requests after loading
(median and p90 over repetitions), and the peak memory (max RSS) of the child that loads both
crews' planners and plans all 40 requests. Targets: planning <= 50 ms, load <= 2 s,
memory <= 400 MB. Also reports which encoder ran (minilm or the lexical fallback).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

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
        "plan_median_ms": 1000 * statistics.median(samples),
        "plan_p90_ms": 1000 * samples[int(0.9 * (len(samples) - 1))],
        "plan_max_ms": 1000 * samples[-1], "n": len(samples),
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1000.0}))
""")


def main() -> int:
    args = parse_args(__doc__ or "", profile=False)
    print_header("bench_planner", "exemplar planner: load, planning latency, memory")
    reps = 2 if args.quick else 10
    proc = subprocess.run([sys.executable, "-c", CHILD, str(reps)], capture_output=True,
                          text=True, check=True)
    data = json.loads(proc.stdout)
    load_s = max(data["load_s"].values())
    print(table(["figure", "value"], [
        ["encoder", data["encoder"]],
        ["import crewgate + load both crews", f"{fmt(data['import_s'], 3)} s"],
        ["load planner, sar", f"{fmt(data['load_s']['sar'], 3)} s"],
        ["load planner, g1_go2", f"{fmt(data['load_s']['g1_go2'], 3)} s"],
        [f"plan, {data['n']} calls: median", f"{fmt(data['plan_median_ms'], 2)} ms"],
        ["plan: p90", f"{fmt(data['plan_p90_ms'], 2)} ms"],
        ["plan: max", f"{fmt(data['plan_max_ms'], 2)} ms"],
        ["peak memory (max RSS)", f"{fmt(data['maxrss_mb'], 1)} MB"],
    ]))
    report = Report("bench_planner")
    report.figure("exemplar encoder is minilm", float(data["encoder"] == "minilm"), "bool")
    report.target("exemplar plan median", data["plan_median_ms"], "ms", "<=", PLAN_TARGET_MS)
    report.target("exemplar load (slowest crew)", load_s, "s", "<=", LOAD_TARGET_S)
    report.target("exemplar peak memory", data["maxrss_mb"], "MB", "<=", MEMORY_TARGET_MB)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
