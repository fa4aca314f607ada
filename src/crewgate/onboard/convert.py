"""Conversions between crewgate's protocol and the simulator for ``crewgate node``, and the
:class:`Sink` its server hands messages to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from crewgate.commands import Command, token_of
from crewgate.ros2.protocol import Feedback, SkillRequest
from crewgate.world import BindingValue


class Sink(Protocol):
    """Where a :class:`RobotServer`'s messages go (ROS 2 publishers, or a list in tests)."""

    def feedback(self, fb: Feedback) -> None: ...

    def binding(self, name: str, value: BindingValue, stamp: float) -> None:
        """A binding the robot produced; ``stamp`` in wall-clock seconds (epoch)."""

    def objects(self, text: str) -> None: ...

    def state(self, text: str) -> None:
        """This robot's state out of turn: before a final feedback, after an object change."""

    def log(self, message: str) -> None: ...

    def estop(self, engaged: bool) -> None:
        """The e-stop as this robot now holds it, each time that changes: republished
        latched, so that a node or orchestrator started after the e-stop's own writer left
        hears it from every robot that holds it."""


def binding_from_json(obj: Mapping[str, Any]) -> BindingValue:
    """A binding as a request carries it: ``{"value", "stamp", "confidence", "source"}``."""
    value = obj.get("value")
    confidence = obj.get("confidence")
    return BindingValue(None if value is None else tuple(float(v) for v in value),
                        float(obj.get("stamp") or 0.0),
                        None if confidence is None else float(confidence),
                        str(obj.get("source") or ""))


def command_of(robot: str, request: SkillRequest) -> Command:
    return Command(request.mission, request.index, robot, request.skill, dict(request.args),
                   {name: binding_from_json(b) for name, b in request.bindings.items()},
                   request.timeout_s, token_of(request.id), request.fallback)


def jsonable(value: Any) -> Any:
    """State fields as JSON values (tuples become lists; non-finite floats are handled by
    :func:`crewgate.ros2.protocol.dumps`)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value
