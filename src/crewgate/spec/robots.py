"""Robots, their state fields and their typed skills (the skill library)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from crewgate.spec.base import Name, Scalar, SpecModel
from crewgate.spec.expressions import ConditionField, EffectValue
from crewgate.spec.params import Param

StateType = Literal["bool", "number", "string", "pose", "location", "object"]


class StateField(SpecModel):
    """One field of a robot's live state, as the adapter reports it."""

    type: StateType = Field(description="bool, number, string, pose ([x, y] or [x, y, z] in m), "
                            "location (a crew location name or null), object (name or null).")
    default: Scalar | list[float] = Field(
        None, description="Value before the backend reports one (the simulator's initial value)."
    )
    description: str = Field("", description="What the field means.")


class Skill(SpecModel):
    """A typed capability of one robot: what a plan step may ask that robot to do."""

    description: str = Field(description="What the skill does, shown to the planner.")
    aliases: list[str] = Field(
        default_factory=list,
        description="Words people use for this action (land: ground, touch down). Shown to the "
        "planner; the offline planner includes an optional step when the request uses one.",
    )
    params: dict[Name, Param] = Field(default_factory=dict, description="Typed parameters.")
    one_of: list[list[Name]] = Field(
        default_factory=list,
        description="Groups of parameters of which exactly one group must be given "
        "(e.g. [[target], [goal]]: a binding or a point, never both).",
    )
    preconditions: list[ConditionField] = Field(
        default_factory=list,
        description="Conditions on robot state that must hold when the step is authorized.",
    )
    effects: dict[str, EffectValue] = Field(
        default_factory=dict,
        description="State after success, keyed [ROBOT.]FIELD; used to predict later steps' "
        "preconditions during whole-plan validation.",
    )
    produces: list[Name] = Field(
        default_factory=list, description="Runtime bindings this skill publishes."
    )
    duration_s: float = Field(gt=0, description="Nominal duration in seconds.")
    timeout_s: float = Field(gt=0, description="Fails (and is cancelled) after this long.")
    visible: bool = Field(
        True,
        description="Whether the planner may see and use it. "
        "Hidden skills serve the safe fallback.",
    )

    @model_validator(mode="after")
    def _check(self) -> Skill:
        if self.timeout_s < self.duration_s:
            raise ValueError(
                f"timeout_s {self.timeout_s} is shorter than duration_s {self.duration_s}; "
                "a nominal run would time out"
            )
        for group in self.one_of:
            for name in group:
                if name not in self.params:
                    raise ValueError(f"one_of names {name!r}, which is not a parameter")
        return self

    def is_required(self, name: str) -> bool:
        param = self.params[name]
        if param.required is not None:
            return param.required
        if any(name in group for group in self.one_of):
            return False
        return getattr(param, "default", None) is None


class Robot(SpecModel):
    """A member of the crew: its kind, state fields and skills."""

    kind: str = Field(description="Free text, e.g. quadcopter, rover, humanoid, quadruped.")
    description: str = Field("", description="Shown to the planner.")
    aliases: list[str] = Field(
        default_factory=list,
        description="Other names people use for this robot (the drone, the robot dog).",
    )
    state: dict[Name, StateField] = Field(
        default_factory=dict,
        description="Live state fields. `available` (bool) is implicit on every robot.",
    )
    skills: dict[Name, Skill] = Field(min_length=1, description="The robot's skill library.")
    liveness_timeout_s: float = Field(
        2.0, gt=0,
        description="Silence after which a networked backend marks the robot unavailable.",
    )
