"""The backend options of ``run``: ``--backend NAME``, the generic ``-b/--backend-option
KEY=VALUE`` for any option of any backend (``crewgate backends`` lists them), and shorthands
for the common ones, each setting the backend's option of that name. A shorthand the chosen
backend does not take is an error that says where the value belongs instead."""

from __future__ import annotations

from collections.abc import Mapping

import typer

from crewgate.cli.common import option_values

PANEL = "Backend"
FLAGS = {"world": "--world", "faults": "--fault", "seed": "--seed", "wait_for": "--wait-for",
         "namespace": "--namespace"}

BackendOpt = typer.Option("sim", "--backend", rich_help_panel=PANEL, help="Where missions run: "
                          "sim, the built-in simulator in process; ros2, the crew's robots as "
                          "ROS 2 nodes (extra crewgate\\[ros2]); or a plugin (`crewgate "
                          "backends`).")
BackendOptionOpt = typer.Option([], "-b", "--backend-option", metavar="KEY=VALUE",
                                rich_help_panel=PANEL, help="Any backend option (repeatable); "
                                "`crewgate backends` lists them.")
WorldOpt = typer.Option(None, "--world", rich_help_panel=PANEL,
                        help="sim: the simulated world (default: the crew's default).")
FaultOpt = typer.Option([], "--fault", rich_help_panel=PANEL, help="sim: inject a fault "
                        "(repeatable): robot_unavailable:ROBOT\\[@SKILL], nan_fix, "
                        "missed_detection, stale_fix, fix_offset:X,Y, skill_failure:ROBOT.SKILL, "
                        "adapter_timeout:ROBOT.SKILL.")
WaitForOpt = typer.Option(None, "--wait-for", rich_help_panel=PANEL, help="ros2: seconds to "
                          "wait for every robot to be heard on the graph before planning "
                          "(default 10).")
NamespaceOpt = typer.Option(None, "--namespace", rich_help_panel=PANEL, help="ros2: topic "
                            "namespace (default: the crew's ros2.namespace, or crewgate).")


def backend_values(shorthands: Mapping[str, object], options: list[str]) -> dict[str, object]:
    """Option values by name from the shorthands given and the ``-b KEY=VALUE`` items."""
    return option_values("-b", "backend", shorthands, options)
