"""Verdicts are values: codes with a human detail, per step and per plan."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from crewgate.codes import Family, Problem
from crewgate.values import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class StepVerdict:
    """The gate's judgement of one step (at plan time or at dispatch time)."""

    index: int
    robot: str
    skill: str
    problems: tuple[Problem, ...] = ()
    deferred: tuple[str, ...] = ()  # bindings checked only at dispatch (produced earlier in plan)
    skip: bool = False  # refused only for an unavailable robot in a partial (safety) workflow

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def codes(self) -> list[str]:
        return unique_codes(self.problems)

    def to_json(self) -> dict[str, Any]:
        out = {"index": self.index, "robot": self.robot, "skill": self.skill,
               "codes": self.codes, "problems": [p.to_json() for p in self.problems]}
        if self.skip:
            out["skip"] = True
        return out


@quick_init
@dataclass(frozen=True, slots=True)
class PlanVerdict:
    """The whole-plan verdict: accepted only if the plan and every step are clean."""

    problems: tuple[Problem, ...] = ()  # plan-level (malformed, unknown workflow, missing steps)
    steps: tuple[StepVerdict, ...] = ()
    workflow: str | None = None

    @property
    def accepted(self) -> bool:
        """No plan-level problem, every step clean or skippable, and something left to do."""
        return (not self.problems and all(s.ok or s.skip for s in self.steps)
                and (not self.steps or any(s.ok for s in self.steps)))

    @property
    def all_problems(self) -> list[Problem]:
        return [*self.problems, *(p for s in self.steps for p in s.problems)]

    @property
    def codes(self) -> list[str]:
        return unique_codes(self.all_problems)

    def families(self) -> set[Family]:
        return {p.code.family for p in self.all_problems}

    def feedback(self) -> list[dict[str, Any]]:
        """Structured replan feedback: each problem with its step index, code and detail."""
        return [p.to_json() for p in self.all_problems]

    def to_json(self) -> dict[str, Any]:
        """The stable JSON of ``crewgate check``."""
        return {
            "accepted": self.accepted,
            "codes": self.codes,
            "workflow": self.workflow,
            "problems": [p.to_json() for p in self.problems],
            "steps": [s.to_json() for s in self.steps],
        }


def unique_codes(problems: Iterable[Problem]) -> list[str]:
    seen: dict[str, None] = {}
    for p in problems:
        seen.setdefault(p.code.value, None)
    return list(seen)
