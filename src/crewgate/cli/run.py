"""``crewgate run``: plan, validate, execute on the simulator with a live timeline."""

from __future__ import annotations

from pathlib import Path

import typer

from crewgate.cli.app import app
from crewgate.cli.common import (
    ApiKeyEnvOpt,
    BaseUrlOpt,
    ConditionOpt,
    CrewArg,
    FaultOpt,
    FreeFormOpt,
    JournalOpt,
    JsonOpt,
    ModelOpt,
    PlanFileOpt,
    PlannerOpt,
    PlansOpt,
    SeedOpt,
    TemperatureOpt,
    TimeoutOpt,
    WorldOpt,
    out,
    print_json,
)
from crewgate.errors import UserError


@app.command()
def run(
    crew: str = CrewArg,
    request: str = typer.Argument(..., help="What the crew should do, in plain language."),
    planner: str | None = PlannerOpt,
    plan: Path | None = PlanFileOpt,
    plans: Path | None = PlansOpt,
    model: str | None = ModelOpt,
    base_url: str | None = BaseUrlOpt,
    api_key_env: str | None = ApiKeyEnvOpt,
    timeout: float = TimeoutOpt,
    temperature: float = TemperatureOpt,
    free_form: bool = FreeFormOpt,
    condition: str | None = ConditionOpt,
    world: str | None = WorldOpt,
    fault: list[str] = FaultOpt,
    seed: int = SeedOpt,
    no_enforce: bool = typer.Option(False, "--no-enforce", help="Record the gate's verdicts but "
                                    "dispatch anyway (the study's ro-prompt condition)."),
    journal: Path | None = JournalOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run a mission on the built-in simulator (default planner: exemplar, offline).

    Exit status: 0 completed cleanly; 1 refused, halted, or (enforcement off) a step failed or
    carried a gate code; 2 bad input.
    """
    from crewgate.adapters.sim import SimAdapter
    from crewgate.api import run_mission
    from crewgate.cli.planning import build_planner
    from crewgate.cli.render import event_line, print_outcome
    from crewgate.conditions import condition as condition_named
    from crewgate.journal import Journal
    from crewgate.sim.faults import parse_faults
    from crewgate.spec import load_crew

    if no_enforce and condition not in (None, "ro-prompt"):
        raise UserError(f"--no-enforce is the ro-prompt condition; it contradicts --condition "
                        f"{condition}")
    cond = condition_named(condition or ("ro-prompt" if no_enforce else "ro"))
    spec = load_crew(crew)
    chosen = build_planner(spec, planner=planner, plan=plan, plans=plans, model=model,
                           base_url=base_url, api_key_env=api_key_env, timeout=timeout,
                           temperature=temperature, free_form=free_form, seed=seed)
    faults = parse_faults(fault, spec)
    adapter = SimAdapter(spec, world, seed=seed, faults=faults)
    jr = Journal(journal)
    if not as_json:
        out.print(f"[bold]crewgate[/] crew [cyan]{spec.name}[/], world "
                  f"[cyan]{adapter.sim.world_name}[/], planner [cyan]{chosen.name}[/], "
                  f"condition [cyan]{cond.name}[/]"
                  + (f", faults [yellow]{', '.join(faults.specs)}[/]" if faults.any else "")
                  + ("" if cond.enforce else ", [yellow]enforcement off[/]"))
        jr.subscribe(lambda event: out.print(event_line(event)))
    try:
        result = run_mission(spec, request, chosen, seed=seed, faults=fault, condition=cond,
                             journal=jr, adapter=adapter)
    finally:
        jr.close()
    if as_json:
        print_json(result.to_json())
    else:
        print_outcome(out, result)
    raise typer.Exit(0 if result.clean else 1)
