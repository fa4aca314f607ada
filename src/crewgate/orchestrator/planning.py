"""The planning phase of a mission: ask the planner, validate the whole plan, and on a refusal
give the planner the gate's problems once (one replan under ``ro``; not for a planner whose
answer would be the same, ``Planner.replans``). Nothing moves here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from crewgate.codes import Code
from crewgate.errors import PlannerError
from crewgate.gate.verdict import PlanVerdict
from crewgate.journal import EventKind
from crewgate.orchestrator.result import Attempt, Refusal
from crewgate.plan import Plan
from crewgate.planners.base import Planner, PlannerOutput, PlanningRequest
from crewgate.planners.exemplar.embedding import semantic_similarity
from crewgate.render import plan_json_schema, render_context
from crewgate.render.retrieval import focus

if TYPE_CHECKING:
    from crewgate.orchestrator.mission import Mission


def plan_mission(mission: Mission, planner: Planner) -> Plan | None:
    """The plan to execute, or None when the mission is refused or an e-stop holds the crew
    (the result says why)."""
    if _held_by_estop(mission):
        return None
    cond = mission.condition
    # what of the crew the planner is shown: all of it, or the focus of a large crew
    shown = focus(mission.crew, mission.request, semantic_similarity)
    context = render_context(shown.crew, cond.knowledge)
    schema = plan_json_schema(shown.crew, cond.knowledge)
    mission.shown = shown.to_json()
    ask = PlanningRequest(mission.request, mission.crew, context, schema, cond.name, 1,
                          (), "", mission.options.scenario)
    for attempt in range(1, cond.replans + 2):
        try:
            out = planner.plan(ask)
        except PlannerError as exc:
            _planner_failed(mission, exc, attempt)
            return None
        plan = out.plan if isinstance(out.plan, Plan) else None
        verdict = mission.gate.validate(out.plan, mission.request, mission.world)
        _record(mission, attempt, out, plan, verdict)
        if verdict.accepted or (not cond.enforce and plan is not None):
            return plan
        if attempt > cond.replans or _nothing_asked(verdict) or not planner.replans:
            _refuse(mission, verdict, out.note)
            return None
        feedback = verdict.feedback()
        mission.event(EventKind.REPLAN, codes=verdict.codes, data={"feedback": feedback})
        ask = PlanningRequest(mission.request, mission.crew, context, schema, cond.name,
                              attempt + 1, tuple(feedback), out.raw, mission.options.scenario)
    raise AssertionError("unreachable: the last attempt returns")  # pragma: no cover


def _nothing_asked(verdict: PlanVerdict) -> bool:
    """The request takes back what it asked or asks nothing now: no plan can do otherwise than
    move nothing, so none is asked for again."""
    return any(p.code in (Code.RETRACTED_REQUEST, Code.NOTHING_ASKED) for p in verdict.problems)


def _record(mission: Mission, attempt: int, out: PlannerOutput, plan: Plan | None,
            verdict: PlanVerdict) -> None:
    result = mission.result
    result.planning_s += out.planning_s
    result.attempts.append(Attempt(attempt, out.raw, plan, verdict, out.planning_s,
                                   dict(out.usage)))
    mission.event(EventKind.PLAN_PROPOSED, detail=out.raw[:2000], data={
        "attempt": attempt, "plan": plan.to_json() if plan else None,
        "planning_s": out.planning_s, "usage": dict(out.usage), "note": out.note,
        "shown": mission.shown})
    mission.event(EventKind.VERDICT, codes=verdict.codes,
                  detail="accepted" if verdict.accepted else "refused",
                  data={"attempt": attempt, **verdict.to_json()})


def _planner_failed(mission: Mission, exc: PlannerError, attempt: int) -> None:
    result = mission.result
    result.planner_error = str(exc)
    result.reason = f"planner error: {exc}"
    mission.event(EventKind.PLANNER_ERROR, detail=str(exc), data={"attempt": attempt})
    mission.event(EventKind.REFUSAL, detail=result.reason)


def _held_by_estop(mission: Mission) -> bool:
    """An e-stop engaged when the mission begins halts it before the planner is asked: nothing
    would be sent, and the refusal would name the robots' unavailability, not the e-stop."""
    stopped = mission.adapter.abort_reason()
    if stopped is None:
        return False
    result = mission.result
    result.status = "halted"
    result.reason = f"stopped before planning: {stopped}; nothing was planned or sent"
    mission.event(EventKind.HALT, detail=result.reason)
    return True


def _refuse(mission: Mission, verdict: PlanVerdict, note: str) -> None:
    """The plan is refused before anything moved: one refusal per refused part."""
    result = mission.result
    result.status = "refused"
    result.codes = verdict.codes
    result.reason = note or "the plan was refused before anything moved"
    t = mission.now()
    if verdict.problems:
        result.refusals.append(Refusal("plan", t, verdict.problems))
    result.refusals.extend(Refusal("plan", t, s.problems, s.index, s.robot, s.skill)
                           for s in verdict.steps if not s.ok)
    mission.event(EventKind.REFUSAL, codes=verdict.codes, detail=result.reason,
                  data={"problems": verdict.feedback()})
