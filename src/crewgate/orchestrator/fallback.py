"""The crew's safe fallback, run when a mission halts: through the same gate, always enforced.

Each fallback step applies to robots the halted mission engaged (unless it says otherwise) and
only when its ``when`` condition holds (e.g. land only if airborne). A fallback step the gate
refuses (the robot is gone) is journaled and skipped; the others still run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crewgate.gate.session import MissionGate
from crewgate.journal import EventKind
from crewgate.orchestrator.dispatch import Held, Sent
from crewgate.orchestrator.result import Dispatched
from crewgate.spec import FallbackStep, split_ref

if TYPE_CHECKING:
    from crewgate.orchestrator.mission import Mission


def run_fallback(mission: Mission, gate: MissionGate, engaged: list[str], *,
                 guarded: bool = False) -> None:
    """``guarded`` (securing a crashed mission): a step that raises is noted and the next one
    still runs."""
    for i, fb in enumerate(mission.crew.fallback):
        if not guarded:
            _step(mission, gate, engaged, i, fb)
            continue
        try:
            _step(mission, gate, engaged, i, fb)
        except Exception as exc:
            mission.result.journal_errors.append(f"fallback {fb.step}: {type(exc).__name__}: "
                                                 f"{exc}")


def _step(mission: Mission, gate: MissionGate, engaged: list[str], i: int,
          fb: FallbackStep) -> None:
    robot, skill = split_ref(fb.step)
    stopped = mission.adapter.abort_reason()
    if stopped is not None:  # an e-stop during the fallback: the robots stop themselves
        mission.event(EventKind.FALLBACK, robot=robot, skill=skill,
                      detail=f"not dispatched: {stopped}")
        return
    if fb.only_if_engaged and robot not in engaged:
        return
    if not fb.applies(mission.world.robots):
        mission.event(EventKind.FALLBACK, robot=robot, skill=skill,
                      detail=f"skipped: {fb.when} does not hold")
        return
    with mission.adapter.deciding():  # from the authorization to the send
        sent = _authorize_and_send(mission, gate, i, fb, robot, skill)
    if sent is None:
        return
    auth = sent.auth
    record = Dispatched(i, robot, skill, dict(auth.args), [], kind="fallback",
                        started_at=sent.started_at - mission.t0)
    mission.result.dispatched.append(record)
    outcome = mission.dispatcher.follow(gate, sent)
    record.finished(outcome, mission.t0)
    mission.event(EventKind.RESULT, robot=robot, skill=skill,
                  detail=outcome.message or ("succeeded" if outcome.succeeded else "failed"),
                  data={"succeeded": outcome.succeeded, "fallback": True})


def _authorize_and_send(mission: Mission, gate: MissionGate, i: int, fb: FallbackStep,
                        robot: str, skill: str) -> Sent | None:
    auth = gate.authorize_fallback(i, fb, mission.world)
    if not auth.ok:
        mission.event(EventKind.FALLBACK, robot=robot, skill=skill, codes=auth.verdict.codes,
                      detail="refused by the gate",
                      data={"problems": [p.to_json() for p in auth.verdict.problems]})
        return None
    mission.event(EventKind.FALLBACK, robot=robot, skill=skill, detail="dispatched",
                  data={"args": dict(auth.args)})
    sent = mission.dispatcher.send(gate, auth)
    if isinstance(sent, Held):
        mission.event(EventKind.RESULT, robot=robot, skill=skill,
                      detail=sent.outcome.message, data={"succeeded": False,
                                                         "fallback": True, "sent": False})
        return None
    return sent
