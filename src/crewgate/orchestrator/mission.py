"""The Robot Orchestrator's mission loop: plan -> validate (one replan) -> authorize -> dispatch
-> observe -> journal; halt and run the safe fallback on any refusal or failure.

Fail closed: under enforcement a plan with any problem moves nothing; a step refused or failed at
run time halts the mission and no later step is dispatched. With enforcement off (the study's
baselines) the same verdicts are computed and journaled, and every step is dispatched anyway.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from crewgate.adapters.base import Adapter
from crewgate.codes import Problem
from crewgate.conditions import CONDITIONS, Condition
from crewgate.errors import PlannerError
from crewgate.gate import Gate, MissionGate
from crewgate.gate.verdict import PlanVerdict
from crewgate.journal import Journal
from crewgate.orchestrator.dispatch import Dispatcher
from crewgate.orchestrator.fallback import run_fallback
from crewgate.orchestrator.result import Attempt, Dispatched, MissionResult
from crewgate.plan import Plan
from crewgate.planners.base import Planner, PlanningRequest
from crewgate.render import plan_json_schema, render_context
from crewgate.world import World


def new_mission_id() -> str:
    """12 random hex digits: short, and unique from the first characters on (the journal keeps
    the time)."""
    return secrets.token_hex(6)


@dataclass(frozen=True, slots=True)
class MissionOptions:
    condition: Condition = CONDITIONS["ro"]
    scenario: str | None = None
    meta: dict[str, Any] | None = None


class Orchestrator:
    """Runs missions for one crew on one backend, journaling every event."""

    def __init__(self, gate: Gate, adapter: Adapter, journal: Journal, *, tick_s: float) -> None:
        self.gate = gate
        self.crew = gate.crew
        self.adapter = adapter
        self.world: World = adapter.world
        self.journal = journal
        self.dispatcher = Dispatcher(self.crew, adapter, tick_s)
        self._t0 = 0.0

    def now(self) -> float:
        """Seconds since the mission started, in backend time (simulated, or wall clock)."""
        return self.adapter.now() - self._t0

    def run(self, request: str, planner: Planner, options: MissionOptions | None = None
            ) -> MissionResult:
        opts = options or MissionOptions()
        cond = opts.condition
        mid = new_mission_id()
        self._t0 = self.adapter.now()
        result = MissionResult(mid, self.crew.name, request, enforce=cond.enforce)
        meta = {"condition": cond.name, "planner": planner.name, "enforce": cond.enforce,
                "scenario": opts.scenario, **(opts.meta or {})}
        self.journal.start_mission(mid, self.crew.name, request, meta)
        self._event(mid, "mission_started", detail=request, data=meta)
        plan = self._plan(mid, request, planner, opts, result)
        if plan is not None:
            self._execute(mid, request, plan, cond, result)
        result.final_state = self.world.to_json()["robots"]
        result.bindings = self.world.to_json()["bindings"]
        result.outcome = self.adapter.outcome()
        self._event(mid, "mission_ended", codes=result.codes, detail=result.status,
                    data={"status": result.status, "reason": result.reason})
        self.journal.end_mission(mid, result.status, result.codes)
        return result

    # -- planning ----------------------------------------------------------------------------

    def _plan(self, mid: str, request: str, planner: Planner, opts: MissionOptions,
              result: MissionResult) -> Plan | None:
        cond = opts.condition
        context = render_context(self.crew, cond.knowledge)
        schema = plan_json_schema(self.crew, cond.knowledge)
        feedback: list[dict[str, Any]] = []
        previous = ""
        for attempt in range(1, cond.replans + 2):
            ask = PlanningRequest(request, self.crew, context, schema, cond.name, attempt,
                                  tuple(feedback), previous, opts.scenario)
            try:
                out = planner.plan(ask)
            except PlannerError as exc:
                result.planner_error = str(exc)
                result.reason = f"planner error: {exc}"
                self._event(mid, "planner_error", detail=str(exc), data={"attempt": attempt})
                self._event(mid, "refusal", detail=result.reason)
                return None
            result.planning_s += out.planning_s
            plan = out.plan if isinstance(out.plan, Plan) else None
            verdict = self.gate.validate(out.plan, request, self.world)
            result.attempts.append(Attempt(attempt, out.raw, plan, verdict, out.planning_s,
                                           dict(out.usage)))
            self._event(mid, "plan_proposed", detail=out.raw[:2000], data={
                "attempt": attempt, "plan": plan.to_json() if plan else None,
                "planning_s": out.planning_s, "usage": dict(out.usage), "note": out.note})
            self._event(mid, "verdict", codes=verdict.codes,
                        detail="accepted" if verdict.accepted else "refused",
                        data={"attempt": attempt, **verdict.to_json()})
            if verdict.accepted or (not cond.enforce and plan is not None):
                return plan
            if attempt <= cond.replans:
                feedback, previous = verdict.feedback(), out.raw
                self._event(mid, "replan", codes=verdict.codes, data={"feedback": feedback})
                continue
            self._refuse_plan(mid, verdict, result, out.note)
            return None
        return None  # pragma: no cover - the loop always returns

    def _refuse_plan(self, mid: str, verdict: PlanVerdict, result: MissionResult,
                     note: str = "") -> None:
        result.status = "refused"
        result.codes = verdict.codes
        result.reason = note or "the plan was refused before anything moved"
        t = self.now()
        if verdict.problems:
            result.refusals.append({"index": None, "codes": _codes(verdict.problems), "t": t,
                                    "stage": "plan"})
        result.refusals.extend({"index": s.index, "codes": s.codes, "t": t, "stage": "plan",
                                "robot": s.robot, "skill": s.skill}
                               for s in verdict.steps if not s.ok)
        self._event(mid, "refusal", codes=verdict.codes, detail=result.reason,
                    data={"problems": verdict.feedback()})

    # -- execution ---------------------------------------------------------------------------

    def _execute(self, mid: str, request: str, plan: Plan, cond: Condition,
                 result: MissionResult) -> None:
        mgate = MissionGate(self.gate, mid, request, plan, enforce=cond.enforce)
        start = self.now()
        engaged: list[str] = []
        halted = False
        stopped: str | None = None  # an e-stop: halts whatever the condition
        failures: list[str] = []
        for index, step in enumerate(plan.steps):
            stopped = self.adapter.abort_reason()
            if stopped is not None:
                result.reason = f"stopped before step {index}: {stopped}"
                halted = True
                break
            auth = mgate.authorize(index, step, self.world)
            self._event(mid, "authorization", step=index, robot=step.robot, skill=step.skill,
                        codes=auth.verdict.codes,
                        detail="authorized" if auth.ok else
                        ("refused" if auth.enforced else "violations recorded; not enforced"),
                        data={"args": auth.args, "problems": [p.to_json()
                                                              for p in auth.verdict.problems],
                              "bindings": {k: {**v.to_json(),
                                               "age_s": self.adapter.now() - v.stamp}
                                           for k, v in auth.bindings.items()}})
            if auth.skip:
                result.refusals.append({"index": index, "codes": auth.verdict.codes,
                                        "t": self.now(), "stage": "skip",
                                        "robot": step.robot, "skill": step.skill})
                result.codes = list(dict.fromkeys([*result.codes, *auth.verdict.codes]))
                self._event(mid, "refusal", step=index, robot=step.robot, skill=step.skill,
                            codes=auth.verdict.codes, detail="skipped: the robot is unavailable "
                            "and the workflow stops what it can")
                continue
            if not auth.dispatchable:
                result.refusals.append({"index": index, "codes": auth.verdict.codes,
                                        "t": self.now(), "stage": "dispatch",
                                        "robot": step.robot, "skill": step.skill})
                result.codes = auth.verdict.codes
                result.reason = f"step {index} {step.ref} was refused at its dispatch"
                self._event(mid, "refusal", step=index, robot=step.robot, skill=step.skill,
                            codes=auth.verdict.codes, detail=result.reason,
                            data={"problems": [p.to_json() for p in auth.verdict.problems]})
                halted = True
                break
            record = Dispatched(index, step.robot, step.skill, dict(auth.args),
                                auth.verdict.codes, started_at=self.now())
            result.dispatched.append(record)
            if step.robot not in engaged and step.robot in self.crew.robots:
                engaged.append(step.robot)
            self._event(mid, "dispatch", step=index, robot=step.robot, skill=step.skill,
                        codes=auth.verdict.codes, data={"args": auth.args})
            outcome = self.dispatcher.run(mgate, auth)
            record.succeeded, record.message = outcome.succeeded, outcome.message
            record.started_at = outcome.started_at - self._t0
            record.ended_at = outcome.ended_at - self._t0
            self._event(mid, "result", step=index, robot=step.robot, skill=step.skill,
                        detail=outcome.message or ("succeeded" if outcome.succeeded else "failed"),
                        data={"succeeded": outcome.succeeded, "result": outcome.result,
                              "duration_s": outcome.ended_at - outcome.started_at})
            if not outcome.succeeded:
                failures.append(f"step {index} {step.ref}: {outcome.message}")
                stopped = self.adapter.abort_reason()
                if cond.enforce or stopped is not None:
                    result.reason = f"step {index} {step.ref} failed: {outcome.message}"
                    halted = True
                    break
        if halted and stopped is not None:
            # The robots execute their own stop; the fallback would dispatch motion into it.
            result.status = "halted"
            self._event(mid, "halt", detail=f"e-stop: {stopped}; nothing more is dispatched, "
                        "not even the fallback", codes=result.codes)
        elif halted:
            result.status = "halted"
            self._event(mid, "halt", detail="no later step will be dispatched; running the "
                        "safe fallback", codes=result.codes)
            run_fallback(self, mid, mgate, engaged, result)
        else:
            result.status = "completed"  # ran to the end of the plan
            if not cond.enforce:  # what the gate found and let through
                result.codes = list(dict.fromkeys(c for d in result.dispatched for c in d.codes))
            if failures:
                result.reason = "; ".join(failures)
        result.execution_s = self.now() - start

    def _event(self, mid: str, kind: str, **fields: Any) -> None:
        self.journal.record(mid, kind, t=self.now(), **fields)


def _codes(problems: tuple[Problem, ...]) -> list[str]:
    return list(dict.fromkeys(p.code.value for p in problems))


__all__ = ["MissionOptions", "Orchestrator", "new_mission_id"]
