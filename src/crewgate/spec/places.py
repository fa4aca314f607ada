"""The crew's world vocabulary: named locations and objects, areas, runtime bindings."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from crewgate.spec.base import Name, Range, SpecModel


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


class CrewObject(SpecModel):
    """A named object robots may manipulate (a cube, a bottle ...)."""

    aliases: list[str] = Field(default_factory=list, description="Other names, matched as words.")
    description: str = Field("", description="Shown to the planner.")


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


class Areas(SpecModel):
    """Where the crew may operate."""

    operational: Box = Field(description="Points and zones in plans must lie inside it.")
    keep_out: list[KeepOut] = Field(default_factory=list, description="Forbidden zones.")


class Binding(SpecModel):
    """A value that only exists at run time (the victim fix), and the rules it must pass."""

    type: Literal["point"] = Field("point", description="Kind of value; [x, y] in the crew frame.")
    description: str = Field("", description="Shown to the planner.")
    inside_area: bool = Field(True, description="Must lie inside the operational area.")
    max_age_s: float | None = Field(
        None, gt=0, description="Refuse a value older than this at dispatch (stale_binding)."
    )
    min_confidence: float | None = Field(
        None, ge=0, le=1, description="Refuse a value reported with lower confidence."
    )
