"""``crewgate estop``: engage or release the emergency stop of a crew on ROS 2."""

from __future__ import annotations

import time

import typer

from crewgate.cli.app import app
from crewgate.cli.common import CrewArg, out

MATCH_WAIT_S = 3.0  # how long to wait for a reader before saying nobody listened
LINGER_S = 0.5  # keep the latched writer up a moment, so that matched readers get the value


@app.command()
def estop(
    crew: str = CrewArg,
    release: bool = typer.Option(False, "--release", help="Release the e-stop (publish false)."),
    namespace: str | None = typer.Option(None, "--namespace", help="Topic namespace (default: "
                                         "the crew's ros2.namespace, or crewgate)."),
) -> None:
    """Engage (or release) the e-stop on the crew's ROS 2 e-stop topic.

    Every orchestrator halts its mission and dispatches nothing more; every robot node cancels
    what it runs, runs its own stop and rejects requests until released. The value is published
    latched (transient local). Needs rclpy: pip install "crewgate\\[ros2]".

    Exit status: 0 published and read by at least one node; 1 published, but no reader
    matched within 3 s; 2 bad input.
    """
    from crewgate.ros2.protocol import Topics
    from crewgate.ros2.runtime import SpinningNode, interface, qos
    from crewgate.spec import load_crew

    topic = Topics.of(load_crew(crew), namespace).estop()
    bool_type = interface("std_msgs/msg/Bool")
    spinner = SpinningNode("crewgate_estop")
    try:
        publisher = spinner.node.create_publisher(bool_type, topic, qos(depth=1, latched=True))
        spinner.start()
        deadline = time.monotonic() + MATCH_WAIT_S
        while publisher.get_subscription_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        readers = publisher.get_subscription_count()
        publisher.publish(bool_type(data=not release))
        time.sleep(LINGER_S)
    finally:
        spinner.close()
    from rich.text import Text

    what = Text("released") if release else Text("engaged", style="bold red")
    line = Text.assemble("e-stop ", what, f" on {topic}")  # text: a topic is never markup
    if readers:
        out.print(line + f" ({readers} reader{'s' if readers != 1 else ''})")
        return
    out.print(line + Text(f", but no reader matched within {MATCH_WAIT_S:g} s: check "
                          "ROS_DOMAIN_ID and the namespace", style="yellow"))
    raise typer.Exit(1)
