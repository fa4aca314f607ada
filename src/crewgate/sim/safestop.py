"""A simulated robot's own safe stop: what it does, on its own, when an e-stop arrives or its
lost-link failsafe fires (:mod:`crewgate.onboard.watchdog`).

The behaviour is the crew's: the robot's steps of the crew's ``fallback`` whose ``when`` holds
on the node's world (the drone lands if airborne, the rover stops), every robot's regardless of
``only_if_engaged`` (the node does not know what a mission engaged; a stop never hurts). They are
started in the simulator as fallback commands and followed until they end, each logged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from crewgate.commands import Command, Progress, Status, token_of
from crewgate.errors import AdapterError
from crewgate.spec import Crew, split_ref
from crewgate.world import World


class Robots(Protocol):
    """What the safe stop needs of the node's simulator."""

    @property
    def crew(self) -> Crew: ...

    @property
    def world(self) -> World: ...

    def start(self, command: Command) -> None: ...

    def poll(self, command: Command) -> Progress: ...


class SafeStop:
    def __init__(self, sim: Robots, robot: str, log: Callable[[str], None]) -> None:
        self.sim, self.robot, self._log = sim, robot, log
        self.running: list[tuple[Command, str]] = []  # (command, why), until they end
        self._count = 0

    def start(self, why: str, label: str) -> list[str]:
        """Start the robot's safe behaviour; ``why`` prefixes its log lines ("e-stop"),
        ``label`` names its commands ("estop"). The steps started, as ROBOT.SKILL."""
        self._count += 1
        crew, world = self.sim.crew, self.sim.world
        started = []
        for i, fb in enumerate(crew.fallback):
            robot, skill = split_ref(fb.step)
            if robot != self.robot or not fb.applies(world.robots):
                continue
            spec = crew.skill(robot, skill)
            command = Command(label, i, robot, skill, dict(fb.args), {},
                              spec.timeout_s if spec else 10.0,
                              token_of(f"{label}:{self._count}:{i}"), fallback=True)
            try:
                self.sim.start(command)
            except AdapterError as exc:
                self._log(f"{why}: {fb.step} could not start: {exc}")
                continue
            self.running.append((command, why))
            started.append(fb.step)
            self._log(f"{why}: {fb.step}")
        return started

    def follow(self) -> None:
        """After a simulation step: log what ended."""
        for entry in list(self.running):
            command, why = entry
            progress = self.sim.poll(command)
            if progress.status is not Status.RUNNING:
                self.running.remove(entry)
                self._log(f"{why}: {command.ref} {progress.status.value} "
                          f"{progress.message}".rstrip())

    def clear(self) -> None:
        """The robot dropped out: its actions are gone."""
        self.running.clear()
