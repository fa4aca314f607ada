"""The service's robots: one backend adapter that lives as long as the service, shared by the
missions that run on it at the same time, each through a view that can reach only the robots
its plan leased.

On the built-in simulator the service owns the one clock: a thread steps the simulated world
on the wall clock (``speed`` simulated seconds per second, so people can watch it), whether a
mission runs or not, and every hook runs under one lock. A mission's ``wait`` waits for that
clock instead of stepping it. Unpaced (``speed=None``: an agent's desk, tests), the world moves
only while a mission waits, as fast as it computes: the waiting mission steps the one clock
under the lock. On ROS 2 the robots keep their own time and the adapter is
already safe to call from several threads.

E-stops are the service's: for the whole crew or for one robot. A stopped robot's running
action is cancelled and the robot runs its own safe stop (on the simulator: the crew's fallback
steps for it, such as landing; on ROS 2 the nodes stop themselves on the e-stop topic); every
mission leasing it halts and sends nothing more.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Collection, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from crewgate.adapters.base import Adapter
from crewgate.adapters.sim import SimAdapter
from crewgate.commands import Command, Progress
from crewgate.errors import AdapterError, UserError
from crewgate.spec import Crew
from crewgate.world import World

MAX_SPEED = 100.0
CATCH_UP_S = 0.5  # a clock more than this far behind (a paused process) skips ahead
TICK_WALL_S = 0.02  # the clock's shortest sleep, in wall seconds


class LiveCrew:
    """The one backend of a service: the robots' world, their clock, their e-stops."""

    def __init__(self, adapter: Adapter, *, speed: float | None = 1.0) -> None:
        if speed is not None and (not math.isfinite(speed) or not 0 < speed <= MAX_SPEED):
            raise UserError(f"--speed must be a number above 0 and at most {MAX_SPEED:g} (how "
                            f"many simulated seconds pass per second), not {speed!r}")
        self.adapter = adapter
        self.crew: Crew = adapter.world.crew
        self.world: World = adapter.world
        self.speed = speed
        self.lock = threading.RLock()  # the adapter's hooks, and the simulator's step
        self._ticked = threading.Condition(self.lock)
        self._robot_stops: dict[str, str] = {}  # the crew's own stop is the adapter's
        self._missions = 0  # running missions: the backend hears of the first and the last
        self._deciding = 0  # missions between a step's authorization and its send
        self._closed = threading.Event()
        self._clock: threading.Thread | None = None
        self.sim = adapter if isinstance(adapter, SimAdapter) else None
        if self.sim is not None and speed is not None:
            self.sim.sim.speed = speed
            self._clock = threading.Thread(target=self._run_clock, name="crewgate-clock",
                                           daemon=True)
            self._clock.start()

    # -- the clock (simulator only) ---------------------------------------------------------------

    def _run_clock(self) -> None:
        sim, speed = self.sim, self.speed
        assert sim is not None
        assert speed is not None
        dt = sim.sim.dt
        period = dt / speed  # wall seconds per simulated step
        anchor_wall, anchor_t = time.monotonic(), sim.now()
        while not self._closed.is_set():
            target = anchor_t + (time.monotonic() - anchor_wall) * speed
            if target - sim.now() > CATCH_UP_S * speed:  # behind: skip ahead, do not race
                anchor_wall, anchor_t = time.monotonic(), sim.now()
                target = sim.now() + dt
            with self._ticked:
                if self._deciding:  # a mission between a step's authorization and its send
                    anchor_wall, anchor_t = time.monotonic(), sim.now()
                    target = sim.now()
                while sim.now() + dt / 2 < target:
                    sim.step()
                self._ticked.notify_all()
            # 50 wake-ups a second at most, several steps each: every wake-up takes the GIL
            # from the threads serving clients
            self._closed.wait(min(max(period, TICK_WALL_S), 0.05))

    def wait_paced(self, seconds: float) -> None:
        """Let ``seconds`` of simulated time pass: the clock thread steps it, or, unpaced, the
        waiting mission steps it itself under the lock."""
        sim = self.sim
        assert sim is not None
        dt = sim.sim.dt
        if self._clock is None:
            with self.lock:
                for _ in range(max(1, round(seconds / dt))):
                    sim.step()
            return
        with self._ticked:
            target = sim.now() + seconds - dt / 2
            while sim.now() < target and not self._closed.is_set():
                self._ticked.wait(1.0)

    def now(self) -> float:
        return self.adapter.now()

    @contextmanager
    def deciding(self) -> Iterator[None]:
        """While a mission decides a step (its authorization, the journal's record of the
        intent, the send), the paced clock stands still: the orchestrator is instantaneous in
        simulated time, as in an unpaced run, and a dispatch window of simulated seconds is
        not spent on the journal's disk writes."""
        with self.lock:
            self._deciding += 1
        try:
            yield
        finally:
            with self.lock:
                self._deciding -= 1

    # -- e-stops ----------------------------------------------------------------------------------

    def stop_reason(self, robots: Collection[str] | None = None) -> str | None:
        """Why motion must stop for a mission on ``robots`` (None: the crew-wide stops)."""
        crew_wide = self.adapter.abort_reason()  # ours (engage_stop), or the robots' topic
        if crew_wide is not None:
            return crew_wide
        for robot in robots or ():
            why = self._robot_stops.get(robot)
            if why is not None:
                return why
        return None

    def stops(self) -> dict[str, Any]:
        return {"crew": self.stop_reason(), "robots": dict(self._robot_stops)}

    def engage_stop(self, why: str, robot: str | None = None) -> list[str]:
        """Engage the e-stop (the crew's, or one robot's): missions leasing the stopped robots
        halt at once; the simulated robots cancel what they run and run their own safe stop.
        The safe-stop steps started, as ROBOT.SKILL."""
        if robot is not None and robot not in self.crew.robots:
            raise UserError(f"no robot {robot!r} in crew {self.crew.name} "
                            f"(robots: {', '.join(self.crew.robots)})")
        with self.lock:
            if robot is None:
                self.adapter.engage_stop(why)
            else:
                self._robot_stops[robot] = why
            return self._safe_stop(list(self.crew.robots) if robot is None else [robot], why)

    def release_stop(self, robot: str | None = None) -> None:
        with self.lock:
            if robot is None:
                self._robot_stops.clear()
                self.adapter.release_stop()
            else:
                self._robot_stops.pop(robot, None)

    def _safe_stop(self, robots: list[str], why: str) -> list[str]:
        if self.sim is None:
            return []  # robots behind a network stop themselves on their e-stop topic
        started = self.sim.stop_robots(robots, why)
        if self._clock is None:  # unpaced: the stops run to their end now
            self.sim.finish_stops()
        return started

    # -- what a map shows -------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The world as it is now, with each simulated robot's recent trail (t, x, y, ...)."""
        with self.lock:
            state = self.world.to_json()
            state["t"] = round(self.now(), 3)
            if self.sim is not None:
                state["trails"] = self.sim.trails(240)
                state["down"] = self.sim.down()
        state["estop"] = self.stops()
        return state

    def view(self, mission_id: str, robots: Collection[str], *, by: str = "") -> MissionView:
        return MissionView(self, mission_id, frozenset(robots), by)

    # -- the backend's mission hooks, counted ---------------------------------------------------

    def began(self, mission_id: str) -> None:
        with self.lock:
            self._missions += 1
            first = self._missions == 1
        if first:  # e.g. the ROS 2 heartbeat the robots' lost-link failsafe watches
            self.adapter.mission_began(mission_id)

    def ended(self, mission_id: str) -> None:
        with self.lock:
            self._missions -= 1
            last = self._missions == 0
        if last:
            self.adapter.mission_ended(mission_id)

    def close(self) -> None:
        self._closed.set()
        if self._clock is not None:
            self._clock.join(5.0)
        with self._ticked:
            self._ticked.notify_all()
        self.adapter.close()


class MissionView(Adapter):
    """One mission's adapter: the live backend, limited to the robots the mission leased. A
    command for any other robot is rejected before it reaches the backend: no robot is ever
    commanded by two missions."""

    def __init__(self, live: LiveCrew, mission_id: str, robots: frozenset[str],
                 by: str = "") -> None:
        super().__init__(live.world)
        self.live, self.mission_id, self.robots, self.by = live, mission_id, robots, by
        self.name = live.adapter.name
        self.clock = live.adapter.clock
        self.tick_s = live.adapter.tick_s

    def now(self) -> float:
        return self.live.now()

    def start(self, command: Command) -> None:
        if command.robot not in self.robots:
            raise AdapterError(f"{command.robot} is not leased to mission {self.mission_id} "
                               f"(its robots: {', '.join(sorted(self.robots))})")
        with self.live.lock:
            self.live.adapter.start(command)

    def poll(self, command: Command) -> Progress:
        with self.live.lock:
            return self.live.adapter.poll(command)

    def cancel(self, command: Command) -> None:
        with self.live.lock:
            self.live.adapter.cancel(command)

    def wait(self, seconds: float) -> None:
        if self.live.sim is None:  # a real backend's time passes by itself
            self.live.adapter.wait(seconds)
        else:
            self.live.wait_paced(seconds)

    def deciding(self) -> AbstractContextManager[None]:
        return self.live.deciding()

    def not_ready(self, robot: str) -> str | None:
        why = self.live.stop_reason([robot]) if robot in self.robots else None
        return why or self.live.adapter.not_ready(robot)

    def abort_reason(self) -> str | None:
        return self.live.stop_reason(self.robots)

    def mission_began(self, mission_id: str, *, recovering: bool = False) -> None:
        self.live.began(mission_id)

    def mission_ended(self, mission_id: str) -> None:
        self.live.ended(mission_id)

    def describe(self) -> str:
        return self.live.adapter.describe()

    def meta(self) -> dict[str, Any]:
        return {**self.live.adapter.meta(), "speed": self.live.speed,
                **({"submitted_by": self.by} if self.by else {})}

    def outcome(self) -> dict[str, Any]:
        if self.live.sim is None:
            return {}
        with self.live.lock:
            return self.live.adapter.outcome()


__all__ = ["LiveCrew", "MissionView"]
