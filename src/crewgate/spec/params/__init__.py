"""Typed skill parameters: one object per kind, each the single source of how its values are
read and checked (the gate), stated (request containment), described (the planner's prompt),
constrained (the plan's JSON Schema) and filled from a request (the offline planner).

Every module of this package but ``base`` defines kinds and registers them; they are all
imported here, so a new built-in kind is one new module. A kind defined elsewhere (a plugin, a
test) is registered with :func:`register_kind`.
"""

from __future__ import annotations

import importlib
import pkgutil

from crewgate.jsonsafe import quoted
from crewgate.spec.params.base import (
    INVALID,
    MISSING,
    PARAM_KINDS,
    CrewContext,
    FillRequest,
    JsonSchema,
    Offer,
    Param,
    ParamKind,
    Slot,
    on_new_kind,
    register_kind,
    unregister_kind,
)

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base" and not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")

from crewgate.spec.params.binding import BindingParam  # noqa: E402
from crewgate.spec.params.choices import BooleanParam, EnumParam, StringParam  # noqa: E402
from crewgate.spec.params.geometry import PointParam, ZoneParam  # noqa: E402
from crewgate.spec.params.names import LocationParam, ObjectParam  # noqa: E402
from crewgate.spec.params.numbers import IntegerParam, NumberParam  # noqa: E402

__all__ = [
    "INVALID", "MISSING", "PARAM_KINDS", "BindingParam", "BooleanParam", "CrewContext",
    "EnumParam", "FillRequest", "IntegerParam", "JsonSchema", "LocationParam", "NumberParam",
    "ObjectParam", "Offer", "Param", "ParamKind", "PointParam", "Slot", "StringParam",
    "ZoneParam", "on_new_kind", "quoted", "register_kind", "unregister_kind",
]
