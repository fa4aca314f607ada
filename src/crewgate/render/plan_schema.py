"""The JSON Schema of a valid plan, from the same spec objects as the context and the gate.

At ``FORMAT`` knowledge the schema only fixes the shape (the planner knows no names); from
``REGISTRY`` on, each step is one of the crew's visible robot-skill pairs with typed arguments
(robot enum, that robot's own skill enum, bounded numbers, location and object enums), suitable for
structured output and grammar-constrained decoding.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from crewgate.conditions import Knowledge
from crewgate.spec import Crew, Skill
from crewgate.spec.params import JsonSchema

MAX_STEPS = 32  # the cap when a contract allows unbounded repetition


def max_plan_steps(crew: Crew) -> int:
    """The longest plan any contract allows (sum of its steps' upper counts), capped at
    MAX_STEPS. A bound on the steps array keeps small constrained models from looping."""
    longest = 0
    for wf in crew.workflows.values():
        highs = [rule.count.high for rule in wf.steps.values()]
        longest = max(longest, MAX_STEPS if None in highs else sum(h or 0 for h in highs))
    return max(1, min(longest, MAX_STEPS))


def plan_json_schema(crew: Crew, knowledge: Knowledge = Knowledge.CONTRACTS) -> JsonSchema:
    if knowledge is Knowledge.FORMAT:
        step: JsonSchema = {
            "type": "object",
            "properties": {
                "robot": {"type": "string", "maxLength": 64},
                "skill": {"type": "string", "maxLength": 64},
                "args": {"type": "object"},
            },
            "required": ["robot", "skill", "args"],
            "additionalProperties": False,
        }
    else:
        step = {"anyOf": [
            _step_schema(crew, rname, sname, skill)
            for rname, robot in crew.robots.items()
            for sname, skill in robot.skills.items() if skill.visible
        ]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"crewgate plan for crew {crew.name}",
        "type": "object",
        "properties": {
            "workflow": {"type": "string", "enum": list(crew.workflows)},
            "steps": {"type": "array", "items": step,
                      "maxItems": MAX_STEPS if knowledge is Knowledge.FORMAT
                      else max_plan_steps(crew)},
        },
        "required": ["workflow", "steps"],
        "additionalProperties": False,
    }


def _step_schema(crew: Crew, robot: str, name: str, skill: Skill) -> JsonSchema:
    properties: dict[str, JsonSchema] = {}
    required: list[str] = []
    for pname, param in skill.params.items():
        properties.update(param.json_schemas(pname, crew.context))
        if skill.is_required(pname):
            required.extend(param.plan_fields(pname))
    args: JsonSchema = {"type": "object", "properties": properties,
                        "required": required, "additionalProperties": False}
    if skill.one_of:
        args["anyOf"] = [
            {"required": [f for n in group for f in skill.params[n].plan_fields(n)]}
            for group in skill.one_of
        ]
    return {
        "type": "object",
        "properties": {
            "robot": {"type": "string", "const": robot},
            "skill": {"type": "string", "const": name},
            "args": args,
        },
        "required": ["robot", "skill", "args"],
        "additionalProperties": False,
    }


def without_document_keys(schema: Mapping[str, Any]) -> JsonSchema:
    """The schema without ``$schema``, ``$id`` and ``title``, which tool APIs and grammar
    converters reject or ignore."""
    return {k: v for k, v in schema.items() if k not in ("$schema", "$id", "title")}


def grammar_schema(schema: Mapping[str, Any]) -> JsonSchema:
    """The plan schema spelled for JSON-schema-to-grammar converters (llama.cpp's): the same
    language, without the document keys, and with an object's ``anyOf`` of ``required`` groups
    (a skill's one-of parameter groups) expanded into alternative objects, each requiring its
    group; converters reject such an ``anyOf`` and fall back to unconstrained JSON."""
    expanded: JsonSchema = _expand_required_groups(without_document_keys(schema))
    return expanded


def _expand_required_groups(node: Any) -> Any:
    if isinstance(node, list):
        return [_expand_required_groups(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _expand_required_groups(value) for key, value in node.items()}
    groups = out.get("anyOf")
    if (isinstance(groups, list) and groups and "properties" in out
            and all(isinstance(g, dict) and set(g) <= {"required"} for g in groups)):
        base = {k: v for k, v in out.items() if k != "anyOf"}
        alternatives = []
        for group in groups:
            alternative = copy.deepcopy(base)
            required = list(base.get("required", []))
            required += [f for f in group.get("required", []) if f not in required]
            alternative["required"] = required
            alternatives.append(alternative)
        return {"anyOf": alternatives}
    return out
