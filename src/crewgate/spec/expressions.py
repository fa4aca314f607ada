"""The two tiny expression forms of a crew spec: state conditions and effect values.

A **condition** compares one state field with a literal or with an argument of the skill:
``airborne == false``, ``battery >= 0.2``, ``go2.location == start``, ``at == $location``.
A field without a robot prefix is the skill's own robot. A ``$param`` side is skipped when the
plan leaves that optional argument out.

An **effect value** is a literal (``true``, ``null``, ``3``, ``start``), an argument (``$object``)
or a state field read before the effect applies (``$holding``, ``$go2.payload``).

``$name`` is the skill's parameter when it has one, else the robot's own state field;
``$robot.field`` is always a state field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

import yaml
from pydantic import PlainSerializer, PlainValidator, WithJsonSchema

from crewgate.codes import Code, Findings
from crewgate.spec.base import Rule, Scalar, Sentinel
from crewgate.spec.finite import non_finite_message, not_finite

# Robot state as checks read it: robot -> field -> value (live, or predicted during validation);
# where each object is sits beside it under OBJECTS: object -> its place, holder or "requester".
State = Mapping[str, Mapping[str, Any]]
OBJECTS = "$objects"  # never a robot's name (names are identifiers)
OBJECT_FIELD = "at"  # the one field of an object: where it is

Op = Literal["==", "!=", "<", "<=", ">", ">="]

_CONDITION_RE = re.compile(
    r"^\s*(?:(?P<robot>\$?[A-Za-z]\w*)\.)?(?P<field>[A-Za-z]\w*)\s*"
    r"(?P<op>==|!=|<=|>=|<|>)\s*(?P<value>\S.*?)\s*$"
)
_REF_RE = re.compile(r"^\$(?:(?P<robot>[A-Za-z]\w*)\.)?(?P<name>[A-Za-z]\w*)$")


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference inside an expression: ``$name`` or ``$robot.name``."""

    name: str
    robot: str | None = None

    def __str__(self) -> str:
        return f"${self.robot}.{self.name}" if self.robot else f"${self.name}"


# A value the plan leaves to the robot (an object it picks itself): not null, not equal to any
# named value; a condition on it cannot be refuted before run time.
UNKNOWN: Any = Sentinel("<chosen by the robot>")
# A reference to an optional argument the plan left out: the comparison is skipped.
SKIP: Any = Sentinel("<not given>")


def resolve(ref: Ref, robot: str, params: Collection[str], typed: Mapping[str, Any],
            state: State) -> Any:
    """A ``$reference`` of a skill's expression: its argument, else its robot's state field."""
    if ref.robot is None and ref.name in params:
        return typed.get(ref.name, SKIP)
    return state[ref.robot or robot].get(ref.name)


@dataclass(frozen=True, slots=True)
class Condition(Rule):
    """``[robot.]field OP value`` where value is a literal or a ``$param`` reference. As a
    skill's precondition it is a rule: rendered "Requires: ...", checked at every dispatch."""

    codes: ClassVar[frozenset[Code]] = frozenset({Code.PRECONDITION_FAILED})

    field: str
    op: Op
    value: Scalar | Ref
    robot: str | None = None

    def __str__(self) -> str:
        lhs = f"{self.robot}.{self.field}" if self.robot else self.field
        return f"{lhs} {self.op} {_literal_text(self.value)}"

    def describe(self) -> str:
        return str(self)

    def holds(self, state: State, robot: str) -> bool:
        """Whether a condition on literals holds now (fallback ``when``, ROS 2 ``done_when``)."""
        if self.robot is not None and self.robot not in state:  # an object's place
            return compare(state.get(OBJECTS, {}).get(self.robot), self.op, self.value)
        return compare(state[self.robot or robot].get(self.field), self.op, self.value)

    def _subject(self, robot: str, typed: Mapping[str, Any], state: State
                 ) -> tuple[str | None, Any]:
        """What the condition reads: ``(the object whose place it is, its value)``: None for a
        robot's field (``[robot.]field``, named in details as such). ``$param.at`` is where the
        object the argument names is, ``OBJECT.at`` where that object is (unknown where the
        backend does not track objects: not refutable)."""
        if self.robot is not None and (self.robot.startswith("$") or self.robot not in state):
            name = typed.get(self.robot[1:], SKIP) if self.robot.startswith("$") else self.robot
            if name is SKIP or name is UNKNOWN or name is None:
                return str(name), SKIP
            return str(name), state.get(OBJECTS, {}).get(name, UNKNOWN)
        return None, state[self.robot or robot].get(self.field)

    def check(self, ref: str, robot: str, params: Collection[str], typed: Mapping[str, Any],
              state: State, f: Findings) -> None:
        """As a precondition of step ``ref`` of ``robot`` with typed arguments ``typed``."""
        expected: Any = self.value
        if isinstance(expected, Ref):
            expected = resolve(expected, robot, params, typed, state)
            if expected is SKIP:
                return  # the optional argument it compares with was left out
        subject, actual = self._subject(robot, typed, state)
        if actual is SKIP or actual is UNKNOWN or expected is UNKNOWN:
            return  # left out, or decided by the robot at run time: cannot be refuted now
        if not compare(actual, self.op, expected):
            field = f"{self.robot or robot}.{self.field}"
            shown = (f"{subject} is at {show_state(actual)}" if subject not in (None, field)
                     else f"{field} is {show_state(actual)}")
            f.add(Code.PRECONDITION_FAILED, f"{ref} needs {self} but {shown}")


def show_state(value: Any) -> str:
    """A state value as details write it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "(" + ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value) + ")"
    return str(value)


def _literal_text(value: Scalar | Ref) -> str:
    if isinstance(value, Ref):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_scalar(text: str) -> Scalar:
    """A YAML scalar: true/false/null/numbers, else the text itself."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return text


def parse_condition(text: object) -> Condition:
    if isinstance(text, Condition):
        return text
    if not isinstance(text, str):
        raise ValueError(f"a condition is a string like 'airborne == false', got {text!r}")
    match = _CONDITION_RE.match(text)
    if not match:
        raise ValueError(
            f"cannot read condition {text!r}; write FIELD OP VALUE, e.g. 'airborne == false', "
            "'battery >= 0.2', 'go2.location == start' (OP is one of == != < <= > >=)"
        )
    raw = match["value"]
    ref = _REF_RE.match(raw)
    value: Scalar | Ref = Ref(ref["name"], ref["robot"]) if ref else parse_scalar(raw)
    shown = not_finite(value)
    if shown is not None:
        raise ValueError(f"condition {text!r}: {non_finite_message(shown)}")
    op: Op = match["op"]  # type: ignore[assignment]  # the regex admits only these
    if op not in ("==", "!=") and not isinstance(value, int | float | Ref):
        raise ValueError(f"condition {text!r} orders a non-number {raw!r}; use == or !=")
    return Condition(field=match["field"], op=op, value=value, robot=match["robot"])


def parse_effect_value(value: object) -> Scalar | Ref:
    shown = not_finite(value)
    if shown is not None:
        raise ValueError(non_finite_message(shown))
    if isinstance(value, str):
        ref = _REF_RE.match(value.strip())
        if ref:
            return Ref(ref["name"], ref["robot"])
        return value
    if value is None or isinstance(value, bool | int | float):
        return value
    raise ValueError(f"an effect value is a scalar or a $reference, got {value!r}")


ConditionField = Annotated[
    Condition,
    PlainValidator(parse_condition),
    PlainSerializer(str, return_type=str),
    WithJsonSchema(
        {
            "type": "string",
            "description": "[ROBOT.]FIELD OP VALUE, e.g. 'airborne == false', "
            "'go2.location == start', 'at == $location'",
        }
    ),
]

EffectValue = Annotated[
    Scalar | Ref,
    PlainValidator(parse_effect_value),
    PlainSerializer(lambda v: str(v) if isinstance(v, Ref) else v),
    WithJsonSchema(
        {
            "description": "A literal, an argument ($object) or a state field read before the "
            "effect ($holding, $go2.payload)",
            "type": ["string", "number", "boolean", "null"],
        }
    ),
]


def compare(left: object, op: Op, right: object) -> bool:
    """Evaluate ``left OP right`` on state values; ordering a non-number is simply false."""
    if op == "==":
        return _equal(left, right)
    if op == "!=":
        return not _equal(left, right)
    if not _is_number(left) or not _is_number(right):
        return False
    lv, rv = float(left), float(right)  # type: ignore[arg-type]  # checked by _is_number
    if op == "<":
        return lv < rv
    if op == "<=":
        return lv <= rv
    if op == ">":
        return lv > rv
    return lv >= rv


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _equal(left: object, right: object) -> bool:
    if _is_number(left) and _is_number(right):
        return abs(float(left) - float(right)) <= 1e-9  # type: ignore[arg-type]
    return left == right
