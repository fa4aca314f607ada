"""Benchmark: whole-plan validation, ``Gate.validate(plan, request, world)``.

What is measured: the time to validate a long (200-step) plan against the simulator's initial
world, for three plan shapes, and a 3-step nominal plan per reference crew for reference:

* ``sar abort x200``: ``iris.land`` / ``tb3.stop`` alternating, workflow ``abort``;
* ``sar dispatch_only x200``: ``tb3.navigate_to {x: 6, y: -3}``, workflow ``dispatch_only``
  (every step types a point argument and checks it against the request);
* ``g1_go2 wave x200``: ``g1.wave``, workflow ``manipulation_only``.

All three long plans are refused for ``cardinality`` (each step may occur at most once): what
counts here is validation time, and the table reports how many problems the gate found. The plans
are parsed once up front; each timed call is ``Gate.validate`` with the request given as text (so
reading the request's facts is included, as in ``crewgate.api.check_plan``). Each call is timed
on its own with ``time.perf_counter_ns`` after warm-up calls; the table gives median, p90 and min.

Two informational sections follow: a scaling series (the ``sar abort`` plan at 50 .. 800 steps;
the time per step should stay flat if validation is linear) and ``crewgate.api.check_plan`` for
the nominal ``sar`` plan, which also builds a simulator and parses the plan on every call.

Target (issue): validating a 200-step plan takes <= 5 ms (median), for each long plan.

Run: ``.venv/bin/python benchmarks/bench_validate.py [--quick] [--profile] [--json PATH]``.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any

from benchlib import (
    G1_CARRY_PLAN,
    G1_CARRY_REQUEST,
    SAR_PLAN_FILE,
    SAR_REQUEST,
    Report,
    Stats,
    fmt,
    in_unit,
    parse_args,
    print_header,
    profile_calls,
    table,
    time_calls,
)

from crewgate.adapters.sim import SimAdapter
from crewgate.api import check_plan
from crewgate.gate import Gate, PlanVerdict
from crewgate.plan import Plan, parse_plan
from crewgate.spec import Crew, load_crew
from crewgate.world import World

TARGET_MS = 5.0
LONG = 200

ABORT_REQUEST = "Halt! Bring the quadcopter down and stop the ground robot."
DISPATCH_REQUEST = "Rover, go to (6, -3)."
WAVE_REQUEST = "Say hi to the visitors with a wave."


@dataclass(slots=True)
class Case:
    label: str
    gate: Gate
    plan: Plan
    request: str
    world: World
    long: bool

    def validate(self) -> PlanVerdict:
        return self.gate.validate(self.plan, self.request, self.world)


def _plan(raw: str | dict[str, Any]) -> Plan:
    plan = parse_plan(raw)
    if not isinstance(plan, Plan):
        raise SystemExit(f"benchmark plan does not parse: {plan.problems}")
    return plan


def _repeat(workflow: str, cycle: list[dict[str, Any]], n: int) -> Plan:
    steps = [cycle[i % len(cycle)] for i in range(n)]
    return _plan({"workflow": workflow, "steps": steps})


def abort_plan(n: int) -> Plan:
    return _repeat("abort", [{"robot": "iris", "skill": "land"},
                             {"robot": "tb3", "skill": "stop"}], n)


def long_plans(crew: Crew) -> Crew:
    """The crew reading plans of up to 1,000 steps (its ``max_steps`` is 64 by default, and a
    longer plan is refused as ``plan_too_long`` before any step is judged)."""
    return crew.model_copy(update={"max_steps": 1000})


def cases(sar: Crew, g1: Crew) -> list[Case]:
    sar, g1 = long_plans(sar), long_plans(g1)
    sar_gate, g1_gate = Gate(sar), Gate(g1)
    sar_world, g1_world = SimAdapter(sar).world, SimAdapter(g1).world
    nominal_sar = _plan(SAR_PLAN_FILE.read_text(encoding="utf-8"))
    nominal_g1 = _plan(G1_CARRY_PLAN)
    dispatch = _repeat("dispatch_only", [{"robot": "tb3", "skill": "navigate_to",
                                          "args": {"x": 6, "y": -3}}], LONG)
    wave = _repeat("manipulation_only", [{"robot": "g1", "skill": "wave"}], LONG)
    return [
        Case(f"sar abort x{LONG}", sar_gate, abort_plan(LONG), ABORT_REQUEST, sar_world, True),
        Case(f"sar dispatch_only x{LONG}", sar_gate, dispatch, DISPATCH_REQUEST, sar_world, True),
        Case(f"g1_go2 wave x{LONG}", g1_gate, wave, WAVE_REQUEST, g1_world, True),
        Case("sar nominal (3 steps)", sar_gate, nominal_sar, SAR_REQUEST, sar_world, False),
        Case("g1_go2 carry nominal (3 steps)", g1_gate, nominal_g1, G1_CARRY_REQUEST, g1_world,
             False),
    ]


def problem_summary(verdict: PlanVerdict) -> tuple[int, str]:
    codes = Counter(p.code.value for p in verdict.all_problems)
    text = ", ".join(f"{code} x{n}" for code, n in codes.most_common()) or "-"
    return sum(codes.values()), text


def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "")
    long_reps, short_reps = (60, 600) if args.quick else (400, 4_000)
    print_header("bench_validate: Gate.validate, whole plan",
                 f"{long_reps:,} timed calls per {LONG}-step plan, {short_reps:,} per 3-step plan,"
                 " after warm-up calls (a tenth as many).")
    sar, g1 = load_crew("sar"), load_crew("g1_go2")
    report = Report("validate")
    rows: list[list[str]] = []
    all_cases = cases(sar, g1)
    for case in all_cases:
        verdict = case.validate()
        if not case.long and not verdict.accepted:
            raise SystemExit(f"{case.label}: nominal plan refused: {verdict}")
        count, codes = problem_summary(verdict)
        reps = long_reps if case.long else short_reps
        stats = Stats.of(time_calls(case.validate, warmup=reps // 10, repeat=reps))
        rows.append([case.label, str(len(case.plan.steps)), "ok" if verdict.accepted else "refused",
                     str(count), codes, f"{stats.n:,}",
                     *(fmt(in_unit(v, "ms"), 3) for v in
                       (stats.median_ns, stats.p90_ns, stats.min_ns))])
        name = case.label.replace(" (3 steps)", "")
        report.figure(f"validate {name} median", in_unit(stats.median_ns, "ms"), "ms")
        if case.long:
            report.target(f"validate {name} median", in_unit(stats.median_ns, "ms"), "ms", "<=",
                          TARGET_MS)
    print(table(["plan", "steps", "verdict", "problems", "codes", "n", "median ms", "p90 ms",
                 "min ms"], rows))

    print("\nScaling (informational): sar abort plan, Gate.validate; the sizes interleaved "
          "(round after round over all of them), so that noise falls on each alike")
    sar_gate, sar_world = all_cases[0].gate, all_cases[0].world
    sizes = (50, 100, 200, 400, 800)
    plans = {n: abort_plan(n) for n in sizes}
    samples: dict[int, list[int]] = {n: [] for n in sizes}
    rounds = 10
    for _ in range(rounds):
        for n in sizes:
            reps = max(2, (long_reps * LONG) // (n * rounds))

            def call(plan: Plan = plans[n]) -> PlanVerdict:
                return sar_gate.validate(plan, ABORT_REQUEST, sar_world)

            samples[n] += time_calls(call, warmup=1, repeat=reps)
    scale_rows: list[list[str]] = []
    for n in sizes:
        stats = Stats.of(samples[n])
        scale_rows.append([str(n), f"{stats.n:,}", fmt(in_unit(stats.median_ns, "ms"), 3),
                           fmt(in_unit(stats.median_ns, "us") / n, 2)])
    print(table(["steps", "n", "median ms", "us per step"], scale_rows))

    print("\nEnd to end (informational): crewgate.api.check_plan, sar nominal plan "
          "(builds a SimAdapter and parses the plan on every call)")
    raw = SAR_PLAN_FILE.read_text(encoding="utf-8")
    reps = short_reps // 10
    stats = Stats.of(time_calls(lambda: check_plan(sar, raw, SAR_REQUEST),
                                warmup=reps // 10, repeat=reps))
    print(table(["call", "n", "median ms", "p90 ms", "min ms"],
                [["check_plan(sar, nominal)", f"{stats.n:,}",
                  *(fmt(in_unit(v, "ms"), 3) for v in
                    (stats.median_ns, stats.p90_ns, stats.min_ns))]]))
    report.figure("check_plan sar nominal median", in_unit(stats.median_ns, "ms"), "ms")

    if args.profile:
        for case in all_cases[:3]:
            profile_calls(case.label, case.validate, 100)
        profile_calls("check_plan(sar, nominal)", lambda: check_plan(sar, raw, SAR_REQUEST), 100)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
