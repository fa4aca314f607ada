"""A planner backend's options: a subclass of :class:`PlannerOptions`, parsed and described by
:mod:`crewgate.plugins` (the machinery planners share with robot backends)."""

from __future__ import annotations

from collections.abc import Mapping

from crewgate.plugins import Model, Options, describe_options
from crewgate.plugins import parse_options as parse_plugin_options


class PlannerOptions(Options):
    """The options of a planner that takes none; the base of every planner's options."""


def parse_options(planner: str, model: type[Model], values: Mapping[str, object]) -> Model:
    """``values`` as the options ``model`` of ``planner`` (see
    :func:`crewgate.plugins.parse_options`)."""
    return parse_plugin_options("planner", planner, model, values)


__all__ = ["PlannerOptions", "describe_options", "parse_options"]
