"""Benchmark: a verdict on hostile plan text, ``crewgate.api.check_plan``.

What is measured: the time from a raw plan text to its verdict (parse, validate against the
``sar`` crew's initial world, the verdict built) for every hostile plan text the tests hold the
gate to (``crewgate.testing.hostile``: integers of 5,001 digits, NaN, arrays nested 5,000 deep,
1,000 arguments, 100,000 opening braces, a text over the bound, ...), and for the ``sar`` nominal
plan beside them. Every call is cold: the request's reading and what the gate keeps of plans it
validated are emptied before it (not timed), so that no verdict is a kept one. The table gives
the median and max per text and the median's ratio to the nominal plan's, measured in the same
run (the tests check each verdict's codes and time nothing).

Target: every hostile text gets its verdict in <= 10 ms (median): hostile input is parsed within
its bounds, in time linear in it, and costs no more than a few nominal plans.

Run: ``.venv/bin/python benchmarks/bench_hostile.py [--quick] [--json PATH]``.
"""

from __future__ import annotations

import sys
import time

from bench_validate import forget_plans
from benchlib import SAR_PLAN_FILE, SAR_REQUEST, Report, Stats, fmt, parse_args, print_header, table

from crewgate.api import check_plan, gate_for
from crewgate.spec import load_crew
from crewgate.testing.hostile import HOSTILE_PLANS, REQ
from crewgate.text.request import forget_readings

TARGET_MS = 10.0


def cold_calls(crew_name: str, raw: str, request: str, calls: int) -> list[int]:
    """``calls`` timed verdicts of ``raw``, each after the gate's and the reader's kept work is
    emptied (the emptying is not timed)."""
    crew = load_crew(crew_name)
    gate = gate_for(crew)
    check_plan(crew, raw, request)  # the crew compiled, its world built: not per call
    out = []
    for _ in range(calls):
        forget_readings()
        gate.intent.forget()
        forget_plans(gate)
        started = time.perf_counter_ns()
        check_plan(crew, raw, request)
        out.append(time.perf_counter_ns() - started)
    return out


def main() -> int:
    args = parse_args(__doc__ or "", profile=False)
    calls = 10 if args.quick else 50
    print_header("bench_hostile: a verdict on hostile plan text",
                 f"{calls} cold check_plan calls per text (caches emptied before each, untimed)")
    report = Report("hostile")
    nominal = Stats.of(cold_calls("sar", SAR_PLAN_FILE.read_text(encoding="utf-8"), SAR_REQUEST,
                                  calls))
    rows = [["sar nominal plan", f"{len(SAR_PLAN_FILE.read_text(encoding='utf-8')):,}",
             fmt(nominal.median_ns / 1e6, 3), fmt(nominal.max_ns / 1e6, 3), "1.00"]]
    worst = ("", 0.0)
    for name, (raw, _) in HOSTILE_PLANS.items():
        stats = Stats.of(cold_calls("sar", raw, REQ, calls))
        median_ms = stats.median_ns / 1e6
        rows.append([name, f"{len(raw):,}", fmt(median_ms, 3), fmt(stats.max_ns / 1e6, 3),
                     fmt(stats.median_ns / nominal.median_ns, 2)])
        report.figure(f"hostile {name} median", median_ms, "ms")
        if median_ms >= worst[1]:
            worst = (name, median_ms)
    print(table(["plan text", "characters", "median ms", "max ms", "/ nominal"], rows))
    print()
    report.target(f"verdict on hostile plan text, slowest ({worst[0]}) median", worst[1], "ms",
                  "<=", TARGET_MS)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
