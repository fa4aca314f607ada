"""Options and helpers shared by commands."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import typer
from rich.console import Console

from crewgate.errors import UserError

out = Console(highlight=False, soft_wrap=True)
# exit status of a command whose planner failed (unreachable, timed out, its server's error):
# not a refusal (1) nor bad input (2)
EXIT_PLANNER = 3

CrewArg = typer.Argument(..., metavar="CREW",
                         help="A packaged crew (see `crewgate crews`) or a crew YAML file.")
JsonOpt = typer.Option(False, "--json", help="Print machine-readable JSON only.")
JournalOpt = typer.Option(None, "--journal", envvar="CREWGATE_JOURNAL",
                          help="Journal file (default: ~/.local/state/crewgate/journal.sqlite3).")
FaultOpt = typer.Option([], "--fault", help="Inject a fault (repeatable): robot_unavailable:ROBOT\\"
                        "[@SKILL], nan_fix, missed_detection, stale_fix, fix_offset:X,Y, "
                        "skill_failure:ROBOT.SKILL, adapter_timeout:ROBOT.SKILL.")
WorldOpt = typer.Option(None, "--world", help="Simulator world (default: the crew's default).")
SeedOpt = typer.Option(0, "--seed", help="Simulator seed (noise, detection), and the sampling "
                       "seed of a planner that takes one.")

ConditionOpt = typer.Option(None, "--condition", help="What the planner is told and whether the "
                            "gate enforces: llm-only, skill-list, ro-prompt, ro (default: ro).")


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, allow_nan=False))


def option_values(flag: str, kind: str, shorthands: Mapping[str, object],
                  items: list[str]) -> dict[str, object]:
    """A plugin's option values by name: the shorthands given (None, False and empty lists are
    not given) and the ``FLAG KEY=VALUE`` items. An item repeated gives a list (``-b
    faults=nan_fix -b faults=stale_fix``); an option given both ways is an error. ``kind`` is
    "planner" or "backend", for messages."""
    from crewgate.plugins import option_key

    values = {k: v for k, v in shorthands.items() if v is not None and v is not False and v != []}
    items_given: dict[str, list[str]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = option_key(key)
        if not sep or not key:
            raise UserError(f"{flag} takes KEY=VALUE (a {kind} option and its value), got "
                            f"{item!r}")
        if key in values:
            raise UserError(f"{kind} option {key!r} is given twice: {values[key]!r} and "
                            f"{value!r}")
        items_given.setdefault(key, []).append(value)
    for key, given in items_given.items():
        values[key] = given[0] if len(given) == 1 else given
    return values
