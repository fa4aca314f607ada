"""Grounding of a step's arguments: read untrusted plan args into typed values, or say why not.

Owns the codes missing_arg, bad_argument, unknown_location and out_of_bounds, and request
containment of values (substituted_location), which compares a typed value with what the
request states.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crewgate.gate.codes import Code
from crewgate.gate.verdict import Findings
from crewgate.spec import Areas, Box
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
    plan_fields,
)
from crewgate.text.request import RequestFacts
from crewgate.text.vocabulary import Vocabulary


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


@dataclass(frozen=True, slots=True)
class ArgContext:
    """What typed reading needs from the crew."""

    areas: Areas
    locations: Vocabulary
    objects: Vocabulary


def read_param(
    name: str, param: Param, args: Mapping[str, Any], ctx: ArgContext, f: Findings, where: str
) -> Any:
    """The typed value of one parameter from plan args, MISSING if absent, None if invalid."""
    fields = plan_fields(name, param)
    if isinstance(param, PointParam | ZoneParam):
        return _read_geometry(name, param, fields, args, ctx, f, where)
    if name not in args or args[name] is None:
        return MISSING
    raw = args[name]
    if isinstance(param, NumberParam | IntegerParam):
        return _read_number(name, param, raw, f, where)
    if isinstance(param, BooleanParam):
        if isinstance(raw, bool):
            return raw
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be true or false, got {raw!r}")
        return None
    if not isinstance(raw, str):
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be a string, got {raw!r}")
        return None
    if isinstance(param, StringParam):
        if len(raw) > param.max_length:
            f.add(Code.BAD_ARGUMENT,
                  f"{where}: {name} is longer than {param.max_length} characters")
            return None
        return raw
    if isinstance(param, EnumParam):
        if raw in param.values:
            return raw
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} {raw!r} is not one of {param.values}")
        return None
    if isinstance(param, LocationParam):
        return _read_named(name, raw, param.among, ctx.locations, Code.UNKNOWN_LOCATION, f, where)
    if isinstance(param, ObjectParam):
        return _read_named(name, raw, param.among, ctx.objects, Code.BAD_ARGUMENT, f, where)
    if isinstance(param, BindingParam):
        if raw in param.bindings:
            return raw
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} {raw!r} is not a runtime binding it accepts "
              f"(accepted: {', '.join(param.bindings)})")
        return None
    raise AssertionError(f"unhandled parameter type {param!r}")  # pragma: no cover


def _number(raw: Any) -> float | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | float):
        return float(raw)
    if isinstance(raw, str):
        try:
            return float(raw.strip())
        except ValueError:
            return None
    return None


def _read_number(
    name: str, param: NumberParam | IntegerParam, raw: Any, f: Findings, where: str
) -> float | int | None:
    value = _number(raw)
    if value is None or not math.isfinite(value):
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be a finite number, got {raw!r}")
        return None
    if isinstance(param, IntegerParam) and value != int(value):
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be a whole number, got {raw!r}")
        return None
    if (param.min is not None and value < param.min) or (
        param.max is not None and value > param.max
    ):
        unit = f" {param.unit}" if param.unit else ""
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} {value:g}{unit} is outside "
              f"[{_fmt(param.min)}, {_fmt(param.max)}]")
        return None
    return int(value) if isinstance(param, IntegerParam) else value


def _fmt(v: float | None) -> str:
    return "-inf" if v is None else f"{v:g}"


def _read_named(
    name: str, raw: str, among: list[str] | None, vocab: Vocabulary, unknown: Code, f: Findings,
    where: str,
) -> str | None:
    canonical = vocab.resolve(raw)
    if canonical is None:
        f.add(unknown, f"{where}: {name} {raw!r} is not a known {vocab.kind} "
              f"(known: {', '.join(vocab.phrases)})")
        return None
    if among is not None and canonical not in among:
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} {canonical!r} is not accepted here "
              f"(accepted: {', '.join(among)})")
        return None
    return canonical


def _read_geometry(
    name: str, param: PointParam | ZoneParam, fields: tuple[str, ...], args: Mapping[str, Any],
    ctx: ArgContext, f: Findings, where: str,
) -> Any:
    size = 2 if isinstance(param, PointParam) else 4
    if len(fields) == size and any(k in args for k in fields):
        raws = [args.get(k) for k in fields]
        absent = [k for k, v in zip(fields, raws, strict=True) if v is None]
        if absent:
            f.add(Code.MISSING_ARG, f"{where}: {name} needs {', '.join(fields)}; "
                  f"missing {', '.join(absent)}")
            return None
    elif name in args and args[name] is not None:
        raw = args[name]
        raws = list(raw.values()) if isinstance(raw, Mapping) else raw
        if not isinstance(raws, list | tuple) or len(raws) != size:
            f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be {size} numbers, got {raw!r}")
            return None
    else:
        return MISSING
    values = [_number(v) for v in raws]
    if any(v is None or not math.isfinite(v) for v in values):
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be finite numbers, got {raws!r}")
        return None
    nums = tuple(v for v in values if v is not None)
    if isinstance(param, ZoneParam):
        x0, x1, y0, y1 = nums
        if not (x0 < x1 and y0 < y1):
            f.add(Code.BAD_ARGUMENT, f"{where}: {name} x [{x0:g}, {x1:g}] y [{y0:g}, {y1:g}] is "
                  "empty; give x_min < x_max and y_min < y_max")
            return None
        if param.in_area:
            _zone_bounds(name, nums, ctx.areas, f, where)
        return nums
    if param.in_area:
        _point_bounds(name, nums[0], nums[1], ctx.areas, f, where)
    return nums


def _point_bounds(name: str, x: float, y: float, areas: Areas, f: Findings, where: str) -> None:
    op = areas.operational
    if not op.contains(x, y):
        f.add(Code.OUT_OF_BOUNDS, f"{where}: {name} ({x:g}, {y:g}) is outside the operational "
              f"area x {_rng(op.x)} y {_rng(op.y)}")
        return
    for zone in areas.keep_out:
        if zone.contains(x, y):
            f.add(Code.OUT_OF_BOUNDS, f"{where}: {name} ({x:g}, {y:g}) is inside keep-out zone "
                  f"{zone.name!r}")


def _zone_bounds(
    name: str, z: tuple[float, ...], areas: Areas, f: Findings, where: str
) -> None:
    box = Box(x=(z[0], z[1]), y=(z[2], z[3]))
    op = areas.operational
    if not op.contains_box(box):
        f.add(Code.OUT_OF_BOUNDS, f"{where}: {name} x {_rng(box.x)} y {_rng(box.y)} is not inside "
              f"the operational area x {_rng(op.x)} y {_rng(op.y)}")
        return
    for zone in areas.keep_out:
        if zone.overlaps(box):
            f.add(Code.OUT_OF_BOUNDS, f"{where}: {name} overlaps keep-out zone {zone.name!r}")


def _rng(r: tuple[float, float]) -> str:
    return f"[{r[0]:g}, {r[1]:g}]"


def contained(param: Param, value: Any, facts: RequestFacts, ctx: ArgContext) -> bool:
    """Whether the request states this typed value (request containment)."""
    if isinstance(param, LocationParam):
        return ctx.locations.stated_in(facts, value)
    if isinstance(param, ObjectParam):
        return ctx.objects.stated_in(facts, value)
    if isinstance(param, PointParam):
        return facts.states_point(value[0], value[1])
    if isinstance(param, ZoneParam):
        return facts.states_zone(value)
    if isinstance(param, NumberParam | IntegerParam):
        return facts.states_number(float(value))
    if isinstance(param, EnumParam | StringParam):
        return facts.states_words(str(value))
    return True  # booleans and binding references are not stated values


def describe_value(param: Param, value: Any) -> str:
    if isinstance(param, PointParam):
        return f"({value[0]:g}, {value[1]:g})"
    if isinstance(param, ZoneParam):
        return f"x [{value[0]:g}, {value[1]:g}] y [{value[2]:g}, {value[3]:g}]"
    return repr(value)
