"""The Robot Orchestrator's mission loop: plan -> validate (one replan) -> authorize -> dispatch
-> observe -> journal; halt and run the safe fallback on any refusal or failure.

Fail closed: under enforcement a plan with any problem moves nothing; a step refused or failed at
run time halts the mission and no later step is dispatched. With enforcement off (the study's
baselines) the same verdicts are computed and journaled, and every step is dispatched anyway.

Every exit is a safe exit: the mission runs inside one ``try/finally``. An exception (a journal
that times out, a printer, an adapter bug) ends it ``crashed``; SIGINT or SIGTERM end it
``interrupted``. Either way the running command is cancelled, the safe fallback runs on the
robots the mission engaged, ``mission_ended`` is journaled with the cause, and the adapter is
told that the mission ended (over ROS 2 the heartbeat stands down). An interrupt is raised again
afterwards (:class:`MissionInterrupted`, carrying the result).

:class:`Orchestrator` holds what lasts across missions (crew, gate, backend, journal);
:class:`Mission` is one run of it: its id, clock, result and journal events. The phases are
:mod:`~crewgate.orchestrator.planning` and :mod:`~crewgate.orchestrator.execution`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from crewgate.adapters.base import Adapter
from crewgate.conditions import CONDITIONS, Condition
from crewgate.gate import Gate, MissionGate
from crewgate.journal import EventKind, Journal
from crewgate.orchestrator.clearance import Clearance, clear
from crewgate.orchestrator.dispatch import Dispatcher
from crewgate.orchestrator.execution import execute
from crewgate.orchestrator.planning import plan_mission
from crewgate.orchestrator.result import MissionResult
from crewgate.orchestrator.safety import (
    MissionInterrupted,
    check_request,
    deferred_interrupts,
    interruptible,
    secure,
)
from crewgate.planners.base import Planner
from crewgate.spec import Crew
from crewgate.world import World


def new_mission_id() -> str:
    """12 random hex digits: short, and unique from the first characters on (the journal keeps
    the time)."""
    return secrets.token_hex(6)


@dataclass(frozen=True, slots=True)
class MissionOptions:
    condition: Condition = CONDITIONS["ro"]
    scenario: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    mission_id: str | None = None  # the id to journal under (default: a new one)
    # why the mission must stop before its next step (an operator's or agent's cancel), or
    # None; unlike an e-stop, the running step ends and the safe fallback runs
    cancel: Callable[[], str | None] | None = None
    # between the accepted plan and its first step: what must hold before anything moves (a
    # human's approval, the robots' lease), or None (see crewgate.orchestrator.clearance)
    clearance: Clearance | None = None


class Orchestrator:
    """Runs missions for one crew on one backend, journaling every event."""

    def __init__(self, gate: Gate, adapter: Adapter, journal: Journal, *, tick_s: float) -> None:
        self.gate = gate
        self.crew: Crew = gate.crew
        self.adapter = adapter
        self.world: World = adapter.world
        self.journal = journal
        self.dispatcher = Dispatcher(self.crew, adapter, tick_s)

    def run(self, request: str, planner: Planner, options: MissionOptions | None = None
            ) -> MissionResult:
        """Run one mission to its end, whatever happens on the way (see the module's doc)."""
        check_request(request)
        mission = Mission(self, request, options or MissionOptions())
        with interruptible():
            mission.begin(planner.name)
            try:
                plan = plan_mission(mission, planner)
                if plan is not None and mission.options.clearance is not None:
                    plan = clear(mission, plan, mission.options.clearance)
                if plan is not None:
                    execute(mission, plan)
            except BaseException as exc:
                with deferred_interrupts():
                    secure(mission, exc)
                    mission.finish()
                if not isinstance(exc, Exception):
                    raise MissionInterrupted(mission.result) from exc
                return mission.result
            mission.finish()
        return mission.result


class Mission:
    """One mission of an orchestrator: what it was asked, its clock, its result, its events."""

    def __init__(self, orch: Orchestrator, request: str, options: MissionOptions) -> None:
        self.orch = orch
        self.crew = orch.crew
        self.gate = orch.gate
        self.adapter = orch.adapter
        self.world = orch.world
        self.dispatcher = orch.dispatcher
        self.request = request
        self.options = options
        self.condition = options.condition
        self.id = options.mission_id or new_mission_id()
        self.result = MissionResult(self.id, self.crew.name, request,
                                    enforce=self.condition.enforce)
        self.t0 = self.adapter.now()  # backend time at the start; journal times count from it
        self.session: MissionGate | None = None  # the gate's view, once execution begins
        self.engaged: list[str] = []  # robots a command was sent to, in order
        self.crashed = False  # from now on, journal failures are noted, not raised
        self.shown: dict[str, Any] = {}  # what of the crew the planner was shown (retrieval)

    def now(self) -> float:
        """Seconds since the mission started, in backend time (simulated, or wall clock)."""
        return self.adapter.now() - self.t0

    def event(self, kind: EventKind, *, step: int | None = None, robot: str | None = None,
              skill: str | None = None, codes: Iterable[str] = (), detail: str = "",
              data: dict[str, Any] | None = None) -> None:
        try:
            self.orch.journal.record(self.id, kind, t=self.now(), step=step, robot=robot,
                                     skill=skill, codes=codes, detail=detail, data=data)
        except Exception as exc:
            if not self.crashed:
                raise
            # securing a crashed mission goes on without its journal: the robots come first
            self.result.journal_errors.append(f"{kind}: {type(exc).__name__}: {exc}")

    def begin(self, planner: str) -> None:
        cond = self.condition
        meta = {"condition": cond.name, "planner": planner, "enforce": cond.enforce,
                "scenario": self.options.scenario, **self.options.meta}
        self.orch.journal.start_mission(self.id, self.crew.name, self.request, meta)
        self.event(EventKind.MISSION_STARTED, detail=self.request, data=meta)
        self.adapter.mission_began(self.id)  # e.g. the heartbeat the robots' failsafe watches

    def finish(self) -> None:
        """Close the mission in the journal and tell the adapter it ended (whatever else
        fails)."""
        try:
            self._close()
        finally:
            try:
                self.adapter.mission_ended(self.id)
            except Exception as exc:
                if not self.crashed:
                    raise
                self.result.journal_errors.append(f"mission_ended: {type(exc).__name__}: {exc}")

    def _close(self) -> None:
        result = self.result
        snapshot = self.world.to_json()
        result.final_state = snapshot["robots"]
        result.bindings = snapshot["bindings"]
        result.outcome = self.adapter.outcome()
        self.event(EventKind.MISSION_ENDED, codes=result.codes, detail=result.status,
                   data={"status": result.status, "reason": result.reason})
        try:
            self.orch.journal.end_mission(self.id, result.status, result.codes)
        except Exception as exc:
            if not self.crashed:
                raise
            result.journal_errors.append(f"end_mission: {type(exc).__name__}: {exc}")


__all__ = ["Mission", "MissionInterrupted", "MissionOptions", "Orchestrator", "new_mission_id"]
