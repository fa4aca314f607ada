"""Typed skill parameters: the vocabulary a plan's ``args`` are checked against.

Each parameter kind is one model, discriminated by ``type``. Points and zones may be *flattened*
into several plan arguments (the study's ``navigate_to(x=.., y=..)`` and
``search_target(x_min=.., x_max=.., y_min=.., y_max=..)``) with ``fields``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from crewgate.spec.base import Name, SpecModel


class _ParamBase(SpecModel):
    description: str = Field("", description="What the parameter means, shown to the planner.")
    required: bool | None = Field(
        None,
        description="Whether a plan must give it. Default: required unless it has a default or "
        "belongs to a one_of group of its skill.",
    )
    from_request: bool = Field(
        False,
        description="Request containment in every workflow: a value the plan gives must be one the "
        "request states (by name, alias or number); a value the request states cannot be "
        "replaced or left out.",
    )


class NumberParam(_ParamBase):
    type: Literal["number"] = Field(description="A real number.")
    min: float | None = Field(None, description="Lowest accepted value.")
    max: float | None = Field(None, description="Highest accepted value.")
    unit: str | None = Field(None, description="Unit shown to the planner, e.g. m, m/s, s.")
    default: float | None = Field(None, description="Value used when the plan leaves it out.")

    @model_validator(mode="after")
    def _bounds(self) -> NumberParam:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")
        return self


class IntegerParam(_ParamBase):
    type: Literal["integer"] = Field(description="A whole number.")
    min: int | None = Field(None, description="Lowest accepted value.")
    max: int | None = Field(None, description="Highest accepted value.")
    unit: str | None = Field(None, description="Unit shown to the planner.")
    default: int | None = Field(None, description="Value used when the plan leaves it out.")


class BooleanParam(_ParamBase):
    type: Literal["boolean"] = Field(description="true or false.")
    default: bool | None = Field(None, description="Value used when the plan leaves it out.")


class StringParam(_ParamBase):
    type: Literal["string"] = Field(description="Free text (e.g. a message to speak).")
    max_length: int = Field(200, ge=1, description="Longest accepted value.")
    default: str | None = Field(None, description="Value used when the plan leaves it out.")


class EnumParam(_ParamBase):
    type: Literal["enum"] = Field(description="One of a fixed set of words.")
    values: list[str] = Field(min_length=1, description="The accepted values.")
    default: str | None = Field(None, description="Value used when the plan leaves it out.")


class LocationParam(_ParamBase):
    type: Literal["location"] = Field(description="A crew location, by name or alias.")
    among: list[Name] | None = Field(
        None, description="Restrict to these crew locations (default: every crew location)."
    )
    default: str | None = Field(None, description="Location used when the plan leaves it out.")


class ObjectParam(_ParamBase):
    type: Literal["object"] = Field(description="A crew object, by name or alias.")
    among: list[Name] | None = Field(
        None, description="Restrict to these crew objects (default: every crew object)."
    )
    default: str | None = Field(None, description="Object used when the plan leaves it out.")


class BindingParam(_ParamBase):
    type: Literal["binding"] = Field(
        description="A reference to a runtime binding, resolved and checked at dispatch.")
    bindings: list[Name] = Field(
        min_length=1, description="Runtime bindings this parameter may refer to, by name."
    )


class PointParam(_ParamBase):
    type: Literal["point"] = Field(description="A 2-D point [x, y] in the crew frame.")
    fields: tuple[Name, Name] | None = Field(
        None,
        description="Plan argument names carrying x and y (e.g. [x, y]); "
        "default: one argument [x, y] named like the parameter.",
    )
    in_area: bool = Field(
        True, description="Must lie inside the operational area and outside keep-out zones."
    )
    unit: str = Field("m", description="Unit shown to the planner.")


class ZoneParam(_ParamBase):
    type: Literal["zone"] = Field(
        description="An axis-aligned rectangle [x_min, x_max, y_min, y_max] in the crew frame.")
    fields: tuple[Name, Name, Name, Name] | None = Field(
        None,
        description="Plan argument names carrying x_min, x_max, y_min, y_max; default: one "
        "argument [x_min, x_max, y_min, y_max] named like the parameter.",
    )
    in_area: bool = Field(True, description="Must lie wholly inside the operational area.")
    unit: str = Field("m", description="Unit shown to the planner.")


Param = Annotated[
    NumberParam
    | IntegerParam
    | BooleanParam
    | StringParam
    | EnumParam
    | LocationParam
    | ObjectParam
    | BindingParam
    | PointParam
    | ZoneParam,
    Field(discriminator="type"),
]


def param_default(param: Param) -> object:
    """The declared default of a parameter, or None."""
    return getattr(param, "default", None)


def plan_fields(name: str, param: Param) -> tuple[str, ...]:
    """The plan argument names that carry a parameter."""
    if isinstance(param, PointParam | ZoneParam) and param.fields is not None:
        return tuple(param.fields)
    return (name,)
