"""Benchmark: what holding the request to the plan (issue 10) costs whole-plan validation.

What is measured: ``Gate.validate`` of every recorded plan of the study
(``tests/corpus/study/``: 491 plans of both crews, each against its scenario's request and
faulted initial world), one pass over all of them timed as a whole, by three gates side by side:

* ``as shipped``: the request's rule (the request read into a brief, the plan held to it, its
  checks on the plan and on every step), and each request read once per pass: the request's
  facts and its brief are kept by text (a mission's plans and dispatches, an evaluation's plans
  for one scenario, share one reading) and, like what the gate keeps of the plans it validated
  (``crewgate.gate.settled``), emptied before each pass;
* ``without intent``: the same, with the request's rule replaced by one that reads nothing and
  checks nothing (what the rule itself costs);
* ``before issue 10``: no request's rule, and the request's facts read again for every plan
  (the readings, and the plans kept, forgotten before each call), as validation was before this
  change.

The passes alternate so that machine noise falls on every gate alike; the table gives each
gate's median pass.

Target (issue 10): whole-plan validation of the study plans stays within 20 % of its cost before
the change: as shipped / before issue 10 <= 1.20. Also printed (no target): as shipped / without
intent, the rule's own share.

Run: ``.venv/bin/python benchmarks/bench_intent.py [--quick] [--profile] [--json PATH]``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from bench_validate import forget_briefs, forget_plans
from benchlib import (
    REPO,
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
from crewgate.codes import Findings
from crewgate.gate import Gate
from crewgate.plan import ParseFailure, Plan, parse_plan
from crewgate.sim.faults import parse_faults
from crewgate.spec import Crew, load_crew
from crewgate.spec.intent import Brief, Held, Intent, PlannedStep, Typed
from crewgate.suites import load_suite
from crewgate.text.request import RequestFacts, forget_readings
from crewgate.world import World

CORPUS = REPO / "tests" / "corpus" / "study"
SHIPPED, BARE, BEFORE = "as shipped", "without intent", "before issue 10"
TARGET_RATIO = 1.20
Case = tuple[Gate, Gate, Plan | ParseFailure, str, World]


class NoIntent(Intent):
    """The request's rule switched off: a brief of nothing, every step asked, no check."""

    def hold(self, workflow: str | None, steps: Sequence[tuple[str, str, Mapping[str, Any]]],
             facts: RequestFacts, typed: Sequence[Typed] | None = None) -> Held:
        return Held(Brief(facts.text), (), ())

    def check_plan(self, brief: Brief, steps: Sequence[PlannedStep], f: Findings) -> None:
        return None

    def check(self, brief: Brief, steps: Sequence[PlannedStep], index: int,
              asked: Sequence[bool], f: Findings, *, dispatch: bool = False) -> None:
        return None


def cases() -> list[tuple[str, Plan | ParseFailure, str, World]]:
    """(crew, plan, request, world) of every recorded plan of the study."""
    crews: dict[str, Crew] = {c: load_crew(c) for c in ("sar", "g1_go2")}
    out = []
    for name, crew in crews.items():
        scenarios = {s.id: s for s in load_suite(name).scenarios}
        for path in sorted((CORPUS / name).glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                s = scenarios[record["scenario"]]
                world = SimAdapter(crew, None, faults=parse_faults(s.faults, crew)).world
                out.append((name, parse_plan(record["output"]), s.request, world))
    return out


def gates() -> dict[str, dict[str, Gate]]:
    """Per crew: the gate as shipped, and the same gate without the request's rule."""
    out = {}
    for name in ("sar", "g1_go2"):
        crew = load_crew(name)
        bare, before = Gate(crew), Gate(crew)
        bare.intent, before.intent = NoIntent(crew), NoIntent(crew)
        out[name] = {SHIPPED: Gate(crew), BARE: bare, BEFORE: before}
    return out


def one_pass(gate_by_crew: Mapping[str, Gate],
             corpus: Sequence[tuple[str, Plan | ParseFailure, str, World]], *,
             reread: bool = False) -> int:
    """Validate every plan once; the number of refusals (so that nothing is optimized out).
    ``reread``: forget the request's reading before every plan (validation before issue 10)."""
    forget_readings()  # a cold reading of every request, each pass, by every gate
    for gate in gate_by_crew.values():
        forget_briefs(gate)
        forget_plans(gate)
    refused = 0
    for crew, plan, request, world in corpus:
        if reread:
            forget_readings()
            forget_plans(gate_by_crew[crew])
        refused += not gate_by_crew[crew].validate(plan, request, world).accepted
    return refused



def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "")
    passes = 5 if args.quick else 21
    corpus = cases()
    print_header("bench_intent: Gate.validate of the study's recorded plans: as shipped, without "
                 "the request's rule, and as before issue 10",
                 f"{len(corpus)} plans per pass; {passes} passes per gate, alternating; "
                 "median pass.")
    by_gate: dict[str, dict[str, Gate]] = {}
    for crew, pair in gates().items():
        for label, gate in pair.items():
            by_gate.setdefault(label, {})[crew] = gate
    passes_of = {label: partial(one_pass, g, corpus, reread=label == BEFORE)
                 for label, g in by_gate.items()}
    refused = {label: run() for label, run in passes_of.items()}  # warm-up
    times: dict[str, list[int]] = {label: [] for label in by_gate}
    for _ in range(passes):
        for label, run in passes_of.items():
            times[label] += time_calls(run, warmup=0, repeat=1)
    stats = {label: Stats.of(t) for label, t in times.items()}
    rows = [[label, fmt(in_unit(s.median_ns, "ms"), 1), fmt(in_unit(s.min_ns, "ms"), 1),
             fmt(in_unit(s.median_ns, "us") / len(corpus), 1), str(refused[label])]
            for label, s in stats.items()]
    print(table(["gate", "pass median ms", "pass min ms", "per plan us", "refused"], rows))
    share = stats[SHIPPED].median_ns / stats[BARE].median_ns
    print(f"\nthe request's rule: as shipped / without intent = {share:.2f}x")
    report = Report("intent")
    for label, s in stats.items():
        report.figure(f"validate the study plans, {label}, median pass",
                      in_unit(s.median_ns, "ms"), "ms")
    report.figure("validation as shipped / without intent (the rule's share)", share, "x")
    report.target("validation of the study plans, as shipped / before issue 10 (median passes)",
                  stats[SHIPPED].median_ns / stats[BEFORE].median_ns, "x", "<=", TARGET_RATIO)
    if args.profile:
        profile_calls("one pass as shipped", passes_of[SHIPPED], 3)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
