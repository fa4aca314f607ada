"""Options and helpers shared by commands."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console

out = Console(highlight=False, soft_wrap=True)

CrewArg = typer.Argument(..., metavar="CREW",
                         help="A packaged crew (see `crewgate crews`) or a crew YAML file.")
JsonOpt = typer.Option(False, "--json", help="Print machine-readable JSON only.")
JournalOpt = typer.Option(None, "--journal", envvar="CREWGATE_JOURNAL",
                          help="Journal file (default: ~/.local/state/crewgate/journal.sqlite3).")
FaultOpt = typer.Option([], "--fault", help="Inject a fault (repeatable): robot_unavailable:ROBOT"
                        "[@SKILL], nan_fix, missed_detection, stale_fix, fix_offset:X,Y, "
                        "skill_failure:ROBOT.SKILL, adapter_timeout:ROBOT.SKILL.")
WorldOpt = typer.Option(None, "--world", help="Simulator world (default: the crew's default).")
SeedOpt = typer.Option(0, "--seed", help="Simulator seed (noise, detection), and the sampling "
                       "seed of a planner that takes one.")

ConditionOpt = typer.Option(None, "--condition", help="What the planner is told and whether the "
                            "gate enforces: llm-only, skill-list, ro-prompt, ro.")


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, allow_nan=False))
