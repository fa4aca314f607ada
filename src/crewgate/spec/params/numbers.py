"""Parameter kinds ``number`` and ``integer``: bounded, finite, stated as numbers in a request."""

from __future__ import annotations

import math
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from crewgate.codes import Code, Findings
from crewgate.jsonsafe import quoted
from crewgate.spec.params.base import (
    INVALID,
    CrewContext,
    FillRequest,
    JsonSchema,
    ParamKind,
    number_text,
    register_kind,
)
from crewgate.text.phrases import attached_number
from crewgate.text.request import RequestFacts


def as_number(raw: Any) -> float | None:
    """A plan value as a float, or None: JSON numbers and numeric strings; never booleans."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, float):
        return raw
    if isinstance(raw, int):
        try:
            return float(raw)
        except OverflowError:  # an integer beyond any float: not a finite number
            return math.inf
    if isinstance(raw, str) and len(raw) <= 64:
        try:
            return float(raw.strip())
        except ValueError:
            return None
    return None


class _Numeric(ParamKind):
    codes: ClassVar[frozenset[Code]] = ParamKind.codes | {Code.OUT_OF_RANGE}
    numeric: ClassVar[bool] = True
    whole: ClassVar[bool] = False

    min: float | None
    max: float | None
    unit: str | None

    @model_validator(mode="after")
    def _bounds(self) -> _Numeric:
        for label, bound in (("min", self.min), ("max", self.max)):
            if bound is not None and not math.isfinite(bound):
                raise ValueError(f"{label} {bound} is not a finite number; leave it out for no "
                                 "bound")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")
        default = self.default_value
        if default is not None and not self._in_range(float(default)):
            raise ValueError(f"default {default} is outside [{number_text(self.min)}, "
                             f"{number_text(self.max)}]")
        return self

    def _in_range(self, value: float) -> bool:
        return ((self.min is None or value >= self.min)
                and (self.max is None or value <= self.max))

    def read_value(self, name: str, raw: Any, ctx: CrewContext, f: Findings, where: str) -> Any:
        value = as_number(raw)
        if value is None or not math.isfinite(value):
            f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be a finite number, got "
                  f"{quoted(raw)}")
            return INVALID
        if self.whole and value != int(value):
            f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be a whole number, got {quoted(raw)}")
            return INVALID
        if not self._in_range(value):
            unit = f" {self.unit}" if self.unit else ""
            f.add(Code.OUT_OF_RANGE, f"{where}: {name} {value:g}{unit} is outside "
                  f"[{number_text(self.min)}, {number_text(self.max)}]")
            return INVALID
        return int(value) if self.whole else value

    def contains(self, value: Any, facts: RequestFacts, ctx: CrewContext) -> bool:
        return facts.states_number(float(value))

    def show(self, value: Any) -> str:
        return f"{value:g}" + (f" {self.unit}" if self.unit else "")

    def type_text(self) -> str:
        kind = "integer" if self.whole else "number"
        unit = f" {self.unit}" if self.unit else ""
        if self.min is not None and self.max is not None:
            return f"{kind} in [{self.min:g}, {self.max:g}]{unit}"
        if self.min is not None:
            return f"{kind} >= {self.min:g}{unit}"
        if self.max is not None:
            return f"{kind} <= {self.max:g}{unit}"
        return f"{kind}{unit}"

    def json_schemas(self, name: str, ctx: CrewContext) -> dict[str, JsonSchema]:
        schema: JsonSchema = {"type": "integer" if self.whole else "number"}
        if self.min is not None:
            schema["minimum"] = self.min
        if self.max is not None:
            schema["maximum"] = self.max
        return {name: schema}

    def fill(self, name: str, request: FillRequest, *, required: bool) -> Any:
        return attached_number(name, request.facts.text)


@register_kind
class NumberParam(_Numeric):
    type: Literal["number"] = Field(description="A real number.")
    min: float | None = Field(None, description="Lowest accepted value.")
    max: float | None = Field(None, description="Highest accepted value.")
    unit: str | None = Field(None, description="Unit shown to the planner, e.g. m, m/s, s.")
    default: float | None = Field(None, description="Value used when the plan leaves it out.")


@register_kind
class IntegerParam(_Numeric):
    whole: ClassVar[bool] = True

    type: Literal["integer"] = Field(description="A whole number.")
    min: int | None = Field(None, description="Lowest accepted value.")
    max: int | None = Field(None, description="Highest accepted value.")
    unit: str | None = Field(None, description="Unit shown to the planner.")
    default: int | None = Field(None, description="Value used when the plan leaves it out.")

