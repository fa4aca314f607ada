"""State checks: availability, preconditions, predicted effects, and runtime bindings.

Owns robot_unavailable, precondition_failed, no_target_fix, stale_binding and
binding_out_of_bounds. State is a mapping robot -> field -> value: the live world at dispatch
time, or a predicted copy during whole-plan validation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from crewgate.gate.codes import Code
from crewgate.gate.compiled import CompiledSkill
from crewgate.gate.verdict import Findings
from crewgate.spec import Areas, Binding, Ref
from crewgate.spec.expressions import compare
from crewgate.world import BindingValue

State = Mapping[str, Mapping[str, Any]]


class _Unknown:
    """A value the plan leaves to the robot (an object it picks itself): not null, not equal to
    any named value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<chosen by the robot>"


UNKNOWN: Any = _Unknown()


def check_available(robot: str, state: State, f: Findings) -> bool:
    if state[robot].get("available", True) is not True:
        f.add(Code.ROBOT_UNAVAILABLE, f"robot {robot!r} is unavailable")
        return False
    return True


def check_preconditions(
    skill: CompiledSkill, typed: Mapping[str, Any], state: State, f: Findings
) -> None:
    for cond in skill.spec.preconditions:
        robot = cond.robot or skill.robot
        if isinstance(cond.value, Ref):
            expected = _resolve(cond.value, skill, typed, state)
            if expected is _SKIP:
                continue  # the optional argument it compares with was left out
        else:
            expected = cond.value
        actual = state[robot].get(cond.field)
        if actual is UNKNOWN or expected is UNKNOWN:
            continue  # decided by the robot at run time; cannot be refuted now
        if not compare(actual, cond.op, expected):
            f.add(Code.PRECONDITION_FAILED, f"{skill.ref} needs {cond} but "
                  f"{robot}.{cond.field} is {_show(actual)}")


_SKIP: Any = object()


def _resolve(ref: Ref, skill: CompiledSkill, typed: Mapping[str, Any], state: State) -> Any:
    if ref.robot is None and ref.name in skill.params:
        return typed.get(ref.name, _SKIP)
    return state[ref.robot or skill.robot].get(ref.name)


def apply_effects(
    skill: CompiledSkill, typed: Mapping[str, Any], state: dict[str, dict[str, Any]]
) -> None:
    """Predict the state after the step succeeds (values are read before any is written)."""
    updates: list[tuple[str, str, Any]] = []
    for key, value in skill.spec.effects.items():
        robot, _, fname = key.rpartition(".")
        if isinstance(value, Ref):
            resolved = _resolve(value, skill, typed, state)
            value = UNKNOWN if resolved is _SKIP else resolved
        updates.append((robot or skill.robot, fname, value))
    for robot, fname, value in updates:
        state[robot][fname] = value


def check_binding(
    name: str, rule: Binding, value: BindingValue | None, now: float, areas: Areas, f: Findings
) -> bool:
    """Presence, finiteness, confidence, area and freshness of a runtime value; every rule that
    can be judged is judged (an absent value can only be absent)."""
    if value is None or value.value is None:
        f.add(Code.NO_TARGET_FIX, f"no {name} has been published")
        return False
    ok = True
    if not value.finite:
        f.add(Code.NO_TARGET_FIX, f"{name} {_show(value.value)} is not finite")
        ok = False
    if rule.min_confidence is not None and (
        value.confidence is None or value.confidence < rule.min_confidence
    ):
        f.add(Code.NO_TARGET_FIX, f"{name} confidence {value.confidence} is below "
              f"{rule.min_confidence}")
        ok = False
    if rule.inside_area and value.finite:
        x, y = value.value[0], value.value[1]
        if not areas.operational.contains(x, y) or any(z.contains(x, y) for z in areas.keep_out):
            f.add(Code.BINDING_OUT_OF_BOUNDS, f"{name} ({x:g}, {y:g}) is outside the "
                  "operational area or inside a keep-out zone")
            ok = False
    if rule.max_age_s is not None:
        age = now - value.stamp
        if not math.isfinite(age) or age > rule.max_age_s:
            f.add(Code.STALE_BINDING, f"{name} is {age:.1f} s old (max {rule.max_age_s:g} s)")
            ok = False
    return ok


def _show(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "(" + ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value) + ")"
    return str(value)
