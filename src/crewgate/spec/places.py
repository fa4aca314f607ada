"""The crew's world vocabulary: named locations and objects, and two rules: the areas (where
points and zones may lie) and the runtime bindings (what a value of the run must be to be used).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, Literal, Protocol

from pydantic import Field, model_validator

from crewgate.codes import Code, Findings
from crewgate.spec.base import Name, Range, Rule, SpecModel


class Location(SpecModel):
    """A named place a plan may refer to, with the other words people use for it."""

    pose: tuple[float, float] | tuple[float, float, float] = Field(
        description="[x, y] or [x, y, yaw] in the crew frame (m, rad)."
    )
    aliases: list[str] = Field(
        default_factory=list,
        description="Other names that license this location in a request, e.g. 'charger' for "
        "charging. Matched as whole words, case-insensitively.",
    )
    description: str = Field("", description="Shown to the planner.")

    def describe(self, name: str) -> str:
        pose = ", ".join(f"{v:g}" for v in self.pose[:2])
        also = f", also called {', '.join(repr(a) for a in self.aliases)}" if self.aliases else ""
        desc = f": {self.description}" if self.description else ""
        return f"- {name} at ({pose}){also}{desc}"


class CrewObject(SpecModel):
    """A named object robots may manipulate (a cube, a bottle ...)."""

    aliases: list[str] = Field(default_factory=list, description="Other names, matched as words.")
    description: str = Field("", description="Shown to the planner.")

    def describe(self, name: str) -> str:
        names = ", ".join(repr(a) for a in self.aliases)
        also = f" (also called {names})" if self.aliases else ""
        desc = f": {self.description}" if self.description else ""
        return f"- {name}{also}{desc}"


class Box(SpecModel):
    """An axis-aligned rectangle."""

    x: Range
    y: Range

    @model_validator(mode="after")
    def _ordered(self) -> Box:
        for axis, (lo, hi) in (("x", self.x), ("y", self.y)):
            if not lo < hi:
                raise ValueError(f"{axis} range [{lo}, {hi}] is empty; write [low, high]")
        return self

    def contains(self, x: float, y: float) -> bool:
        return self.x[0] <= x <= self.x[1] and self.y[0] <= y <= self.y[1]

    def contains_box(self, other: Box) -> bool:
        return (self.x[0] <= other.x[0] and other.x[1] <= self.x[1]
                and self.y[0] <= other.y[0] and other.y[1] <= self.y[1])

    def overlaps(self, other: Box) -> bool:
        return (self.x[0] < other.x[1] and other.x[0] < self.x[1]
                and self.y[0] < other.y[1] and other.y[0] < self.y[1])


class KeepOut(Box):
    """A zone no point or zone argument may enter."""

    name: Name = Field(description="Name used in verdicts and shown to the planner.")
    description: str = Field("", description="Why it is forbidden.")


class Areas(SpecModel, Rule):
    """Where the crew may operate: points and zones of a plan (those of parameters with
    ``in_area``) lie inside the operational area and out of every keep-out zone."""

    codes: ClassVar[frozenset[Code]] = frozenset({Code.OUT_OF_BOUNDS})

    operational: Box = Field(description="Points and zones in plans must lie inside it.")
    keep_out: list[KeepOut] = Field(default_factory=list, description="Forbidden zones.")

    def describe(self) -> str:
        op = self.operational
        lines = [f"x in [{op.x[0]:g}, {op.x[1]:g}] m, y in [{op.y[0]:g}, {op.y[1]:g}] m. A point "
                 "or zone marked inside the operational area must lie in it, and out of every "
                 "keep-out zone."]
        lines += [f"- keep out of {z.name}: x in [{z.x[0]:g}, {z.x[1]:g}], "
                  f"y in [{z.y[0]:g}, {z.y[1]:g}]" for z in self.keep_out]
        return "\n".join(lines)

    def check(self, name: str, coords: Sequence[float], f: Findings, where: str) -> None:
        """A point (x, y) or a zone (x_min, x_max, y_min, y_max)."""
        op = self.operational
        if len(coords) == 2:
            x, y = coords
            if not op.contains(x, y):
                f.add(Code.OUT_OF_BOUNDS, f"{where}: {name} ({x:g}, {y:g}) is outside "
                      f"{self._area_text()}")
                return
            for zone in self.keep_out:
                if zone.contains(x, y):
                    f.add(Code.OUT_OF_BOUNDS, f"{where}: {name} ({x:g}, {y:g}) is inside "
                          f"keep-out zone {zone.name!r}")
            return
        x0, x1, y0, y1 = coords  # plain numbers: a zone is checked on every step that has one
        if not (op.x[0] <= x0 and x1 <= op.x[1] and op.y[0] <= y0 and y1 <= op.y[1]):
            f.add(Code.OUT_OF_BOUNDS, f"{where}: {name} x {_rng((x0, x1))} y {_rng((y0, y1))} "
                  f"is not inside {self._area_text()}")
            return
        for zone in self.keep_out:
            if zone.x[0] < x1 and x0 < zone.x[1] and zone.y[0] < y1 and y0 < zone.y[1]:
                f.add(Code.OUT_OF_BOUNDS, f"{where}: {name} overlaps keep-out zone "
                      f"{zone.name!r}")

    def _area_text(self) -> str:
        op = self.operational
        return f"the operational area x {_rng(op.x)} y {_rng(op.y)}"

    def allows(self, x: float, y: float) -> bool:
        """Inside the operational area and out of every keep-out zone."""
        return self.operational.contains(x, y) and not any(
            z.contains(x, y) for z in self.keep_out)


def _rng(r: tuple[float, float]) -> str:
    return f"[{r[0]:g}, {r[1]:g}]"


class Reading(Protocol):
    """A published runtime value as the gate reads it (``crewgate.world.BindingValue``)."""

    @property
    def value(self) -> tuple[float, ...] | None: ...
    @property
    def stamp(self) -> float: ...
    @property
    def confidence(self) -> float | None: ...
    @property
    def finite(self) -> bool: ...


class Binding(SpecModel, Rule):
    """A value that only exists at run time (the victim fix), and the rules it must pass."""

    codes: ClassVar[frozenset[Code]] = frozenset(
        {Code.NO_TARGET_FIX, Code.STALE_BINDING, Code.FUTURE_BINDING,
         Code.BINDING_OUT_OF_BOUNDS})

    type: Literal["point"] = Field("point", description="Kind of value; [x, y] in the crew frame.")
    description: str = Field("", description="Shown to the planner.")
    inside_area: bool = Field(True, description="Must lie inside the operational area.")
    max_age_s: float | None = Field(
        None, gt=0, description="Refuse a value older than this at dispatch (stale_binding)."
    )
    min_confidence: float | None = Field(
        None, ge=0, le=1, description="Refuse a value reported with lower confidence."
    )
    max_skew_s: float = Field(
        0.5, ge=0, le=60,
        description="Clock skew tolerated between the publisher and the gate: a value stamped "
        "later than now plus this is refused at dispatch (future_binding), whatever its age.")

    def describe(self, name: str, producers: Sequence[str]) -> str:
        rules = ["present", "finite"]
        if self.inside_area:
            rules.append("inside the operational area")
        if self.max_age_s is not None:
            rules.append(f"at most {self.max_age_s:g} s old")
        if self.min_confidence is not None:
            rules.append(f"confidence >= {self.min_confidence:g}")
        rules.append(f"stamped at most {self.max_skew_s:g} s in the future")
        desc = self.description.strip()
        desc = f"{desc}{'' if desc.endswith(('.', '!', '?')) else '.'} " if desc else ""
        by = ", ".join(producers) or "the backend"
        return (f"- {name} ({self.type}, published by {by}): {desc}Refer to it by its name "
                f"{name!r}; it is resolved and checked ({', '.join(rules)}) when the step that "
                "uses it is dispatched.")

    def check(self, name: str, reading: Reading | None, now: float, areas: Areas,
              f: Findings) -> bool:
        """Presence, finiteness, confidence, area and freshness (not too old, not from the
        future) of a runtime value; every rule that can be judged is judged (an absent value
        can only be absent)."""
        if reading is None or reading.value is None:
            f.add(Code.NO_TARGET_FIX, f"no {name} has been published")
            return False
        ok = True
        finite = reading.finite
        if not finite:
            f.add(Code.NO_TARGET_FIX, f"{name} {_coords(reading.value)} is not finite")
            ok = False
        if self.min_confidence is not None and (
                reading.confidence is None or not reading.confidence >= self.min_confidence):
            f.add(Code.NO_TARGET_FIX, f"{name} confidence {reading.confidence} is below "
                  f"{self.min_confidence}")
            ok = False
        if self.inside_area and finite:
            x, y = reading.value[0], reading.value[1]
            if not areas.allows(x, y):
                f.add(Code.BINDING_OUT_OF_BOUNDS, f"{name} ({x:g}, {y:g}) is outside the "
                      "operational area or inside a keep-out zone")
                ok = False
        ahead = reading.stamp - now
        if not ahead <= self.max_skew_s:  # NaN included: a stamp that is no time is no fresher
            when = (f"{ahead:.1f} s ahead of the gate's clock" if math.isfinite(ahead)
                    else f"at {reading.stamp}, which is not a time")
            f.add(Code.FUTURE_BINDING, f"{name} is stamped {when} (clock skew tolerated: "
                  f"{self.max_skew_s:g} s)")
            ok = False
        elif self.max_age_s is not None:
            age = now - reading.stamp
            if not math.isfinite(age) or age > self.max_age_s:
                f.add(Code.STALE_BINDING, f"{name} is {age:.1f} s old (max {self.max_age_s:g} s)")
                ok = False
        return ok


def _coords(value: tuple[float, ...]) -> str:
    return "(" + ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value) + ")"
