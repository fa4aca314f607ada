"""What a simulated robot node knows of the rest of the crew: the other robots, mirrored from
their state topics, and the shared object map (``world/objects``, last writer wins).

Each node's simulated world holds local copies of the other robots; they never act, but they
publish their idle state into the world every step. The mirror overwrites that with what the
real robots report, and marks a robot not heard from within its ``liveness_timeout_s`` (wall
seconds, from the node's start) unavailable, so that e.g. the humanoid loads only onto a
quadruped that is really there.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from crewgate.ros2 import protocol
from crewgate.sim.simulator import Simulator


class Mirror:
    def __init__(self, sim: Simulator, robot: str, monotonic: Callable[[], float],
                 log: Callable[[str], None]) -> None:
        self.sim = sim
        self.others = [r for r in sim.bodies if r != robot]
        self._monotonic = monotonic
        self._log = log
        self._fields: dict[str, dict[str, Any]] = {}
        self._heard = dict.fromkeys(self.others, monotonic())
        self._objects = dict(sim.objects)
        self._sent: deque[str] = deque(maxlen=16)

    def restart(self) -> None:
        """The liveness grace period starts now."""
        self._heard = dict.fromkeys(self.others, self._monotonic())

    # -- other robots -------------------------------------------------------------------------

    def on_state(self, robot: str, text: str) -> None:
        if robot not in self.others:
            return
        try:
            _, _, fields = protocol.decode_state(text)
        except (ValueError, KeyError, TypeError) as exc:
            self._log(f"ignored malformed state of {robot}: {exc}")
            return
        self._fields[robot] = fields
        self._heard[robot] = self._monotonic()
        self.sim.world.update(robot, **fields)

    def alive(self) -> dict[str, bool]:
        now = self._monotonic()
        return {r: now - self._heard[r] <= self.sim.crew.robots[r].liveness_timeout_s
                for r in self.others}

    def apply(self, alive: dict[str, bool]) -> None:
        """After a simulation step: the mirrored state wins over the local copies."""
        world = self.sim.world
        for robot in self.others:
            fields = self._fields.get(robot)
            if fields:
                world.update(robot, **fields)
            if not alive[robot]:
                world.update(robot, available=False)

    # -- objects ------------------------------------------------------------------------------

    def on_objects(self, text: str) -> None:
        """The shared map from any node; this node's own messages (echoed back) are ignored."""
        if text in self._sent:
            return
        try:
            data = protocol.loads(text)
            if not isinstance(data, dict):
                raise TypeError(f"expected an object, got {type(data).__name__}")
        except (ValueError, TypeError) as exc:
            self._log(f"ignored a malformed object map: {exc}")
            return
        objects = {str(k): str(v) for k, v in data.items()}
        self.sim.objects.clear()
        self.sim.objects.update(objects)
        self._objects = dict(objects)

    def objects_changed(self) -> str | None:
        """The map to publish if this node's own actions changed it since last time."""
        if self.sim.objects == self._objects:
            return None
        self._objects = dict(self.sim.objects)
        text = protocol.dumps(self._objects)
        self._sent.append(text)
        return text
