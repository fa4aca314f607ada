"""Plans as plain data, and the tolerant parser of raw model output.

A plan is ``{"workflow": ..., "steps": [{"robot", "skill", "args"}]}``; the study's key
``workflow_family`` is accepted too. Raw text is searched for its first JSON object (inside code
fences or followed by prose). Input that yields no plan becomes a ``ParseFailure`` with structured
problems, never an exception: the gate turns it into the verdict ``malformed_plan``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

_FENCE_RE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Step:
    """One proposed robot-skill call. ``args`` are as the planner wrote them (untrusted)."""

    robot: str
    skill: str
    args: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ref(self) -> str:
        return f"{self.robot}.{self.skill}"

    def to_json(self) -> dict[str, Any]:
        return {"robot": self.robot, "skill": self.skill, "args": dict(self.args)}


@dataclass(frozen=True, slots=True)
class Plan:
    """A proposed mission: the workflow it claims and its steps, in dispatch order."""

    workflow: str | None
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {"workflow": self.workflow, "steps": [s.to_json() for s in self.steps]}


@dataclass(frozen=True, slots=True)
class ParseFailure:
    """Raw output that holds no usable plan, and why (one problem per line)."""

    problems: tuple[str, ...]
    raw: str = ""


def parse_plan(raw: str | Mapping[str, Any]) -> Plan | ParseFailure:
    """Parse a plan from a mapping or from raw model text; never raises."""
    if isinstance(raw, Mapping):
        return plan_from_mapping(raw, raw_text="")
    if not isinstance(raw, str):
        return ParseFailure((f"expected text or a JSON object, got {type(raw).__name__}",))
    obj = first_json_object(raw)
    if obj is None:
        snippet = raw.strip()[:80] or "(empty)"
        return ParseFailure((f"no JSON object found in the output: {snippet!r}",), raw)
    return plan_from_mapping(obj, raw_text=raw)


def first_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text``: fenced blocks first, then any '{' that decodes."""
    candidates = [m.group(1) for m in _FENCE_RE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        start = candidate.find("{")
        while start != -1:
            try:
                obj, _ = decoder.raw_decode(candidate, start)
            except json.JSONDecodeError:
                start = candidate.find("{", start + 1)
                continue
            if isinstance(obj, dict):
                return obj
            start = candidate.find("{", start + 1)
    return None


def plan_from_mapping(obj: Mapping[str, Any], raw_text: str) -> Plan | ParseFailure:
    problems: list[str] = []
    workflow = obj.get("workflow", obj.get("workflow_family"))
    if workflow is not None and not isinstance(workflow, str):
        problems.append(f"'workflow' must be a string, got {workflow!r}")
        workflow = None
    raw_steps = obj.get("steps")
    if raw_steps is None:
        problems.append("the plan has no 'steps' list")
        return ParseFailure(tuple(problems), raw_text)
    if not isinstance(raw_steps, list):
        problems.append(f"'steps' must be a list, got {type(raw_steps).__name__}")
        return ParseFailure(tuple(problems), raw_text)
    steps: list[Step] = []
    for i, item in enumerate(raw_steps):
        step = _step(i, item, problems)
        if step is not None:
            steps.append(step)
    if problems:
        return ParseFailure(tuple(problems), raw_text)
    return Plan(workflow=workflow, steps=tuple(steps))


def _step(index: int, item: object, problems: list[str]) -> Step | None:
    if not isinstance(item, Mapping):
        problems.append(f"step {index}: expected an object with robot, skill, args; got {item!r}")
        return None
    robot, skill, args = item.get("robot"), item.get("skill"), item.get("args", {})
    if not isinstance(robot, str) or not robot:
        problems.append(f"step {index}: 'robot' must be a non-empty string, got {robot!r}")
    if not isinstance(skill, str) or not skill:
        problems.append(f"step {index}: 'skill' must be a non-empty string, got {skill!r}")
    if args is None:
        args = {}
    if not isinstance(args, Mapping):
        problems.append(f"step {index}: 'args' must be an object, got {args!r}")
        return None
    if not isinstance(robot, str) or not isinstance(skill, str) or not robot or not skill:
        return None
    return Step(robot=robot, skill=skill, args=dict(args))
