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
        self._stops: list[SafeStop] = []  # the robots' own stops, while they run

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
        started = self.stop_robots(list(self.sim.bodies), "e-stop")
        self.finish_stops()
        return started

    # -- for a host that owns the clock (the operator service) -----------------------------------

    def stop_robots(self, robots: list[str], why: str) -> list[str]:
        """The robots' e-stop, on the robots' side: what they run is cancelled (``why`` is
        the reason its command reports) and each runs its own steps of the crew's fallback;
        :meth:`step` follows them to their end. The steps started, as ROBOT.SKILL."""
        started: list[str] = []
        for robot in robots:
            self.sim.cancel_actions_of(robot, why=f"cancelled: {why}")
            if self.sim.bodies[robot].down:
                continue
            stop = SafeStop(self.sim, robot, lambda _line: None)
            started += stop.start("e-stop", "estop")
            if stop.running:
                self._stops.append(stop)
        return started

    def step(self) -> None:
        """One step of the simulated world, the robots' own stops followed."""
        self.sim.step()
        for stop in self._stops:
            stop.follow()
        self._stops = [s for s in self._stops if s.running]

    def trails(self, last: int) -> dict[str, list[list[float]]]:
        """Each robot's ``last`` trail points, as [x, y]."""
        return {name: [p[1:3] for p in trail[-last:]]
                for name, trail in self.sim.trajectories.items()}

    def finish_stops(self, within_s: float = 60.0) -> None:
        """Step the world until the robots' own stops have ended (at most ``within_s`` of
        simulated time)."""
        for _ in range(round(within_s / self.sim.dt)):
            if not self._stops:
                return
            self.step()

    def down(self) -> list[str]:
        return sorted(n for n, b in self.sim.bodies.items() if b.down)

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
