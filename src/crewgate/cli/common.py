"""Options and helpers shared by commands."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

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


R = TypeVar("R")


def expand_parameter(command: Callable[..., R], kind: type, added: Sequence[inspect.Parameter],
                     collect: Callable[[dict[str, Any]], object]) -> Callable[..., R]:
    """The command with its parameter annotated ``kind`` replaced by the ``added`` options, in
    its place (what ``--help`` lists); the command receives ``collect(values)``, the added
    options' values by parameter name, as that parameter. How a group of options shared by
    several commands (the planner's, the backend's) is defined once."""
    signature = inspect.signature(command, eval_str=True)
    params = list(signature.parameters.values())
    [target] = [p for p in params if p.annotation is kind]
    names = [p.name for p in added]

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> R:
        kwargs[target.name] = collect({name: kwargs.pop(name) for name in names})
        return command(*args, **kwargs)

    at = params.index(target)
    new = signature.replace(parameters=[*params[:at], *added, *params[at + 1:]])
    wrapper.__signature__ = new  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in new.parameters.values()}
    return wrapper


def option_parameter(name: str, annotation: Any, option: Any) -> inspect.Parameter:
    """A command parameter ``name`` of this type whose default is a ``typer.Option``."""
    return inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=option,
                             annotation=annotation)
