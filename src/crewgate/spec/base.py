"""Shared building blocks of the spec models: the strict base model (unknown keys refused, every
number finite), problems found with their paths, and small value types."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from functools import cached_property
from typing import Annotated, Any, ClassVar, Self, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    model_validator,
)
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError
from pydantic_core.core_schema import ErrorType

from crewgate.codes import Code
from crewgate.spec.finite import non_finite_message, non_finite_numbers, not_finite

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


class SpecProblems(ValueError):
    """Raised by a spec model's validator with every problem it found, each with its path from
    that model (the loader prefixes where the model sits in the file)."""

    def __init__(self, problems: Sequence[tuple[SpecPath, str]]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(f"{'.'.join(map(str, p))}: {m}" for p, m in self.problems))


_KNOWN_ERRORS = frozenset(get_args(ErrorType))
# Set while a spec model's data is being validated: the outermost model has walked all of it.
_WALKED: ContextVar[bool] = ContextVar("crewgate_spec_walked", default=False)


def init_error(error: ErrorDetails, prefix: SpecPath = ()) -> InitErrorDetails:
    """A pydantic error as it can be raised again (under ``prefix``), custom types included."""
    known = error["type"] in _KNOWN_ERRORS
    out: InitErrorDetails = {
        "type": error["type"] if known else PydanticCustomError(error["type"], error["msg"]),
        "loc": (*prefix, *error["loc"]), "input": error["input"]}
    if known and "ctx" in error:
        out["ctx"] = error["ctx"]
    return out


class SpecModel(BaseModel):
    """Base of every spec model: unknown keys are errors, every number is finite (a spec can only
    narrow the gate, see :mod:`crewgate.spec.finite`), instances are immutable. Values derived
    from a model's fields may be cached (``functools.cached_property``); a copy drops them, so
    that ``model_copy(update=...)`` never carries a value derived from the fields it replaced."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True,
                              allow_inf_nan=False)

    @model_validator(mode="wrap")
    @classmethod
    def _finite_numbers(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """Refuse every number that is not finite, in this model's data and all it holds (the
        outermost model walks it once), with the other problems of the data."""
        if _WALKED.get():
            return handler(data)
        found = list(non_finite_numbers(data))
        token = _WALKED.set(True)
        try:
            model = handler(data)
        except ValidationError as exc:
            if not found:
                raise
            # a value reported here fails its field too (once per branch of a union): say it once
            rest = [init_error(e) for e in exc.errors() if not_finite(e["input"]) is None]
            raise ValidationError.from_exception_data(
                cls.__name__, [*_non_finite_errors(found), *rest]) from None
        finally:
            _WALKED.reset(token)
        if found:
            raise ValidationError.from_exception_data(cls.__name__, _non_finite_errors(found))
        return model

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Self:
        copy = super().model_copy(update=update, deep=deep)
        for klass in type(self).__mro__:
            for name, attribute in vars(klass).items():
                if isinstance(attribute, cached_property):
                    copy.__dict__.pop(name, None)
        return copy


def _non_finite_errors(found: list[tuple[SpecPath, str]]) -> list[InitErrorDetails]:
    return [{"type": PydanticCustomError("non_finite_number", non_finite_message(shown)),
             "loc": path, "input": shown} for path, shown in found]


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
