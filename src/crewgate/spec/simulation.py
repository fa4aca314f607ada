"""The crew spec's ``sim`` section: how the built-in simulator models each robot, and its worlds.

The gate never reads this section; only the simulator does. Real backends (ROS 2) have their own.
"""

from __future__ import annotations

from pydantic import Field

from crewgate.spec.base import Name, SpecModel
from crewgate.spec.places import Box

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


class SimSection(SpecModel):
    """Built-in simulator configuration for a crew."""

    dt_s: float = Field(0.05, gt=0, le=1, description="Simulation step in simulated seconds.")
    default_world: Name = Field(description="The world loaded when none is named.")
    robots: dict[Name, SimRobot] = Field(description="The simulated body of every robot.")
    worlds: dict[Name, SimWorld] = Field(min_length=1, description="Worlds by name.")
