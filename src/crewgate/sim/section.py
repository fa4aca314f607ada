"""The crew spec's ``sim`` section, owned by the built-in simulator backend: how the simulator
models each robot, and its worlds. The gate never reads it; only the simulator does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from crewgate.spec.base import Name, SpecModel, SpecPath
from crewgate.spec.places import Box
from crewgate.spec.sections import Section

if TYPE_CHECKING:
    from crewgate.spec.crew import Crew

Pose = tuple[float, float] | tuple[float, float, float]
Spawn = Pose | Name


class SimRobot(SpecModel):
    """The simulated body of one robot."""

    model: str = Field(
        description="Simulator model: quadcopter, diff_drive, humanoid, quadruped or generic "
        "(every skill just takes its nominal duration and applies its declared effects)."
    )
    spawn: Spawn = Field(description="Start pose [x, y] / [x, y, z] or a crew location name.")
    params: dict[Name, float | str | list[float]] = Field(
        default_factory=dict,
        description="Model parameters (speeds, sensor radius, noise ...); see docs/simulator.md.",
    )
    actions: dict[Name, str] = Field(
        default_factory=dict,
        description="Skill -> model action. Default: the action named like the skill if the "
        "model has it, else 'timed'.",
    )


class SimWorld(SpecModel):
    """One world the simulator can load: where things are at the start."""

    description: str = Field("", description="What the world is for.")
    spawn: dict[Name, Spawn] = Field(default_factory=dict, description="Per-robot start overrides.")
    targets: dict[Name, tuple[float, float]] = Field(
        default_factory=dict,
        description="Things perception can detect, by binding name (e.g. victim: [5, 5]).",
    )
    obstacles: list[Box] = Field(default_factory=list, description="Boxes ground robots avoid.")
    objects: dict[Name, str] = Field(
        default_factory=dict,
        description="Where each crew object starts: a location name or a robot name (held).",
    )
    requester: Name | None = Field(None, description="Location of the person asking, if any.")


class SimSection(Section):
    """Built-in simulator configuration for a crew."""

    key: ClassVar[str] = "sim"
    title: ClassVar[str] = "Simulator (`sim`)"

    dt_s: float = Field(0.05, gt=0, le=1, description="Simulation step in simulated seconds.")
    default_world: Name = Field(description="The world loaded when none is named.")
    robots: dict[Name, SimRobot] = Field(description="The simulated body of every robot.")
    worlds: dict[Name, SimWorld] = Field(min_length=1, description="Worlds by name.")

    def problems(self, crew: Crew) -> Iterator[tuple[SpecPath, str]]:
        from crewgate.spec.crew import unknown_name as unknown

        if self.default_world not in self.worlds:
            yield ("sim", "default_world"), unknown("world", self.default_world, self.worlds)
        for rname, body in self.robots.items():
            path: SpecPath = ("sim", "robots", rname)
            if rname not in crew.robots:
                yield path, unknown("robot", rname, crew.robots)
                continue
            if isinstance(body.spawn, str) and body.spawn not in crew.locations:
                yield (*path, "spawn"), unknown("location", body.spawn, crew.locations)
            skills = crew.robots[rname].skills
            for skill in body.actions:
                if skill not in skills:
                    yield (*path, "actions", skill), unknown(f"skill of {rname}", skill, skills)
        for rname in crew.robots:
            if rname not in self.robots:
                yield ("sim", "robots"), f"robot {rname!r} has no simulated body; add it here"
        holders = sorted(set(crew.locations) | set(crew.robots))
        for wname, world in self.worlds.items():
            path = ("sim", "worlds", wname)
            for obj, where in world.objects.items():
                if obj not in crew.objects:
                    yield (*path, "objects", obj), unknown("object", obj, crew.objects)
                if where not in holders:
                    yield (*path, "objects", obj), unknown("location or robot", where, holders)
            for rname, spawn in world.spawn.items():
                if rname not in crew.robots:
                    yield (*path, "spawn", rname), unknown("robot", rname, crew.robots)
                elif isinstance(spawn, str) and spawn not in crew.locations:
                    yield (*path, "spawn", rname), unknown("location", spawn, crew.locations)
            if world.requester is not None and world.requester not in crew.locations:
                yield (*path, "requester"), unknown("location", world.requester, crew.locations)

    @classmethod
    def reference(cls) -> list[tuple[str, type[SpecModel]]]:
        return [(cls.title, cls), ("Simulated robot (`sim.robots.NAME`)", SimRobot),
                ("Simulated world (`sim.worlds.NAME`)", SimWorld)]
