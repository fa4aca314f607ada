"""``crewgate trace``: read a mission back from the journal."""

from __future__ import annotations

from pathlib import Path

import typer

from crewgate.cli.app import app
from crewgate.cli.common import JournalOpt, JsonOpt, out, print_json
from crewgate.errors import UserError


@app.command()
def trace(
    mission_id: str | None = typer.Argument(None, metavar="MISSION", help="Mission id (a unique "
                                            "prefix is enough; default: the latest mission)."),
    journal: Path | None = JournalOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Print every journaled event of a mission (--json exports them)."""
    from rich.markup import escape

    from crewgate.cli.render import event_line
    from crewgate.journal import Journal

    jr = Journal(journal, create=False)
    try:
        if mission_id is None:
            latest = jr.missions(limit=1)
            if not latest:
                raise UserError(f"the journal {jr.path} has no mission yet; run one with "
                                "`crewgate run`")
            mid = latest[0].mission_id
        else:
            mid = jr.resolve(mission_id)
        mission = jr.mission(mid)
        events = jr.events(mid)
    finally:
        jr.close()
    if as_json:
        print_json({"mission": mission.to_json(), "events": [e.to_json() for e in events]})
        return
    out.print(f"[bold]mission {escape(mid)}[/]  crew {escape(mission.crew)}  status "
              f"[bold]{escape(mission.status or 'unfinished')}[/]"
              + (f"  codes {escape(', '.join(mission.codes))}" if mission.codes else ""))
    out.print(f"request: {escape(mission.request)}")
    for event in events:
        out.print(event_line(event))
