"""``crewgate run``: plan, validate, execute on the simulator with a live timeline."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from crewgate.cli.app import app
from crewgate.cli.backends import BACKEND, BackendArgs, backend_options
from crewgate.cli.common import (
    EXIT_PLANNER,
    ConditionOpt,
    CrewArg,
    JournalOpt,
    JsonOpt,
    SeedOpt,
    out,
    print_json,
)
from crewgate.cli.planning import PLANNERS, PlannerArgs, planner_options
from crewgate.errors import UserError

EXIT_INTERRUPTED = 130  # the shell's convention for a process stopped by SIGINT

if TYPE_CHECKING:
    from crewgate.adapters.base import Adapter
    from crewgate.spec import Crew


@app.command()
@planner_options()
@backend_options()
def run(
    crew: str = CrewArg,
    request: str = typer.Argument(..., metavar="REQUEST",
                                  help="What the crew should do, in plain language."),
    planners: PlannerArgs = PLANNERS,
    condition: str | None = ConditionOpt,
    no_enforce: bool = typer.Option(False, "--no-enforce", help="Record the gate's verdicts but "
                                    "dispatch anyway (the study's ro-prompt condition)."),
    backend: BackendArgs = BACKEND,
    seed: int = SeedOpt,
    journal: Path | None = JournalOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run a mission on the built-in simulator or over ROS 2 (default planner: exemplar,
    offline).

    Exit status: 0 completed cleanly; 1 refused, halted, crashed, or (enforcement off) a step
    failed or carried a gate code; 2 bad input; 3 the planner failed (unreachable, timed out,
    an error from its server: nothing moved); 130 interrupted (SIGINT, SIGTERM: the mission
    was halted and its fallback run first).
    """
    from rich.markup import escape

    from crewgate.api import run_mission
    from crewgate.cli.render import event_line, print_outcome
    from crewgate.conditions import condition as condition_named
    from crewgate.journal import Journal
    from crewgate.orchestrator.safety import MissionInterrupted
    from crewgate.spec import load_crew

    if no_enforce and condition not in (None, "ro-prompt"):
        raise UserError(f"--no-enforce is the ro-prompt condition; it contradicts --condition "
                        f"{condition}")
    cond = condition_named(condition or ("ro-prompt" if no_enforce else "ro"))
    spec = load_crew(crew)
    started = time.perf_counter()
    chosen = planners.build_one(spec, seed=seed)  # e.g. the exemplar loads MiniLM here
    planner_load_s = time.perf_counter() - started
    chosen_backend = backend.choose(seed=seed)
    adapter = chosen_backend.open(spec)
    try:
        _connect(adapter, spec, crew, chosen_backend.wait_s, quiet=as_json)
        jr = Journal(journal)
        try:
            if not as_json:
                out.print(f"[bold]crewgate[/] crew [cyan]{escape(spec.name)}[/], "
                          f"{escape(adapter.describe())}, planner [cyan]{escape(chosen.name)}[/],"
                          f" condition [cyan]{cond.name}[/]"
                          + ("" if cond.enforce else ", [yellow]enforcement off[/]"))
                jr.subscribe(lambda event: out.print(event_line(event)))
            try:
                result = run_mission(spec, request, chosen, condition=cond, journal=jr,
                                     adapter=adapter)
            except MissionInterrupted as stop:  # made safe and journaled: report it, then stop
                result = stop.result
        finally:
            jr.close()
    finally:
        adapter.close()
    if as_json:
        print_json(result.to_json())
    else:
        print_outcome(out, result, adapter.clock, planner_load_s=planner_load_s)
    raise typer.Exit(EXIT_INTERRUPTED if result.status == "interrupted" else
                     EXIT_PLANNER if result.planner_error else 0 if result.clean else 1)


def _connect(adapter: Adapter, spec: Crew, crew_arg: str, wait_s: float, *,
             quiet: bool) -> None:
    """Wait for the crew to be heard; robots still silent stay unavailable (the gate refuses
    their steps), which is reported, not fatal: a mission may not need them."""
    if wait_s <= 0:
        return
    robots = list(spec.robots)
    if not quiet:
        out.print(f"waiting up to {wait_s:g} s for {', '.join(robots)} on "
                  f"{adapter.describe()} ...", markup=False)
    missing = adapter.connect(robots, wait_s)
    if missing and not quiet:
        out.print(f"not heard: {', '.join(missing)} (unavailable: the gate refuses their steps); "
                  f"start each with `crewgate node {crew_arg} ROBOT`", markup=False)
