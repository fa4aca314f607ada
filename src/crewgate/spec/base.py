"""Shared building blocks of the spec models: the strict base model and small value types."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

# A scalar value as YAML and JSON carry it.
Scalar = bool | int | float | str | None

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


class SpecModel(BaseModel):
    """Base of every spec model: unknown keys are errors, instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def is_name(text: str) -> bool:
    return bool(_NAME_RE.match(text))


def split_ref(ref: str) -> tuple[str, str]:
    """Split "robot.skill" (validated by StepRef) into its two names."""
    robot, _, skill = ref.partition(".")
    return robot, skill
