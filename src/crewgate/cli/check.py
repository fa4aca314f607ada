"""``crewgate check``: the whole-plan verdict, nothing moves."""

from __future__ import annotations

from pathlib import Path

import typer

from crewgate.cli.app import app
from crewgate.cli.common import CrewArg, FaultOpt, JsonOpt, SeedOpt, WorldOpt, out, print_json


@app.command()
def check(
    crew: str = CrewArg,
    plan: Path = typer.Option(..., "--plan", help="Plan file: JSON, or raw model text ('-' = "
                              "stdin). Text without a plan gives malformed_plan."),
    request: str = typer.Option(..., "--request", help="The request the plan answers."),
    fault: list[str] = FaultOpt,
    world: str | None = WorldOpt,
    seed: int = SeedOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Validate a whole plan against the crew, the request and the initial world state.

    Exit status: 0 accepted, 1 refused, 2 bad input.
    """
    from crewgate.api import check_plan
    from crewgate.cli.render import print_verdict
    from crewgate.planners.scripted import read_plan_file
    from crewgate.spec import load_crew

    spec = load_crew(crew)
    verdict = check_plan(spec, read_plan_file(plan), request, faults=fault, world=world,
                         seed=seed)
    if as_json:
        print_json(verdict.to_json())
    else:
        print_verdict(out, verdict)
    raise typer.Exit(0 if verdict.accepted else 1)
