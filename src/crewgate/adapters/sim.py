"""The built-in simulator as a backend (the embedded default): the adapter that runs a crew's
missions in an in-process simulated world, and the plugin that opens it.

The simulator itself (:mod:`crewgate.sim`) is the robots' side: bodies, physics, perception and
faults. This adapter is the orchestrator's side of it: hooks the dispatcher calls, the world it
reads, and what the journal and the CLI say about the run.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from crewgate.adapters.backend import Backend, BackendOptions
from crewgate.adapters.base import Adapter
from crewgate.commands import Command, Progress
from crewgate.sim.faults import Faults, parse_faults
from crewgate.sim.safestop import SafeStop
from crewgate.sim.section import SimSection
from crewgate.sim.simulator import Simulator
from crewgate.spec import Crew


class SimAdapter(Adapter):
    name = "sim"
    clock = "simulated"

    def __init__(self, crew: Crew, world: str | None = None, *, seed: int = 0,
                 faults: Faults | None = None) -> None:
        self.sim = Simulator(crew, world, seed=seed, faults=faults)
        super().__init__(self.sim.world)
        self.tick_s = self.sim.dt

    def start(self, command: Command) -> None:
        self.sim.start(command)

    def poll(self, command: Command) -> Progress:
        return self.sim.poll(command)

    def cancel(self, command: Command) -> None:
        self.sim.cancel(command)

    def wait(self, seconds: float) -> None:
        self.sim.advance(seconds)

    def safe_stop(self) -> list[str]:
        """Each robot's own steps of the crew's fallback, run to their end in the simulator
        (the drone lands; at most a minute of simulated time)."""

        started: list[str] = []
        stops = [SafeStop(self.sim, robot, lambda _line: None) for robot in self.sim.bodies]
        for stop in stops:
            started += stop.start("e-stop", "estop")
        for _ in range(round(60.0 / self.sim.dt)):
            if not any(stop.running for stop in stops):
                break
            self.sim.step()
            for stop in stops:
                stop.follow()
        return started

    def outcome(self) -> dict[str, Any]:
        return self.sim.outcome()

    def describe(self) -> str:
        faults = self.sim.faults
        return f"world {self.sim.world_name}" + (
            f", faults {', '.join(faults.specs)}" if faults.any else "")

    def meta(self) -> dict[str, Any]:
        return {"backend": self.name, "world": self.sim.world_name, "seed": self.sim.seed,
                "faults": list(self.sim.faults.specs)}


class SimOptions(BackendOptions):
    world: str | None = Field(None, description="Simulator world (default: the crew's default).")
    seed: int = Field(0, description="Simulator seed (noise, detection).")
    faults: list[str] = Field(
        default_factory=list, description="Faults to inject: robot_unavailable:ROBOT[@SKILL], "
        "nan_fix, missed_detection, stale_fix, fix_offset:X,Y, skill_failure:ROBOT.SKILL, "
        "adapter_timeout:ROBOT.SKILL.")


class SimBackend(Backend):
    """The built-in simulator, in process, on simulated time: missions run in a simulated
    world of the crew's ``sim`` section, with faults injected by name."""

    name: ClassVar[str] = "sim"
    section = SimSection
    Options = SimOptions

    def open(self, crew: Crew, options: BackendOptions) -> SimAdapter:
        assert isinstance(options, SimOptions)
        return SimAdapter(crew, options.world, seed=options.seed,
                          faults=parse_faults(options.faults, crew))
