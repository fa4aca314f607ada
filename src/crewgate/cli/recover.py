"""``crewgate recover``: close the missions a killed orchestrator left unfinished (thin over
:mod:`crewgate.orchestrator.recovery`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from crewgate.cli.app import app
from crewgate.cli.backends import BACKEND, BackendArgs, backend_options
from crewgate.cli.common import CrewArg, JournalOpt, JsonOpt, out, print_json

if TYPE_CHECKING:
    from crewgate.orchestrator.recovery import Recovery


@app.command()
@backend_options()
def recover(
    crew: str = CrewArg,
    backend: BackendArgs = BACKEND,
    journal: Path | None = JournalOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Close the crew's missions that a killed orchestrator left unfinished.

    For each (oldest first), read from the journal what it sent and what was confirmed, run the
    crew's safe fallback, through the gate, on the robots it engaged that are reachable now, and
    close it as crashed with what was sent and confirmed. No step of a plan is ever sent again.
    A mission whose process is still alive (it holds its lease on the journal) is left alone;
    over ROS 2, so is one whose orchestrator still heartbeats it.

    Exit status: 0 nothing to recover, or every mission closed with its robots reached and its
    fallback done; 1 a mission left running, a robot not reached, or a fallback step refused or
    failed; 2 bad input.
    """
    from rich.markup import escape

    from crewgate.api import gate_for
    from crewgate.cli.render import event_line
    from crewgate.journal import Journal
    from crewgate.orchestrator.recovery import recover as recover_missions
    from crewgate.orchestrator.recovery import unfinished
    from crewgate.spec import load_crew

    spec = load_crew(crew)
    where = backend.choose()
    jr = Journal(journal, create=False)
    try:
        missions = unfinished(jr, spec.name)
        if not missions:
            jr.sweep_leases()
            if as_json:
                print_json({"crew": spec.name, "journal": jr.path, "missions": []})
            else:
                out.print(f"no unfinished mission of crew {escape(spec.name)} in "
                          f"{escape(jr.path)}: nothing to recover")
            return
        adapter = where.open(spec)
        try:
            if not as_json:
                out.print(f"[bold]crewgate recover[/] crew [cyan]{escape(spec.name)}[/], "
                          f"{escape(adapter.describe())}: {len(missions)} unfinished "
                          f"mission{'s' if len(missions) != 1 else ''}")
                jr.subscribe(lambda event: out.print(event_line(event)))
            done = recover_missions(gate_for(spec), adapter, jr, missions,
                                    wait_s=where.wait_s)
        finally:
            adapter.close()
    finally:
        jr.close()
    if as_json:
        print_json({"crew": spec.name, "journal": str(jr.path),
                    "missions": [r.to_json() for r in done]})
    else:
        _print(done)
    raise typer.Exit(0 if all(r.ok for r in done) else 1)


def _print(done: list[Recovery]) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(show_header=True, header_style="bold")
    for col in ("mission", "status", "sent", "confirmed", "fallback"):
        table.add_column(col)
    for r in done:
        f = r.findings
        sent = [f"{s.index} {s.ref}" for s in f.sent] + [f"{i} {ref} (in doubt)"
                                                         for i, ref in f.in_doubt]
        confirmed = [s.describe() for s in f.sent if s.confirmed]
        fallback = [f"{ref}: {outcome}" for ref, outcome in r.fallback] + [
            f"{robot}: not reachable" for robot in r.unreachable]
        table.add_row(Text(r.mission_id), Text(r.status, style="bold" if r.ok else "bold red"),
                      Text("\n".join(sent) or "-"), Text("\n".join(confirmed) or "-"),
                      Text("\n".join(fallback) or "-"))
    out.print(table)
    for r in done:
        if r.status == "running":
            out.print(Text(f"{r.mission_id}: {r.reason}"))
        for robot, why in r.unreachable.items():
            out.print(Text(f"{r.mission_id}: {robot} not reachable ({why}); check it on site"))
        for error in r.journal_errors:
            out.print(Text(f"{r.mission_id}: journal: {error}", style="red"))
