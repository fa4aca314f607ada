"""``crewgate node``: one built-in simulated robot as a ROS 2 node (``crewgate_<robot>``) that
speaks crewgate's protocol (:mod:`crewgate.ros2.protocol`), exactly as a real robot would.

Run it as ``crewgate node CREW ROBOT`` or ``python -m crewgate.onboard.node CREW ROBOT`` (same
options). Every node of a crew builds the same simulated world (crew, ``--world``, ``--seed``,
``--fault``), serves only its own robot and mirrors the others from their state topics. The
behaviour is :mod:`crewgate.onboard.server` (pure Python), the ROS 2 wiring and QoS
:mod:`crewgate.onboard.ros`; this module holds the options and the process. Topics:

- ``/NS/ROBOT/skill/request``: this robot's requests, and every other robot's too, read only for
  the drop-out fault ``robot_unavailable:ME@SKILL`` (the trigger may be another robot's step);
- ``/NS/ROBOT/skill/cancel``, ``/NS/ROBOT/skill/feedback``;
- ``/NS/ROBOT/state`` at ``--rate``, the heartbeat: silent while the robot is down; the other
  robots' state topics are mirrored into this node's world;
- ``/NS/bindings/NAME`` (PointStamped) and ``/NS/bindings/NAME/confidence`` (Float32): each
  binding the robot produces, when it changes, the confidence first;
- ``/NS/world/objects``: published after the robot's own actions moved objects, and applied;
- ``/NS/estop`` (Bool; read both transient local and volatile, so that any publisher matches):
  true cancels, runs the crew's fallback for this robot and rejects requests until false; the
  node republishes (latched) each change of what it holds, so that a node started after the
  e-stop's writer left hears it from this one. A latched true reaches a new node once
  discovery has matched its publisher: for its first ``--estop-listen`` seconds a node
  publishes no state and holds the plan steps it is sent;
- ``/NS/orchestrator/heartbeat`` (String): the lost-link failsafe. A heartbeat naming a mission
  arms it, one naming none disarms it; armed and silent for the robot's
  ``orchestrator_timeout_s``, the node cancels what runs, runs the crew's fallback for this
  robot (the drone lands, the rover stops) and rejects that mission's further plan steps.
"""

from __future__ import annotations

import argparse
import math
import re
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING

from crewgate.errors import UserError
from crewgate.ros2.protocol import (
    ESTOP_LISTEN_HELP,
    ESTOP_LISTEN_S,
    MAX_ESTOP_LISTEN_S,
    STATE_PERIOD_S,
    Topics,
)

if TYPE_CHECKING:
    from rclpy.node import Node

    from crewgate.sim.simulator import Simulator

_NAMESPACE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*$")


@dataclass(frozen=True, slots=True)
class NodeOptions:
    crew: str
    robot: str
    world: str | None = None
    faults: Sequence[str] = ()
    seed: int = 0
    namespace: str | None = None  # default: the crew's ros2.namespace, or crewgate
    rate: float = 1.0 / STATE_PERIOD_S  # state (heartbeat) messages per second
    speed: float = 1.0  # simulated seconds per wall-clock second
    listen_s: float = ESTOP_LISTEN_S  # at start: silent, plan steps held (a latched e-stop)


def prepare(options: NodeOptions) -> Simulator:
    """Check the options and build the simulated world; bad input raises UserError."""
    from crewgate.errors import NotFoundError
    from crewgate.sim.faults import parse_faults
    from crewgate.sim.simulator import Simulator
    from crewgate.spec import load_crew

    if options.namespace is not None and not _NAMESPACE.match(options.namespace.strip("/")):
        raise UserError(f"--namespace {options.namespace!r} is not a ROS 2 namespace: use "
                        "names of letters, digits and _ (not starting with a digit) joined by /")
    if not (math.isfinite(options.rate) and options.rate > 0):
        raise UserError(f"--rate must be a positive number of messages per second, not "
                        f"{options.rate}")
    if not (math.isfinite(options.speed) and options.speed > 0):
        raise UserError(f"--speed must be a positive factor of real time, not {options.speed}")
    if not (math.isfinite(options.listen_s) and 0 <= options.listen_s <= MAX_ESTOP_LISTEN_S):
        raise UserError(f"--estop-listen must be seconds from 0 to {MAX_ESTOP_LISTEN_S:g}, not "
                        f"{options.listen_s} (the time a starting node listens for an engaged "
                        f"e-stop before it takes plan steps; default {ESTOP_LISTEN_S:g})")
    crew = load_crew(options.crew)
    if options.robot not in crew.robots:
        raise NotFoundError("robot", options.robot, crew.robots, f"robots of crew {crew.name}")
    faults = parse_faults(options.faults, crew)
    sim = Simulator(crew, options.world, seed=options.seed, faults=faults)
    if options.robot not in sim.bodies:
        raise UserError(f"robot {options.robot!r} has no simulated body in crew {crew.name!r}")
    return sim


def run_node(options: NodeOptions, *, announce: Callable[[str], None] | None = None) -> None:
    """Run the node until SIGINT or SIGTERM. Bad options raise UserError before anything
    starts; so does a missing rclpy."""
    sim = prepare(options)
    topics = Topics.of(sim.crew, options.namespace)
    from crewgate.onboard.ros import RobotNode, require_rclpy
    from crewgate.ros2.runtime import init_context

    require_rclpy()
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    stop = threading.Event()

    def _stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    context = init_context()
    previous = {s: signal.signal(s, _stop) for s in (signal.SIGINT, signal.SIGTERM)}
    node: Node | None = None
    executor = SingleThreadedExecutor(context=context)
    try:
        node = rclpy.create_node(f"crewgate_{options.robot}", context=context)
        robot = RobotNode(node, sim, options.robot, topics=topics,
                          rate=options.rate, speed=options.speed, listen_s=options.listen_s)
        executor.add_node(node)
        robot.server.start()
        ns = "/" + topics.namespace.strip("/")
        (announce or _print)(f"crewgate node {options.robot} ({sim.crew.name}, world "
                             f"{sim.world_name}) up on {ns}"
                             + (f", faults {', '.join(sim.faults.specs)}" if sim.faults.any
                                else "")
                             + (f", {options.speed:g}x real time" if options.speed != 1 else ""))
        while not stop.is_set() and context.ok():
            executor.spin_once(timeout_sec=0.1)
    finally:
        executor.shutdown()
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown(context=context)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _print(line: str) -> None:
    print(line, flush=True)


def parse_args(argv: Sequence[str] | None = None) -> NodeOptions:
    parser = argparse.ArgumentParser(
        prog="python -m crewgate.onboard.node",
        description="Run one built-in simulated robot as a ROS 2 node speaking crewgate's "
        "protocol (the same as `crewgate node`).")
    parser.add_argument("crew", metavar="CREW", help="a packaged crew or a crew YAML file")
    parser.add_argument("robot", metavar="ROBOT", help="the robot this node serves")
    parser.add_argument("--world", default=None, help="simulator world (default: the crew's)")
    parser.add_argument("--fault", action="append", default=[], help="inject a fault "
                        "(repeatable; give every node of the crew the same faults)")
    parser.add_argument("--seed", type=int, default=0, help="simulator seed")
    parser.add_argument("--namespace", default=None, help="topic namespace (default: the "
                        "crew's ros2.namespace, or crewgate)")
    parser.add_argument("--rate", type=float, default=1.0 / STATE_PERIOD_S,
                        help="state (heartbeat) messages per second")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="simulated seconds per second of real time")
    parser.add_argument("--estop-listen", type=float, default=ESTOP_LISTEN_S,
                        metavar="SECONDS", help=ESTOP_LISTEN_HELP)
    args = parser.parse_args(argv)
    return NodeOptions(args.crew, args.robot, args.world, tuple(args.fault), args.seed,
                       args.namespace, args.rate, args.speed, args.estop_listen)


def main(argv: Sequence[str] | None = None) -> None:
    from rich.console import Console
    from rich.markup import escape

    try:
        run_node(parse_args(argv))
    except UserError as exc:
        Console(stderr=True, soft_wrap=True).print(f"[bold red]error:[/] {escape(str(exc))}",
                                                   highlight=False)
        sys.exit(2)
    except KeyboardInterrupt:  # Ctrl-C while starting up
        sys.exit(130)


if __name__ == "__main__":
    main()
