"""``crewgate node``: one built-in simulated robot as a ROS 2 node speaking crewgate's protocol."""

from __future__ import annotations

import typer

from crewgate.cli.app import app
from crewgate.cli.common import CrewArg, FaultOpt, SeedOpt, WorldOpt
from crewgate.ros2.protocol import ESTOP_LISTEN_HELP, ESTOP_LISTEN_S, STATE_PERIOD_S


@app.command()
def node(
    crew: str = CrewArg,
    robot: str = typer.Argument(..., metavar="ROBOT", help="The robot this node serves."),
    world: str | None = WorldOpt,
    fault: list[str] = FaultOpt,
    seed: int = SeedOpt,
    namespace: str | None = typer.Option(None, "--namespace", help="Topic namespace: "
                                         "/NS/ROBOT/skill/request ... (default: the crew's "
                                         "ros2.namespace, or crewgate)."),
    rate: float = typer.Option(1.0 / STATE_PERIOD_S, "--rate",
                               help="State (heartbeat) messages per second."),
    speed: float = typer.Option(1.0, "--speed",
                                help="Simulated seconds per second of real time."),
    estop_listen: float = typer.Option(ESTOP_LISTEN_S, "--estop-listen", metavar="SECONDS",
                                       help=ESTOP_LISTEN_HELP[:1].upper() + ESTOP_LISTEN_HELP[1:]
                                       + "."),
) -> None:
    r"""Run one simulated robot of a crew as a ROS 2 node (crewgate_ROBOT) until Ctrl-C.

    Start one node per robot, all with the same crew, world, seed and faults.

    Each serves its robot's skill requests, publishes its state (the heartbeat) and the bindings
    it produces, and mirrors the other robots. Needs rclpy: pip install "crewgate\[ros2]".

    Exit status: 0 on Ctrl-C or SIGTERM; 2 bad input.
    """
    from crewgate.onboard.node import NodeOptions, run_node

    run_node(NodeOptions(crew, robot, world, tuple(fault), seed, namespace, rate, speed,
                         estop_listen))
