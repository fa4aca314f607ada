"""``crewgate estop``: engage or release the emergency stop of a crew on ROS 2."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import typer

from crewgate.cli.app import app
from crewgate.cli.common import CrewArg, out
from crewgate.errors import UserError

if TYPE_CHECKING:
    from crewgate.ros2.estop import Offer

MATCH_WAIT_S = 3.0  # how long to wait for readers and holders before saying who is missing
MAX_MATCH_WAIT_S = 60.0


@app.command()
def estop(
    crew: str = CrewArg,
    release: bool = typer.Option(False, "--release", help="Release the e-stop (publish false)."),
    namespace: str | None = typer.Option(None, "--namespace", help="Topic namespace (default: "
                                         "the crew's ros2.namespace, or crewgate)."),
    wait: float = typer.Option(MATCH_WAIT_S, "--wait", metavar="SECONDS",
                               help="How long to wait for a reader to match and every "
                               "holder of the e-stop to take the value (lengthen it on a slow "
                               "network or a loaded machine)."),
) -> None:
    """Engage (or release) the e-stop on the crew's ROS 2 e-stop topic.

    Every orchestrator halts its mission and dispatches nothing more; every robot node cancels
    what it runs, runs its own stop and rejects requests until released. The value is published
    latched (transient local). Needs rclpy: pip install "crewgate\\[ros2]".

    The value is published at once (the readers already matched have it immediately), and
    again whenever a reader has matched since (a volatile reader gets no latched value). Every
    node and orchestrator that holds the e-stop republishes what it holds, latched: the command
    waits, up to --wait seconds, until each of these holders holds the new value, and names
    them. Then it waits for the readers to acknowledge it (at most half a second more).

    Exit status: 0 read, and held by every holder on the graph; 1 no reader matched, or a
    holder did not take it, within --wait seconds (the line names it); 2 bad input.
    """
    if not (math.isfinite(wait) and 0 < wait <= MAX_MATCH_WAIT_S):
        raise UserError(f"--wait must be seconds above 0 and at most {MAX_MATCH_WAIT_S:g}, not "
                        f"{wait!r} (how long to wait for the readers and holders to take "
                        f"the e-stop; default {MATCH_WAIT_S:g})")
    from crewgate.ros2.estop import offer_estop
    from crewgate.ros2.protocol import Topics
    from crewgate.spec import load_crew

    offer = offer_estop(Topics.of(load_crew(crew), namespace).estop(), not release, wait)
    _report(offer, wait)


def _report(offer: Offer, wait: float) -> None:
    """One line: published, read, and taken by every holder; or what is missing (exit 1)."""
    from rich.text import Text

    what = Text("engaged", style="bold red") if offer.engaged else Text("released")
    line = Text.assemble("e-stop ", what, f" on {offer.topic}")  # text: names are never markup
    if not offer.readers:
        out.print(line + Text(f", but no reader matched within {wait:g} s: check "
                              "ROS_DOMAIN_ID and the namespace (or a longer --wait)",
                              style="yellow"))
        raise typer.Exit(1)
    line += f" ({_count(offer.readers, 'reader')}"
    if offer.taken:
        held = ", ".join(n for n, _ in offer.holders)
        out.print(line + (f"; held by {held})" if held else ")"))
        return
    lagging = "; ".join(f"{n} {_holds(v)}" for n, v in offer.dissent)
    out.print(line + Text(f"), but not every holder took it within {wait:g} s: {lagging} "
                          "(a longer --wait, or check that node)", style="yellow"))
    raise typer.Exit(1)


def _holds(value: bool | None) -> str:
    return "was not heard" if value is None else f"still holds it {_STATE[value]}"


_STATE = {True: "engaged", False: "released"}


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"
