"""Plans as plain data, and the tolerant parser of raw model output.

A plan is ``{"workflow": ..., "steps": [{"robot", "skill", "args"}]}``; the study's key
``workflow_family`` is accepted too. Raw text is searched for its first JSON object (inside code
fences or followed by prose). Input that yields no plan becomes a ``ParseFailure`` with structured
problems, never an exception: the gate turns it into the verdict ``malformed_plan``.

The parser is total and bounded (:mod:`crewgate.limits`): raw text up to ``MAX_PLAN_CHARS``, at
most ``MAX_JSON_STARTS`` places tried for the object, nesting up to ``MAX_JSON_DEPTH``, at most
``MAX_PLAN_STEPS`` steps of at most ``MAX_ARGS`` arguments, names up to ``MAX_NAME_CHARS``.
Whatever exceeds a bound, decodes to huge or non-finite numbers or is not JSON at all is a
``ParseFailure`` naming the bound; problems quote values boundedly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from crewgate.jsonsafe import quoted, read_int
from crewgate.limits import (
    MAX_ARGS,
    MAX_JSON_DEPTH,
    MAX_JSON_STARTS,
    MAX_NAME_CHARS,
    MAX_PLAN_CHARS,
    MAX_PLAN_STEPS,
)

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
    if len(raw) > MAX_PLAN_CHARS:
        return ParseFailure((f"the output is {len(raw):,} characters long; a plan is read from "
                             f"at most {MAX_PLAN_CHARS:,}",), raw[:MAX_PLAN_CHARS])
    obj, why = first_json_object(raw)
    if obj is None:
        snippet = raw.strip()[:80] or "(empty)"
        return ParseFailure((why or f"no JSON object found in the output: {snippet!r}",), raw)
    return plan_from_mapping(obj, raw_text=raw)


def first_json_object(text: str) -> tuple[dict[str, Any] | None, str]:
    """The first JSON object in ``text`` (fenced blocks first, then any '{' that decodes, at
    most ``MAX_JSON_STARTS`` of them), or None with why the last candidate failed, when it
    failed for a reason worth naming (too deep, a number too long)."""
    candidates = [m.group(1) for m in _FENCE_RE.finditer(text)] + [text]
    # NaN and Infinity decode: the gate refuses them per argument
    decoder = json.JSONDecoder(parse_int=read_int)
    tries = 0
    why = ""
    for candidate in candidates:
        start = candidate.find("{")
        while start != -1 and tries < MAX_JSON_STARTS:
            tries += 1
            try:
                obj, _ = decoder.raw_decode(candidate, start)
            except RecursionError:
                why = f"the JSON nests deeper than {MAX_JSON_DEPTH} levels"
            except ValueError as exc:  # JSONDecodeError, or an integer beyond Python's limit
                if not isinstance(exc, json.JSONDecodeError):
                    why = f"the JSON holds a value crewgate does not read: {exc}"
            else:
                if isinstance(obj, dict):
                    return obj, ""
            start = candidate.find("{", start + 1)
    return None, why


def _too_deep(value: Any) -> bool:
    """Whether ``value`` nests deeper than ``MAX_JSON_DEPTH`` (without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping | list | tuple):
            if depth > MAX_JSON_DEPTH:
                return True
            children = item.values() if isinstance(item, Mapping) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def plan_from_mapping(obj: Mapping[str, Any], raw_text: str) -> Plan | ParseFailure:
    if _too_deep(obj):
        return ParseFailure((f"the plan nests deeper than {MAX_JSON_DEPTH} levels",), raw_text)
    problems: list[str] = []
    workflow = obj.get("workflow", obj.get("workflow_family"))
    if workflow is not None and not (isinstance(workflow, str)
                                     and len(workflow) <= MAX_NAME_CHARS):
        problems.append(f"'workflow' must be a name of at most {MAX_NAME_CHARS} characters, "
                        f"got {quoted(workflow)}")
        workflow = None
    raw_steps = obj.get("steps")
    if raw_steps is None:
        problems.append("the plan has no 'steps' list")
        return ParseFailure(tuple(problems), raw_text)
    if not isinstance(raw_steps, list):
        problems.append(f"'steps' must be a list, got {type(raw_steps).__name__}")
        return ParseFailure(tuple(problems), raw_text)
    if len(raw_steps) > MAX_PLAN_STEPS:
        problems.append(f"the plan has {len(raw_steps):,} steps; crewgate reads plans of at most "
                        f"{MAX_PLAN_STEPS:,}")
        return ParseFailure(tuple(problems), raw_text)
    steps: list[Step] = []
    for i, item in enumerate(raw_steps):
        step = _step(i, item, problems)
        if step is not None:
            steps.append(step)
    if problems:
        return ParseFailure(tuple(problems), raw_text)
    return Plan(workflow=workflow, steps=tuple(steps))


def _name(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME_CHARS


def _step(index: int, item: object, problems: list[str]) -> Step | None:
    if not isinstance(item, Mapping):
        problems.append(f"step {index}: expected an object with robot, skill, args; got "
                        f"{quoted(item)}")
        return None
    robot, skill, args = item.get("robot"), item.get("skill"), item.get("args", {})
    for key, value in (("robot", robot), ("skill", skill)):
        if not _name(value):
            problems.append(f"step {index}: {key!r} must be a name of 1 to {MAX_NAME_CHARS} "
                            f"characters, got {quoted(value)}")
    if args is None:
        args = {}
    if not isinstance(args, Mapping):
        problems.append(f"step {index}: 'args' must be an object, got {quoted(args)}")
        return None
    if len(args) > MAX_ARGS or not all(_name(k) for k in args):
        problems.append(f"step {index}: 'args' must hold at most {MAX_ARGS} arguments named "
                        f"by 1 to {MAX_NAME_CHARS} characters")
        return None
    if _name(robot) and _name(skill):
        return Step(robot=robot, skill=skill, args=dict(args))
    return None
