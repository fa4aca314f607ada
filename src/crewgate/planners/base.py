"""The Mission Planner interface. A planner proposes; it never actuates.

A planner gets the request, the rendered context, the plan JSON Schema and, on a replan, the
gate's structured feedback; it returns its raw output, the parsed plan, the time its own calls
took, and token usage where known. Failures to produce output raise PlannerError, which the
orchestrator records and turns into a refused mission.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from crewgate.plan import ParseFailure, Plan
from crewgate.spec import Crew


@dataclass(frozen=True, slots=True)
class PlanningRequest:
    request: str
    crew: Crew
    context: str
    plan_schema: Mapping[str, Any]
    condition: str = "ro"
    attempt: int = 1
    feedback: Sequence[Mapping[str, Any]] = ()  # gate problems: {"index", "code", "detail"}
    previous_output: str = ""  # the raw output the feedback is about (on a replan)
    scenario: str | None = None  # set by the evaluation harness (replay matches on it)


@dataclass(frozen=True, slots=True)
class PlannerOutput:
    raw: str
    plan: Plan | ParseFailure
    planning_s: float
    usage: Mapping[str, int] = field(default_factory=dict)
    note: str = ""  # why the planner proposes no plan (e.g. no workflow fits the request)


@runtime_checkable
class Planner(Protocol):
    """Anything with a name and a ``plan`` method is a planner."""

    name: str

    def plan(self, request: PlanningRequest) -> PlannerOutput: ...


def feedback_text(feedback: Sequence[Mapping[str, Any]]) -> str:
    """Replan feedback as text for language models: one refused step per line."""
    lines = ["The Robot Orchestrator refused your plan:"]
    for item in feedback:
        where = "plan" if item.get("index") is None else f"step {item['index']}"
        lines.append(f"- {where}: {item['code']}: {item['detail']}")
    lines.append("Propose a corrected plan that fixes every problem, as one JSON object. If the "
                 "request cannot be done safely with this crew, answer with an empty list of "
                 "steps.")
    return "\n".join(lines)
