"""Crash recovery: close the missions an orchestrator left unfinished (SIGKILL, power loss).

A mission whose process died has a journal row with no status. :func:`recover` reads, from its
journaled events, what the mission did: the steps it ``sent`` (the adapter accepted them), the
ones ``confirmed`` (their ``result`` arrived) and the ones in doubt (the intent was journaled,
not whether they were sent: the process may have died in between). The robots it engaged are
those of the sent steps and of the steps in doubt (a stop is safe where nothing arrived).

It then runs the crew's safe fallback on the engaged robots that are reachable now, through the
gate (always enforced) and the dispatcher as a halted mission does, journals it into the same
mission, and closes it ``crashed`` with a reason that lists what was sent and what was
confirmed. It never sends a plan step: the only commands are fallback steps. Robots that cannot
be reached are named (their own lost-link failsafe is their safe stop).

A mission whose process is alive is left alone (status ``running``): first by the lease that
process holds on the journal (:mod:`crewgate.lease`: a lock the kernel lets go of when the
process ends, however it ends; certain, whatever the backend), then by the backend. While it
recovers a mission the adapter is told so (``mission_began(..., recovering=True)``): over ROS 2
the heartbeat runs, so the robots' failsafe covers the recovery too, and a mission whose
orchestrator is still heartbeating it is left alone as well, as is one that its own
orchestrator closed while the recovery listened (``ended``). An exception
during a recovery leaves the mission unfinished (and the heartbeat unclosed: the robots stop
themselves), to be recovered again.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from crewgate.adapters.base import Adapter
from crewgate.errors import AdapterError
from crewgate.gate import Gate, MissionGate
from crewgate.journal import Event, EventKind, Journal, MissionRecord
from crewgate.lease import folder as lease_folder
from crewgate.orchestrator.fallback import run_fallback
from crewgate.orchestrator.mission import Mission, MissionOptions, Orchestrator
from crewgate.orchestrator.result import MissionResult
from crewgate.plan import Plan


@dataclass(frozen=True, slots=True)
class SentStep:
    """A plan step the mission sent, and what is known of how it ended."""

    index: int
    ref: str  # ROBOT.SKILL
    confirmed: bool  # a result was journaled
    succeeded: bool | None = None  # how it ended, when confirmed
    message: str = ""

    def describe(self) -> str:
        head = f"{self.index} {self.ref}"
        if not self.confirmed:
            return head
        return f"{head} ({'succeeded' if self.succeeded else 'failed'})"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "step": self.ref, "confirmed": self.confirmed,
                "succeeded": self.succeeded, "message": self.message}


@dataclass(frozen=True, slots=True)
class Findings:
    """What a mission's events say it did."""

    sent: tuple[SentStep, ...]
    in_doubt: tuple[tuple[int, str], ...]  # (index, ROBOT.SKILL): intent journaled, not sent
    engaged: tuple[str, ...]  # robots of the sent steps and of those in doubt, in order
    codes: tuple[str, ...]  # what the gate refused on the way
    last_t: float  # the last journaled mission time

    def summary(self) -> str:
        """What was sent and what was confirmed, for the mission's reason."""
        if not self.sent and not self.in_doubt:
            return "nothing was sent"
        parts = [f"sent {', '.join(f'{s.index} {s.ref}' for s in self.sent) or 'nothing'}"]
        confirmed = [s.describe() for s in self.sent if s.confirmed]
        parts.append(f"confirmed {', '.join(confirmed) or 'nothing'}")
        unconfirmed = [f"{s.index} {s.ref}" for s in self.sent if not s.confirmed]
        if unconfirmed:
            parts.append(f"not confirmed {', '.join(unconfirmed)}")
        if self.in_doubt:
            parts.append("in doubt (the intent was journaled, not the sending) "
                         + ", ".join(f"{i} {ref}" for i, ref in self.in_doubt))
        return "; ".join(parts)


def read_findings(events: Iterable[Event], robots: Iterable[str]) -> Findings:
    """What the events of one mission say it sent and had confirmed (plan steps only: fallback
    events carry no step index)."""
    known = set(robots)
    intents: dict[int, tuple[str, str]] = {}
    sent: dict[int, tuple[str, str]] = {}
    results: dict[int, Event] = {}
    codes: list[str] = []
    last_t = 0.0
    for event in events:
        last_t = max(last_t, event.t or 0.0)
        if event.kind is EventKind.REFUSAL:
            codes.extend(event.codes)
        if event.step is None or event.robot is None:
            continue
        pair = (event.robot, event.skill or "")
        if event.kind is EventKind.DISPATCH:
            intents[event.step] = pair
        elif event.kind is EventKind.SENT:
            sent[event.step] = pair
        elif event.kind is EventKind.RESULT and not event.data.get("fallback"):
            results[event.step] = event
    steps = []
    for index, (robot, skill) in sorted(sent.items()):
        result = results.get(index)
        steps.append(SentStep(index, f"{robot}.{skill}", result is not None,
                              None if result is None else bool(result.data.get("succeeded")),
                              "" if result is None else result.detail))
    doubt = [(i, pair) for i, pair in sorted(intents.items())
             if i not in sent and i not in results]
    engaged = [r for _, (r, _) in sorted([*sent.items(), *doubt]) if r in known]
    return Findings(tuple(steps), tuple((i, f"{r}.{s}") for i, (r, s) in doubt),
                    tuple(dict.fromkeys(engaged)), tuple(dict.fromkeys(codes)), last_t)


@dataclass(slots=True)
class Recovery:
    """One unfinished mission, and what recovering it did."""

    mission_id: str
    request: str
    started_wall: float
    findings: Findings
    # crashed: closed by the recovery; running: its orchestrator is alive, left alone; ended: its
    # own orchestrator closed it meanwhile
    status: Literal["crashed", "running", "ended"]
    reason: str
    unreachable: dict[str, str] = field(default_factory=dict)  # engaged robot -> why
    fallback: list[tuple[str, str]] = field(default_factory=list)  # (ROBOT.SKILL, what became)
    journal_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Closed, with every engaged robot reached and every fallback step that applied
        done."""
        if self.status == "ended":
            return True
        return (self.status == "crashed" and not self.unreachable and not self.journal_errors
                and all(outcome == "succeeded" or outcome.startswith("skipped")
                        for _, outcome in self.fallback))

    def to_json(self) -> dict[str, Any]:
        f = self.findings
        return {"mission_id": self.mission_id, "request": self.request,
                "started_wall": self.started_wall, "status": self.status,
                "reason": self.reason, "sent": [s.to_json() for s in f.sent],
                "in_doubt": [{"index": i, "step": ref} for i, ref in f.in_doubt],
                "engaged": list(f.engaged), "unreachable": self.unreachable,
                "fallback": [{"step": ref, "outcome": outcome} for ref, outcome in self.fallback],
                "ok": self.ok, "journal_errors": self.journal_errors}


def unfinished(journal: Journal, crew: str) -> list[MissionRecord]:
    """The crew's missions the journal has no end for, oldest first."""
    return journal.unfinished(crew)


def recover(gate: Gate, adapter: Adapter, journal: Journal, missions: Sequence[MissionRecord],
            *, wait_s: float = 0.0) -> list[Recovery]:
    """Recover ``missions`` (see the module's doc), after waiting up to ``wait_s`` for the
    robots they engaged to be heard."""
    orch = Orchestrator(gate, adapter, journal, tick_s=adapter.tick_s)
    found = [(m, read_findings(journal.events(m.mission_id), gate.crew.robots))
             for m in missions]
    engaged = list(dict.fromkeys(r for _, f in found for r in f.engaged))
    if engaged and wait_s > 0:
        adapter.connect(engaged, wait_s)
    done = [_recover(orch, record, findings) for record, findings in found]
    journal.sweep_leases()  # the files of processes gone between missions
    return done


class _Recovered(Mission):
    """An unfinished mission, taken up again to be made safe and closed: its own id, and times
    that go on from its journal's."""

    def __init__(self, orch: Orchestrator, record: MissionRecord, last_t: float) -> None:
        super().__init__(orch, record.request, MissionOptions())
        self.id = record.mission_id
        self.result = MissionResult(record.mission_id, record.crew, record.request, enforce=True)
        if self.adapter.clock == "real":  # the wall time since the mission started
            self.t0 = self.adapter.now() - (time.time() - record.started_wall)
        else:  # a fresh simulation: go on after the last journaled time
            self.t0 = self.adapter.now() - last_t


def _recover(orch: Orchestrator, record: MissionRecord, findings: Findings) -> Recovery:
    recovery = Recovery(record.mission_id, record.request, record.started_wall, findings,
                        "crashed", "")
    adapter, journal = orch.adapter, orch.journal
    if journal.running(record):  # its process holds the mission's lease: certainly alive
        recovery.status, recovery.reason = "running", (
            f"left alone: the process that runs it is alive (it holds lease {record.lease} "
            f"in {lease_folder(journal.path)})")
        return recovery
    try:
        adapter.mission_began(record.mission_id, recovering=True)
    except AdapterError as exc:
        recovery.status, recovery.reason = "running", f"left alone: {exc}"
        return recovery
    if journal.mission(record.mission_id).status is not None:  # it ended while we listened
        adapter.mission_ended(record.mission_id)
        recovery.status, recovery.reason = "ended", "closed by its own orchestrator meanwhile"
        return recovery
    mission = _Recovered(orch, record, findings.last_t)
    first_seq = max((e.seq for e in journal.events(record.mission_id)), default=0)
    result = mission.result
    result.status, result.codes = "crashed", list(findings.codes)
    result.reason = recovery.reason = (
        "the orchestrator stopped without closing the mission (killed, or lost power); "
        f"recovered: {findings.summary()}")
    recovery.unreachable = {r: why for r in findings.engaged
                            if (why := adapter.not_ready(r)) is not None}
    reachable = [r for r in findings.engaged if r not in recovery.unreachable]
    mission.event(EventKind.HALT, codes=result.codes, detail=f"{result.reason}; nothing more "
                  "of the plan is sent; running the safe fallback"
                  + (f" on {', '.join(reachable)}" if reachable else " (no robot to secure)"))
    for robot, why in recovery.unreachable.items():
        mission.event(EventKind.FALLBACK, robot=robot, detail=f"not reachable: {why}; its own "
                      "lost-link failsafe is its safe stop")
    mission.session = MissionGate(orch.gate, mission.id, record.request, Plan(None, ()))
    if reachable:
        run_fallback(mission, mission.session, reachable, guarded=True)
    mission.finish()
    recovery.journal_errors = list(result.journal_errors)
    recovery.fallback = _fallback_outcomes(
        e for e in journal.events(record.mission_id) if e.seq > first_seq)
    return recovery


def _fallback_outcomes(events: Iterable[Event]) -> list[tuple[str, str]]:
    """(ROBOT.SKILL, outcome) of each fallback step a recovery journaled: succeeded, failed:
    why, refused by the gate (codes), skipped: why, not reachable: why."""
    outcomes: list[tuple[str, str]] = []
    for event in events:
        ref = f"{event.robot}.{event.skill}" if event.skill else str(event.robot)
        if event.kind is EventKind.FALLBACK and event.detail != "dispatched":
            codes = f" ({', '.join(event.codes)})" if event.codes else ""
            outcomes.append((ref, event.detail + codes))
        elif event.kind is EventKind.RESULT and event.data.get("fallback"):
            ok = bool(event.data.get("succeeded"))
            outcomes.append((ref, "succeeded" if ok else f"failed: {event.detail}"))
    return outcomes


__all__ = ["Findings", "Recovery", "SentStep", "read_findings", "recover", "unfinished"]
