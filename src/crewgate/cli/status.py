"""``crewgate status``: each robot's live state and availability, as the backend sees it now
(what an operator checks first after a crash). It reads; it sends nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import typer

from crewgate.cli.app import app
from crewgate.cli.backends import BACKEND, BackendArgs, backend_options
from crewgate.cli.common import CrewArg, JsonOpt, out, print_json

if TYPE_CHECKING:
    from crewgate.adapters.base import Adapter
    from crewgate.spec import Crew


@runtime_checkable
class _Heard(Protocol):
    """A networked backend that says how long ago it last heard a robot (ROS 2 does)."""

    def last_heard(self, robot: str) -> float | None: ...


@app.command()
@backend_options()
def status(
    crew: str = CrewArg,
    backend: BackendArgs = BACKEND,
    as_json: bool = JsonOpt,
) -> None:
    """Print each robot's live state and availability (over ROS 2, when it was last heard),
    and whether the e-stop is engaged.

    Opens the backend, waits for the robots to be heard (--wait-for; over ROS 2 then for every
    e-stop writer on the graph to be matched, 2 s at most), reads, closes; nothing is sent to
    any robot.

    Exit status: 0 every robot available (and no e-stop); 1 some robot unavailable or the
    e-stop engaged; 2 bad input.
    """
    from crewgate.spec import load_crew

    spec = load_crew(crew)
    where = backend.choose()
    adapter = where.open(spec)
    try:
        if where.wait_s > 0:
            adapter.connect(list(spec.robots), where.wait_s)
        report = _report(spec, adapter)
    finally:
        adapter.close()
    if as_json:
        print_json(report)
    else:
        _print(report)
    ready = report["estop"] is None and all(r["available"] for r in report["robots"].values())
    raise typer.Exit(0 if ready else 1)


def _report(spec: Crew, adapter: Adapter) -> dict[str, Any]:
    snapshot = adapter.world.to_json()
    robots: dict[str, Any] = {}
    for name in spec.robots:
        fields = dict(snapshot["robots"].get(name, {}))
        fields.pop("available", None)
        why = adapter.not_ready(name)
        heard = adapter.last_heard(name) if isinstance(adapter, _Heard) else None
        robots[name] = {"available": why is None, "why": why,
                        "last_heard_s": None if heard is None else round(heard, 3),
                        "fields": fields}
    return {"crew": spec.name, "backend": adapter.meta(), "where": adapter.describe(),
            "estop": adapter.abort_reason(), "robots": robots, "bindings": snapshot["bindings"]}


def _print(report: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    out.print(Text.assemble(("crew ", ""), (report["crew"], "cyan"), (", ", ""),
                            (report["where"], "")))
    stop = report["estop"]
    out.print(Text("e-stop not engaged", style="green") if stop is None
              else Text(f"e-stop ENGAGED: {stop}", style="bold red"))
    table = Table(show_header=True, header_style="bold")
    for col in ("robot", "available", "last heard", "state"):
        table.add_column(col)
    for name, robot in report["robots"].items():
        heard = robot["last_heard_s"]
        state = "\n".join(f"{k} = {_value(v)}" for k, v in robot["fields"].items())
        table.add_row(Text(name),
                      Text("yes", style="green") if robot["available"]
                      else Text(f"no: {robot['why']}", style="bold red"),
                      Text("-" if heard is None else f"{heard:.2f} s ago"), Text(state or "-"))
    out.print(table)
    for name, binding in report["bindings"].items():
        out.print(Text(f"binding {name} = {_value(binding['value'])} (from "
                       f"{binding['source'] or '?'})"))


def _value(v: Any) -> str:
    """A state value as it reads in the crew spec: true, 2.5, [1, 2], null."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)
