"""World state: each robot's live state fields and the runtime bindings, with timestamps.

Backends write it (the simulator every tick, ROS 2 from its callbacks); the gate reads it at the
moment of each authorization. Time is the backend's clock (simulated seconds in the simulator).
"""

from __future__ import annotations

import copy
import math
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from crewgate.spec import Crew
from crewgate.spec.expressions import OBJECTS

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class BindingValue:
    """One published runtime value: the value, when it was measured, how sure, by whom."""

    value: tuple[float, ...] | None
    stamp: float
    confidence: float | None = None
    source: str = ""
    # every coordinate a finite number: judged once, when published, not at every check
    finite: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "finite", self.value is not None and all(
            isinstance(v, int | float) and math.isfinite(v) for v in self.value))

    def to_json(self) -> dict[str, Any]:
        value = None if self.value is None else [_json_float(v) for v in self.value]
        return {"value": value, "stamp": self.stamp, "confidence": self.confidence,
                "source": self.source}


def _json_float(v: float) -> float | str:
    return v if math.isfinite(v) else str(v)


class World:
    """Live state of a crew. Thread-safe for writers on other threads (ROS 2 callbacks)."""

    def __init__(self, crew: Crew, clock: Clock) -> None:
        self.crew = crew
        self.clock = clock
        self.lock = threading.RLock()
        self.robots: dict[str, dict[str, Any]] = {}
        for name, robot in crew.robots.items():
            fields: dict[str, Any] = {"available": True}
            for fname, spec in robot.state.items():
                fields[fname] = copy.copy(spec.default)
            self.robots[name] = fields
        self.bindings: dict[str, BindingValue] = {}
        # where each object is (a location, the robot holding it, "requester"), as the backend
        # reports it; an object not listed is not tracked (conditions on it cannot be refuted)
        self.objects: dict[str, str] = {}

    def now(self) -> float:
        return self.clock()

    def get(self, robot: str, field: str) -> Any:
        return self.robots[robot].get(field)

    def update(self, robot: str, **fields: Any) -> None:
        with self.lock:
            self.robots[robot].update(fields)

    def set_available(self, robot: str, available: bool) -> None:
        self.update(robot, available=available)

    def publish(self, name: str, value: BindingValue) -> None:
        with self.lock:
            self.bindings[name] = value

    def clear_binding(self, name: str) -> None:
        with self.lock:
            self.bindings.pop(name, None)

    def copy_state(self) -> dict[str, dict[str, Any]]:
        """A copy of every robot's fields, for predicting the effects of a plan, with where
        each object is under ``OBJECTS``."""
        with self.lock:
            state = {name: dict(fields) for name, fields in self.robots.items()}
            state[OBJECTS] = dict(self.objects)
            return state

    def state_view(self) -> dict[str, Mapping[str, Any]]:
        """The live state as conditions read it: the robots' fields (not copied) and where
        each object is."""
        return {**self.robots, OBJECTS: self.objects}

    def move_object(self, name: str, where: str) -> None:
        with self.lock:
            self.objects[name] = where

    def to_json(self) -> dict[str, Any]:
        with self.lock:
            return {
                "robots": {n: _jsonable(f) for n, f in self.robots.items()},
                "bindings": {n: b.to_json() for n, b in self.bindings.items()},
                **({"objects": dict(self.objects)} if self.objects else {}),
            }


def _jsonable(fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if isinstance(value, tuple):
            value = list(value)
        if isinstance(value, list):
            value = [round(v, 3) if isinstance(v, float) else v for v in value]
        elif isinstance(value, float):
            value = round(value, 4)
        out[key] = value
    return out
