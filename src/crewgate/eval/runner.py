"""The evaluation runner: every scenario of a suite, under every condition, for every planner,
executed on the simulator with the scenario's faults; resumable, one record per mission.

The held-plan ablation samples each planner once per scenario under ``ro-prompt`` and then
dispatches the identical plan twice, with enforcement off and on (no replan), so that the
difference is the gate's alone.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from crewgate.api import run_mission
from crewgate.conditions import CONDITIONS, Condition, Knowledge
from crewgate.errors import PlannerError
from crewgate.eval.records import Record, TraceFile, make_record, run_key
from crewgate.journal import Journal
from crewgate.plan import parse_plan
from crewgate.planners.base import Planner, PlannerOutput, PlanningRequest, Proposal
from crewgate.render import plan_json_schema, render_context
from crewgate.sim.section import SimSection
from crewgate.spec import Crew
from crewgate.suites import Scenario, Suite

HELD_OFF = Condition("held-plan/off", Knowledge.CONTRACTS, enforce=False, replans=0)
HELD_ON = Condition("held-plan/on", Knowledge.CONTRACTS, enforce=True, replans=0)
SAMPLED_UNDER = "ro-prompt"  # the held plan is the planner's answer under this condition


@dataclass(slots=True)
class EvalPlan:
    """What to run."""

    crew: Crew
    suite: Suite
    planners: Sequence[Planner]
    conditions: Sequence[Condition] = tuple(CONDITIONS.values())
    samples: int = 1
    seed: int = 0
    held_plan: bool = False
    out: Path | None = None
    scenarios: Sequence[Scenario] = field(default_factory=tuple)
    crew_source: str = ""  # how to load the crew again (a packaged name or a file path)

    def __post_init__(self) -> None:
        if not self.scenarios:
            self.scenarios = tuple(self.suite.scenarios)

    @property
    def total(self) -> int:
        conditions = 2 if self.held_plan else len(self.conditions)
        samples = 1 if self.held_plan else self.samples
        return len(self.planners) * conditions * len(self.scenarios) * samples


Progress = Callable[[Record, bool], None]  # (record, was it resumed from disk)


def run_evaluation(plan: EvalPlan, progress: Progress | None = None) -> list[Record]:
    """Run (or resume) the evaluation; returns every record, in run order."""
    traces = TraceFile(plan.out / "traces.jsonl") if plan.out else None
    done = {r["key"]: r for r in traces.read()} if traces and traces.path.exists() else {}
    journal = Journal(plan.out / "journal.sqlite3" if plan.out else ":memory:")
    records: list[Record] = []
    try:
        for planner in plan.planners:
            jobs: list[tuple[Condition, Scenario, int, Planner]]
            if plan.held_plan:
                held = _held_outputs(plan, planner)
                jobs = [(cond, s, 0, _Fixed(planner.name, held[s.id]))
                        for cond in (HELD_OFF, HELD_ON) for s in plan.scenarios]
            else:
                jobs = [(cond, s, k, planner) for cond in plan.conditions
                        for s in plan.scenarios for k in range(plan.samples)]
            for cond, scenario, sample, chosen in jobs:
                key = run_key(planner.name, cond.name, scenario.id, sample)
                if key in done:
                    records.append(done[key])
                    if progress:
                        progress(done[key], True)
                    continue
                record = _mission(plan, chosen, cond, scenario, sample, journal)
                if traces:
                    traces.append(record)
                records.append(record)
                if progress:
                    progress(record, False)
    finally:
        journal.close()
    return records


def _mission(plan: EvalPlan, planner: Planner, cond: Condition, scenario: Scenario,
             sample: int, journal: Journal) -> Record:
    seed = plan.seed + sample
    sim = plan.crew.section(SimSection)
    world = scenario.world or (sim.default_world if sim else "")
    result = run_mission(plan.crew, scenario.request, planner, world=scenario.world, seed=seed,
                         faults=scenario.faults, condition=cond, journal=journal,
                         scenario=scenario.id)
    return make_record(result, crew=plan.crew.name, crew_source=plan.crew_source or plan.crew.name,
                       suite=plan.suite.suite, planner=planner.name,
                       condition=cond.name, scenario=scenario, sample=sample, seed=seed,
                       world=world)


class _Fixed(Planner):
    """Gives the same held output whenever asked (no replan under the held-plan conditions)."""

    def __init__(self, name: str, output: PlannerOutput) -> None:
        self.name = name
        self.output = output

    def _propose(self, request: PlanningRequest) -> Proposal:
        out = self.output
        return Proposal(out.raw, out.plan, out.usage, out.note, planning_s=out.planning_s)


def _held_outputs(plan: EvalPlan, planner: Planner) -> dict[str, PlannerOutput]:
    """One answer per scenario under ro-prompt; kept in held_plans.jsonl (replay format) so that
    a resumed run dispatches the very same plans."""
    path = plan.out / f"held_plans.{planner.name}.jsonl" if plan.out else None
    outputs: dict[str, PlannerOutput] = {}
    if path is not None and path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                outputs[rec["scenario"]] = PlannerOutput(
                    rec["output"], parse_plan(rec["output"]), rec.get("planning_s", 0.0),
                    rec.get("usage", {}), rec.get("note", ""))
    cond = CONDITIONS[SAMPLED_UNDER]
    context = render_context(plan.crew, cond.knowledge)
    schema = plan_json_schema(plan.crew, cond.knowledge)
    for scenario in plan.scenarios:
        if scenario.id in outputs:
            continue
        ask = PlanningRequest(scenario.request, plan.crew, context, schema, cond.name,
                              scenario=scenario.id)
        start = time.perf_counter()
        try:
            out = planner.plan(ask)
        except PlannerError as exc:  # a planner error is a held answer too: no plan at all
            raw = f"planner error: {exc}"
            out = PlannerOutput(raw, parse_plan(raw), time.perf_counter() - start, note=raw)
        outputs[scenario.id] = out
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps({
                    "scenario": scenario.id, "condition": SAMPLED_UNDER, "attempt": 1,
                    "output": out.raw, "planning_s": out.planning_s, "usage": dict(out.usage),
                    "note": out.note, "request": scenario.request}) + "\n")
    return outputs
