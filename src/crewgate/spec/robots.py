"""Robots, their state fields and their typed skills (the skill library).

A skill is a rule: it renders itself for the planner (its parameters, the groups of which one
must be given, its preconditions, effects and the bindings it publishes) and checks a step's
arguments (every parameter through its kind, arguments it does not take, one_of groups).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from crewgate.codes import Code, Findings
from crewgate.spec.base import Name, Rule, Scalar, SpecModel
from crewgate.spec.expressions import (
    SKIP,
    UNKNOWN,
    ConditionField,
    EffectValue,
    Ref,
    State,
    resolve,
)
from crewgate.spec.params import MISSING, CrewContext, Param, ParamKind, on_new_kind

StateType = Literal["bool", "number", "string", "pose", "location", "object"]


class StateField(SpecModel):
    """One field of a robot's live state, as the adapter reports it."""

    type: StateType = Field(description="bool, number, string, pose ([x, y] or [x, y, z] in m), "
                            "location (a crew location name or null), object (name or null).")
    default: Scalar | list[float] = Field(
        None, description="Value before the backend reports one (the simulator's initial value)."
    )
    description: str = Field("", description="What the field means.")


class Skill(SpecModel, Rule):
    """A typed capability of one robot: what a plan step may ask that robot to do."""

    codes: ClassVar[frozenset[Code]] = frozenset(
        {Code.UNEXPECTED_ARGUMENT, Code.MISSING_ARG, Code.BAD_ARGUMENT})

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
        return param.default_value is None

    @cached_property
    def arg_names(self) -> frozenset[str]:
        """Every plan argument name the skill accepts (flattened fields included)."""
        return frozenset(n for pname, p in self.params.items()
                         for n in (pname, *p.plan_fields(pname)))

    @cached_property
    def _typing(self) -> tuple[tuple[str, ParamKind, bool, Any], ...]:
        """Each parameter with whether it is required and its default, read once."""
        return tuple((name, param, self.is_required(name), param.default_value)
                     for name, param in self.params.items())

    @cached_property
    def split_effects(self) -> tuple[tuple[str, str, Any], ...]:
        """The effects as (robot or "" for the skill's own, field, value), read once."""
        return tuple((*_split_effect(key), value) for key, value in self.effects.items())

    @cached_property
    def binding_params(self) -> tuple[str, ...]:
        """The parameters that refer to runtime bindings."""
        return tuple(n for n, p in self.params.items() if p.runtime)

    def groups_text(self) -> str:
        return " or ".join(", ".join(f for n in g for f in self.params[n].plan_fields(n))
                           for g in self.one_of)

    # -- the rule --------------------------------------------------------------------------------

    def describe(self, robot: str, name: str) -> str:
        params = "; ".join(p.describe(n, self.is_required(n)) for n, p in self.params.items())
        line = f"- {robot}.{name}({params}): {self.description.strip()}"
        if self.aliases:
            line += f" (Asked for as: {', '.join(self.aliases)}.)"
        if self.one_of:
            line += f" Give exactly one of: {self.groups_text()}."
        if self.preconditions:
            line += " Requires: " + ", ".join(c.describe() for c in self.preconditions) + "."
        if self.effects:
            line += " Afterwards: " + ", ".join(f"{k} = {_literal(v)}"
                                                for k, v in self.effects.items()) + "."
        if self.produces:
            line += " Publishes: " + ", ".join(self.produces) + "."
        return line

    def check(self, args: Mapping[str, Any], ctx: CrewContext, f: Findings, where: str
              ) -> tuple[dict[str, Any], frozenset[str]] | None:
        """Typed arguments with defaults filled in, and the parameters the plan gave; None when
        any argument fails to type (a point outside the area is still typed: later checks may
        use it, and its ``out_of_bounds`` stands)."""
        mark = len(f.items)
        unknown = [k for k in args if k not in self.arg_names]
        if unknown:
            takes = ", ".join(sorted(self.arg_names)) or "no arguments"
            f.add(Code.UNEXPECTED_ARGUMENT, f"{where} takes no argument "
                  f"{', '.join(map(repr, unknown[:8]))} (it takes: {takes})")
        typed: dict[str, Any] = {}
        given: set[str] = set()
        for name, param, required, default in self._typing:
            value = param.check(name, args, ctx, f, where)
            if value is MISSING:
                if required:
                    f.add(Code.MISSING_ARG, f"{where} needs argument "
                          f"{', '.join(param.plan_fields(name))}")
                elif default is not None:
                    typed[name] = default
                continue
            typed[name] = value
            given.add(name)
        if self.one_of:
            complete = [g for g in self.one_of if all(n in given for n in g)]
            if not complete:
                f.add(Code.MISSING_ARG, f"{where} needs one of: {self.groups_text()}")
            elif len(complete) > 1:
                f.add(Code.BAD_ARGUMENT, f"{where} takes one of {self.groups_text()}, not "
                      "several")
        failed = any(p.code is not Code.OUT_OF_BOUNDS for p in f.since(mark))
        return None if failed else (typed, frozenset(given))

    def check_preconditions(self, ref: str, robot: str, typed: Mapping[str, Any], state: State,
                            f: Findings) -> None:
        for condition in self.preconditions:
            condition.check(ref, robot, self.params.keys(), typed, state, f)

    def predict(self, robot: str, typed: Mapping[str, Any], state: dict[str, dict[str, Any]]
                ) -> None:
        """The state after the step succeeds, from its declared effects (values are read before
        any is written)."""
        updates: list[tuple[str, str, Any]] = []
        for target, fname, value in self.split_effects:
            if isinstance(value, Ref):
                value = resolve(value, robot, self.params.keys(), typed, state)
                value = UNKNOWN if value is SKIP else value
            updates.append((target or robot, fname, value))
        for target, fname, value in updates:
            state[target][fname] = value


def _split_effect(key: str) -> tuple[str, str]:
    target, _, fname = key.rpartition(".")
    return target, fname


def _literal(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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
        description="Live state fields. `available` (bool) is implicit on every robot. A bool "
        "field named `airborne` is one a request can keep (\"stay airborne\", \"keep "
        "hovering\"): the gate then refuses a step whose effects end it.",
    )
    skills: dict[Name, Skill] = Field(min_length=1, description="The robot's skill library.")
    liveness_timeout_s: float = Field(
        2.0, gt=0,
        description="Silence after which a networked backend marks the robot unavailable.",
    )
    orchestrator_timeout_s: float = Field(
        2.0, gt=0, allow_inf_nan=False,
        description="Lost-link failsafe: silence of the orchestrator's heartbeat during a "
        "mission after which the robot runs its own safe stop (its steps of the crew's "
        "fallback); over ROS 2. Keep it several heartbeat periods (0.1 s) long.",
    )


def _rebuild() -> None:
    Skill.model_rebuild(force=True)
    Robot.model_rebuild(force=True)


on_new_kind(_rebuild)
__all__ = ["ParamKind", "Robot", "Skill", "StateField"]
