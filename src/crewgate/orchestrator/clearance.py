"""Clearance: what must hold between an accepted plan and its first step, when the host of the
orchestrator asks for it (the operator service: a human's approval, the lease of the plan's
robots). Nothing moves while a mission waits for it.

The host's :data:`Clearance` returns None when the mission may go on, or a :class:`Held` that
ends it before anything moved (denied, or cancelled). A mission that waited is checked again as
a whole against the world as it is now: the world may have changed meanwhile (a robot went
down, another mission moved an object). Every step is still authorized at its dispatch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from crewgate.journal import EventKind
from crewgate.orchestrator.result import Refusal
from crewgate.plan import Plan

if TYPE_CHECKING:
    from crewgate.orchestrator.mission import Mission


@dataclass(frozen=True, slots=True)
class Held:
    status: Literal["denied", "cancelled"]
    reason: str


Clearance = Callable[["Mission", Plan], Held | None]


def clear(mission: Mission, plan: Plan, clearance: Clearance) -> Plan | None:
    """The plan, if the mission is cleared to run it and it still holds; else None (the
    result says why)."""
    result = mission.result
    held = clearance(mission, plan)
    if held is not None:
        result.status, result.reason = held.status, held.reason
        mission.event(EventKind.REFUSAL, detail=held.reason)
        return None
    if not mission.condition.enforce:
        return plan
    verdict = mission.gate.validate(plan, mission.request, mission.world)
    if verdict.accepted:
        return plan
    result.status, result.codes = "refused", verdict.codes
    result.reason = "the plan no longer holds in the world as it is now: nothing moved"
    result.refusals.append(Refusal("plan", mission.now(), verdict.problems))
    result.refusals.extend(Refusal("plan", mission.now(), s.problems, s.index, s.robot, s.skill)
                           for s in verdict.steps if not s.ok)
    mission.event(EventKind.VERDICT, codes=verdict.codes, detail="refused",
                  data={"recheck": True, **verdict.to_json()})
    mission.event(EventKind.REFUSAL, codes=verdict.codes, detail=result.reason,
                  data={"problems": verdict.feedback()})
    return None


__all__ = ["Clearance", "Held", "clear"]
