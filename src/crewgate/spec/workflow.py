"""Workflow contracts: which robot-skill steps a kind of mission may contain, how often, in what
order, with which argument rules; and the crew's safe fallback."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field, PlainSerializer, PlainValidator, WithJsonSchema, model_validator

from crewgate.spec.base import Name, Range, Scalar, SpecModel, StepRef
from crewgate.spec.expressions import ConditionField

_CARD_RE = re.compile(r"^\s*(\d+)\s*(?:\.\.\s*(\d+|\*)\s*)?$")


class Cardinality(tuple[int, int | None]):
    """How many times a step may occur: ``1``, ``0..1``, ``1..*``, ``2..3``. None = unbounded."""

    __slots__ = ()

    @property
    def low(self) -> int:
        return self[0]

    @property
    def high(self) -> int | None:
        return self[1]

    def __str__(self) -> str:
        low, high = self
        if high == low:
            return str(low)
        return f"{low}..{'*' if high is None else high}"

    def describe(self) -> str:
        low, high = self
        if high == low:
            return "exactly once" if low == 1 else f"exactly {low} times"
        if high is None:
            return "any number of times" if low == 0 else f"at least {low} times"
        if low == 0:
            return "at most once" if high == 1 else f"at most {high} times"
        return f"{low} to {high} times"


def parse_cardinality(value: object) -> Cardinality:
    if isinstance(value, Cardinality):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return Cardinality((value, value))
    match = _CARD_RE.match(str(value)) if isinstance(value, str) else None
    if not match:
        raise ValueError(f"cannot read count {value!r}; write 1, 0..1, 1..* or 2..3")
    low = int(match[1])
    if match[2] is None:
        return Cardinality((low, low))
    high = None if match[2] == "*" else int(match[2])
    if high is not None and high < low:
        raise ValueError(f"count {value!r} has its upper bound below its lower bound")
    return Cardinality((low, high))


CardinalityField = Annotated[
    Cardinality,
    PlainValidator(parse_cardinality),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": ["string", "integer"], "description": "1, 0..1, 1..* or 2..3"}),
]


class ArgRule(SpecModel):
    """A contract's rule on one argument of one step."""

    from_request: bool = Field(
        False, description="The value must be one the request states (request containment)."
    )
    bind: Name | None = Field(
        None,
        description="The argument must refer to this runtime binding, never a literal value "
        "(binding_required).",
    )
    range: Range | None = Field(None, description="A tighter numeric range for this workflow.")
    required: bool = Field(False, description="The argument must be given in this workflow.")


class StepRule(SpecModel):
    """One allowed robot-skill step of a workflow."""

    count: CardinalityField = Field(
        default_factory=lambda: Cardinality((1, 1)),
        description="How many times it may occur; a lower bound >= 1 makes it required.",
    )
    args: dict[Name, ArgRule] = Field(default_factory=dict, description="Argument rules.")
    description: str = Field("", description="Why this step is here, shown to the planner.")


class OrderRule(SpecModel):
    """``then`` may only be dispatched after ``first`` has completed."""

    first: StepRef = Field(description="The step that must complete first.")
    then: StepRef = Field(description="The step that must wait for it.")
    why: str = Field("", description="The reason, shown to the planner and in verdicts.")


class Workflow(SpecModel):
    """A workflow contract: the only shapes a mission of this kind may take."""

    description: str = Field(description="When to use this workflow, shown to the planner.")
    examples: list[str] = Field(
        default_factory=list, description="Example requests that call for this workflow."
    )
    robots: list[Name] = Field(min_length=1, description="Robots that may take part.")
    steps: dict[StepRef, StepRule] = Field(
        min_length=1, description="The allowed robot-skill steps (a whitelist)."
    )
    order: list[OrderRule] = Field(default_factory=list, description="Ordering across steps.")
    min_steps: int = Field(1, ge=0, description="A plan needs at least this many steps.")
    partial: bool = Field(
        False,
        description="A safety workflow (abort): a step refused only because its robot is "
        "unavailable is skipped and journaled, and the other steps still run, so that an "
        "emergency stop stops what it can.",
    )

    @model_validator(mode="after")
    def _check(self) -> Workflow:
        for rule in self.order:
            for ref in (rule.first, rule.then):
                if ref not in self.steps:
                    raise ValueError(f"order rule names {ref!r}, which is not a step of it")
        return self


class FallbackStep(SpecModel):
    """One step of the crew's safe fallback, run through the gate when a mission halts."""

    step: StepRef = Field(description="The robot-skill pair to run, e.g. iris.land.")
    args: dict[Name, Scalar | list[float]] = Field(
        default_factory=dict, description="Its arguments (checked by the gate like any step).")
    when: ConditionField | None = Field(
        None, description="Only when this holds (unprefixed fields are the step's robot's)."
    )
    only_if_engaged: bool = Field(
        True, description="Only for robots that were dispatched in the halted mission."
    )
