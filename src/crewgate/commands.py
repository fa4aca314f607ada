"""The command vocabulary shared by the orchestrator's side and the robots' side: a command as
sent to a robot, and how it is doing (its progress and status).

Below both ``adapters/`` (which send commands) and ``sim/`` (whose simulated robots run them),
so that neither imports the other for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from crewgate.world import BindingValue


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


def token_of(text: str) -> int:
    """A stable 64-bit token for a request id (the simulator keys running actions by it)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
