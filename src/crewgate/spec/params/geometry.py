"""Parameter kinds ``point`` and ``zone``: coordinates in the crew frame, inside the operational
area unless a parameter says otherwise. Either may be *flattened* into several plan arguments
(the study's ``navigate_to(x=.., y=..)``, ``search_target(x_min=.., ..., y_max=..)``)."""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from crewgate.codes import Code, Findings
from crewgate.jsonsafe import quoted
from crewgate.spec.base import Name
from crewgate.spec.params.base import (
    INVALID,
    MISSING,
    CrewContext,
    FillRequest,
    JsonSchema,
    Offer,
    ParamKind,
    Slot,
    register_kind,
)
from crewgate.spec.params.numbers import as_number
from crewgate.text.request import RequestFacts


class _Geometry(ParamKind):
    codes: ClassVar[frozenset[Code]] = ParamKind.codes | {Code.MISSING_ARG}
    size: ClassVar[int]
    axes: ClassVar[str]  # the axis of each number: "xy", "xxyy"
    shape: ClassVar[str]  # how the numbers are written, for messages

    fields: tuple[Name, ...] | None
    in_area: bool
    unit: str

    @model_validator(mode="after")
    def _distinct_fields(self) -> _Geometry:
        if self.fields is not None and len(set(self.fields)) != len(self.fields):
            raise ValueError(f"fields {list(self.fields)} repeat a name")
        return self

    def plan_fields(self, name: str) -> tuple[str, ...]:
        return tuple(self.fields) if self.fields is not None else (name,)

    def as_args(self, name: str, value: Any) -> dict[str, Any]:
        fields = self.plan_fields(name)
        if len(fields) > 1:
            return dict(zip(fields, value, strict=True))
        return {name: value}

    def check(self, name: str, args: Mapping[str, Any], ctx: CrewContext, f: Findings,
             where: str) -> Any:
        fields = self.plan_fields(name)
        raw: Any
        if len(fields) == self.size and any(k in args for k in fields):
            raw = [args.get(k) for k in fields]
            absent = [k for k, v in zip(fields, raw, strict=True) if v is None]
            if absent:
                f.add(Code.MISSING_ARG, f"{where}: {name} needs {', '.join(fields)}; "
                      f"missing {', '.join(absent)}")
                return INVALID
        elif args.get(name) is not None:
            raw = args[name]
            if isinstance(raw, Mapping):
                raw = list(raw.values())
            if not isinstance(raw, list | tuple) or len(raw) != self.size:
                f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be {self.size} numbers "
                      f"{self.shape}, got {quoted(args[name])}")
                return INVALID
        else:
            return MISSING
        return self.read_value(name, raw, ctx, f, where)

    def read_value(self, name: str, raw: Any, ctx: CrewContext, f: Findings, where: str) -> Any:
        numbers = [as_number(v) for v in raw]
        if any(v is None or not math.isfinite(v) for v in numbers):
            f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be finite numbers, got "
                  f"{quoted(list(raw))}")
            return INVALID
        return self.read_numbers(name, tuple(v for v in numbers if v is not None), ctx, f, where)

    @abstractmethod
    def read_numbers(self, name: str, nums: tuple[float, ...], ctx: CrewContext, f: Findings,
                     where: str) -> Any:
        """Finite numbers as the typed value (checked for shape and area), or INVALID."""

    def json_schemas(self, name: str, ctx: CrewContext) -> dict[str, JsonSchema]:
        fields = self.plan_fields(name)
        if len(fields) == self.size:
            return {field: self._coordinate(axis, ctx)
                    for field, axis in zip(fields, self.axes, strict=True)}
        return {name: {"type": "array", "items": {"type": "number"}, "minItems": self.size,
                       "maxItems": self.size}}

    def _coordinate(self, axis: str, ctx: CrewContext) -> JsonSchema:
        schema: JsonSchema = {"type": "number"}
        if self.in_area:
            lo, hi = getattr(ctx.areas.operational, axis)
            schema.update(minimum=lo, maximum=hi)
        return schema


@register_kind
class PointParam(_Geometry):
    size: ClassVar[int] = 2
    axes: ClassVar[str] = "xy"
    shape: ClassVar[str] = "[x, y]"
    slot: ClassVar[Slot | None] = "point"

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

    def read_numbers(self, name: str, nums: tuple[float, ...], ctx: CrewContext, f: Findings,
                     where: str) -> Any:
        if self.in_area:
            ctx.areas.check(name, nums, f, where)
        return nums

    def contains(self, value: Any, facts: RequestFacts, ctx: CrewContext) -> bool:
        return facts.states_point(value[0], value[1])

    def show(self, value: Any) -> str:
        return f"({value[0]:g}, {value[1]:g})"

    def type_text(self) -> str:
        area = (", inside the operational area and outside every keep-out zone"
                if self.in_area else "")
        return f"a point in {self.unit}{area}"

    def fill(self, name: str, request: FillRequest, *, required: bool) -> Any:
        points = request.facts.points
        return list(points[-1]) if points else None  # "from A to B": B

    def offer(self, request: FillRequest) -> Offer | None:
        return "known" if request.facts.points else None

    def fillable(self, facts: RequestFacts) -> bool:
        return bool(facts.points)


@register_kind
class ZoneParam(_Geometry):
    size: ClassVar[int] = 4
    axes: ClassVar[str] = "xxyy"
    shape: ClassVar[str] = "[x_min, x_max, y_min, y_max]"
    slot: ClassVar[Slot | None] = "zone"

    type: Literal["zone"] = Field(
        description="An axis-aligned rectangle [x_min, x_max, y_min, y_max] in the crew frame.")
    fields: tuple[Name, Name, Name, Name] | None = Field(
        None,
        description="Plan argument names carrying x_min, x_max, y_min, y_max; default: one "
        "argument [x_min, x_max, y_min, y_max] named like the parameter.",
    )
    in_area: bool = Field(
        True, description="Must lie wholly inside the operational area, clear of keep-out zones.")
    unit: str = Field("m", description="Unit shown to the planner.")

    def read_numbers(self, name: str, nums: tuple[float, ...], ctx: CrewContext, f: Findings,
                     where: str) -> Any:
        x0, x1, y0, y1 = nums
        if not (x0 < x1 and y0 < y1):
            f.add(Code.BAD_ARGUMENT, f"{where}: {name} x [{x0:g}, {x1:g}] y [{y0:g}, {y1:g}] is "
                  "empty; give x_min < x_max and y_min < y_max")
            return INVALID
        if self.in_area:
            ctx.areas.check(name, nums, f, where)
        return nums

    def contains(self, value: Any, facts: RequestFacts, ctx: CrewContext) -> bool:
        return facts.states_zone(value)

    def show(self, value: Any) -> str:
        return f"x [{value[0]:g}, {value[1]:g}] y [{value[2]:g}, {value[3]:g}]"

    def type_text(self) -> str:
        area = (", inside the operational area and clear of every keep-out zone"
                if self.in_area else "")
        return f"an axis-aligned zone in {self.unit}, min < max{area}"

    def fill(self, name: str, request: FillRequest, *, required: bool) -> Any:
        zones = request.facts.zones
        return list(zones[0]) if zones else None

    def offer(self, request: FillRequest) -> Offer | None:
        return "known" if request.facts.zones else None

    def fillable(self, facts: RequestFacts) -> bool:
        return bool(facts.zones)
