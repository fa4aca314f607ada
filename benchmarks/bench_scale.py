"""Benchmark: how the contract layer scales with the crew (issue 15, docs/scaling.md).

What is measured, on crews made by ``crewgate.testing.generate`` (R robots, S skills shared
among them, W workflows; each workflow sends one robot to a place to do one task, with an
example request and its plan), each row in the same run:

* **load**: ``parse_crew`` of the crew's YAML text (YAML, validation, the spec's own checks), ms;
* **validate**: ``Gate.validate`` of 20 example plans against their requests, us per plan:
  the first time (what the gate keeps of a plan cleared before each call, the request already
  read, as in a mission) and again (kept: a replan, a dispatch, the next condition);
* **authorize**: ``MissionGate.authorize`` of the first step of an example plan, us per call;
* **prompt**: characters of the planner's context plus its plan schema, for the whole crew and
  for the focus retrieval shows for the first example request (docs/scaling.md), with the
  estimated tokens (4 characters each);
* **exemplar** (rows marked): the offline planner's plans for the example requests, the share
  the gate accepts, and its seconds per plan.

The packaged crew ``sar`` is loaded from its YAML text the same way, for the load target.

Targets (issue 15): ``crewgate validate`` of a 100-robot, 10,000-skill crew takes <= 4x the
same command for the packaged crew (wall time as a user sees it, best of a few runs; the
in-process load ratio is printed beside it); its prompt for a request (with retrieval) <=
60,000 characters; the offline planner's plans for it are accepted (share 1.0).

Run: ``.venv/bin/python benchmarks/bench_scale.py [--quick] [--json PATH]``.
"""

from __future__ import annotations

import json
import sys
import time
from importlib import resources
from typing import Any

from benchlib import Report, parse_args, print_header, table

from crewgate.conditions import Knowledge
from crewgate.gate import Gate, MissionGate
from crewgate.plan import parse_plan
from crewgate.render import plan_json_schema, render_context
from crewgate.render.retrieval import CHARS_PER_TOKEN, focus
from crewgate.spec import Crew
from crewgate.spec.loader import parse_crew
from crewgate.testing.generate import generate_crew
from crewgate.world import World

# (robots, skills, workflows, exemplar?)
GRID = [(2, 10, 3, True), (10, 100, 10, False), (10, 1_000, 10, False),
        (100, 1_000, 20, False), (100, 10_000, 20, True), (100, 10_000, 1_000, False),
        (10, 100, 1_000, False)]
QUICK = [(2, 10, 3, False), (100, 10_000, 20, True)]
PLANS = 20  # example plans validated per row
TARGET = (100, 10_000, 20)


def best_ms(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return min(times)


def prompt_chars(crew: Crew) -> int:
    return (len(render_context(crew, Knowledge.CONTRACTS))
            + len(json.dumps(plan_json_schema(crew, Knowledge.CONTRACTS))))


def measure(robots: int, skills: int, workflows: int, exemplar: bool,
            repeat: int) -> dict[str, Any]:
    made = generate_crew(robots, skills, workflows)
    text = made.yaml()
    load_ms = best_ms(lambda: parse_crew(text, "<generated>"), repeat)
    crew = parse_crew(text, "<generated>")
    gate = Gate(crew)
    world = World(crew, clock=time.time)
    # the same number of plans in every row: what grows is the crew, not the sample
    plans = [(parse_plan(e.plan), e.request) for e in made.examples[:PLANS]]
    for plan, request in plans:  # the request readings, cached by text as in a mission
        gate.validate(plan, request, world)

    def validate_all() -> None:
        for plan, request in plans:
            gate.settled_plans.clear()  # checked in full, as the first time
            gate.validate(plan, request, world)

    def validate_again() -> None:
        for plan, request in plans:
            gate.validate(plan, request, world)

    validate_us = best_ms(validate_all, repeat) * 1000 / len(plans)
    again_us = best_ms(validate_again, repeat) * 1000 / len(plans)
    plan, request = plans[0]
    assert not isinstance(plan, str)
    session = MissionGate(gate, "bench", request, plan)  # type: ignore[arg-type]
    step = plan.steps[0]  # type: ignore[union-attr]
    calls = 2_000
    t0 = time.perf_counter()
    for _ in range(calls):
        session.authorize(0, step, world)
    authorize_us = (time.perf_counter() - t0) * 1e6 / calls
    whole = prompt_chars(crew)
    shown = focus(crew, made.examples[0].request)
    focused = prompt_chars(shown.crew)
    row: dict[str, Any] = {"robots": robots, "skills": skills, "workflows": workflows,
                           "yaml_chars": len(text), "load_ms": load_ms,
                           "validate_us": validate_us, "again_us": again_us,
                           "authorize_us": authorize_us,
                           "prompt_whole": whole, "prompt_focus": focused,
                           "retrieval": not shown.whole}
    if exemplar:
        from crewgate.planners.base import PlanningRequest
        from crewgate.planners.registry import make_planner
        from crewgate.render.retrieval import focus as shown_for

        planner = make_planner("exemplar", crew)
        accepted, spent = 0, 0.0
        for example in made.examples:
            view = shown_for(crew, example.request).crew
            ask = PlanningRequest(example.request, crew, render_context(view, Knowledge.CONTRACTS),
                                  plan_json_schema(view, Knowledge.CONTRACTS))
            t0 = time.perf_counter()
            out = planner.plan(ask)
            spent += time.perf_counter() - t0
            accepted += gate.validate(out.plan, example.request, world).accepted
        row["exemplar_accepted"] = accepted / len(made.examples)
        row["exemplar_s"] = spent / len(made.examples)
    return row


def command_s(args: list[str], repeat: int) -> float:
    """Best wall time of a crewgate command, as a user runs it (interpreter start included)."""
    import subprocess

    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "crewgate", *args], check=True,
                       capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return best


def packaged_load_ms(repeat: int) -> float:
    text = resources.files("crewgate.crews").joinpath("sar.yaml").read_text(encoding="utf-8")
    return best_ms(lambda: parse_crew(text, "<sar>"), repeat)


def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "", profile=False)
    grid, repeat = (QUICK, 2) if args.quick else (GRID, 3)
    print_header("bench_scale: the contract layer against robots, skills and workflows",
                 f"generated crews; best of {repeat} for load and validation; 2,000 "
                 "authorizations per row.")
    sar_ms = packaged_load_ms(repeat * 3)
    rows = []
    found: dict[tuple[int, int, int], dict[str, Any]] = {}
    for robots, skills, workflows, exemplar in grid:
        row = measure(robots, skills, workflows, exemplar, repeat)
        found[(robots, skills, workflows)] = row
        rows.append([str(robots), f"{skills:,}", f"{workflows:,}", f"{row['yaml_chars']:,}",
                     f"{row['load_ms']:.1f}", f"{row['load_ms'] / sar_ms:.1f}x",
                     f"{row['validate_us']:.0f} / {row['again_us']:.0f}",
                     f"{row['authorize_us']:.1f}",
                     f"{row['prompt_whole']:,} ({row['prompt_whole'] // CHARS_PER_TOKEN:,})",
                     f"{row['prompt_focus']:,} ({row['prompt_focus'] // CHARS_PER_TOKEN:,})"
                     if row["retrieval"] else "whole",
                     f"{row['exemplar_accepted']:.2f} / {row['exemplar_s']:.2f}s"
                     if "exemplar_accepted" in row else "-"])
        print(f"  measured R={robots} S={skills} W={workflows}", flush=True)
    print()
    print(f"packaged crew sar: load {sar_ms:.1f} ms")
    print(table(["R", "S", "W", "YAML chars", "load ms", "vs sar",
                 "validate us/plan (first / again)",
                 "authorize us", "prompt whole (tokens)", "prompt focus (tokens)",
                 "exemplar accepted / per plan"], rows))
    report = Report("scale")
    report.figure("scale sar load", sar_ms, "ms")
    for (r, s, w), row in found.items():
        report.figure(f"scale R{r} S{s} W{w} load", row["load_ms"], "ms")
        report.figure(f"scale R{r} S{s} W{w} validate", row["validate_us"], "us")
        report.figure(f"scale R{r} S{s} W{w} authorize", row["authorize_us"], "us")
        report.figure(f"scale R{r} S{s} W{w} prompt focus", float(row["prompt_focus"]), "chars")
    target = found.get(TARGET)
    if target is not None:
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as tmp:
            big = Path(tmp) / "big.yaml"
            big.write_text(generate_crew(*TARGET).yaml(), encoding="utf-8")
            small = command_s(["validate", "sar"], repeat + 1)
            large = command_s(["validate", str(big)], repeat + 1)
        print(f"`crewgate validate`: sar {small:.2f} s, the 100-robot 10,000-skill crew "
              f"{large:.2f} s ({large / small:.1f}x); in process, loading it is "
              f"{target['load_ms'] / sar_ms:.0f}x sar's load")
        report.figure("scale 10k-skill load vs sar, in process", target["load_ms"] / sar_ms, "x")
        report.target("scale 10k-skill crewgate validate vs sar", large / small, "x", "<=", 4.0)
        report.target("scale 10k-skill prompt with retrieval", float(target["prompt_focus"]),
                      "chars", "<=", 60_000.0)
        if "exemplar_accepted" in target:
            report.target("scale 10k-skill exemplar plans accepted",
                          target["exemplar_accepted"], "share", ">=", 1.0)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
