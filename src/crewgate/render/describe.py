"""One-line descriptions of spec objects for the planner context (and for docs and errors)."""

from __future__ import annotations

from crewgate.spec import Binding, Crew, Location, Skill
from crewgate.spec.params import (
    BindingParam,
    BooleanParam,
    EnumParam,
    IntegerParam,
    LocationParam,
    NumberParam,
    ObjectParam,
    Param,
    PointParam,
    StringParam,
    ZoneParam,
    param_default,
    plan_fields,
)
from crewgate.spec.workflow import ArgRule


def describe_param(name: str, param: Param, required: bool) -> str:
    fields = plan_fields(name, param)
    label = ", ".join(fields) if len(fields) > 1 else name
    text = f"{label}{'' if required else '?'}: {_type_text(param)}"
    default = param_default(param)
    if default is not None:
        text += f", default {default}"
    if param.from_request:
        text += ", exactly as the request states it"
    if param.description:
        text += f" ({param.description})"
    return text


def _type_text(param: Param) -> str:
    if isinstance(param, NumberParam | IntegerParam):
        kind = "number" if isinstance(param, NumberParam) else "integer"
        unit = f" {param.unit}" if param.unit else ""
        if param.min is not None and param.max is not None:
            return f"{kind} in [{param.min:g}, {param.max:g}]{unit}"
        if param.min is not None:
            return f"{kind} >= {param.min:g}{unit}"
        if param.max is not None:
            return f"{kind} <= {param.max:g}{unit}"
        return f"{kind}{unit}"
    if isinstance(param, BooleanParam):
        return "true or false"
    if isinstance(param, StringParam):
        return f"text of at most {param.max_length} characters"
    if isinstance(param, EnumParam):
        return "one of " + ", ".join(param.values)
    if isinstance(param, LocationParam):
        return "a location name" + (f" among {', '.join(param.among)}" if param.among else "")
    if isinstance(param, ObjectParam):
        return "an object name" + (f" among {', '.join(param.among)}" if param.among else "")
    if isinstance(param, BindingParam):
        return "the name of a runtime binding: " + " or ".join(repr(b) for b in param.bindings)
    if isinstance(param, PointParam):
        area = ", inside the operational area" if param.in_area else ""
        return f"a point in {param.unit}{area}"
    if isinstance(param, ZoneParam):
        area = ", inside the operational area" if param.in_area else ""
        return f"an axis-aligned zone in {param.unit}, min < max{area}"
    raise AssertionError(param)  # pragma: no cover


def describe_skill(robot: str, name: str, skill: Skill) -> str:
    params = "; ".join(
        describe_param(p, spec, skill.is_required(p)) for p, spec in skill.params.items()
    )
    line = f"- {robot}.{name}({params}): {skill.description.strip()}"
    if skill.aliases:
        line += f" (Asked for as: {', '.join(skill.aliases)}.)"
    if skill.one_of:
        groups = " or ".join(
            ", ".join(f for n in g for f in plan_fields(n, skill.params[n])) for g in skill.one_of
        )
        line += f" Give exactly one of: {groups}."
    if skill.preconditions:
        line += " Requires: " + ", ".join(str(c) for c in skill.preconditions) + "."
    if skill.effects:
        line += " Afterwards: " + ", ".join(f"{k} = {_value(v)}"
                                            for k, v in skill.effects.items()) + "."
    if skill.produces:
        line += " Publishes: " + ", ".join(skill.produces) + "."
    return line


def _value(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def describe_location(name: str, loc: Location) -> str:
    pose = ", ".join(f"{v:g}" for v in loc.pose[:2])
    also = f", also called {', '.join(repr(a) for a in loc.aliases)}" if loc.aliases else ""
    desc = f": {loc.description}" if loc.description else ""
    return f"- {name} at ({pose}){also}{desc}"


def describe_binding(name: str, binding: Binding, crew: Crew) -> str:
    producers = ", ".join(f"{r}.{s}" for r, s in crew.producers(name)) or "the backend"
    rules = ["present", "finite"]
    if binding.inside_area:
        rules.append("inside the operational area")
    if binding.max_age_s is not None:
        rules.append(f"at most {binding.max_age_s:g} s old")
    if binding.min_confidence is not None:
        rules.append(f"confidence >= {binding.min_confidence:g}")
    desc = f"{binding.description.strip()} " if binding.description else ""
    return (f"- {name} ({binding.type}, published by {producers}): {desc}Refer to it by its "
            f"name {name!r}; it is resolved and checked ({', '.join(rules)}) when the step that "
            "uses it is dispatched.")


def describe_arg_rule(param: str, rule: ArgRule) -> str:
    parts: list[str] = []
    if rule.bind is not None:
        parts.append(f"{param} must be the runtime binding {rule.bind!r}, never literal values")
    if rule.from_request:
        parts.append(f"{param} must be exactly what the request states")
    if rule.required:
        parts.append(f"{param} is required")
    if rule.range is not None:
        parts.append(f"{param} in [{rule.range[0]:g}, {rule.range[1]:g}]")
    return ", ".join(parts)
