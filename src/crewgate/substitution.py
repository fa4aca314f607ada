"""Substitution classes: what kind of thing a refused plan put in the place of what the request
and the crew allow, for studies across planners (the paper's open question: how substitution
errors vary across foundation models).

Each problem of a verdict falls in one class:

- ``location`` — a place the crew does not have, one the step does not accept, or another than
  the request states;
- ``zone`` — a search zone other than the request's, or outside the area;
- ``point/number`` — a point, number or range value other than the request's, out of range or
  beyond a bound the request states;
- ``object`` — an object the crew does not have, or another than the request names;
- ``robot`` — a robot the crew does not have, another than the request names, or one it rules
  out (``substituted_robot``, ``excluded_robot``);
- ``action`` — a step the request does not ask for, says not to do, or one it asks for left
  out (``unrequested_step``, ``negated_step``, ``dropped_request``, ``retracted_request``,
  ``nothing_asked``);
- ``workflow`` — a workflow the crew does not declare, or a step outside the chosen one;
- ``invented skill`` — a skill the robot does not have;
- ``other`` — everything else (the contract's structure, the world's state, an unreadable plan).

A value's class comes from its parameter's kind in the crew spec (the step and parameter the
problem names), so that ``substituted_value`` on a location and on a zone are told apart.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from crewgate.codes import Code, Problem
from crewgate.spec import Crew

CLASSES = ("location", "zone", "point/number", "object", "robot", "action", "workflow",
           "invented skill", "other")

_BY_CODE: dict[Code, str] = {
    Code.UNKNOWN_LOCATION: "location", Code.UNKNOWN_OBJECT: "object",
    Code.UNKNOWN_ROBOT: "robot", Code.SUBSTITUTED_ROBOT: "robot", Code.EXCLUDED_ROBOT: "robot",
    Code.UNKNOWN_SKILL: "invented skill", Code.UNKNOWN_WORKFLOW: "workflow",
    Code.BAD_ASSIGNMENT: "workflow", Code.UNREQUESTED_STEP: "action",
    Code.NEGATED_STEP: "action", Code.DROPPED_REQUEST: "action",
    Code.RETRACTED_REQUEST: "action", Code.NOTHING_ASKED: "action", Code.OUT_OF_ORDER: "action",
    Code.OUT_OF_RANGE: "point/number", Code.BEYOND_BOUND: "point/number",
}
_BY_KIND = {"location": "location", "object": "object", "zone": "zone", "point": "point/number",
            "number": "point/number", "integer": "point/number", "binding": "point/number"}
# "iris.search_target: x_min ..." (a parameter's check) or "... for iris.takeoff altitude" (the
# request's rule)
_PARAM = re.compile(r"\b([A-Za-z_][\w-]*)\.([A-Za-z_][\w-]*)(?::| ) ?([A-Za-z_]\w*)")


def classify(problem: Problem, crew: Crew) -> str:
    """The substitution class of one problem."""
    code = problem.code
    if code in _BY_CODE:
        return _BY_CODE[code]
    if code is Code.BAD_ARGUMENT:  # a value of a kind not accepted here: a place, an object
        return _kind(problem.detail, crew) or "other"
    if code in (Code.SUBSTITUTED_VALUE, Code.OUT_OF_BOUNDS):
        kind = _kind(problem.detail, crew)
        if kind is not None:
            return kind
        if code is Code.OUT_OF_BOUNDS:
            return "zone" if "zone" in problem.detail else "point/number"
        return "object" if "leaves its object" in problem.detail else "point/number"
    return "other"


def _kind(detail: str, crew: Crew) -> str | None:
    for robot, skill, param in _PARAM.findall(detail):
        spec = crew.skill(robot, skill)
        if spec is None:
            continue
        found = spec.params.get(param)
        if found is not None:
            return _BY_KIND.get(found.type, "point/number")
        for name, p in spec.params.items():  # a flattened zone or point: x_min, y ...
            if name in detail and p.type in _BY_KIND:
                return _BY_KIND[p.type]
    return None


def classes(problems: Iterable[Problem], crew: Crew) -> Counter[str]:
    """How many problems fall in each class."""
    return Counter(classify(p, crew) for p in problems)


__all__ = ["CLASSES", "classes", "classify"]
