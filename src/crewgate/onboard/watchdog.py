"""A robot's lost-link failsafe: the watchdog on the orchestrator's heartbeat.

The convention of a flight controller's lost-link (offboard loss) failsafe. The watchdog arms on
a heartbeat that names a mission (:func:`crewgate.ros2.protocol.encode_heartbeat`) and disarms on
one that names none (the mission ended and its orchestrator said so). Armed, it expires when no
heartbeat has arrived for the robot's ``orchestrator_timeout_s`` (wall seconds, whatever the
simulation's speed): the orchestrator was killed, lost power or lost the link. Whoever owns the
watchdog then runs the robot's own safe stop; the watchdog disarms until the next mission
heartbeat, and remembers the lost mission, whose further plan steps the robot refuses.

Pure Python with an injectable clock: no ROS here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

LOST_KEPT = 64  # lost missions remembered (their plan steps are refused)


@dataclass(frozen=True, slots=True)
class Lost:
    """The orchestrator of ``mission`` went silent ``silent_s`` seconds ago."""

    mission: str
    silent_s: float


class Watchdog:
    def __init__(self, timeout_s: float, monotonic: Callable[[], float]) -> None:
        if not timeout_s > 0:
            raise ValueError(f"the orchestrator timeout must be positive, not {timeout_s}")
        self.timeout_s = timeout_s
        self._monotonic = monotonic
        self.mission: str | None = None  # armed for this mission; None: disarmed
        self._last = 0.0
        self._lost: deque[str] = deque(maxlen=LOST_KEPT)

    @property
    def armed(self) -> bool:
        return self.mission is not None

    def beat(self, mission: str | None) -> str | None:
        """A heartbeat; what changed, for the log (None when nothing did)."""
        previous, self.mission = self.mission, mission
        self._last = self._monotonic()
        if mission == previous:
            return None
        if mission is None:
            return f"orchestrator heartbeat: mission {previous} ended; failsafe disarmed"
        return (f"orchestrator heartbeat: mission {mission}; failsafe armed "
                f"({self.timeout_s:g} s)")

    def expired(self) -> Lost | None:
        """Whether the armed watchdog has gone without a heartbeat for longer than its
        timeout; if so it disarms and says which mission was lost."""
        if self.mission is None:
            return None
        silent = self._monotonic() - self._last
        if silent <= self.timeout_s:
            return None
        lost = Lost(self.mission, silent)
        self._lost.append(lost.mission)
        self.mission = None
        return lost

    def lost(self, mission: str) -> bool:
        """Whether ``mission``'s orchestrator was lost (its further plan steps are refused)."""
        return mission in self._lost
