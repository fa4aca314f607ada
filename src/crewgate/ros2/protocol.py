"""The crewgate skill protocol on ROS 2: one small convention, carried in standard messages.

No standard interface fits an arbitrary typed skill call, so a robot that speaks crewgate's
protocol offers, under a namespace (default ``crewgate``):

- ``/NS/ROBOT/skill/request`` (std_msgs/String, orchestrator -> robot): JSON ``{"id",
  "mission", "index", "skill", "args", "bindings", "timeout_s", "fallback"}``;
- ``/NS/ROBOT/skill/feedback`` (String, robot -> orchestrator): JSON ``{"id", "status",
  "message", "result", "t"}``, status accepted, running, succeeded, failed, cancelled, rejected;
- ``/NS/ROBOT/skill/cancel`` (String, orchestrator -> robot): JSON ``{"id"}``;
- ``/NS/ROBOT/state`` (String, robot -> all): JSON ``{"robot", "t", "fields"}`` at a steady
  rate, the state fields and the heartbeat;
- ``/NS/bindings/NAME`` (geometry_msgs/PointStamped, producer -> all): a runtime value,
  header.stamp when it was measured, header.frame_id its source; ``/NS/bindings/NAME/confidence``
  (std_msgs/Float32) its confidence, published just before the point;
- ``/NS/world/objects`` (String, simulated robots): JSON ``{OBJECT: HOLDER}``, who holds what;
- ``/NS/estop`` (std_msgs/Bool, anyone -> all): true halts every mission and stops every robot;
  whoever holds it republishes each change of it, latched;
- ``/NS/orchestrator/heartbeat`` (String, orchestrator -> all): JSON ``{"mission", "seq"}`` every
  ``HEARTBEAT_PERIOD_S`` while a mission runs, then once ``{"mission": null}`` when it ends; a
  robot that loses it mid-mission for its ``orchestrator_timeout_s`` runs its own safe stop.

docs/ros2.md has the whole convention, QoS included.

This module is pure Python (no rclpy): names and JSON encoding, shared by the adapter and the
simulated robot nodes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from crewgate import jsonsafe
from crewgate.jsonsafe import decode_nonfinite, encode_nonfinite

if TYPE_CHECKING:
    from crewgate.spec import Crew

DEFAULT_NAMESPACE = "crewgate"
STATE_PERIOD_S = 0.05  # simulated robots publish their state (and heartbeat) at 20 Hz
HEARTBEAT_PERIOD_S = 0.1  # the orchestrator's heartbeat, while a mission runs: 10 Hz
# A starting simulated robot is silent and holds plan steps this long: an engaged e-stop,
# latched, reaches it only once discovery has matched its publisher
ESTOP_LISTEN_S = 1.0
MAX_ESTOP_LISTEN_S = 60.0
ESTOP_LISTEN_HELP = (
    "seconds a starting node listens for an engaged e-stop (latched, it arrives once discovery "
    "matches its publisher) before it takes plan steps: silent meanwhile, the steps it is sent "
    "held, fallback steps run")

Status = Literal["accepted", "running", "succeeded", "failed", "cancelled", "rejected"]
FINAL: frozenset[str] = frozenset({"succeeded", "failed", "cancelled", "rejected"})


@dataclass(frozen=True, slots=True)
class Topics:
    """Topic names of one namespace, with the topics a crew's ``ros2`` section names instead
    (state, bindings, confidences, e-stop, heartbeat): the orchestrator and the simulated nodes
    both take their names from here, so they always meet."""

    namespace: str = DEFAULT_NAMESPACE
    states: Mapping[str, str] = field(default_factory=dict)
    bindings: Mapping[str, str] = field(default_factory=dict)
    confidences: Mapping[str, str] = field(default_factory=dict)
    estop_topic: str | None = None
    heartbeat_topic: str | None = None

    @classmethod
    def of(cls, crew: Crew, namespace: str | None = None) -> Topics:
        """The crew's topics; ``namespace`` overrides its ``ros2.namespace``."""
        from crewgate.ros2.section import Ros2Section  # the spec: not needed to speak the protocol

        section = crew.section(Ros2Section)
        if section is None:
            return cls(namespace or DEFAULT_NAMESPACE)
        return cls(namespace or section.namespace,
                   {r: w.state_topic for r, w in section.robots.items() if w.state_topic},
                   {b: w.topic for b, w in section.bindings.items() if w.topic},
                   {b: w.confidence_topic for b, w in section.bindings.items()
                    if w.confidence_topic},
                   section.estop_topic, section.heartbeat_topic)

    def _ns(self) -> str:
        return "/" + self.namespace.strip("/")

    def request(self, robot: str) -> str:
        return f"{self._ns()}/{robot}/skill/request"

    def feedback(self, robot: str) -> str:
        return f"{self._ns()}/{robot}/skill/feedback"

    def cancel(self, robot: str) -> str:
        return f"{self._ns()}/{robot}/skill/cancel"

    def state(self, robot: str) -> str:
        return self.states.get(robot) or f"{self._ns()}/{robot}/state"

    def binding(self, name: str) -> str:
        return self.bindings.get(name) or f"{self._ns()}/bindings/{name}"

    def confidence(self, name: str) -> str:
        return self.confidences.get(name) or f"{self._ns()}/bindings/{name}/confidence"

    def objects(self) -> str:
        return f"{self._ns()}/world/objects"

    def estop(self) -> str:
        return self.estop_topic or f"{self._ns()}/estop"

    def heartbeat(self) -> str:
        return self.heartbeat_topic or f"{self._ns()}/orchestrator/heartbeat"


@dataclass(frozen=True, slots=True)
class SkillRequest:
    id: str
    mission: str
    index: int
    skill: str
    args: dict[str, Any]
    bindings: dict[str, dict[str, Any]] = field(default_factory=dict)
    timeout_s: float = 10.0
    fallback: bool = False

    def encode(self) -> str:
        return dumps({"id": self.id, "mission": self.mission, "index": self.index,
                      "skill": self.skill, "args": self.args, "bindings": self.bindings,
                      "timeout_s": self.timeout_s, "fallback": self.fallback})

    @classmethod
    def decode(cls, text: str) -> SkillRequest:
        obj = loads(text)
        return cls(str(obj["id"]), str(obj.get("mission", "")), int(obj.get("index", 0)),
                   str(obj["skill"]), dict(obj.get("args") or {}),
                   dict(obj.get("bindings") or {}), float(obj.get("timeout_s", 10.0)),
                   bool(obj.get("fallback", False)))


@dataclass(frozen=True, slots=True)
class Feedback:
    id: str
    status: Status
    message: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    t: float = 0.0

    @property
    def final(self) -> bool:
        return self.status in FINAL

    def encode(self) -> str:
        return dumps({"id": self.id, "status": self.status, "message": self.message,
                      "result": self.result, "t": self.t})

    @classmethod
    def decode(cls, text: str) -> Feedback:
        obj = loads(text)
        status = str(obj["status"])
        if status not in {"accepted", "running", *FINAL}:
            raise ValueError(f"unknown feedback status {status!r}")
        return cls(str(obj["id"]), status, str(obj.get("message", "")),  # type: ignore[arg-type]
                   dict(obj.get("result") or {}), float(obj.get("t", 0.0)))


def encode_cancel(request_id: str) -> str:
    return dumps({"id": request_id})


def decode_cancel(text: str) -> str:
    return str(loads(text)["id"])


def encode_state(robot: str, t: float, fields: dict[str, Any]) -> str:
    return dumps({"robot": robot, "t": t, "fields": fields})


def decode_state(text: str) -> tuple[str, float, dict[str, Any]]:
    obj = loads(text)
    return str(obj["robot"]), float(obj.get("t", 0.0)), dict(obj.get("fields") or {})


def encode_heartbeat(mission: str | None, seq: int) -> str:
    """The orchestrator's heartbeat: the mission it runs, or None (no mission: disarm)."""
    return dumps({"mission": mission, "seq": seq})


def decode_heartbeat(text: str) -> tuple[str | None, int]:
    """(mission or None, seq); a ValueError, KeyError or TypeError for what is not one."""
    obj = loads(text)
    if not isinstance(obj, dict) or "mission" not in obj:
        raise ValueError("a heartbeat is a JSON object with a mission (an id or null)")
    mission = obj["mission"]
    if mission is not None and not (isinstance(mission, str) and mission):
        raise TypeError(f"a heartbeat's mission is an id or null, not {mission!r}")
    return mission, int(obj.get("seq", 0))


def dumps(obj: Any) -> str:
    """JSON without NaN literals: non-finite numbers travel as strings ("nan")."""
    return json.dumps(encode_nonfinite(obj), allow_nan=False)


def loads(text: str) -> Any:
    """A message's JSON (non-finite numbers as their strings); a ValueError for what is none
    (bad JSON, NaN literals, nesting deeper than any message's)."""
    return decode_nonfinite(jsonsafe.loads(text))
