"""Benchmark: whole-plan validation, ``Gate.validate(plan, request, world)``.

What is measured, first: the study's recorded plans (``tests/corpus/study/``, 116 ``sar`` and
375 ``g1_go2`` plans, each against its scenario's request and faulted initial world), the issue's
measure of the gate against the study's reference checker. Per crew, one pass validates every
plan once, the gate's kept plans and verdicts and the request readings emptied, untimed,
before the pass (each request is read, each distinct plan settled, and each judged once per
state, once per pass, as in an evaluation); its time per plan is
set beside a JSON round trip (``json.loads(json.dumps(plan))``) of the same plans, passes
interleaved, medians. The reference checker is not in this repository: the issue measured it
at ~3.4x a JSON round trip of the same plans on this machine (86 / 56 us per plan against
crewgate's 472 / 274 us). Also printed (no target): the same with every cache emptied before
every plan ("cold": each plan read, settled and its request read from scratch), and where a
pass goes: reading its requests, settling its distinct plans (crewgate.gate.settled), and the
checks against the world (availability, preconditions, bindings, predicted state).

Then long (200-step) plans against the simulator's initial world, for three plan shapes, and a
3-step nominal plan per reference crew for reference:

* ``sar abort x200``: ``iris.land`` / ``tb3.stop`` alternating, workflow ``abort``;
* ``sar dispatch_only x200``: ``tb3.navigate_to {x: 6, y: -3}``, workflow ``dispatch_only``
  (every step types a point argument and checks it against the request);
* ``g1_go2 wave x200``: ``g1.wave``, workflow ``manipulation_only``.

All three long plans are refused for ``cardinality`` (each step may occur at most once): what
counts here is validation time, and the table reports how many problems the gate found. The plans
are parsed once up front; each timed call is ``Gate.validate`` with the request given as text (its
reading is kept between calls, as in ``crewgate.api.check_plan``) and the gate's kept plans
emptied first (the cost of a plan validated for the first time; see ``crewgate.gate.settled``).
Each call is timed on its own with ``time.perf_counter_ns`` after warm-up calls; the table gives
median, p90 and min.

Three informational sections follow: a scaling series (the ``sar abort`` plan at 50 .. 800 steps;
the time per step should stay flat if validation is linear), ``crewgate.api.check_plan`` for the
nominal ``sar`` plan (parses the plan on every call; the crew's gate and initial world are kept),
first and again, and the 200-step plans validated again (their settled part kept).

Targets (issue 11): the study's plans validated at most at the reference checker's cost, ~3.4x a
JSON round trip of the same plans (median passes; the issue aims for 2x faster, about 1.7x);
validating a 200-step plan takes <= 5 ms (median), for each long plan.

``--before SRC`` (informational; nothing else is measured then): the study corpus measured by
this crewgate and by the one at ``SRC/src`` (a git worktree of an earlier commit: ``git
worktree add /tmp/before COMMIT``), each in child processes, alternating, 7 children each
(``--quick``: 3) of 5 rounds; each child's figures are its medians, divided by its own JSON round
trip; the table gives the median child, and the median and range of after / before over the
pairs of children run one after the other.

``--opcodes`` (informational; nothing else is measured then): the bytecode operations one study
pass executes, per crew, counted by ``sys.settrace``; with ``--before SRC``, the same for that
tree too. Unlike a time it does not move with the machine's load, so it tells a 5 % change
apart on a shared machine (C work, such as a regular expression's, counts as one operation).

Run: ``.venv/bin/python benchmarks/bench_validate.py [--quick] [--profile] [--json PATH]
[--before SRC] [--opcodes]``.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchlib import (
    G1_CARRY_PLAN,
    G1_CARRY_REQUEST,
    REPO,
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
from crewgate.api import check_plan, gate_for
from crewgate.gate import Gate, PlanVerdict
from crewgate.plan import ParseFailure, Plan, parse_plan
from crewgate.sim.faults import parse_faults
from crewgate.spec import Crew, load_crew
from crewgate.suites import load_suite
from crewgate.text.request import forget_readings
from crewgate.world import World

TARGET_MS = 5.0
LONG = 200
CORPUS = REPO / "tests" / "corpus" / "study"
REFERENCE_RATIO = 3.4  # the study's checker / a JSON round trip of the same plans (issue 11)
AIM_RATIO = 2.0

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
        """The plan validated for the first time (the gate's kept plans emptied)."""
        forget_plans(self.gate)
        return self.gate.validate(self.plan, self.request, self.world)

    def again(self) -> PlanVerdict:
        return self.gate.validate(self.plan, self.request, self.world)


def forget_plans(gate: Gate) -> None:
    """Empty what the gate keeps of the plans it validated (crewgate.gate.settled)."""
    kept = getattr(gate, "settled_plans", None)  # an earlier crewgate has none (--compare)
    if kept is not None:
        kept.clear()


# -- the study's recorded plans ---------------------------------------------------------------

Recorded = tuple[Plan | ParseFailure, str, World, Any]  # plan, request, world, raw output


def recorded(crew: Crew, name: str) -> list[Recorded]:
    """Every recorded plan of the study for the crew, with its scenario's request and faulted
    initial world (one world per scenario) and the raw output (for the JSON round trip)."""
    scenarios = {s.id: s for s in load_suite(name).scenarios}
    worlds: dict[str, World] = {}
    out = []
    for path in sorted((CORPUS / name).glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            s = scenarios[record["scenario"]]
            if s.id not in worlds:
                worlds[s.id] = SimAdapter(crew, None, faults=parse_faults(s.faults, crew)).world
            out.append((parse_plan(record["output"]), s.request, worlds[s.id], record["output"]))
    return out


def _forget(gate: Gate) -> None:
    forget_readings()
    forget_briefs(gate)
    forget_plans(gate)


def forget_briefs(gate: Gate) -> None:
    """Empty the requests the gate's intent rule keeps read (``Intent.forget``; an earlier
    crewgate, measured with ``--before``, kept them in a dict of its own)."""
    forget = getattr(gate.intent, "forget", None)
    if forget is not None:
        forget()
    else:
        gate.intent._briefs.clear()


def study_passes(name: str, rounds: int) -> tuple[dict[str, list[float]], int]:
    """Per pass kind, the time per plan (ns) of each interleaved round: ``json`` (a JSON round
    trip of every plan), ``pass`` (every plan validated, caches emptied before the pass),
    ``cold`` (every cache emptied before every plan), and the parts of a pass: ``read`` (its
    requests read) and ``kept`` (every plan validated again, readings and plans kept: the
    world's checks); what is left of ``pass`` is settling the plans. Emptying the caches
    before a pass is not timed (it is no validation's work); in ``cold``, before each plan, it
    is (it cannot be taken apart from the pass)."""
    crew = load_crew(name)
    gate = gate_for(crew)
    plans = recorded(crew, name)

    def nothing() -> None:
        pass

    def forget() -> None:
        _forget(gate)

    def round_trip() -> None:
        for *_, raw in plans:
            json.loads(json.dumps(raw))

    def one_pass() -> None:
        for plan, request, world, _ in plans:
            gate.validate(plan, request, world)

    def cold() -> None:
        for plan, request, world, _ in plans:
            _forget(gate)
            gate.validate(plan, request, world)

    requests = sorted({request for _, request, _, _ in plans})

    def read() -> None:  # the part of a pass that reads the requests
        for request in requests:
            gate.intent.brief(request)

    # in this order: ``kept`` right after ``pass``, which leaves every reading and plan kept;
    # each kind with what is done, untimed, before it
    kinds: dict[str, tuple[Callable[[], None], Callable[[], None]]] = {
        "json": (nothing, round_trip), "pass": (forget, one_pass), "kept": (nothing, one_pass),
        "cold": (nothing, cold), "read": (forget, read)}
    for setup, run in kinds.values():
        setup()
        run()  # warm-up
    times: dict[str, list[float]] = {k: [] for k in kinds}
    for _ in range(rounds):
        for kind, (setup, run) in kinds.items():
            setup()
            t0 = time.perf_counter_ns()
            run()
            times[kind].append((time.perf_counter_ns() - t0) / len(plans))
    return times, len(plans)


def study_section(report: Report, rounds: int) -> None:
    print(f"Study corpus: Gate.validate of every recorded plan against its scenario, per crew; "
          f"{rounds} interleaved rounds, median per plan; ratio to a JSON round trip of the same "
          "plans (the study's checker: ~3.4x, issue 11)")
    rows = []
    for name in ("sar", "g1_go2"):
        times, count = study_passes(name, rounds)
        med = {k: Stats.of(v).median_ns for k, v in times.items()}
        ratio = med["pass"] / med["json"]
        share = {k: 100 * med[k] / med["pass"] for k in ("read", "kept")}
        rows.append([name, str(count), fmt(in_unit(med["json"], "us"), 1),
                     fmt(in_unit(med["pass"], "us"), 1), f"{ratio:.2f}x",
                     fmt(in_unit(med["cold"], "us"), 1), f"{med['cold'] / med['json']:.2f}x",
                     f"{share['read']:.0f} / {100 - share['read'] - share['kept']:.0f} / "
                     f"{share['kept']:.0f}"])
        report.figure(f"validate study plans {name}, per plan", in_unit(med["pass"], "us"), "us")
        report.figure(f"validate study plans {name} cold, per plan", in_unit(med["cold"], "us"),
                      "us")
        report.target(f"validate study plans {name} / JSON round trip (reference ~3.4x, aim "
                      f"{AIM_RATIO:g}x)", ratio, "x", "<=", REFERENCE_RATIO)
    print(table(["crew", "plans", "json us/plan", "validate us/plan", "/ json", "cold us/plan",
                 "cold / json", "pass % read / settle / world"], rows))
    print()



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


def _option(flag: str) -> str | None:
    """An option of this script only (taken out of ``sys.argv`` before benchlib parses it)."""
    if flag not in sys.argv:
        return None
    at = sys.argv.index(flag)
    if at + 1 >= len(sys.argv):
        raise SystemExit(f"{flag} needs a value")
    value = sys.argv[at + 1]
    del sys.argv[at:at + 2]
    return value


def opcodes_per_plan(name: str) -> tuple[int, int]:
    """The bytecode operations one study pass executes (``sys.settrace`` with opcode events),
    and the plans: a measure of the work that no other process on the machine disturbs."""
    crew = load_crew(name)
    gate = gate_for(crew)
    plans = recorded(crew, name)

    def one_pass() -> None:
        for plan, request, world, _ in plans:
            gate.validate(plan, request, world)

    one_pass()  # warm-up: what is compiled once per process is not the pass's work
    _forget(gate)  # (as in a timed pass, not counted)
    count = 0

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        one_pass()
    finally:
        sys.settrace(None)
    return count, len(plans)


def opcodes_section(src: str | None) -> int:
    """``--opcodes``: the study pass's bytecode operations by this tree (and the one at
    ``src``, in a child process)."""
    import os
    import subprocess

    trees = [("this tree", None)] + ([("before", src)] if src else [])
    rows = []
    for label, path in trees:
        if path is None:
            counts = {name: opcodes_per_plan(name) for name in ("sar", "g1_go2")}
        else:
            env = {**os.environ, "PYTHONPATH": str(Path(path).resolve() / "src")}
            done = subprocess.run([sys.executable, __file__, "--child-opcodes", "1"], env=env,
                                  capture_output=True, text=True, check=True)
            counts = {k: tuple(v) for k, v in json.loads(done.stdout.splitlines()[-1]).items()}
        rows += [[label, name, f"{ops:,}", f"{ops / plans:,.0f}"]
                 for name, (ops, plans) in counts.items()]
    print("Study pass, bytecode operations executed (sys.settrace; deterministic, unlike time)")
    print(table(["tree", "crew", "per pass", "per plan"], rows))
    return 0


def child_study(rounds: int) -> int:
    """Child mode of ``--before``: the study corpus's medians (ns per plan), as JSON."""
    out = {}
    for name in ("sar", "g1_go2"):
        times, _ = study_passes(name, rounds)
        out[name] = {k: Stats.of(v).median_ns for k, v in times.items()}
    print(json.dumps(out))
    return 0


def before_after(src: str, children: int) -> int:
    """The study corpus by the crewgate at ``src`` and by this one, children alternating."""
    import os
    import subprocess

    here = str(REPO / "src")
    results: dict[str, list[dict[str, dict[str, float]]]] = {"before": [], "after": []}
    for _ in range(children):
        for label, path in (("before", str(Path(src).resolve() / "src")), ("after", here)):
            env = {**os.environ, "PYTHONPATH": path}
            done = subprocess.run([sys.executable, __file__, "--child-study", "5"], env=env,
                                  capture_output=True, text=True, check=True)
            results[label].append(json.loads(done.stdout.splitlines()[-1]))
    rows = []
    for name in ("sar", "g1_go2"):
        cells = []
        for label in ("before", "after"):
            per = [r[name] for r in results[label]]
            us = Stats.of([p["pass"] for p in per]).median_ns / 1e3
            ratio = Stats.of([p["pass"] / p["json"] for p in per]).median_ns
            cold = Stats.of([p["cold"] / p["json"] for p in per]).median_ns
            cells += [fmt(us, 1), f"{ratio:.2f}x", f"{cold:.2f}x"]
        # each child beside the one run right before it: the machine's load moves both alike
        paired = sorted((a[name]["pass"] / a[name]["json"]) / (b[name]["pass"] / b[name]["json"])
                        for b, a in zip(results["before"], results["after"], strict=True))
        cells.append(f"{Stats.of(paired).median_ns:.3f} ({paired[0]:.3f} - {paired[-1]:.3f})")
        rows.append([name, *cells])
    print(f"Study corpus, the crewgate at {src} (before) and this one (after), {children} child "
          "processes each, alternating; median child; x = per plan / a JSON round trip of the "
          "same plans in the same child; after / before: each pair of children run one after "
          "the other, median (range)")
    print(table(["crew", "before us/plan", "before / json", "before cold / json",
                 "after us/plan", "after / json", "after cold / json", "after / before"], rows))
    return 0


def main() -> int:
    child = _option("--child-study")
    if child is not None:
        return child_study(int(child))
    if _option("--child-opcodes") is not None:
        print(json.dumps({name: opcodes_per_plan(name) for name in ("sar", "g1_go2")}))
        return 0
    before = _option("--before")
    opcodes = "--opcodes" in sys.argv
    if opcodes:
        sys.argv.remove("--opcodes")
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "")
    if opcodes:
        return opcodes_section(before)
    if before is not None:
        return before_after(before, 3 if args.quick else 7)
    long_reps, short_reps = (60, 600) if args.quick else (400, 4_000)
    print_header("bench_validate: Gate.validate, whole plan",
                 f"{long_reps:,} timed calls per {LONG}-step plan, {short_reps:,} per 3-step plan,"
                 " after warm-up calls (a tenth as many).")
    report = Report("validate")
    study_section(report, 5 if args.quick else 21)
    sar, g1 = load_crew("sar"), load_crew("g1_go2")
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
                forget_plans(sar_gate)
                return sar_gate.validate(plan, ABORT_REQUEST, sar_world)

            samples[n] += time_calls(call, warmup=1, repeat=reps)
    scale_rows: list[list[str]] = []
    for n in sizes:
        stats = Stats.of(samples[n])
        scale_rows.append([str(n), f"{stats.n:,}", fmt(in_unit(stats.median_ns, "ms"), 3),
                           fmt(in_unit(stats.median_ns, "us") / n, 2)])
    print(table(["steps", "n", "median ms", "us per step"], scale_rows))

    print("\nEnd to end (informational): crewgate.api.check_plan, sar nominal plan (parses "
          "the plan on every call; the crew's gate and initial world are kept), the plan new "
          "to the gate and again; and the 200-step plans validated again (settled part kept)")
    raw = SAR_PLAN_FILE.read_text(encoding="utf-8")
    reps = short_reps // 10
    sar_api = gate_for(sar)

    def first() -> PlanVerdict:
        forget_plans(sar_api)
        return check_plan(sar, raw, SAR_REQUEST)

    again_rows = []
    calls: list[tuple[str, Callable[[], PlanVerdict]]] = [
        ("check_plan(sar, nominal), new plan", first),
        ("check_plan(sar, nominal), again", lambda: check_plan(sar, raw, SAR_REQUEST)),
        *((f"{case.label}, again", case.again) for case in all_cases[:3])]
    for label, run in calls:
        stats = Stats.of(time_calls(run, warmup=reps // 10, repeat=reps))
        again_rows.append([label, f"{stats.n:,}", *(fmt(in_unit(v, "ms"), 3) for v in
                                                     (stats.median_ns, stats.p90_ns,
                                                      stats.min_ns))])
        report.figure(f"{label} median", in_unit(stats.median_ns, "ms"), "ms")
    print(table(["call", "n", "median ms", "p90 ms", "min ms"], again_rows))

    if args.profile:
        for case in all_cases[:3]:
            profile_calls(case.label, case.validate, 100)
        profile_calls("check_plan(sar, nominal)", first, 100)
        profile_calls("study pass, sar", lambda: study_passes("sar", 1), 3)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
