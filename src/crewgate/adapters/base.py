"""The Adapter: how the orchestrator reaches robots. Backends fill hooks; the framework owns the
rest (timeouts, events, the gate).

A backend implements four hooks and keeps :class:`~crewgate.world.World` up to date:

- ``_start(command)``  accept a command (raise AdapterError if it cannot be sent at all);
- ``_poll(command)``   report RUNNING, SUCCEEDED (with a result) or FAILED (with a reason);
- ``_cancel(command)`` stop it (after a timeout or a halt);
- ``_wait(seconds)``   let time pass: the simulator steps its physics, a real backend sleeps.

Only :mod:`crewgate.orchestrator.dispatch` calls these hooks, and only with a command built from
an authorization the gate issued and the dispatcher redeemed. An architectural test keeps it so.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from crewgate.world import BindingValue, World


@dataclass(frozen=True, slots=True)
class Command:
    """One skill call as sent to a robot: typed arguments and the runtime values resolved by
    the gate at authorization (the robot acts on exactly the values that were checked)."""

    mission_id: str
    index: int
    robot: str
    skill: str
    args: Mapping[str, Any]
    bindings: Mapping[str, BindingValue]
    timeout_s: float
    token: int  # the authorization it was built from
    fallback: bool = False  # a safe-fallback step (after a halt), not a plan step

    @property
    def ref(self) -> str:
        return f"{self.robot}.{self.skill}"


class Status(Enum):
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Progress:
    status: Status
    message: str = ""
    result: Mapping[str, Any] = field(default_factory=dict)


RUNNING = Progress(Status.RUNNING)


class Adapter(ABC):
    """A robot backend. Subclasses implement the hooks; they never call the gate themselves."""

    name: str = "adapter"
    tick_s: float = 0.02  # how often a running step is polled, in backend seconds

    def __init__(self, world: World) -> None:
        self.world = world

    def now(self) -> float:
        return self.world.now()

    @abstractmethod
    def _start(self, command: Command) -> None:
        """Send the command; raise AdapterError if the robot cannot be reached at all."""

    @abstractmethod
    def _poll(self, command: Command) -> Progress:
        """How the command is doing now."""

    @abstractmethod
    def _cancel(self, command: Command) -> None:
        """Stop the command (best effort; must not raise for a finished command)."""

    @abstractmethod
    def _wait(self, seconds: float) -> None:
        """Let ``seconds`` of backend time pass (and world state update meanwhile)."""

    def abort_reason(self) -> str | None:
        """Why every motion must stop now (an e-stop), or None. The orchestrator cancels the
        running step and dispatches nothing more, whatever the condition."""
        return None

    def close(self) -> None:
        """Release resources (processes, nodes)."""

    def outcome(self) -> dict[str, Any]:
        """Backend-measured physical outcome of the mission, for reports (may be empty)."""
        return {}
