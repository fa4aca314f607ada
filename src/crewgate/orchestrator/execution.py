"""The execution phase of a mission: each step of the accepted plan is authorized against the
live world at the moment of its dispatch, dispatched, and observed; the first refusal or failure
halts the mission and runs the crew's safe fallback (an e-stop halts without it: the robots run
their own stop)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crewgate.gate import MissionGate
from crewgate.gate.session import Authorization
from crewgate.journal import EventKind
from crewgate.orchestrator.fallback import run_fallback
from crewgate.orchestrator.result import Dispatched, Refusal
from crewgate.plan import Plan, Step

if TYPE_CHECKING:
    from crewgate.orchestrator.mission import Mission


@dataclass(slots=True)
class Run:
    """Where an execution stands: the robots it engaged, and why it stopped, if it did."""

    gate: MissionGate
    engaged: list[str] = field(default_factory=list)
    halted: bool = False
    estop: str | None = None  # an e-stop: halts whatever the condition
    failures: list[str] = field(default_factory=list)


def execute(mission: Mission, plan: Plan) -> None:
    result = mission.result
    run = Run(MissionGate(mission.gate, mission.id, mission.request, plan,
                          enforce=mission.condition.enforce))
    start = mission.now()
    for index, step in enumerate(plan.steps):
        run.estop = mission.adapter.abort_reason()
        if run.estop is not None:
            result.reason = f"stopped before step {index}: {run.estop}"
            run.halted = True
            break
        if not _step(mission, run, index, step):
            break
    _conclude(mission, run)
    result.execution_s = mission.now() - start


def _step(mission: Mission, run: Run, index: int, step: Step) -> bool:
    """Authorize, dispatch and observe one step; False when the mission halts."""
    result = mission.result
    auth = run.gate.authorize(index, step, mission.world)
    _journal_authorization(mission, auth)
    if auth.skip:
        result.refusals.append(Refusal("skip", mission.now(), auth.verdict.problems, index,
                                       step.robot, step.skill))
        result.codes = list(dict.fromkeys([*result.codes, *auth.verdict.codes]))
        mission.event(EventKind.REFUSAL, step=index, robot=step.robot, skill=step.skill,
                      codes=auth.verdict.codes, detail="skipped: the robot is unavailable and "
                      "the workflow stops what it can")
        return True
    if not auth.dispatchable:
        result.refusals.append(Refusal("dispatch", mission.now(), auth.verdict.problems, index,
                                       step.robot, step.skill))
        result.codes = auth.verdict.codes
        result.reason = f"step {index} {step.ref} was refused at its dispatch"
        mission.event(EventKind.REFUSAL, step=index, robot=step.robot, skill=step.skill,
                      codes=auth.verdict.codes, detail=result.reason,
                      data={"problems": [p.to_json() for p in auth.verdict.problems]})
        run.halted = True
        return False
    succeeded, message = _dispatch(mission, run, auth)
    if succeeded:
        return True
    run.failures.append(f"step {index} {step.ref}: {message}")
    run.estop = mission.adapter.abort_reason()
    if mission.condition.enforce or run.estop is not None:
        result.reason = f"step {index} {step.ref} failed: {message}"
        run.halted = True
        return False
    return True  # enforcement off: the baselines go on after a failure


def _journal_authorization(mission: Mission, auth: Authorization) -> None:
    step = auth.step
    detail = "authorized" if auth.ok else (
        "refused" if auth.enforced else "violations recorded; not enforced")
    ages = {k: {**v.to_json(), "age_s": mission.adapter.now() - v.stamp}
            for k, v in auth.bindings.items()}
    mission.event(EventKind.AUTHORIZATION, step=auth.index, robot=step.robot, skill=step.skill,
                  codes=auth.verdict.codes, detail=detail,
                  data={"args": dict(auth.args), "bindings": ages,
                        "problems": [p.to_json() for p in auth.verdict.problems]})


def _dispatch(mission: Mission, run: Run, auth: Authorization) -> tuple[bool, str]:
    step = auth.step
    record = Dispatched(auth.index, step.robot, step.skill, dict(auth.args), auth.verdict.codes,
                        started_at=mission.now())
    mission.result.dispatched.append(record)
    if step.robot not in run.engaged and step.robot in mission.crew.robots:
        run.engaged.append(step.robot)
    mission.event(EventKind.DISPATCH, step=auth.index, robot=step.robot, skill=step.skill,
                  codes=auth.verdict.codes, data={"args": dict(auth.args)})
    outcome = mission.dispatcher.run(run.gate, auth)
    record.finished(outcome, mission.t0)
    data: dict[str, Any] = {"succeeded": outcome.succeeded, "result": outcome.result,
                            "duration_s": outcome.ended_at - outcome.started_at}
    mission.event(EventKind.RESULT, step=auth.index, robot=step.robot, skill=step.skill,
                  detail=outcome.message or ("succeeded" if outcome.succeeded else "failed"),
                  data=data)
    return outcome.succeeded, outcome.message


def _conclude(mission: Mission, run: Run) -> None:
    result = mission.result
    if run.halted and run.estop is not None:
        # The robots execute their own stop; the fallback would dispatch motion into it.
        result.status = "halted"
        mission.event(EventKind.HALT, codes=result.codes, detail=f"e-stop: {run.estop}; "
                      "nothing more is dispatched, not even the fallback")
    elif run.halted:
        result.status = "halted"
        mission.event(EventKind.HALT, codes=result.codes, detail="no later step will be "
                      "dispatched; running the safe fallback")
        run_fallback(mission, run.gate, run.engaged)
    else:
        result.status = "completed"  # ran to the end of the plan
        if not mission.condition.enforce:  # what the gate found and let through
            result.codes = list(dict.fromkeys(c for d in result.dispatched for c in d.codes))
        if run.failures:
            result.reason = "; ".join(run.failures)
