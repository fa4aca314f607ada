"""``crewgate plan``: ask the planner, show what it proposed and the gate's verdict; nothing
moves."""

from __future__ import annotations

import typer

from crewgate.cli.app import app
from crewgate.cli.common import (
    EXIT_PLANNER,
    ConditionOpt,
    CrewArg,
    FaultOpt,
    JsonOpt,
    SeedOpt,
    WorldOpt,
    out,
    print_json,
)
from crewgate.cli.planning import PLANNERS, PlannerArgs, planner_options


@app.command("plan")
@planner_options()
def plan_command(
    crew: str = CrewArg,
    request: str = typer.Argument(..., metavar="REQUEST",
                                  help="What the crew should do, in plain language."),
    planners: PlannerArgs = PLANNERS,
    condition: str | None = ConditionOpt,
    show_prompt: bool = typer.Option(False, "--show-prompt", help="Print what the planner is "
                                     "given: the system prompt (the context) and the turns "
                                     "after it, the request as sent."),
    world: str | None = WorldOpt,
    fault: list[str] = FaultOpt,
    seed: int = SeedOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Plan only: the planner's raw output, the parsed plan and the whole-plan verdict.

    Exit status: 0 accepted, 1 refused, 2 bad input, 3 the planner failed (unreachable, timed
    out, an error from its server).
    """
    from rich.markup import escape

    from crewgate.adapters.sim import SimAdapter
    from crewgate.api import gate_for
    from crewgate.cli.render import print_verdict
    from crewgate.conditions import condition as condition_named
    from crewgate.errors import PlannerError
    from crewgate.limits import check_request
    from crewgate.planners.base import PlanningRequest
    from crewgate.planners.exemplar.embedding import semantic_similarity
    from crewgate.render import plan_json_schema, render_context
    from crewgate.render.retrieval import focus
    from crewgate.sim.faults import parse_faults
    from crewgate.spec import load_crew

    spec = load_crew(crew)
    check_request(request)  # what a mission would not start on, no planner is asked
    cond = condition_named(condition or "ro")
    chosen = planners.build_one(spec, seed=seed)
    # what a mission's planner is shown (retrieval)
    shown = focus(spec, request, semantic_similarity).crew
    context = render_context(shown, cond.knowledge)
    ask = PlanningRequest(request, spec, context, plan_json_schema(shown, cond.knowledge),
                          cond.name)
    if show_prompt and not as_json:
        from crewgate.planners.llm.common import conversation

        out.rule(f"context ({cond.name}): the system prompt")
        out.print(escape(context))
        for turn in conversation(ask):  # what a language model is sent after it
            out.rule(f"{turn.role} turn")
            out.print(escape(turn.text))
    try:
        answer = chosen.plan(ask)
    except PlannerError as exc:
        if as_json:
            print_json({"raw": None, "plan": None, "verdict": None, "planning_s": None,
                        "planner": chosen.name, "error": str(exc)})
        else:
            out.print(f"[bold red]planner error:[/] {escape(str(exc))}")
        raise typer.Exit(EXIT_PLANNER) from None
    world_state = SimAdapter(spec, world, seed=seed, faults=parse_faults(fault, spec)).world
    verdict = gate_for(spec).validate(answer.plan, request, world_state)
    parsed = answer.plan.to_json() if hasattr(answer.plan, "to_json") else None
    if as_json:
        payload = {"raw": answer.raw, "plan": parsed, "verdict": verdict.to_json(),
                   "planning_s": round(answer.planning_s, 6), "planner": chosen.name,
                   "condition": cond.name, "usage": dict(answer.usage)}
        if show_prompt:
            payload["context"] = context
        if answer.note:
            payload["note"] = answer.note
        print_json(payload)
    else:
        out.rule(f"raw output ({chosen.name}, {answer.planning_s * 1000:.1f} ms)")
        out.print(escape(_pretty(answer.raw)))
        if answer.note:
            out.print(f"[yellow]{escape(answer.note)}[/]")
        out.rule("verdict")
        print_verdict(out, verdict)
    raise typer.Exit(0 if verdict.accepted else 1)


def _pretty(raw: str) -> str:
    """Raw output as written; indented when it is exactly one JSON object."""
    import json

    try:
        return json.dumps(json.loads(raw), indent=2)
    except ValueError:
        return raw
