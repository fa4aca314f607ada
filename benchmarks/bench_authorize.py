"""Benchmark: dispatch-time authorization of one step, ``MissionGate.authorize``.

What is measured: the latency of re-authorizing the next step of a validated plan against live
world state, once per reference crew, on the clean (authorized) path:

* ``sar``: step 2 ``tb3.navigate_to {target: victim}`` of examples/sar_search_and_dispatch.json,
  after ``iris.takeoff`` and ``iris.search_target`` are recorded as started and completed and a
  victim fix ``BindingValue((5.0, 5.0), stamp=now, confidence=0.9)`` is published as ``victim``
  (so the binding is resolved and checked for age, confidence and area);
* ``g1_go2``: step 2 ``go2.navigate_to_location {location: room_b}`` of the ``carry`` plan for
  "bring the red cube to room_b", after ``g1.grab_from_table`` and ``g1.place_on_table``.

The world is the simulator's (``SimAdapter(crew).world``) with the earlier steps' effects written
into it (iris airborne; the cube in go2's bin). Each call issues a fresh authorization token, which
the mission gate records as outstanding; that record is cleared every 1,000 calls so memory stays
flat. Every call is timed on its own with ``time.perf_counter_ns`` after a warm-up; the table
gives median, p90, min and max, plus the mean of back-to-back batches of 1,000 calls (throughput
without the timer's own cost). A third, informational row authorizes the same ``sar`` step with
no victim fix published (the refused path, which formats problem messages). The last two rows
(informational) check the same steps with every rule again, as authorization did before issue 11
(``Gate.check`` of the step, then the same authorization issued): what settling each plan step
once per mission saves, measured in the same run.

Target (issue 11): median <= 10 microseconds per authorization, for each reference crew (it was
<= 50 us before issue 11).

Run: ``.venv/bin/python benchmarks/bench_authorize.py [--quick] [--profile] [--json PATH]``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

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
    timer_overhead_ns,
)

from crewgate.adapters.sim import SimAdapter
from crewgate.gate import Authorization, Gate, MissionGate, Mode
from crewgate.plan import Plan, Step, parse_plan
from crewgate.spec import load_crew
from crewgate.world import BindingValue, World

TARGET_US = 10.0
CLEAR_EVERY = 1_000
BATCH = 1_000


@dataclass(slots=True)
class Case:
    """One authorization to repeat: the mission gate, the step and the world it is checked in."""

    label: str
    mgate: MissionGate
    index: int
    step: Step
    world: World
    expect_ok: bool
    full: bool = False  # every rule checked again (authorization before issue 11)
    calls: int = field(default=0, init=False)

    def authorize(self) -> Authorization:
        self.calls += 1
        if self.calls % CLEAR_EVERY == 0:
            self.mgate._outstanding.clear()
        if self.full:
            return self.recheck()
        return self.mgate.authorize(self.index, self.step, self.world)

    def recheck(self) -> Authorization:
        m, world = self.mgate, self.world
        with world.lock:
            check = m.gate.check(
                self.index, self.step, Mode.DISPATCH, workflow=m.workflow, facts=m.facts,
                state=world.state_view(), now=world.now(), bindings=world.bindings,
                started=m.started, completed=m.completed, planned=m.planned, held=m.held)
        return m._issue(self.index, self.step, "step", check.verdict, check.typed,
                        check.bindings, world, enforced=m.enforce)


def _plan(raw: str | dict[str, object]) -> Plan:
    plan = parse_plan(raw)
    if not isinstance(plan, Plan):
        raise SystemExit(f"benchmark plan does not parse: {plan.problems}")
    return plan


def _mission_gate(gate: Gate, request: str, plan: Plan, done: int) -> MissionGate:
    """A mission gate whose first ``done`` plan steps have been started and completed."""
    mgate = MissionGate(gate, "bench", request, plan)
    for step in plan.steps[:done]:
        mgate.started[step.ref] += 1
        mgate.completed[step.ref] += 1
    return mgate


def sar_case(*, with_fix: bool = True, full: bool = False) -> Case:
    crew = load_crew("sar")
    world = SimAdapter(crew).world
    world.update("iris", airborne=True)  # effect of the recorded takeoff
    if with_fix:
        world.publish("victim", BindingValue((5.0, 5.0), stamp=world.now(), confidence=0.9))
    plan = _plan(SAR_PLAN_FILE.read_text(encoding="utf-8"))
    mgate = _mission_gate(Gate(crew), SAR_REQUEST, plan, done=2)
    label = "sar tb3.navigate_to victim" if with_fix else "sar, no victim fix (refused)"
    if full:
        label += ", full re-check"
    return Case(label, mgate, 2, plan.steps[2], world, expect_ok=with_fix, full=full)


def g1_case(*, full: bool = False) -> Case:
    crew = load_crew("g1_go2")
    world = SimAdapter(crew).world
    world.update("go2", payload="red_cube")  # effect of the recorded place_on_table
    plan = _plan(G1_CARRY_PLAN)
    mgate = _mission_gate(Gate(crew), G1_CARRY_REQUEST, plan, done=2)
    return Case("g1_go2 go2.navigate_to_location room_b" + (", full re-check" if full else ""),
                mgate, 2, plan.steps[2], world, expect_ok=True, full=full)


def check_case(case: Case) -> None:
    auth = case.authorize()
    if auth.ok != case.expect_ok:
        codes = ", ".join(auth.verdict.codes) or "none"
        raise SystemExit(f"{case.label}: expected ok={case.expect_ok}, got codes {codes}")


def batch_mean_ns(case: Case, batches: int) -> float:
    means: list[float] = []
    for _ in range(batches):
        t0 = time.perf_counter_ns()
        for _ in range(BATCH):
            case.authorize()
        means.append((time.perf_counter_ns() - t0) / BATCH)
    return Stats.of(means).median_ns


def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "")
    repeat, warmup, batches = (3_000, 300, 3) if args.quick else (30_000, 3_000, 15)
    print_header("bench_authorize: MissionGate.authorize, one dispatch",
                 f"{repeat:,} timed calls per case after {warmup:,} warm-up calls; "
                 f"batch mean = median over {batches} batches of {BATCH:,} calls.")
    cases = [sar_case(), g1_case(), sar_case(with_fix=False), sar_case(full=True),
             g1_case(full=True)]
    report = Report("authorize")
    rows: list[list[str]] = []
    for case in cases:
        check_case(case)
        stats = Stats.of(time_calls(case.authorize, warmup=warmup, repeat=repeat))
        batch = batch_mean_ns(case, batches)
        rows.append([case.label, "ok" if case.expect_ok else "refused", f"{stats.n:,}",
                     *(fmt(in_unit(v, "us"), 2) for v in
                       (stats.median_ns, stats.p90_ns, stats.min_ns, stats.max_ns, batch))])
        slug = case.label.split()[0] if case.expect_ok else "sar_refused"
        slug += " full re-check" if case.full else ""
        report.figure(f"authorize {slug} median", in_unit(stats.median_ns, "us"), "us")
        report.figure(f"authorize {slug} p90", in_unit(stats.p90_ns, "us"), "us")
        if case.expect_ok and not case.full:
            report.target(f"authorize {slug} median", in_unit(stats.median_ns, "us"), "us", "<=",
                          TARGET_US)
    print(table(["case", "verdict", "n", "median us", "p90 us", "min us", "max us",
                 "batch mean us"], rows))
    print(f"\n(timer overhead, two back-to-back perf_counter_ns: "
          f"{fmt(timer_overhead_ns() / 1e3, 3)} us, included in the per-call figures)")
    if args.profile:
        for case in cases:
            profile_calls(case.label, case.authorize, 5_000)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
