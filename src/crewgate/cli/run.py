"""``crewgate run``: plan, validate, execute on the simulator with a live timeline."""

from __future__ import annotations

from pathlib import Path

import typer

from crewgate.cli.app import app
from crewgate.cli.common import (
    CrewArg,
    FaultOpt,
    JournalOpt,
    JsonOpt,
    SeedOpt,
    WorldOpt,
    out,
    print_json,
)
from crewgate.errors import UserError

DEFAULT_PLANNER = "exemplar"


@app.command()
def run(
    crew: str = CrewArg,
    request: str = typer.Argument(..., help="What the crew should do, in plain language."),
    planner: str | None = typer.Option(
        None, "--planner", help="Planner backend (default: exemplar, the offline planner; "
        "`--plan FILE` implies scripted)."),
    plan: Path | None = typer.Option(None, "--plan", help="Use this plan (JSON or raw model "
                                     "text) as the planner's output."),
    world: str | None = WorldOpt,
    fault: list[str] = FaultOpt,
    seed: int = SeedOpt,
    no_enforce: bool = typer.Option(False, "--no-enforce", help="Record the gate's verdicts but "
                                    "dispatch anyway (the study's ro-prompt baseline)."),
    journal: Path | None = JournalOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run a mission on the built-in simulator.

    Exit status: 0 completed cleanly; 1 refused, halted, or (enforcement off) a step failed or
    carried a gate code; 2 bad input.
    """
    from crewgate.adapters.sim import SimAdapter
    from crewgate.api import run_mission
    from crewgate.cli.render import event_line, print_outcome
    from crewgate.journal import Journal
    from crewgate.planners.registry import PlannerOptions, available_planners, make_planner
    from crewgate.sim.faults import parse_faults
    from crewgate.spec import load_crew

    spec = load_crew(crew)
    name = planner or ("scripted" if plan is not None else DEFAULT_PLANNER)
    if name not in available_planners() and planner is None:
        raise UserError(f"the default planner {name!r} is not installed; give --plan FILE "
                        f"(planners here: {', '.join(available_planners())})")
    chosen = make_planner(name, spec, PlannerOptions(plan_file=plan))
    faults = parse_faults(fault, spec)
    adapter = SimAdapter(spec, world, seed=seed, faults=faults)
    jr = Journal(journal)
    if not as_json:
        out.print(f"[bold]crewgate[/] crew [cyan]{spec.name}[/], world "
                  f"[cyan]{adapter.sim.world_name}[/], planner [cyan]{chosen.name}[/]"
                  + (f", faults [yellow]{', '.join(faults.specs)}[/]" if faults.any else "")
                  + ("" if not no_enforce else ", [yellow]enforcement off[/]"))
        jr.subscribe(lambda event: out.print(event_line(event)))
    try:
        result = run_mission(spec, request, chosen, seed=seed, faults=fault,
                             condition="ro-prompt" if no_enforce else "ro", journal=jr,
                             adapter=adapter)
    finally:
        jr.close()
    if as_json:
        print_json(result.to_json())
    else:
        print_outcome(out, result)
    raise typer.Exit(0 if result.clean else 1)
