"""``crewgate run``: plan, validate, execute on the simulator with a live timeline."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from crewgate.ros2.adapter import Ros2Adapter
    from crewgate.spec import Crew


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
    backend: str = typer.Option("sim", "--backend", help="sim: the built-in simulator, in "
                                "process; ros2: the crew's robots as ROS 2 nodes (real ones, or "
                                "`crewgate node CREW ROBOT` for each), extra crewgate[ros2]."),
    wait_for: float = typer.Option(10.0, "--wait-for", help="ros2: seconds to wait for every "
                                   "robot to be heard on the graph before planning."),
    namespace: str | None = typer.Option(None, "--namespace", help="ros2: topic namespace "
                                         "(default: the crew's ros2.namespace, or crewgate)."),
    journal: Path | None = JournalOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run a mission on the built-in simulator or over ROS 2 (default planner: exemplar,
    offline).

    Exit status: 0 completed cleanly; 1 refused, halted, or (enforcement off) a step failed or
    carried a gate code; 2 bad input.
    """
    from crewgate.adapters.base import Adapter
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
    adapter: Adapter
    if backend == "sim":
        faults = parse_faults(fault, spec)
        adapter = SimAdapter(spec, world, seed=seed, faults=faults)
        where = f"world [cyan]{adapter.sim.world_name}[/]" + (
            f", faults [yellow]{', '.join(faults.specs)}[/]" if faults.any else "")
    elif backend == "ros2":
        if fault or world:
            raise UserError("--fault and --world configure the simulator; with --backend ros2 "
                            "give them to each `crewgate node` instead")
        adapter = _ros2_adapter(spec, crew, namespace, wait_for, quiet=as_json)
        where = f"ROS 2 namespace [cyan]/{adapter.topics.namespace}[/]"
    else:
        raise UserError(f"unknown --backend {backend!r}; use sim or ros2")
    jr = Journal(journal)
    if not as_json:
        out.print(f"[bold]crewgate[/] crew [cyan]{spec.name}[/], {where}, planner "
                  f"[cyan]{chosen.name}[/], condition [cyan]{cond.name}[/]"
                  + ("" if cond.enforce else ", [yellow]enforcement off[/]"))
        jr.subscribe(lambda event: out.print(event_line(event)))
    try:
        result = run_mission(spec, request, chosen, seed=seed, faults=fault, condition=cond,
                             journal=jr, adapter=adapter)
    finally:
        jr.close()
        adapter.close()
    if as_json:
        print_json(result.to_json())
    else:
        print_outcome(out, result, "simulated" if backend == "sim" else "real")
    raise typer.Exit(0 if result.clean else 1)


def _ros2_adapter(spec: Crew, crew_arg: str, namespace: str | None, wait_for: float, *,
                  quiet: bool) -> Ros2Adapter:
    """Join the graph and wait for the crew; robots still silent stay unavailable (the gate
    refuses their steps), which is reported, not fatal: a mission may not need them."""
    from crewgate.ros2.adapter import Ros2Adapter

    adapter = Ros2Adapter(spec, namespace=namespace)
    robots = list(spec.robots)
    if not quiet:
        out.print(f"waiting up to {wait_for:g} s for {', '.join(robots)} on "
                  f"/{adapter.topics.namespace} ...")
    missing = adapter.wait_for(robots, wait_for)
    if missing and not quiet:
        out.print(f"[yellow]not heard[/]: {', '.join(missing)} (unavailable: the gate refuses "
                  f"their steps); start each with `crewgate node {crew_arg} ROBOT`")
    return adapter
