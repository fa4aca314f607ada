"""What a mission did: the stable JSON of ``crewgate run --json``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from crewgate.gate.verdict import PlanVerdict
from crewgate.plan import Plan

Status = Literal["completed", "refused", "halted"]


@dataclass(slots=True)
class Dispatched:
    """One step that reached a robot (an executed command, whatever its verdict)."""

    index: int
    robot: str
    skill: str
    args: dict[str, Any]
    codes: list[str]  # the gate's codes at dispatch; non-empty only with enforcement off
    kind: Literal["step", "fallback"] = "step"
    succeeded: bool | None = None
    message: str = ""
    started_at: float = 0.0
    ended_at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "robot": self.robot, "skill": self.skill,
                "args": _jsonable(self.args), "codes": self.codes, "kind": self.kind,
                "succeeded": self.succeeded, "message": self.message,
                "t_start": round(self.started_at, 3), "t_end": round(self.ended_at, 3)}


@dataclass(slots=True)
class Attempt:
    """One planner call and the gate's whole-plan verdict on it."""

    number: int
    raw: str
    plan: Plan | None
    verdict: PlanVerdict
    planning_s: float
    usage: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"attempt": self.number, "raw": self.raw,
                "plan": self.plan.to_json() if self.plan else None,
                "verdict": self.verdict.to_json(), "planning_s": round(self.planning_s, 6),
                "usage": self.usage}


@dataclass(slots=True)
class MissionResult:
    mission_id: str
    crew: str
    request: str
    enforce: bool
    status: Status = "refused"
    codes: list[str] = field(default_factory=list)
    reason: str = ""
    attempts: list[Attempt] = field(default_factory=list)
    dispatched: list[Dispatched] = field(default_factory=list)
    refusals: list[dict[str, Any]] = field(default_factory=list)
    final_state: dict[str, Any] = field(default_factory=dict)
    bindings: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] = field(default_factory=dict)
    planning_s: float = 0.0
    execution_s: float = 0.0  # backend time from first dispatch to the end
    planner_error: str | None = None

    @property
    def clean(self) -> bool:
        """Completed, nothing skipped, every dispatched step succeeded and none carried a gate
        code."""
        return self.status == "completed" and not self.refusals and all(
            d.succeeded and not d.codes for d in self.dispatched if d.kind == "step")

    @property
    def plan(self) -> Plan | None:
        return self.attempts[-1].plan if self.attempts else None

    def to_json(self) -> dict[str, Any]:
        return {
            "mission_id": self.mission_id,
            "crew": self.crew,
            "request": self.request,
            "enforce": self.enforce,
            "status": self.status,
            "codes": self.codes,
            "reason": self.reason,
            "dispatched": [d.to_json() for d in self.dispatched if d.kind == "step"],
            "fallback": [d.to_json() for d in self.dispatched if d.kind == "fallback"],
            "refusals": _jsonable(self.refusals),
            "attempts": [a.to_json() for a in self.attempts],
            "final_state": _jsonable(self.final_state),
            "bindings": _jsonable(self.bindings),
            "outcome": _jsonable(self.outcome),
            "planning_s": round(self.planning_s, 6),
            "execution_s": round(self.execution_s, 3),
            "planner_error": self.planner_error,
        }


def _jsonable(value: Any) -> Any:
    """Tuples as lists, non-finite floats as strings (JSON has no NaN), rounded floats."""
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return str(value)
        return round(value, 4)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)
