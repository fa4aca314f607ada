"""``crewgate estop``: engage or release the emergency stop of a crew on ROS 2."""

from __future__ import annotations

import math
import time

import typer

from crewgate.cli.app import app
from crewgate.cli.common import CrewArg, out
from crewgate.errors import UserError

MATCH_WAIT_S = 3.0  # how long to wait for a reader before saying nobody listened (--wait)
MAX_MATCH_WAIT_S = 60.0
ACK_WAIT_S = 0.5  # at most this long for the matched readers to acknowledge the value


@app.command()
def estop(
    crew: str = CrewArg,
    release: bool = typer.Option(False, "--release", help="Release the e-stop (publish false)."),
    namespace: str | None = typer.Option(None, "--namespace", help="Topic namespace (default: "
                                         "the crew's ros2.namespace, or crewgate)."),
    wait: float = typer.Option(MATCH_WAIT_S, "--wait", metavar="SECONDS",
                               help="How long the latched value stays offered for a reader to "
                               "match (lengthen it on a slow network or a loaded machine)."),
) -> None:
    """Engage (or release) the e-stop on the crew's ROS 2 e-stop topic.

    Every orchestrator halts its mission and dispatches nothing more; every robot node cancels
    what it runs, runs its own stop and rejects requests until released. The value is published
    latched (transient local). Needs rclpy: pip install "crewgate\\[ros2]".

    The value is published at once (the readers already matched have it immediately); if none
    had matched, it stays offered, latched, for up to --wait seconds, and is published again
    when one matches (a volatile reader gets no latched value). The command exits once the
    readers have acknowledged it (at most half a second more).

    Exit status: 0 published and read by at least one node; 1 published, but no reader
    matched within --wait seconds; 2 bad input.
    """
    if not (math.isfinite(wait) and 0 < wait <= MAX_MATCH_WAIT_S):
        raise UserError(f"--wait must be seconds above 0 and at most {MAX_MATCH_WAIT_S:g}, not "
                        f"{wait!r} (how long the e-stop stays offered for a reader to match; "
                        f"default {MATCH_WAIT_S:g})")
    from crewgate.ros2.protocol import Topics
    from crewgate.ros2.runtime import SpinningNode, interface, qos
    from crewgate.spec import load_crew

    topic = Topics.of(load_crew(crew), namespace).estop()
    bool_type = interface("std_msgs/msg/Bool")
    spinner = SpinningNode("crewgate_estop")  # (a missing rclpy: a clear error)
    try:
        from rclpy.duration import Duration

        publisher = spinner.node.create_publisher(bool_type, topic, qos(depth=1, latched=True))
        spinner.start()
        value = bool_type(data=not release)
        publisher.publish(value)  # at once: the readers already matched have it now
        readers = publisher.get_subscription_count()
        if not readers:
            deadline = time.monotonic() + wait
            while not readers and time.monotonic() < deadline:
                time.sleep(0.02)
                readers = publisher.get_subscription_count()
            if readers:  # again: a volatile reader matched since gets no latched value
                publisher.publish(value)
        if readers:
            publisher.wait_for_all_acked(Duration(seconds=ACK_WAIT_S))
    finally:
        spinner.close()
    from rich.text import Text

    what = Text("released") if release else Text("engaged", style="bold red")
    line = Text.assemble("e-stop ", what, f" on {topic}")  # text: a topic is never markup
    if readers:
        out.print(line + f" ({readers} reader{'s' if readers != 1 else ''})")
        return
    out.print(line + Text(f", but no reader matched within {wait:g} s: check "
                          "ROS_DOMAIN_ID and the namespace (or a longer --wait)",
                          style="yellow"))
    raise typer.Exit(1)
