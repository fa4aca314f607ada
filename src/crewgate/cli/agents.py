"""``crewgate mcp`` (an agent's MCP server over one crew) and the operator's side of approval:
``crewgate approvals`` and ``crewgate approve``."""

from __future__ import annotations

import getpass
import sys
from pathlib import Path

import typer

from crewgate.cli.app import app
from crewgate.cli.backends import BACKEND, BackendArgs, backend_options
from crewgate.cli.common import CrewArg, JournalOpt, JsonOpt, SeedOpt, out, print_json
from crewgate.cli.planning import PLANNERS, PlannerArgs, planner_options
from crewgate.errors import UserError


@app.command()
@planner_options()
@backend_options()
def mcp(
    crew: str = CrewArg,
    planners: PlannerArgs = PLANNERS,
    backend: BackendArgs = BACKEND,
    seed: int = SeedOpt,
    journal: Path | None = JournalOpt,
    http: int | None = typer.Option(None, "--http", min=0, max=65535, metavar="PORT",
                                    help="Serve over streamable HTTP at "
                                    "http://127.0.0.1:PORT/mcp instead of stdio (loopback only; "
                                    "0 picks a free port, printed on stderr)."),
) -> None:
    """Serve the crew to an MCP client over stdio (or streamable HTTP on loopback): the
    client's agent plans, crewgate alone moves robots (tools describe_crew, check_plan,
    submit_mission, mission_status, cancel_mission, robot_state, estop; see docs/mcp.md).
    Needs: pip install "crewgate\\[mcp]".

    The planner options choose the server's own planner, used when the agent submits a
    request without a plan (default: exemplar). Stdout carries the protocol: nothing else is
    printed there.
    """
    try:
        from crewgate.mcp.server import CrewServer
    except ModuleNotFoundError as exc:
        raise UserError(f"the MCP server needs the mcp SDK ({exc.name} is not installed): "
                        'pip install "crewgate[mcp]"') from exc
    from crewgate.journal import Journal
    from crewgate.service import MissionDesk
    from crewgate.spec import load_crew

    spec = load_crew(crew)
    chosen = planners.build_one(spec, seed=seed)
    where = backend.choose(seed=seed)
    adapter = where.open(spec)
    jr = Journal(journal)
    desk = MissionDesk(spec, adapter, jr, planner=chosen, source="MCP agent")
    try:
        if where.wait_s > 0:
            adapter.connect(list(spec.robots), where.wait_s)
        if http is None:
            CrewServer(desk).run_stdio()
        else:
            CrewServer(desk).run_http(http, ready=lambda port: print(
                f"crewgate mcp {spec.name}: http://127.0.0.1:{port}/mcp", file=sys.stderr,
                flush=True))
    finally:
        desk.close()
        jr.close()
        adapter.close()


@app.command()
def approvals(
    journal: Path | None = JournalOpt,
    every: bool = typer.Option(False, "--all", help="Also those already decided."),
    as_json: bool = JsonOpt,
) -> None:
    """List the missions agents submitted that wait for an operator's approval."""
    from crewgate.journal import Journal

    jr = Journal(journal, create=False)
    try:
        found = jr.approvals(waiting=not every)
    finally:
        jr.close()
    if as_json:
        print_json([a.to_json() for a in found])
        return
    if not found:
        out.print("no mission waits for approval", markup=False)
        return
    for a in found:
        steps = ", ".join(f"{s['robot']}.{s['skill']}" for s in a.plan.get("steps", []))
        state = a.decision or "waiting"
        out.print(f"{a.mission_id}  {state:<8}  {a.crew}  {a.request!r}\n"
                  f"    {a.plan.get('workflow')}: {steps}", markup=False)


@app.command()
def approve(
    mission: str = typer.Argument(..., metavar="MISSION",
                                  help="The mission id (`crewgate approvals`)."),
    deny: bool = typer.Option(False, "--deny", help="Deny it instead: nothing moves."),
    journal: Path | None = JournalOpt,
) -> None:
    """Approve (or deny) a mission an agent submitted whose workflow needs an operator's
    approval. The server that holds the mission starts it within a moment of the decision.

    Exit status: 0 decided; 2 no such mission waiting, or already decided.
    """
    from crewgate.journal import APPROVED, DENIED, Journal

    jr = Journal(journal, create=False)
    try:
        decided = jr.decide(mission, DENIED if deny else APPROVED, by=_operator())
    finally:
        jr.close()
    steps = ", ".join(f"{s['robot']}.{s['skill']}" for s in decided.plan.get("steps", []))
    out.print(f"mission {decided.mission_id} {decided.decision} by {decided.decided_by}: "
              f"{decided.request!r} ({steps})", markup=False)


def _operator() -> str:
    try:
        return f"operator {getpass.getuser()}"
    except (KeyError, OSError):
        return "operator"
