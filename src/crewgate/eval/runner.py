"""The evaluation runner: every scenario of a suite, under every condition, for every planner,
executed on the simulator with the scenario's faults; resumable (a mission whose planner gave
no answer is run again), one record per mission.

The held-plan ablation samples each planner once per scenario under ``ro-prompt`` and then
dispatches the identical plan twice, with enforcement off and on (no replan), so that the
difference is the gate's alone.

Planner calls go through :mod:`crewgate.eval.calls` (the response cache, retries, counts). With
``jobs`` > 1 missions run in that many threads and only their planner calls overlap; records are
returned, and appended to ``traces.jsonl``, in the order of a sequential run, so the results and
the files do not depend on ``jobs`` (a finished mission waits for the ones before it to be
written; on a crash those are run again, and their answers come from the cache).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from crewgate.api import run_mission
from crewgate.conditions import CONDITIONS, Condition, Knowledge
from crewgate.errors import InputFileError, PlannerError
from crewgate.eval.cache import ResponseCache
from crewgate.eval.calls import Caller, MissionCalls, RetryPolicy
from crewgate.eval.records import (
    Record,
    TraceFile,
    append_line,
    crew_digest,
    fingerprint,
    make_record,
    run_key,
    written_lines,
)
from crewgate.journal import Journal
from crewgate.orchestrator import new_mission_id
from crewgate.plan import parse_plan
from crewgate.planners.base import (
    Planner,
    PlannerOutput,
    PlanningRequest,
    Proposal,
    stored_output,
)
from crewgate.render import plan_json_schema, render_context
from crewgate.render.retrieval import focus
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
    jobs: int | None = None  # missions at once; None: the planner's default_jobs, else 1
    cache: ResponseCache | None = None  # None: every answer is asked for
    retry: RetryPolicy = field(default_factory=RetryPolicy)

    def __post_init__(self) -> None:
        if not self.scenarios:
            self.scenarios = tuple(self.suite.scenarios)

    @property
    def total(self) -> int:
        conditions = 2 if self.held_plan else len(self.conditions)
        samples = 1 if self.held_plan else self.samples
        return len(self.planners) * conditions * len(self.scenarios) * samples


Progress = Callable[[Record, bool], None]  # (record, was it resumed from disk)


def jobs_for(plan: EvalPlan, planner: Planner) -> int:
    """Missions run at once for ``planner``: ``plan.jobs``, else the planner's default."""
    jobs = plan.jobs if plan.jobs is not None else int(getattr(planner, "default_jobs", 1))
    return max(1, jobs)


Job = tuple[Condition, Scenario, int, Planner]


def run_evaluation(plan: EvalPlan, progress: Progress | None = None) -> list[Record]:
    """Run (or resume) the evaluation; returns every record, in run order."""
    traces = TraceFile(plan.out / "traces.jsonl") if plan.out else None
    done = {r["key"]: r for r in traces.read() if not r.get("planner_error")
            } if traces and traces.path.exists() else {}  # a planner error is run again
    digest = crew_digest(plan.crew)  # (a record resumes only on the same crew: fingerprint)
    journal = Journal(plan.out / "journal.sqlite3" if plan.out else ":memory:")
    records: list[Record] = []
    try:
        for planner in plan.planners:
            jobs = jobs_for(plan, planner)
            caller = Caller(planner, cache=plan.cache, policy=plan.retry,
                            engine=threading.Lock() if jobs > 1 else None, seed=plan.seed)
            todo: list[Job]
            if plan.held_plan:
                held = _held_outputs(plan, caller, jobs, digest)
                todo = [(cond, s, 0, _Fixed(planner.name, held[s.id]))
                        for cond in (HELD_OFF, HELD_ON) for s in plan.scenarios]
            else:
                todo = [(cond, s, k, planner) for cond in plan.conditions
                        for s in plan.scenarios for k in range(plan.samples)]
            records += _run_jobs(plan, caller, todo, jobs, done, journal, traces, progress,
                                 digest)
    finally:
        journal.close()
    return records


def _run_jobs(plan: EvalPlan, caller: Caller, todo: Sequence[Job], jobs: int,
              done: dict[str, Record], journal: Journal, traces: TraceFile | None,
              progress: Progress | None, digest: str) -> list[Record]:
    """Every job's record, in order: resumed ones from ``done`` (recorded with the same
    fingerprint), the others run, ``jobs`` at once; each run is appended to the traces once
    every job before it is (superseding a stale record of its key)."""
    name, model = caller.planner.name, _model(caller.planner)
    prints = [fingerprint(digest, scenario, cond, plan.seed + sample, name, model)
              for cond, scenario, sample, _ in todo]
    results: list[Record | None] = [None] * len(todo)
    fresh = [True] * len(todo)
    written = 0

    def commit(index: int, record: Record, resumed: bool) -> None:
        nonlocal written
        results[index], fresh[index] = record, not resumed
        while written < len(results) and results[written] is not None:
            found = results[written]
            assert found is not None
            if traces and fresh[written]:
                traces.append(found)
            written += 1
        if progress:  # after the write: an interrupt raised here loses nothing written
            progress(record, resumed)

    def one(index: int) -> Record:
        cond, scenario, sample, chosen = todo[index]
        calls = caller.for_mission(sample) if chosen is caller.planner else None
        with caller.engine or nullcontext():
            return _mission(plan, calls or chosen, cond, scenario, sample, journal,
                            model=model, calls=calls, printed=prints[index])

    pending = []
    for index, (cond, scenario, sample, _) in enumerate(todo):
        kept = done.get(run_key(name, cond.name, scenario.id, sample))
        if kept is not None and kept.get("fingerprint") == prints[index]:
            commit(index, kept, True)
        else:
            pending.append(index)
    if jobs == 1:
        for index in pending:
            commit(index, one(index), False)
        return [r for r in results if r is not None]
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix=f"crewgate-eval-{name}")
    running: dict[Future[Record], int] = {}
    try:
        for index in pending:
            running[pool.submit(one, index)] = index
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                commit(running.pop(future), future.result(), False)
    except BaseException:
        caller.stop.set()  # calls not yet made fail at once; running missions end
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return [r for r in results if r is not None]


def _model(planner: Planner) -> str | None:
    """The model a planner asks, where it names one (hosted planners)."""
    model = getattr(planner, "model", None)
    return model if isinstance(model, str) else None


def _mission(plan: EvalPlan, planner: Planner, cond: Condition, scenario: Scenario,
             sample: int, journal: Journal, *, model: str | None = None,
             calls: MissionCalls | None = None, printed: str = "") -> Record:
    seed = plan.seed + sample
    sim = plan.crew.section(SimSection)
    world = scenario.world or (sim.default_world if sim else "")
    mission_id = new_mission_id()
    if calls is not None:
        calls.journal, calls.mission_id = journal, mission_id
    result = run_mission(plan.crew, scenario.request, planner, world=scenario.world, seed=seed,
                         faults=scenario.faults, condition=cond, journal=journal,
                         scenario=scenario.id, mission_id=mission_id)
    record = make_record(result, crew=plan.crew.name,
                         crew_source=plan.crew_source or plan.crew.name,
                         suite=plan.suite.suite, planner=planner.name,
                         condition=cond.name, scenario=scenario, sample=sample, seed=seed,
                         world=world, fingerprint=printed)
    record["model"] = model
    if calls is not None:
        record["calls"] = calls.counts.to_json()
    return record


class _Fixed(Planner):
    """Gives the same held output whenever asked (no replan under the held-plan conditions)."""

    def __init__(self, name: str, output: PlannerOutput) -> None:
        self.name = name
        self.output = output

    def _propose(self, request: PlanningRequest) -> Proposal:
        out = self.output
        return Proposal(out.raw, out.plan, out.usage, out.note, planning_s=out.planning_s)


def _held_outputs(plan: EvalPlan, caller: Caller, jobs: int,
                  digest: str) -> dict[str, PlannerOutput]:
    """One answer per scenario under ro-prompt; kept in held_plans.jsonl (replay format) so that
    a resumed run dispatches the very same plans (those sampled with the same fingerprint:
    :func:`~crewgate.eval.records.fingerprint`; the others are sampled again)."""
    planner = caller.planner
    path = plan.out / f"held_plans.{planner.name}.jsonl" if plan.out else None
    cond = CONDITIONS[SAMPLED_UNDER]
    prints = {s.id: fingerprint(digest, s, cond, plan.seed, planner.name, _model(planner))
              for s in plan.scenarios}
    outputs: dict[str, PlannerOutput] = {}
    if path is not None and path.exists():
        for number, rec in written_lines(path, "held plan"):
            scenario = rec.get("scenario") if isinstance(rec, dict) else None
            held = stored_output(rec.get("output"), rec.get("planning_s", 0.0),
                                 rec.get("usage", {}), rec.get("note", "")) \
                if scenario is not None else None
            if held is None or not isinstance(scenario, str):
                raise InputFileError(
                    f"{path}:{number}: not a held plan (a scenario id, the raw output, its "
                    "planning time, token counts and note, as `crewgate eval` writes them); "
                    "delete the file to sample the held plans again")
            if rec.get("fingerprint") == prints.get(scenario):  # else sampled another way:
                outputs[scenario] = held  # sampled again (appended, read last)
    missing = [s for s in plan.scenarios if s.id not in outputs]

    def sample(scenario: Scenario) -> PlannerOutput:
        shown = focus(plan.crew, scenario.request).crew  # what a mission would show the planner
        ask = PlanningRequest(scenario.request, plan.crew,
                              render_context(shown, cond.knowledge),
                              plan_json_schema(shown, cond.knowledge), cond.name,
                              scenario=scenario.id)
        start = time.perf_counter()
        try:
            return caller.for_mission(0).plan(ask)
        except PlannerError as exc:  # a planner error is a held answer too: no plan at all
            raw = f"planner error: {exc}"
            return PlannerOutput(raw, parse_plan(raw), time.perf_counter() - start, note=raw)

    engine, caller.engine = caller.engine, None  # no mission runs while the plans are sampled
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            answers = list(pool.map(sample, missing))
    finally:
        caller.engine = engine
    for scenario, out in zip(missing, answers, strict=True):
        outputs[scenario.id] = out
        if path is not None:
            append_line(path, json.dumps({
                "scenario": scenario.id, "condition": SAMPLED_UNDER, "attempt": 1,
                "output": out.raw, "planning_s": out.planning_s, "usage": dict(out.usage),
                "note": out.note, "request": scenario.request,
                "fingerprint": prints[scenario.id]}))
    return outputs
