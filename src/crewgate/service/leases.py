"""Robot leases: a running mission holds the robots its plan uses, and no other mission may
command them until it ends.

Missions on disjoint robots run at the same time. A mission whose robots are busy waits, first
come first served per robot: it is granted its lease when none of its robots is leased and no
mission that asked earlier still waits for one of them (so a stream of small missions cannot
starve a large one).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection


class RobotsBusy(Exception):
    """The robots a mission needs are leased to others (and it asked not to wait)."""

    def __init__(self, holders: dict[str, str]) -> None:
        self.holders = holders
        super().__init__(", ".join(f"{robot} is leased to mission {mission}"
                                   for robot, mission in sorted(holders.items())))


class Leases:
    def __init__(self) -> None:
        self._held: dict[str, str] = {}  # robot -> the mission that holds it
        self._waiting: list[tuple[str, frozenset[str]]] = []  # in the order they asked
        self._changed = threading.Condition()

    def holders(self) -> dict[str, str]:
        with self._changed:
            return dict(self._held)

    def waiting(self) -> list[str]:
        with self._changed:
            return [mission for mission, _ in self._waiting]

    def busy(self, robots: Collection[str]) -> dict[str, str]:
        """Which of ``robots`` other missions hold, and which mission holds each."""
        with self._changed:
            return {r: self._held[r] for r in robots if r in self._held}

    def acquire(self, mission: str, robots: Collection[str], *, wait: bool = True,
                give_up: Callable[[], bool] = lambda: False) -> bool:
        """Lease ``robots`` to ``mission``. Without ``wait``, raise :class:`RobotsBusy` if any
        is held; with it, wait in line until they are free (True), or until ``give_up()``
        says so (False: nothing leased)."""
        wanted = frozenset(robots)
        with self._changed:
            if not wait:
                busy = {r: self._held[r] for r in wanted if r in self._held}
                queued = {r: m for m, rs in self._waiting for r in rs & wanted}
                if busy or queued:
                    raise RobotsBusy({**queued, **busy})
                self._take(mission, wanted)
                return True
            entry = (mission, wanted)
            self._waiting.append(entry)
            try:
                while not self._free(entry):
                    if give_up():
                        return False
                    self._changed.wait(0.2)
                self._take(mission, wanted)
                return True
            finally:
                self._waiting.remove(entry)
                self._changed.notify_all()

    def release(self, mission: str) -> None:
        with self._changed:
            for robot in [r for r, m in self._held.items() if m == mission]:
                del self._held[robot]
            self._changed.notify_all()

    def _free(self, entry: tuple[str, frozenset[str]]) -> bool:
        _, wanted = entry
        if any(r in self._held for r in wanted):
            return False
        for earlier in self._waiting:
            if earlier is entry:
                return True
            if earlier[1] & wanted:
                return False
        return True

    def _take(self, mission: str, robots: frozenset[str]) -> None:
        for robot in robots:
            self._held[robot] = mission


__all__ = ["Leases", "RobotsBusy"]
