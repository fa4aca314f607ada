"""The planner options of ``plan``, ``run`` and ``eval``, defined once.

``@planner_options()`` adds them to a command and hands the command one ``PlannerArgs`` in place
of its parameter of that type: ``--planner NAME`` (repeatable with ``many=True``), the generic
``-o/--option KEY=VALUE`` for any option of any backend, and shorthands for the options the
README uses, each setting the backend's option of the same name (``--base-url`` sets
``base_url``). A backend's options are its own (``crewgate planners`` lists them): the
shorthands only spell common ones, and one the chosen backend does not take is an error.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from crewgate.cli.common import R, expand_parameter, option_parameter, option_values
from crewgate.errors import UserError, did_you_mean

if TYPE_CHECKING:
    from crewgate.planners.base import Planner
    from crewgate.spec import Crew

DEFAULT_PLANNER = "exemplar"
PANEL = "Planner"


@dataclass(frozen=True, slots=True)
class Shorthand:
    """A command-line flag for the backend option ``option``."""

    option: str
    flag: str
    annotation: Any
    help: str


SHORTHANDS = (
    Shorthand("plan", "--plan", Path | None, "Use this plan (JSON or raw model text; '-' reads "
              "stdin) as the planner's output (implies --planner scripted)."),
    Shorthand("plans", "--plans", Path | None, "Recorded outputs, JSON Lines: scenario, "
              "condition, attempt, output (implies --planner replay)."),
    Shorthand("model", "--model", str | None, "Model name, or a GGUF file for llamacpp."),
    Shorthand("base_url", "--base-url", str | None, "The API's URL, e.g. "
              "http://127.0.0.1:8080/v1."),
    Shorthand("api_key_env", "--api-key-env", str | None, "Environment variable holding the "
              "API key."),
    Shorthand("timeout", "--timeout", float | None, "Seconds to wait for the planner's "
              "answer."),
    Shorthand("temperature", "--temperature", float | None, "Sampling temperature."),
    Shorthand("free_form", "--free-form", bool, "Switch structured output off (the study's "
              "unconstrained JSON)."),
)
FLAGS = {s.option: s.flag for s in SHORTHANDS}


@dataclass(frozen=True, slots=True)
class PlannerArgs:
    """The planners a command was asked for and the option values given, by option name."""

    names: tuple[str, ...] = ()
    values: Mapping[str, object] = field(default_factory=dict)

    def chosen(self) -> tuple[str, ...]:
        """The names given, else the planner a shorthand implies, else the default."""
        if self.names:
            return self.names
        return (("scripted",) if "plan" in self.values else
                ("replay",) if "plans" in self.values else (DEFAULT_PLANNER,))

    def build(self, crew: Crew, *, seed: int | None = None) -> list[Planner]:
        """Every chosen planner for ``crew``. With one planner, an option it does not take is an
        error; with several, each takes the options it knows and an option none of them takes
        is an error. ``seed`` (the command's) is the default of a backend option ``seed``."""
        from crewgate.planners.registry import planner_class

        classes = [planner_class(name) for name in self.chosen()]
        if len(classes) > 1:
            _check_taken(classes, self.values)
        planners = []
        for cls in classes:
            fields = cls.Options.model_fields
            values = dict(self.values) if len(classes) == 1 else {
                k: v for k, v in self.values.items() if k in fields}
            if seed is not None and "seed" in fields:
                values.setdefault("seed", seed)
            planners.append(cls.build(crew, values))
        return planners

    def build_one(self, crew: Crew, *, seed: int | None = None) -> Planner:
        [planner] = self.build(crew, seed=seed)
        return planner


PLANNERS = PlannerArgs()  # the placeholder default of a command's PlannerArgs parameter


def _check_taken(classes: list[type[Planner]], values: Mapping[str, object]) -> None:
    for key in values:
        if not any(key in cls.Options.model_fields for cls in classes):
            known = sorted({f for cls in classes for f in cls.Options.model_fields})
            takes = "; ".join(f"{cls.name} takes: {', '.join(cls.Options.model_fields) or 'none'}"
                              for cls in classes)
            raise UserError(f"none of the planners {', '.join(c.name for c in classes)} takes "
                            f"option {key!r}{did_you_mean(key, known)} ({takes})")


def planner_options(*, many: bool = False) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Add the planner options to a command, which receives them as its ``PlannerArgs``
    parameter. ``many``: ``--planner`` is repeatable (``eval``)."""

    def decorate(command: Callable[..., R]) -> Callable[..., R]:
        added = [_param("planner", list[str] if many else str | None, [] if many else None,
                        "--planner", help="Planner backend (see `crewgate planners`; default "
                        f"{DEFAULT_PLANNER})" + (", repeatable." if many else "."))]
        added += [_param(s.option, s.annotation, False if s.annotation is bool else None,
                         s.flag, help=f"{s.help} (option {s.option})")
                  for s in SHORTHANDS]
        added.append(_param("option", list[str], [], "-o", "--option", metavar="KEY=VALUE",
                            help="Any backend option (repeatable); `crewgate planners` lists "
                            "them."))

        def collect(given: dict[str, Any]) -> PlannerArgs:
            names = given[_name("planner")]
            shorthands = {s.option: given[_name(s.option)] for s in SHORTHANDS}
            values = option_values("-o", "planner", shorthands, given[_name("option")])
            chosen = tuple(dict.fromkeys(names)) if many else ((names,) if names else ())
            return PlannerArgs(chosen, values)

        return expand_parameter(command, PlannerArgs, added, collect)

    return decorate


def _name(option: str) -> str:
    return f"planner_opt_{option}"


def _param(option: str, annotation: Any, default: object, *decls: str, help: str,
           metavar: str | None = None) -> inspect.Parameter:
    info = typer.Option(default, *decls, help=help, metavar=metavar, rich_help_panel=PANEL,
                        show_default=False)
    return option_parameter(_name(option), annotation, info)
