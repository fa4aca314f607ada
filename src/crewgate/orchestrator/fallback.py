"""The crew's safe fallback, run when a mission halts: through the same gate, always enforced.

Each fallback step applies to robots the halted mission engaged (unless it says otherwise) and
only when its ``when`` condition holds (e.g. land only if airborne). A fallback step the gate
refuses (the robot is gone) is journaled and skipped; the others still run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crewgate.gate.session import MissionGate
from crewgate.orchestrator.result import Dispatched, MissionResult
from crewgate.spec import split_ref
from crewgate.spec.expressions import compare

if TYPE_CHECKING:
    from crewgate.orchestrator.mission import Orchestrator


def run_fallback(
    orch: Orchestrator, mid: str, mgate: MissionGate, engaged: list[str], result: MissionResult
) -> None:
    world = orch.world
    for i, fb in enumerate(orch.crew.fallback):
        robot, skill = split_ref(fb.step)
        stopped = orch.adapter.abort_reason()
        if stopped is not None:  # an e-stop during the fallback: the robots stop themselves
            orch._event(mid, "fallback", robot=robot, skill=skill,
                        detail=f"not dispatched: {stopped}")
            continue
        if fb.only_if_engaged and robot not in engaged:
            continue
        if fb.when is not None:
            target = fb.when.robot or robot
            if not compare(world.get(target, fb.when.field), fb.when.op, fb.when.value):
                orch._event(mid, "fallback", robot=robot, skill=skill,
                            detail=f"skipped: {fb.when} does not hold")
                continue
        auth = mgate.authorize_fallback(i, fb, world)
        if not auth.ok:
            orch._event(mid, "fallback", robot=robot, skill=skill, codes=auth.verdict.codes,
                        detail="refused by the gate",
                        data={"problems": [p.to_json() for p in auth.verdict.problems]})
            continue
        record = Dispatched(i, robot, skill, dict(auth.args), [], kind="fallback",
                            started_at=orch.now())
        result.dispatched.append(record)
        orch._event(mid, "fallback", robot=robot, skill=skill, detail="dispatched",
                    data={"args": auth.args})
        outcome = orch.dispatcher.run(mgate, auth)
        record.succeeded, record.message = outcome.succeeded, outcome.message
        record.ended_at = orch.now()
        orch._event(mid, "result", robot=robot, skill=skill,
                    detail=outcome.message or ("succeeded" if outcome.succeeded else "failed"),
                    data={"succeeded": outcome.succeeded, "fallback": True})
