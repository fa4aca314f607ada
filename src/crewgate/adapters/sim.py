"""The built-in simulator as an adapter (the embedded default backend)."""

from __future__ import annotations

from typing import Any

from crewgate.adapters.base import Adapter, Command, Progress
from crewgate.sim.faults import Faults
from crewgate.sim.simulator import Simulator
from crewgate.spec import Crew


class SimAdapter(Adapter):
    name = "sim"

    def __init__(self, crew: Crew, world: str | None = None, *, seed: int = 0,
                 faults: Faults | None = None) -> None:
        self.sim = Simulator(crew, world, seed=seed, faults=faults)
        super().__init__(self.sim.world)
        self.tick_s = self.sim.dt

    def _start(self, command: Command) -> None:
        self.sim.start(command)

    def _poll(self, command: Command) -> Progress:
        return self.sim.poll(command)

    def _cancel(self, command: Command) -> None:
        self.sim.cancel(command)

    def _wait(self, seconds: float) -> None:
        self.sim.advance(seconds)

    def outcome(self) -> dict[str, Any]:
        return self.sim.outcome()
