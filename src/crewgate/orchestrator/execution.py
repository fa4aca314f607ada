"""The execution phase of a mission: each step of the accepted plan is authorized against the
live world at the moment of its dispatch, dispatched, and observed; the first refusal or failure
halts the mission and runs the crew's safe fallback (an e-stop halts without it: the robots run
their own stop)."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from crewgate.gate import MissionGate
from crewgate.gate.session import Authorization
from crewgate.journal import EventKind
from crewgate.orchestrator.dispatch import Held
from crewgate.orchestrator.fallback import run_fallback
from crewgate.orchestrator.result import Dispatched, Refusal
from crewgate.plan import Plan, Step

if TYPE_CHECKING:
    from crewgate.orchestrator.mission import Mission


@dataclass(slots=True)
class Run:
    """Where an execution stands, and why it stopped, if it did (the robots it engaged are the
    mission's: a crash needs them too)."""

    gate: MissionGate
    halted: bool = False
    estop: str | None = None  # an e-stop: halts whatever the condition
    failures: list[str] = field(default_factory=list)


def execute(mission: Mission, plan: Plan) -> None:
    result = mission.result
    mission.session = MissionGate(mission.gate, mission.id, mission.request, plan,
                                  enforce=mission.condition.enforce)
    run = Run(mission.session)
    start = mission.now()
    cancel = mission.options.cancel
    for index, step in enumerate(plan.steps):
        run.estop = mission.adapter.abort_reason()
        if run.estop is not None:
            result.reason = f"stopped before step {index}: {run.estop}"
            run.halted = True
            break
        why = cancel() if cancel is not None else None
        if why is not None:  # a cancel: nothing more is sent; the fallback makes them safe
            result.reason = f"cancelled before step {index}: {why}"
            mission.event(EventKind.REFUSAL, step=index, robot=step.robot, skill=step.skill,
                          detail=result.reason)
            run.halted = True
            break
        if not _step(mission, run, index, step):
            break
    _conclude(mission, run)
    result.execution_s = mission.now() - start


def _step(mission: Mission, run: Run, index: int, step: Step) -> bool:
    """Authorize, dispatch and observe one step; False when the mission halts. From the
    authorization to the send the adapter knows the orchestrator is deciding (a simulated clock
    of its own stands still)."""
    with ExitStack() as deciding:
        deciding.enter_context(mission.adapter.deciding())
        return _decide(mission, run, index, step, deciding)


def _decide(mission: Mission, run: Run, index: int, step: Step, deciding: ExitStack) -> bool:
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
    ended, message = _dispatch(mission, run, auth, deciding)
    if ended == "succeeded":
        return True
    if ended == "refused":
        return False
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


Ended = Literal["succeeded", "failed", "refused"]


def _dispatch(mission: Mission, run: Run, auth: Authorization,
              deciding: ExitStack) -> tuple[Ended, str]:
    """Journal the intent, send (the last check and the send with nothing in between), journal
    what was sent, follow it to its end (the decision over: ``deciding`` closed)."""
    step = auth.step
    mission.event(EventKind.DISPATCH, step=auth.index, robot=step.robot, skill=step.skill,
                  codes=auth.verdict.codes, data={"args": dict(auth.args)})
    sent = mission.dispatcher.send(run.gate, auth)
    if isinstance(sent, Held):
        return _held(mission, run, auth, sent)
    codes = list(dict.fromkeys([*auth.verdict.codes, *(p.code.value for p in sent.problems)]))
    record = Dispatched(auth.index, step.robot, step.skill, dict(auth.args), codes,
                        started_at=sent.started_at - mission.t0)
    mission.result.dispatched.append(record)
    if step.robot not in mission.engaged and step.robot in mission.crew.robots:
        mission.engaged.append(step.robot)
    mission.event(EventKind.SENT, step=auth.index, robot=step.robot, skill=step.skill,
                  codes=codes, detail=f"token {sent.command.token}",
                  data={"problems": [p.to_json() for p in sent.problems]} if sent.problems
                  else None)
    deciding.close()
    outcome = mission.dispatcher.follow(run.gate, sent)
    record.finished(outcome, mission.t0)
    data: dict[str, Any] = {"succeeded": outcome.succeeded, "result": outcome.result,
                            "duration_s": outcome.ended_at - outcome.started_at}
    mission.event(EventKind.RESULT, step=auth.index, robot=step.robot, skill=step.skill,
                  detail=outcome.message or ("succeeded" if outcome.succeeded else "failed"),
                  data=data)
    return ("succeeded" if outcome.succeeded else "failed"), outcome.message


def _held(mission: Mission, run: Run, auth: Authorization, held: Held) -> tuple[Ended, str]:
    """Not sent: the gate's last check refused it (a refusal at dispatch), or an e-stop or
    the adapter held it (a failure)."""
    step = auth.step
    if held.why == "refused":
        codes = [p.code.value for p in held.problems]
        mission.result.refusals.append(Refusal("dispatch", mission.now(), held.problems,
                                               auth.index, step.robot, step.skill))
        mission.result.codes = list(dict.fromkeys(codes))
        mission.event(EventKind.REFUSAL, step=auth.index, robot=step.robot, skill=step.skill,
                      codes=codes, detail=held.outcome.message,
                      data={"problems": [p.to_json() for p in held.problems]})
        run.halted = True
        mission.result.reason = f"step {auth.index} {step.ref} was refused at its sending"
        return "refused", held.outcome.message
    if held.why == "rejected":  # it reached the backend: a dispatch that failed
        record = Dispatched(auth.index, step.robot, step.skill, dict(auth.args),
                            auth.verdict.codes, started_at=held.outcome.started_at - mission.t0)
        record.finished(held.outcome, mission.t0)
        mission.result.dispatched.append(record)
    mission.event(EventKind.RESULT, step=auth.index, robot=step.robot, skill=step.skill,
                  detail=held.outcome.message, data={"succeeded": False,
                                                     "sent": held.why == "rejected"})
    return "failed", held.outcome.message


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
        run_fallback(mission, run.gate, mission.engaged)
    else:
        result.status = "completed"  # ran to the end of the plan
        if not mission.condition.enforce:  # what the gate found and let through
            result.codes = list(dict.fromkeys(c for d in result.dispatched for c in d.codes))
        if run.failures:
            result.reason = "; ".join(run.failures)
