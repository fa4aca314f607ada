"""Shared building blocks of the spec models: the strict base model and small value types."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cached_property
from typing import Annotated, Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field

from crewgate.codes import Code

# A scalar value as YAML and JSON carry it.
Scalar = bool | int | float | str | None
# Where a value sits in a crew file: ("robots", "iris", "skills", "takeoff"), for errors.
SpecPath = tuple[str | int, ...]

NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_]*$"
_NAME_RE = re.compile(NAME_PATTERN)

# An identifier used for robots, skills, params, locations, workflows ...
Name = Annotated[str, Field(pattern=NAME_PATTERN, max_length=64)]

# "robot.skill"
StepRef = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z][A-Za-z0-9_]*\.[A-Za-z][A-Za-z0-9_]*$",
        description="A robot-skill pair written ROBOT.SKILL, e.g. iris.takeoff",
    ),
]

Range = Annotated[
    tuple[float, float],
    Field(description="A closed interval [low, high] in metres, low < high."),
]


class Sentinel:
    """A named marker value (MISSING, INVALID, UNKNOWN ...): never equal to a real value, and
    printed by its name."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name


class SpecModel(BaseModel):
    """Base of every spec model: unknown keys are errors, instances are immutable. Values derived
    from a model's fields may be cached (``functools.cached_property``); a copy drops them, so
    that ``model_copy(update=...)`` never carries a value derived from the fields it replaced."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Self:
        copy = super().model_copy(update=update, deep=deep)
        for klass in type(self).__mro__:
            for name, attribute in vars(klass).items():
                if isinstance(attribute, cached_property):
                    copy.__dict__.pop(name, None)
        return copy


def is_name(text: str) -> bool:
    return bool(_NAME_RE.match(text))


def split_ref(ref: str) -> tuple[str, str]:
    """Split "robot.skill" (validated by StepRef) into its two names."""
    robot, _, skill = ref.partition(".")
    return robot, skill


class Rule:
    """A rule of the crew spec. Each rule object renders itself for the planner (``describe``)
    and is applied by the gate (``check``), so what the planner is told and what the gate
    enforces cannot drift apart; ``codes`` are the verdict codes its check can give. A test walks
    every subclass (tests/test_rules.py)."""

    codes: ClassVar[frozenset[Code]] = frozenset()
