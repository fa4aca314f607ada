"""The crew's safe fallback, run when a mission halts: through the same gate, always enforced.

Each fallback step applies to robots the halted mission engaged (unless it says otherwise) and
only when its ``when`` condition holds (e.g. land only if airborne). A fallback step the gate
refuses (the robot is gone) is journaled and skipped; the others still run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crewgate.gate.session import MissionGate
from crewgate.journal import EventKind
from crewgate.orchestrator.result import Dispatched
from crewgate.spec import split_ref

if TYPE_CHECKING:
    from crewgate.orchestrator.mission import Mission


def run_fallback(mission: Mission, gate: MissionGate, engaged: list[str]) -> None:
    for i, fb in enumerate(mission.crew.fallback):
        robot, skill = split_ref(fb.step)
        stopped = mission.adapter.abort_reason()
        if stopped is not None:  # an e-stop during the fallback: the robots stop themselves
            mission.event(EventKind.FALLBACK, robot=robot, skill=skill,
                          detail=f"not dispatched: {stopped}")
            continue
        if fb.only_if_engaged and robot not in engaged:
            continue
        if not fb.applies(mission.world.robots):
            mission.event(EventKind.FALLBACK, robot=robot, skill=skill,
                          detail=f"skipped: {fb.when} does not hold")
            continue
        auth = gate.authorize_fallback(i, fb, mission.world)
        if not auth.ok:
            mission.event(EventKind.FALLBACK, robot=robot, skill=skill, codes=auth.verdict.codes,
                          detail="refused by the gate",
                          data={"problems": [p.to_json() for p in auth.verdict.problems]})
            continue
        record = Dispatched(i, robot, skill, dict(auth.args), [], kind="fallback",
                            started_at=mission.now())
        mission.result.dispatched.append(record)
        mission.event(EventKind.FALLBACK, robot=robot, skill=skill, detail="dispatched",
                      data={"args": dict(auth.args)})
        outcome = mission.dispatcher.run(gate, auth)
        record.finished(outcome, mission.t0)
        mission.event(EventKind.RESULT, robot=robot, skill=skill,
                      detail=outcome.message or ("succeeded" if outcome.succeeded else "failed"),
                      data={"succeeded": outcome.succeeded, "fallback": True})
