"""What a mission did: the stable JSON of ``crewgate run --json``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from crewgate.codes import Problem
from crewgate.gate.verdict import PlanVerdict, unique_codes
from crewgate.plan import Plan

if TYPE_CHECKING:
    from crewgate.orchestrator.dispatch import StepOutcome

# completed: ran to the end of the plan; refused: nothing moved; halted: stopped by a refusal, a
# failure or an e-stop; crashed: an exception inside the mission; interrupted: SIGINT, SIGTERM;
# denied: a human (or the approval timeout) rejected the accepted plan, nothing moved; cancelled:
# withdrawn before its first step, nothing moved
Status = Literal["completed", "refused", "halted", "crashed", "interrupted", "denied",
                 "cancelled"]
Stage = Literal["plan", "dispatch", "skip"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Something the gate refused: the plan (before anything moved), a step at its dispatch, or
    a step skipped in a partial workflow; with the problems that say what it was about."""

    stage: Stage
    t: float  # mission time
    problems: tuple[Problem, ...]
    index: int | None = None  # the step; None for the plan as a whole
    robot: str | None = None
    skill: str | None = None

    @property
    def codes(self) -> list[str]:
        return unique_codes(self.problems)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, "codes": self.codes, "t": self.t,
                               "stage": self.stage,
                               "problems": [p.to_json() for p in self.problems]}
        if self.robot is not None:
            out.update(robot=self.robot, skill=self.skill)
        return out


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

    def finished(self, outcome: StepOutcome, t0: float) -> None:
        """Record how it ended; ``t0`` is the backend time the mission started at."""
        self.succeeded, self.message = outcome.succeeded, outcome.message
        self.started_at, self.ended_at = outcome.started_at - t0, outcome.ended_at - t0

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
    refusals: list[Refusal] = field(default_factory=list)
    final_state: dict[str, Any] = field(default_factory=dict)
    bindings: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] = field(default_factory=dict)
    planning_s: float = 0.0
    execution_s: float = 0.0  # backend time from first dispatch to the end
    planner_error: str | None = None
    journal_errors: list[str] = field(default_factory=list)  # writes lost while securing a crash

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
            "refusals": [_jsonable(r.to_json()) for r in self.refusals],
            "attempts": [a.to_json() for a in self.attempts],
            "final_state": _jsonable(self.final_state),
            "bindings": _jsonable(self.bindings),
            "outcome": _jsonable(self.outcome),
            "planning_s": round(self.planning_s, 6),
            "execution_s": round(self.execution_s, 3),
            "planner_error": self.planner_error,
            "journal_errors": self.journal_errors,
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
