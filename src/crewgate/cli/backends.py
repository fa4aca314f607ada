"""The backend options of ``run``, ``serve``, ``mcp``, ``status`` and ``recover``, defined once:
``--backend NAME``, the generic ``-b/--backend-option KEY=VALUE`` for any option of any backend
(``crewgate backends`` lists them), and shorthands for the common ones, each setting the
backend's option of that name. A shorthand the chosen backend does not take is an error that
says where the value belongs instead.

``@backend_options()`` adds them to a command and hands it one :class:`BackendArgs` in place of
its parameter of that type."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

from crewgate.cli.common import R, expand_parameter, option_parameter, option_values

if TYPE_CHECKING:
    from crewgate.adapters.backend import Backend, BackendOptions
    from crewgate.adapters.base import Adapter
    from crewgate.spec import Crew

PANEL = "Backend"
FLAGS = {"world": "--world", "faults": "--fault", "seed": "--seed", "wait_for": "--wait-for",
         "namespace": "--namespace"}

BackendOpt = typer.Option("sim", "--backend", metavar="NAME", rich_help_panel=PANEL,
                          help="Where missions run: sim, the built-in simulator in process; "
                          "ros2, the crew's robots as ROS 2 nodes (extra crewgate\\[ros2]); "
                          "or a plugin (`crewgate backends`).")
BackendOptionOpt = typer.Option([], "-b", "--backend-option", metavar="KEY=VALUE",
                                rich_help_panel=PANEL, help="Any backend option (repeatable); "
                                "`crewgate backends` lists them.")
WorldOpt = typer.Option(None, "--world", metavar="WORLD", rich_help_panel=PANEL,
                        help="sim: the simulated world (default: the crew's default).")
FaultOpt = typer.Option([], "--fault", metavar="FAULT", rich_help_panel=PANEL,
                        help="sim: inject a fault (repeatable): robot_unavailable:ROBOT\\[@SKILL],"
                        " nan_fix, missed_detection, stale_fix, fix_offset:X,Y, "
                        "skill_failure:ROBOT.SKILL, adapter_timeout:ROBOT.SKILL.")
WaitForOpt = typer.Option(None, "--wait-for", metavar="SECONDS", rich_help_panel=PANEL,
                          help="ros2: seconds to wait for every robot to be heard on the graph "
                          "before planning (default 10).")
NamespaceOpt = typer.Option(None, "--namespace", metavar="NAMESPACE", rich_help_panel=PANEL,
                            help="ros2: topic namespace (default: the crew's ros2.namespace, or "
                            "crewgate).")


@dataclass(frozen=True)
class Chosen:
    """A backend chosen on the command line, its options read (nothing opened yet)."""

    plugin: Backend
    options: BackendOptions

    def open(self, crew: Crew) -> Adapter:
        return self.plugin.open(crew, self.options)

    @property
    def wait_s(self) -> float:
        """How long to wait for the robots to be heard (0: a backend with nobody to hear)."""
        return self.plugin.wait_s(self.options)


@dataclass(frozen=True)
class BackendArgs:
    """The backend a command was asked for, with its options as given."""

    name: str = "sim"
    options: tuple[str, ...] = ()  # the -b KEY=VALUE items
    world: str | None = None
    faults: tuple[str, ...] = ()
    wait_for: float | None = None
    namespace: str | None = None

    def choose(self, *, seed: int | None = None) -> Chosen:
        """The backend with its shorthands and ``-b`` options, validated by it; the seed goes
        to a backend that takes one (the simulator's), unless ``-b seed=`` set it."""
        from crewgate.adapters.backend import backend_class

        kind = backend_class(self.name)
        values = option_values("-b", "backend", {
            "world": self.world, "faults": list(self.faults), "wait_for": self.wait_for,
            "namespace": self.namespace}, list(self.options))
        if seed is not None and "seed" in kind.Options.model_fields:
            values.setdefault("seed", seed)
        plugin = kind()
        return Chosen(plugin, plugin.options(values))


BACKEND = BackendArgs()  # the placeholder default of a command's BackendArgs parameter
# the options, by the parameter name each gets in a command (apart from the command's own)
_OPTIONS: tuple[tuple[str, Any, Any], ...] = (
    ("backend_opt_name", str, BackendOpt), ("backend_opt_items", list[str], BackendOptionOpt),
    ("backend_opt_world", str | None, WorldOpt), ("backend_opt_fault", list[str], FaultOpt),
    ("backend_opt_wait_for", float | None, WaitForOpt),
    ("backend_opt_namespace", str | None, NamespaceOpt))


def backend_options() -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Add the backend options to a command, which receives them as its ``BackendArgs``
    parameter."""

    def collect(given: dict[str, Any]) -> BackendArgs:
        return BackendArgs(given["backend_opt_name"], tuple(given["backend_opt_items"]),
                           given["backend_opt_world"], tuple(given["backend_opt_fault"]),
                           given["backend_opt_wait_for"], given["backend_opt_namespace"])

    def decorate(command: Callable[..., R]) -> Callable[..., R]:
        added = [option_parameter(name, annotation, option)
                 for name, annotation, option in _OPTIONS]
        return expand_parameter(command, BackendArgs, added, collect)

    return decorate
