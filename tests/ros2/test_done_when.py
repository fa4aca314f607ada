"""When a wired topic skill ends (crewgate.ros2.wiring.WiredCall.poll), without ROS 2: its
``done_when`` holding before the robot reacts is not its end (a loaded machine's late state
report once let a stale "moving == false" end a drive, and the next step went out while the
robot still moved)."""

from __future__ import annotations

import time
from pathlib import Path

from crewgate.commands import Command, Status
from crewgate.ros2.section import Ros2Section
from crewgate.ros2.wiring import WiredCall
from crewgate.spec import load_crew
from crewgate.world import World

CREW = Path(__file__).parent.parent / "data" / "crews" / "wired.yaml"


def _call(duration: float) -> tuple[WiredCall, World]:
    """A dispatched ``go_to`` (done when moving == false), as the adapter holds it; its message
    is not sent (no ROS 2 here)."""
    crew = load_crew(CREW)
    section = crew.section(Ros2Section)
    assert section is not None
    world = World(crew, time.monotonic)
    call = object.__new__(WiredCall)
    call.wiring = section.robots["rover"].skills["go_to"]
    call.command = Command("m", 0, "rover", "go_to", {"goal": [2.0, 1.0]}, {}, 5.0, 1)
    call.world, call.started, call.duration = world, time.monotonic(), duration
    call.cancelled, call.began = False, False
    return call, world


def test_a_condition_that_held_before_the_robot_set_off_does_not_end_the_skill() -> None:
    call, world = _call(duration=60.0)
    world.update("rover", moving=False)
    call.started -= 1.0  # a second gone, and the robot's report that it set off still not here
    assert call.poll().status is Status.RUNNING
    world.update("rover", moving=True)  # it set off
    assert call.poll().status is Status.RUNNING
    world.update("rover", moving=False)  # and stopped
    assert call.poll().status is Status.SUCCEEDED


def test_a_motion_never_seen_ends_after_the_nominal_duration() -> None:
    """(Begun and ended between two of the robot's state reports.)"""
    call, world = _call(duration=0.3)
    world.update("rover", moving=False)
    assert call.poll().status is Status.RUNNING  # not before its nominal duration
    call.started -= 0.3
    assert call.poll().status is Status.SUCCEEDED
