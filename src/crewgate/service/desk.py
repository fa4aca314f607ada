"""The mission desk: the service core. Agents (the MCP server), operators and API clients (the
HTTP service) hand it requests or plans; crewgate alone decides what moves.

One desk holds one crew on one live backend (:class:`~crewgate.service.live.LiveCrew`: the
robots' world persists from mission to mission), one journal, and the missions submitted to
it. Each mission runs in its own worker thread as one orchestrator mission
(:func:`crewgate.api.run_mission`), journaled from its submission on:

1. **planning** — the desk's planner writes the plan (with one replan on a refusal, the `ro`
   condition), or the client submits plans itself: a refused plan comes back with the gate's
   problems and the client may submit one more (1 + the `ro` condition's replans, as in the
   study);
2. **clearance** — an accepted plan waits for a human's approval where its workflow (or the
   service) requires it (``required``; ``two_person``: not by who submitted it), until a
   decision or the approval timeout; then for the lease of its robots (missions on disjoint
   robots run at the same time; a busy robot makes a mission wait in line, or refuses it when
   the client asked not to wait); then the whole plan is checked again against the world as
   it is now;
3. **execution** — through a view of the backend that reaches only the leased robots, every
   step authorized at its dispatch, as for any mission.

Cancel, e-stop (crew-wide or one robot) and status answer at any time.
"""

from __future__ import annotations

import json
import math
import secrets
import threading
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Literal

from crewgate.adapters.base import Adapter
from crewgate.api import gate_for, run_mission
from crewgate.conditions import CONDITIONS
from crewgate.errors import CrewgateError, PlannerError, UserError
from crewgate.gate import Gate
from crewgate.journal import APPROVED, DENIED, EXPIRED, WITHDRAWN, Event, EventKind, Journal
from crewgate.limits import check_request
from crewgate.orchestrator.clearance import Held
from crewgate.orchestrator.mission import Mission
from crewgate.orchestrator.result import MissionResult
from crewgate.plan import Plan, parse_plan
from crewgate.planners.base import Planner, PlannerOutput, PlanningRequest, Proposal
from crewgate.render import plan_json_schema, render_context
from crewgate.service.leases import Leases, RobotsBusy
from crewgate.service.live import LiveCrew, MissionView
from crewgate.spec import Crew
from crewgate.spec.workflow import Approval

RO = CONDITIONS["ro"]
ATTEMPTS = RO.replans + 1  # the study's budget: a plan and one replan
MAX_WAIT_S = 600.0
CHECK_S = 30.0  # how long a submission waits at most for the gate's verdict on its plan
POLL_S = 0.2  # how often a waiting mission looks in the journal for a decision made elsewhere
RESUBMIT_S = 600.0  # how long a refused mission waits for the client's next plan
APPROVAL_S = 900.0  # the default approval timeout: no decision by then rejects the plan
MAX_HELD = 500  # missions a desk keeps in memory (older ended ones are read from the journal)
APPROVAL_RANK: dict[str, int] = {"none": 0, "required": 1, "two_person": 2}

State = Literal["planning", "refused", "awaiting_approval", "denied", "cancelled", "queued",
                "running", "completed", "halted", "crashed", "interrupted"]
ENDED = frozenset({"denied", "cancelled", "completed", "halted", "crashed", "interrupted"})


def _finite_wait(wait_s: float) -> None:
    if not math.isfinite(wait_s):  # (a NaN deadline ends every wait at once, unsaid)
        raise SubmitError(f"wait_s must be a finite number of seconds (0 to {MAX_WAIT_S:g}), "
                          f"not {wait_s!r}")


class SubmitError(UserError):
    """A call the desk cannot take (an unknown mission, a spent budget, a closed mission)."""


class Forbidden(SubmitError):
    """A call the caller may not make (approving their own two-person mission)."""


@dataclass
class Draft:
    """One mission as the desk keeps it: the request, who asked, the plans, where it stands."""

    id: str
    request: str
    by: str  # who submitted it
    planner: str  # "client" when the client writes the plans
    wait_for_robots: bool = True
    submitted: float = field(default_factory=time.time)
    plans: list[dict[str, Any] | str] = field(default_factory=list)
    state: State = "planning"
    feedback: list[dict[str, Any]] = field(default_factory=list)  # the last refusal's problems
    reason: str = ""
    plan: Plan | None = None  # the accepted plan
    robots: tuple[str, ...] = ()  # the robots its plan leases
    approval: Approval = "none"
    decisions: list[dict[str, Any]] = field(default_factory=list)  # who decided what, when
    result: MissionResult | None = None
    cancel: str | None = None  # why it must stop (a cancel while it waits or runs)
    inbox: list[dict[str, Any] | str] = field(default_factory=list)  # the client's next plan
    ended: bool = False  # the worker is done (refused for good, or ended)


class MissionDesk:
    def __init__(self, crew: Crew, robots: LiveCrew | Adapter, journal: Journal, *,
                 planner: Planner | None = None, source: str = "agent",
                 approval: Approval = "none", approval_timeout_s: float = APPROVAL_S) -> None:
        self.crew, self.journal = crew, journal
        self.live = robots if isinstance(robots, LiveCrew) else LiveCrew(robots, speed=None)
        self.gate: Gate = gate_for(crew)
        self.planner = planner
        self.source = source  # who submits by default ("MCP agent")
        self.approval: Approval = approval  # the service's minimum for every mission
        self.approval_timeout_s = approval_timeout_s
        self.context = render_context(crew, RO.knowledge)
        self.plan_schema = plan_json_schema(crew, RO.knowledge)
        self.leases = Leases()
        self._drafts: dict[str, Draft] = {}
        self._changed = threading.Condition()  # guards every draft's fields; notified on change
        self._planning = threading.Lock()  # one planner call at a time (planners are not
        # required to be thread-safe)
        self._closed = threading.Event()

    # -- reading ----------------------------------------------------------------------------------

    def check(self, plan: Mapping[str, Any] | str, request: str) -> dict[str, Any]:
        """The whole-plan verdict against the world as it is now; nothing moves."""
        # the world has its own lock: a check never waits for a running mission
        verdict = self.gate.validate(parse_plan(_plain(plan)), check_request(request),
                                     self.live.world)
        return {"accepted": verdict.accepted, "codes": verdict.codes,
                "feedback": verdict.feedback()}

    def robot_state(self) -> dict[str, Any]:
        return {**self.live.world.to_json(), "estop": self.live.stop_reason()}

    def status(self, mission: str) -> dict[str, Any]:
        return self.summary(self._draft(mission))

    def missions(self) -> list[dict[str, Any]]:
        """Every mission this desk holds, newest first: its summary and who asked what (no
        journal read: a console lists them every few seconds)."""
        with self._changed:
            drafts = sorted(self._drafts.values(), key=lambda d: d.submitted, reverse=True)
        return [{**self.summary(d), **self._brief(d)} for d in drafts]

    def _brief(self, draft: Draft) -> dict[str, Any]:
        with self._changed:
            return {"request": draft.request, "submitted_by": draft.by,
                    "submitted_wall": draft.submitted, "robots": list(draft.robots),
                    "approval": draft.approval}

    def holds(self, mission: str) -> bool:
        with self._changed:
            return mission in self._drafts

    # -- acting -----------------------------------------------------------------------------------

    def submit(self, request: str | None, plan: Mapping[str, Any] | str | None = None,
               mission: str | None = None, wait_s: float = 30.0, *, by: str | None = None,
               wait_for_robots: bool = True) -> dict[str, Any]:
        """A new mission (``request``; with the client's ``plan``, else the desk planner
        writes it) or the client's next plan for a refused one (``mission``); waits up to
        ``wait_s`` until it needs the client again or ends."""
        _finite_wait(wait_s)  # (before anything is submitted)
        if mission is None:
            draft = self._new(request, plan is None, by or self.source, wait_for_robots)
            if plan is not None:
                draft.inbox.append(_plain(plan))
            threading.Thread(target=self._work, args=(draft,), name=f"mission-{draft.id}",
                             daemon=True).start()
        else:
            if plan is None:
                raise SubmitError("another attempt needs its plan (or leave out mission to "
                                  "start a new mission)")
            draft = self._again(request, mission)
            with self._changed:
                draft.inbox.append(_plain(plan))
                draft.state = "planning"
                self._changed.notify_all()
        if plan is not None:  # the client's plan is checked before the answer, whatever wait_s
            deadline = time.monotonic() + CHECK_S
            with self._changed:
                while draft.state == "planning" and not draft.ended and \
                        time.monotonic() < deadline:
                    self._changed.wait(POLL_S)
        return self.wait(draft.id, wait_s, settle=True)

    def wait(self, mission: str, wait_s: float, *, settle: bool = False) -> dict[str, Any]:
        """The mission's summary once it ends (or, with ``settle``, once it needs someone:
        a refused plan, an approval), or after ``wait_s``."""
        _finite_wait(wait_s)
        draft = self._draft(mission)
        deadline = time.monotonic() + min(max(wait_s, 0.0), MAX_WAIT_S)
        with self._changed:
            while not self._settled(draft, settle):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(min(left, POLL_S))
        return self.summary(draft)

    def decide(self, mission: str, approve: bool, *, by: str) -> dict[str, Any]:
        """An operator's decision on a mission that waits for approval (journaled: who, when).
        Two-person approval: whoever submitted it cannot approve it."""
        draft = self._draft(mission)
        with self._changed:
            if draft.state != "awaiting_approval":
                raise SubmitError(f"mission {draft.id} is {draft.state}, not awaiting approval")
        try:
            self.journal.decide(draft.id, APPROVED if approve else DENIED, by=by)
        except UserError as exc:
            if draft.approval == "two_person" and by == draft.by and approve:
                raise Forbidden(str(exc)) from exc
            raise SubmitError(str(exc)) from exc
        deadline = time.monotonic() + CHECK_S  # the mission takes the decision in a moment
        with self._changed:
            self._changed.notify_all()
            while draft.state == "awaiting_approval" and not draft.ended and \
                    time.monotonic() < deadline:
                self._changed.wait(POLL_S)
        return self.summary(draft)

    def cancel(self, mission: str, *, by: str | None = None) -> dict[str, Any]:
        """Withdraw a mission that has not moved yet, or stop a running one before its next
        step (the running step ends; the safe fallback runs)."""
        draft = self._draft(mission)
        who = by or f"the {self.source}"
        with self._changed:
            if draft.ended or draft.state in ENDED:
                raise SubmitError(f"mission {draft.id} has already ended ({draft.state})")
            waiting = draft.state == "awaiting_approval"
            draft.cancel = (f"withdrawn by {who} before approval" if waiting
                            else f"cancelled by {who}")
            self._changed.notify_all()
        if waiting:  # the operators' list must not offer it any more (a decision made
            # meanwhile stands in the journal)
            with suppress(UserError):
                self.journal.decide(draft.id, WITHDRAWN, by=who)
        return self.wait(draft.id, 10.0)

    def estop(self, *, release: bool = False, robot: str | None = None,
              by: str | None = None) -> dict[str, Any]:
        """Engage (or release) the e-stop, for the crew or one robot: missions on the stopped
        robots halt at once and send nothing more; the simulated robots run their own safe
        stop (the drone lands). Later missions on them are held until released."""
        if release:
            self.live.release_stop(robot)
            return {"estop": self.live.stop_reason(), **({"robot": robot} if robot else {})}
        why = f"e-stop engaged by {by or f'the {self.source}'}" + (f" for {robot}" if robot
                                                                   else "")
        started = self.live.engage_stop(why, robot)
        return {"estop": self.live.stop_reason([robot] if robot else None), "safe_stop": started}

    def close(self) -> None:
        """Stop taking missions; cancel those that wait or run, and wait for them to end."""
        self._closed.set()
        with self._changed:
            drafts = list(self._drafts.values())
            for draft in drafts:
                if not draft.ended and draft.cancel is None:
                    draft.cancel = "the server is shutting down"
            self._changed.notify_all()
        deadline = time.monotonic() + 30.0
        with self._changed:
            while any(not d.ended for d in drafts) and time.monotonic() < deadline:
                self._changed.wait(POLL_S)

    # -- the summary every client reads -------------------------------------------------------

    def summary(self, draft: Draft) -> dict[str, Any]:
        with self._changed:
            state, result = draft.state, draft.result
            out: dict[str, Any] = {
                "mission": draft.id, "status": state, "attempts": len(draft.plans),
                "attempts_left": ATTEMPTS - len(draft.plans)
                if state == "refused" and not draft.ended else 0,
                "reason": draft.reason}
            if draft.feedback:
                out["feedback"] = list(draft.feedback)
        if result is not None:
            out["codes"] = result.codes
            out["refusals"] = [{"stage": r.stage, "index": r.index, "problems": [
                p.to_json() for p in r.problems]} for r in result.refusals]
            out["dispatched"] = [{"step": f"{d.robot}.{d.skill}", "kind": d.kind,
                                  "succeeded": d.succeeded, "message": d.message}
                                 for d in result.dispatched]
            out["trace"] = f"crewgate trace {result.mission_id}"
        return out

    def detail(self, mission: str) -> dict[str, Any]:
        """Everything a console shows of one mission: the summary, who submitted it, its
        plans with each step's verdict and reason, the approvals, the leased robots."""
        draft = self._draft(mission)
        out = {**self.summary(draft), **self._brief(draft)}
        with self._changed:
            out.update(planner=draft.planner, decisions=list(draft.decisions),
                       plan=draft.plan.to_json() if draft.plan is not None else None)
            plans = list(draft.plans)
        out["attempt_plans"] = [p if isinstance(p, dict) else {"raw": p} for p in plans]
        events = self.journal.events(draft.id)
        # each attempt's whole-plan verdict, with every step's codes and reasons
        out["verdicts"] = [e.data for e in events if e.kind == EventKind.VERDICT]
        if "dispatched" not in out:  # still running: what the journal has seen so far
            out["dispatched"] = _dispatched(events)
        return out

    # -- inside -----------------------------------------------------------------------------------

    def _new(self, request: str | None, planned: bool, by: str,
             wait_for_robots: bool) -> Draft:
        if self._closed.is_set():
            raise SubmitError("the server is shutting down: no new mission")
        if request is None:
            raise SubmitError("a new mission needs its request (what the person asked)")
        if planned and self.planner is None:
            raise SubmitError("this server has no planner: submit a plan")
        # the bounds every reader of a request keeps (empty, too long, a NUL)
        text = check_request(request).strip()
        name = self.planner.name if planned and self.planner is not None else "client"
        draft = Draft(f"m{secrets.token_hex(6)}", text, by, name, wait_for_robots)
        with self._changed:
            self._drafts[draft.id] = draft
            # a service runs for days: it keeps the latest missions, the journal keeps them all
            ended = [d for d in self._drafts.values() if d.ended]
            for old in ended[:max(0, len(self._drafts) - MAX_HELD)]:
                del self._drafts[old.id]
        return draft

    def _again(self, request: str | None, mission: str) -> Draft:
        draft = self._draft(mission)
        if request is not None and request.strip() != draft.request:
            raise SubmitError(f"mission {draft.id} is for the request {draft.request!r}; a new "
                              "request is a new mission (leave out mission)")
        with self._changed:
            if draft.planner != "client":
                raise SubmitError(f"mission {draft.id} is planned by the server's "
                                  f"{draft.planner} planner: it replans by itself")
            if len(draft.plans) >= ATTEMPTS:
                raise SubmitError(f"mission {draft.id} has used its {ATTEMPTS} attempts; "
                                  "nothing moved. Start a new mission if the request still "
                                  "stands")
            if draft.state != "refused" or draft.ended or draft.inbox:
                raise SubmitError(f"mission {draft.id} is {draft.state}: only a refused plan "
                                  "can be submitted again")
        return draft

    def _draft(self, mission: str) -> Draft:
        with self._changed:
            draft = self._drafts.get(mission)
            known = ", ".join(list(self._drafts)[-5:]) or "none yet"
        if draft is None:
            raise SubmitError(f"no mission {mission!r} on this server (latest: {known})")
        return draft

    def _settled(self, draft: Draft, settle: bool) -> bool:
        if draft.ended:
            return True
        if not settle:
            return False
        return draft.state == "awaiting_approval" or (
            draft.state == "refused" and not draft.inbox)

    def _set(self, draft: Draft, state: State, reason: str | None = None) -> None:
        with self._changed:
            draft.state = state
            if reason is not None:
                draft.reason = reason
            self._changed.notify_all()

    def _work(self, draft: Draft) -> None:
        """The mission's worker: one orchestrator mission, planning to its end."""
        planner: Planner = (_Planned(self, draft) if draft.planner != "client"
                            else _Mailbox(self, draft))
        view = self.live.view(draft.id, (), by=draft.by)
        try:
            result = run_mission(self.crew, draft.request, planner, journal=self.journal,
                                 adapter=view, mission_id=draft.id,
                                 cancel=lambda: draft.cancel,
                                 clearance=lambda m, p: self._clear(draft, view, m, p))
            with self._changed:
                draft.result = result
                draft.state = result.status
                draft.reason = result.reason or draft.reason
                if result.status == "refused":
                    last = result.attempts[-1].verdict if result.attempts else None
                    draft.feedback = last.feedback() if last is not None else []
                    if not draft.reason or draft.reason.startswith("the plan was refused"):
                        draft.reason = ("the gate refused the plan, and the mission has no "
                                        "attempt left: nothing moved")
        except CrewgateError as exc:
            self._set(draft, "crashed", f"{type(exc).__name__}: {exc}")
        finally:
            self.leases.release(draft.id)
            with self._changed:
                draft.ended = True
                self._changed.notify_all()

    def _clear(self, draft: Draft, view: MissionView, mission: Mission, plan: Plan) -> Held | None:
        """Between the accepted plan and its first step: the approval, then the lease."""
        robots = tuple(dict.fromkeys(s.robot for s in plan.steps if s.robot in self.crew.robots))
        wf = self.crew.workflows.get(plan.workflow or "")
        needs: Approval = wf.approval if wf is not None else "none"
        if APPROVAL_RANK[self.approval] > APPROVAL_RANK[needs]:
            needs = self.approval
        with self._changed:
            draft.plan, draft.robots, draft.approval = plan, robots, needs
            draft.feedback = []
        if needs != "none":
            held = self._approval(draft, mission, plan, needs)
            if held is not None:
                return held
        return self._lease(draft, view, mission, robots)

    def _approval(self, draft: Draft, mission: Mission, plan: Plan,
                  needs: str) -> Held | None:
        what = "two-person approval" if needs == "two_person" else "an operator's approval"
        whom = "approve" if needs != "two_person" else f"approve (not {draft.by})"
        self._set(draft, "awaiting_approval",
                  f"workflow {plan.workflow!r} needs {what}: `crewgate approve {draft.id}` "
                  f"(or --deny), or {whom} in the console; the {self.source} cannot approve "
                  "it" if self.approval == "none" else
                  f"this service needs {what} for every mission: {whom} it in the console or "
                  f"with `crewgate approve {draft.id}`")
        self.journal.ask_approval(draft.id, self.crew.name, draft.request, plan.to_json(),
                                  asked_by=draft.by, mode=needs)
        mission.event(EventKind.APPROVAL, detail=f"asked: {what}",
                      data={"asked_by": draft.by, "mode": needs,
                            "timeout_s": self.approval_timeout_s})
        deadline = time.monotonic() + self.approval_timeout_s
        while True:
            decided = self.journal.approval(draft.id)
            if decided is not None and decided.decision is not None:
                break
            if draft.cancel is not None:
                decided = None
                break
            if time.monotonic() >= deadline:
                try:
                    self.journal.decide(draft.id, EXPIRED, by="the approval timeout")
                except UserError:
                    continue  # someone decided at the last moment: read it
                decided = self.journal.approval(draft.id)
                break
            with self._changed:
                self._changed.wait(POLL_S)
        if decided is None or decided.decision == WITHDRAWN:
            why = draft.cancel or "withdrawn before approval"
            mission.event(EventKind.APPROVAL, detail=f"withdrawn: {why}")
            return Held("cancelled", why)
        entry = {"decision": decided.decision, "by": decided.decided_by, "wall": time.time()}
        with self._changed:
            draft.decisions.append(entry)
        mission.event(EventKind.APPROVAL, detail=f"{decided.decision} by {decided.decided_by}",
                      data=entry)
        if decided.decision == APPROVED:
            return None
        if decided.decision == EXPIRED:
            return Held("denied", f"no decision within {self.approval_timeout_s:g} s: rejected "
                        "by the approval timeout; nothing moved")
        return Held("denied", f"denied by {decided.decided_by}: nothing moved")

    def _lease(self, draft: Draft, view: MissionView, mission: Mission,
               robots: tuple[str, ...]) -> Held | None:
        busy = self.leases.busy(robots)
        if busy:
            holders = ", ".join(f"{r} (mission {m})" for r, m in sorted(busy.items()))
            if not draft.wait_for_robots:
                reason = f"robots_busy: {holders} are leased to other missions; nothing moved"
                mission.event(EventKind.LEASE, detail=reason, data={"busy": busy})
                return Held("cancelled", reason)
            self._set(draft, "queued", f"waiting for {holders}")
            mission.event(EventKind.LEASE, detail=f"waiting for {holders}",
                          data={"robots": list(robots), "busy": busy})
        else:
            self._set(draft, "queued", "")
        try:
            got = self.leases.acquire(draft.id, robots, wait=draft.wait_for_robots,
                                      give_up=lambda: draft.cancel is not None)
        except RobotsBusy as exc:  # taken between the look and the lease
            reason = f"robots_busy: {exc}; nothing moved"
            mission.event(EventKind.LEASE, detail=reason, data={"busy": exc.holders})
            return Held("cancelled", reason)
        if not got:
            return Held("cancelled", draft.cancel or "cancelled while it waited for its robots")
        view.robots = frozenset(robots)
        mission.event(EventKind.LEASE, detail=f"leased {', '.join(robots)}",
                      data={"robots": list(robots)})
        self._set(draft, "running", "")
        return None


class _Planned(Planner):
    """The desk planner, for one mission: planner calls one at a time, the attempts kept."""

    def __init__(self, desk: MissionDesk, draft: Draft) -> None:
        assert desk.planner is not None
        self.desk, self.draft, self.inner = desk, draft, desk.planner
        self.name, self.replans = self.inner.name, self.inner.replans

    def plan(self, request: PlanningRequest) -> PlannerOutput:
        if request.attempt > 1:
            with self.desk._changed:
                self.draft.feedback = [dict(f) for f in request.feedback]
        with self.desk._planning:
            out = self.inner.plan(request)
        with self.desk._changed:
            self.draft.plans.append(out.plan.to_json() if isinstance(out.plan, Plan)
                                    else out.raw)
            self.desk._changed.notify_all()
        return out

    def _propose(self, request: PlanningRequest) -> Proposal:  # pragma: no cover - plan()
        raise NotImplementedError


class _Mailbox(Planner):
    """The client's plans, for one mission: the first comes with the submission; after a
    refusal the mission waits for the client's next one (or gives up)."""

    name = "client"

    def __init__(self, desk: MissionDesk, draft: Draft) -> None:
        self.desk, self.draft = desk, draft

    def _propose(self, request: PlanningRequest) -> Proposal:
        desk, draft = self.desk, self.draft
        with desk._changed:
            if request.attempt > 1:
                left = ATTEMPTS - len(draft.plans)
                draft.feedback = [dict(f) for f in request.feedback]
                draft.state = "refused"
                draft.reason = (f"the gate refused the plan; fix what the feedback names and "
                                f"submit again with mission={draft.id!r} ({left} attempt"
                                f"{'' if left == 1 else 's'} left)")
                desk._changed.notify_all()
            deadline = time.monotonic() + RESUBMIT_S
            while not draft.inbox:
                if draft.cancel is not None:
                    raise PlannerError(f"no further plan: {draft.cancel}")
                if time.monotonic() >= deadline:
                    raise PlannerError(f"no further plan came within {RESUBMIT_S:g} s")
                desk._changed.wait(POLL_S)
            written = draft.inbox.pop(0)
            draft.plans.append(written)
            draft.state = "planning"
        return Proposal(written if isinstance(written, str) else json.dumps(written),
                        parse_plan(written))


def _dispatched(events: list[Event]) -> list[dict[str, Any]]:
    """The commands a running mission sent, as the summary lists them, from its journal."""
    sent: list[dict[str, Any]] = []
    for e in events:
        fallback = e.kind == EventKind.FALLBACK and e.detail == "dispatched"
        if e.kind == EventKind.SENT or fallback:
            sent.append({"step": f"{e.robot}.{e.skill}", "kind": "fallback" if fallback
                         else "step", "succeeded": None, "message": ""})
        elif e.kind == EventKind.RESULT and sent and sent[-1]["succeeded"] is None and \
                sent[-1]["step"] == f"{e.robot}.{e.skill}":
            sent[-1].update(succeeded=bool(e.data.get("succeeded")), message=e.detail)
    return sent


def _plain(plan: Mapping[str, Any] | str) -> dict[str, Any] | str:
    return plan if isinstance(plan, str) else dict(plan)


__all__ = ["ATTEMPTS", "Forbidden", "MissionDesk", "SubmitError"]
