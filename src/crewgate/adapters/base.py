"""The Adapter: how the orchestrator reaches robots. Backends fill hooks; the framework owns the
rest (timeouts, events, the gate).

A backend implements four hooks and keeps :class:`~crewgate.world.World` up to date:

- ``start(command)``  accept a command (raise AdapterError if it cannot be sent at all);
- ``poll(command)``   report RUNNING, SUCCEEDED (with a result) or FAILED (with a reason);
- ``cancel(command)`` stop it (after a timeout or a halt);
- ``wait(seconds)``   let time pass: the simulator steps its physics, a real backend sleeps.

Only :class:`crewgate.orchestrator.dispatch.Dispatcher` calls these hooks, and only with a
command built from an authorization the gate issued and the dispatcher redeemed. Architectural
tests keep it so: statically (no other module calls them) and at run time (every call of every
mission in the test comes from the dispatcher).

Two lifecycle hooks move nothing: the mission calls ``mission_began`` and ``mission_ended`` (on
every exit, crashed and interrupted ones included) so that a networked backend can tell its
robots an orchestrator is running a mission (the ROS 2 heartbeat their lost-link failsafe
watches). Both are no-ops by default.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Literal

from crewgate.commands import Command, Progress
from crewgate.world import World


class Adapter(ABC):
    """A robot backend. Subclasses implement the hooks; they never call the gate themselves."""

    name: str = "adapter"
    tick_s: float = 0.02  # how often a running step is polled, in backend seconds
    clock: Literal["simulated", "real"] = "real"  # what the backend's seconds are

    def __init__(self, world: World) -> None:
        self.world = world
        self._stopped: str | None = None  # see engage_stop

    def now(self) -> float:
        return self.world.now()

    @abstractmethod
    def start(self, command: Command) -> None:
        """Send the command; raise AdapterError if the robot cannot be reached at all."""

    @abstractmethod
    def poll(self, command: Command) -> Progress:
        """How the command is doing now."""

    @abstractmethod
    def cancel(self, command: Command) -> None:
        """Stop the command (best effort; must not raise for a finished command)."""

    @abstractmethod
    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of backend time pass (and world state update meanwhile)."""

    def deciding(self) -> AbstractContextManager[None]:
        """Held while the orchestrator decides a step: from its authorization to its send.
        A simulated clock that runs on its own (the operator service's) stands still
        meanwhile; a real one cannot, and nothing happens by default."""
        return nullcontext()

    def not_ready(self, robot: str) -> str | None:
        """Why ``robot`` cannot take a command now (read immediately before a send), or None.
        The default reads the world's availability; a networked backend also judges its
        liveness afresh."""
        if self.world.robots.get(robot, {}).get("available") is not True:
            return f"robot {robot!r} is unavailable"
        return None

    def abort_reason(self) -> str | None:
        """Why every motion must stop now (an e-stop), or None. The orchestrator cancels the
        running step and dispatches nothing more, whatever the condition."""
        return self._stopped

    def engage_stop(self, why: str) -> None:
        """An e-stop from the operator's side of this adapter (an agent's or operator's tool):
        :meth:`abort_reason` gives ``why`` until :meth:`release_stop`. It sends no motion: a
        backend whose robots stop on a signal of their own sends it (ROS 2: the e-stop topic);
        the simulator's robots run their safe stop when told (:meth:`safe_stop`)."""
        self._stopped = why

    def release_stop(self) -> None:
        self._stopped = None

    def safe_stop(self) -> list[str]:
        """After :meth:`engage_stop`, with no mission running: have the robots run their own
        safe stop where this backend is the robots' side too (the simulator); the steps run,
        as ROBOT.SKILL. Robots behind a network stop themselves on their e-stop topic, so the
        default does nothing."""
        return []

    def mission_began(self, mission_id: str, *, recovering: bool = False) -> None:
        """A mission began (non-actuating). ``recovering``: an earlier process's mission is
        being closed by ``crewgate recover``; raise AdapterError if the backend sees that
        mission still running elsewhere (its orchestrator is alive), and recovery leaves it."""

    def mission_ended(self, mission_id: str) -> None:
        """The mission ended, however it ended (non-actuating); a networked backend tells the
        robots, whose lost-link failsafe then stands down."""

    def connect(self, robots: list[str], timeout_s: float) -> list[str]:
        """Wait up to ``timeout_s`` for the robots to be heard; those still silent (they stay
        unavailable, and the gate refuses their steps)."""
        return []

    def describe(self) -> str:
        """Where missions run, for people: "world A", "ROS 2 namespace /crewgate"."""
        return self.name

    def meta(self) -> dict[str, Any]:
        """Where missions run, for the journal."""
        return {"backend": self.name}

    def close(self) -> None:
        """Release resources (processes, nodes)."""

    def outcome(self) -> dict[str, Any]:
        """Backend-measured physical outcome of the mission, for reports (may be empty)."""
        return {}
