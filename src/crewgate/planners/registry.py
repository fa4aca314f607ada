"""Planner backends are plugins: entry points in the group ``crewgate.planners``.

Built-ins register through the same group third parties use (see pyproject.toml). An entry point
names a ``Planner`` subclass; the registry finds it by name ("did you mean" for an unknown one),
says which extra to install when its module cannot be imported, and builds it from option
values by name (``Planner.build``).
"""

from __future__ import annotations

from collections.abc import Mapping

from crewgate import plugins
from crewgate.planners.base import Planner
from crewgate.plugins import PluginInfo
from crewgate.spec import Crew

GROUP = "crewgate.planners"


def available_planners() -> dict[str, str]:
    """Planner name -> the object path it loads from."""
    return plugins.available(GROUP)


def planner_class(name: str) -> type[Planner]:
    """The backend registered as ``name``."""
    found: type[Planner] = plugins.load(GROUP, "planner", name, Planner)
    return found


def make_planner(name: str, crew: Crew, options: Mapping[str, object] | None = None
                 ) -> Planner:
    """The planner ``name`` for ``crew``, configured by option values by name."""
    return planner_class(name).build(crew, options)


def describe_planners() -> list[PluginInfo]:
    """Every installed backend with its options, by name."""
    return plugins.describe(GROUP, "planner", Planner, lambda cls: cls.Options)
