"""Planner backends are plugins: entry points in the group ``crewgate.planners``.

Built-ins register through the same group third parties use (see pyproject.toml). An entry point
names a class with ``from_options(crew, options) -> Planner``.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol

from crewgate.errors import NotFoundError, UserError
from crewgate.planners.base import Planner
from crewgate.spec import Crew

GROUP = "crewgate.planners"


@dataclass(frozen=True, slots=True)
class PlannerOptions:
    """Everything a backend may be configured with from the command line."""

    plan_file: Path | None = None
    plans: Path | None = None  # recorded outputs (replay)
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    timeout_s: float = 60.0
    temperature: float = 0.0
    free_form: bool = False
    seed: int = 0


class PlannerFactory(Protocol):
    def from_options(self, crew: Crew, options: PlannerOptions) -> Planner: ...


def available_planners() -> dict[str, str]:
    """Planner name -> the object path it loads from."""
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def make_planner(name: str, crew: Crew, options: PlannerOptions) -> Planner:
    found = {ep.name: ep for ep in entry_points(group=GROUP)}
    if name not in found:
        raise NotFoundError("planner", name, found,
                            "or install a plugin that registers it in the crewgate.planners "
                            "entry-point group")
    try:
        factory: PlannerFactory = found[name].load()
    except ImportError as exc:
        raise UserError(f"planner {name!r} needs an optional dependency: {exc}; "
                        f'install it with pip install "crewgate[{name}]"') from exc
    return factory.from_options(crew, options)
