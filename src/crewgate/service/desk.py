"""The mission desk: where an agent (an MCP client, later the operator service's API) hands
crewgate plans or requests, and crewgate alone decides what moves.

One desk holds one crew, one open backend adapter (the robots' world persists from mission to
mission), one journal and the attempts of each mission. The agent is the Mission Planner: it
submits a plan, or asks the desk's own planner to write one; a refused plan comes back with the
gate's problems (step, code, detail) and counts against the mission's attempts (1 + the `ro`
condition's replans, as in the study); an accepted plan waits for an operator's approval where
its workflow says ``approval: true`` (the agent cannot approve it), then runs through
:func:`crewgate.api.run_mission`: the whole-plan gate again, per-dispatch authorization, the
journal. Missions run one at a time on the adapter, each in a worker thread, so that status,
cancel and e-stop answer while one runs.
"""

from __future__ import annotations

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
from crewgate.errors import CrewgateError, UserError
from crewgate.gate import Gate
from crewgate.journal import APPROVED, DENIED, WITHDRAWN, Journal
from crewgate.limits import check_request
from crewgate.orchestrator.result import MissionResult
from crewgate.plan import Plan, parse_plan
from crewgate.planners.base import Planner, PlanningRequest
from crewgate.planners.scripted import ScriptedPlanner
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew

RO = CONDITIONS["ro"]
ATTEMPTS = RO.replans + 1  # the study's budget: a plan and one replan
MAX_WAIT_S = 600.0
POLL_S = 0.2  # how often a waiting mission looks for the operator's decision
REFUSAL_WAIT_S = 5.0  # how long an answer waits to journal a final refusal itself

State = Literal["refused", "awaiting_approval", "denied", "cancelled", "queued", "running",
                "completed", "halted", "crashed", "interrupted"]
ENDED = frozenset({"refused", "denied", "cancelled", "completed", "halted", "crashed",
                   "interrupted"})


class SubmitError(UserError):
    """A call the desk cannot take (an unknown mission, a spent budget, a closed mission)."""


@dataclass
class Draft:
    """One mission as the desk keeps it: the request, the plans submitted, where it stands."""

    id: str
    request: str
    plans: list[dict[str, Any] | str] = field(default_factory=list)
    state: State = "refused"
    feedback: list[dict[str, Any]] = field(default_factory=list)  # the last refusal's problems
    reason: str = ""
    result: MissionResult | None = None
    cancel: str | None = None  # why the agent cancelled it while it ran
    done: threading.Event = field(default_factory=threading.Event)


class MissionDesk:
    def __init__(self, crew: Crew, adapter: Adapter, journal: Journal, *,
                 planner: Planner | None = None, source: str = "agent") -> None:
        self.crew, self.adapter, self.journal = crew, adapter, journal
        self.gate: Gate = gate_for(crew)
        self.planner = planner
        self.source = source  # who submits: journaled as the mission's planner
        self.context = render_context(crew, RO.knowledge)
        self.plan_schema = plan_json_schema(crew, RO.knowledge)
        self._drafts: dict[str, Draft] = {}
        self._lock = threading.Lock()  # the drafts
        self._robots = threading.Lock()  # one mission at a time on the adapter
        self._closed = threading.Event()

    # -- reading ----------------------------------------------------------------------------------

    def check(self, plan: Mapping[str, Any] | str, request: str) -> dict[str, Any]:
        """The whole-plan verdict against the world as it is now; nothing moves."""
        # the world has its own lock: a check never waits for a running mission
        verdict = self.gate.validate(parse_plan(_plain(plan)), check_request(request),
                                     self.adapter.world)
        return {"accepted": verdict.accepted, "codes": verdict.codes,
                "feedback": verdict.feedback()}

    def robot_state(self) -> dict[str, Any]:
        world = self.adapter.world
        return {**world.to_json(), "estop": self.adapter.abort_reason()}

    def status(self, mission: str) -> dict[str, Any]:
        draft = self._draft(mission)
        self._poll_approval(draft)
        return self._summary(draft)

    # -- acting -----------------------------------------------------------------------------------

    def submit(self, request: str | None, plan: Mapping[str, Any] | str | None = None,
               mission: str | None = None, wait_s: float = 30.0) -> dict[str, Any]:
        """Check a plan (the agent's, or the desk planner's when ``plan`` is None) for a new
        mission or another attempt of a refused one; run it if accepted and approved, waiting
        up to ``wait_s`` for it to end."""
        draft = self._attempt(request, mission)
        written = _plain(plan) if plan is not None else self._planned(draft)
        parsed = parse_plan(written)
        # against the world as it is now (a running mission's robots move on: the gate checks
        # the plan again when its mission starts, and every step at its dispatch)
        verdict = self.gate.validate(parsed, draft.request, self.adapter.world)
        draft.plans.append(written)
        if not verdict.accepted:
            draft.feedback = verdict.feedback()
            left = ATTEMPTS - len(draft.plans)
            draft.reason = ("the gate refused the plan; fix what the feedback names and submit "
                            f"again with mission={draft.id!r} ({left} attempt{_s(left)} left)"
                            if left else "the gate refused the plan, and the mission has no "
                            "attempt left: nothing moved")
            if not left:
                self._journal_refusal(draft)
            return self._summary(draft)
        draft.feedback = []
        assert isinstance(parsed, Plan)
        wf = self.crew.workflows.get(parsed.workflow or "")
        if wf is not None and wf.approval:
            draft.state = "awaiting_approval"
            draft.reason = (f"workflow {parsed.workflow!r} needs an operator's approval: "
                            f"`crewgate approve {draft.id}` (or --deny); the agent cannot "
                            "approve it")
            self.journal.ask_approval(draft.id, self.crew.name, draft.request, parsed.to_json())
            return self._summary(draft)
        self._launch(draft)
        return self._wait(draft, wait_s)

    def wait(self, mission: str, wait_s: float) -> dict[str, Any]:
        draft = self._draft(mission)
        self._poll_approval(draft)
        return self._wait(draft, wait_s)

    def cancel(self, mission: str) -> dict[str, Any]:
        """Withdraw a mission that waits, or stop a running one before its next step (the
        running step ends; the safe fallback runs)."""
        draft = self._draft(mission)
        with self._lock:
            if draft.state in ENDED:
                raise SubmitError(f"mission {draft.id} has already ended ({draft.state})")
            if draft.state == "awaiting_approval":
                draft.state, draft.reason = "cancelled", "withdrawn by the agent before approval"
                draft.done.set()
                withdraw = True
            else:
                withdraw = False
                draft.cancel = "cancelled by the agent"
        if withdraw:  # the operator's list must not offer it any more; if the operator decided
            # meanwhile, that decision stands in the journal
            with suppress(UserError):
                self.journal.decide(draft.id, WITHDRAWN, by=f"the {self.source}")
        return self._wait(draft, 10.0)

    def estop(self, *, release: bool = False) -> dict[str, Any]:
        """Engage (or release) the e-stop: the running mission cancels its step and sends
        nothing more; every later mission is refused at dispatch until released. On the
        simulator the robots then run their own safe stop (the drone lands)."""
        if release:
            self.adapter.release_stop()
            return {"estop": None}
        self.adapter.engage_stop(f"e-stop engaged by the {self.source}")
        with self._robots:  # after the running mission has halted
            stopped = self.adapter.safe_stop()
        return {"estop": self.adapter.abort_reason(), "safe_stop": stopped}

    def close(self) -> None:
        self._closed.set()
        for draft in list(self._drafts.values()):
            with self._lock:
                if draft.state in ("running", "queued"):
                    draft.cancel = "the server is shutting down"
            draft.done.wait(30.0)

    # -- inside -----------------------------------------------------------------------------------

    def _attempt(self, request: str | None, mission: str | None) -> Draft:
        if mission is None:
            if request is None:
                raise SubmitError("a new mission needs its request (what the person asked)")
            # the bounds every reader of a request keeps (empty, too long, a NUL)
            draft = Draft(f"m{secrets.token_hex(6)}", check_request(request).strip())
            with self._lock:
                self._drafts[draft.id] = draft
            return draft
        draft = self._draft(mission)
        if request is not None and request.strip() != draft.request:
            raise SubmitError(f"mission {draft.id} is for the request {draft.request!r}; a new "
                              "request is a new mission (leave out mission)")
        if draft.state != "refused" or not draft.plans:
            raise SubmitError(f"mission {draft.id} is {draft.state}: only a refused plan can be "
                              "submitted again")
        if len(draft.plans) >= ATTEMPTS:
            raise SubmitError(f"mission {draft.id} has used its {ATTEMPTS} attempts; nothing "
                              "moved. Start a new mission if the request still stands")
        return draft

    def _draft(self, mission: str) -> Draft:
        with self._lock:
            draft = self._drafts.get(mission)
        if draft is None:
            known = ", ".join(list(self._drafts)[-5:]) or "none yet"
            raise SubmitError(f"no mission {mission!r} on this server (latest: {known})")
        return draft

    def _planned(self, draft: Draft) -> dict[str, Any] | str:
        """The desk planner's proposal for the request (with the last refusal's feedback)."""
        if self.planner is None:
            raise SubmitError("this server has no planner: submit a plan")
        ask = PlanningRequest(draft.request, self.crew, self.context, self.plan_schema, RO.name,
                              len(draft.plans) + 1, tuple(draft.feedback))
        out = self.planner.plan(ask)
        return out.plan.to_json() if isinstance(out.plan, Plan) else out.raw

    def _launch(self, draft: Draft) -> None:
        draft.state = "queued"
        threading.Thread(target=self._run, args=(draft,), name=f"mission-{draft.id}",
                         daemon=True).start()

    def _run(self, draft: Draft) -> None:
        try:
            with self._robots:
                with self._lock:
                    if draft.cancel is not None:  # cancelled while queued: nothing moved
                        draft.state, draft.reason = "cancelled", draft.cancel
                        return
                    draft.state = "running"
                result = run_mission(self.crew, draft.request, ScriptedPlanner(draft.plans),
                                     journal=self.journal, adapter=self.adapter,
                                     mission_id=draft.id, cancel=lambda: draft.cancel)
            with self._lock:
                draft.result, draft.state = result, result.status
                draft.reason = result.reason
        except CrewgateError as exc:
            draft.state, draft.reason = "crashed", f"{type(exc).__name__}: {exc}"
        finally:
            draft.done.set()

    def _poll_approval(self, draft: Draft) -> None:
        """Start an approved mission; end a denied one (the decision is the operator's, in
        the journal)."""
        if draft.state != "awaiting_approval":
            return
        approval = self.journal.approval(draft.id)
        if approval is None or approval.decision is None:
            return
        with self._lock:
            if draft.state != "awaiting_approval":
                return
            if approval.decision == DENIED:
                draft.state = "denied"
                draft.reason = f"denied by {approval.decided_by}: nothing moved"
                draft.done.set()
                return
        if approval.decision == APPROVED:
            self._launch(draft)

    def _wait(self, draft: Draft, wait_s: float) -> dict[str, Any]:
        deadline = time.monotonic() + min(max(wait_s, 0.0), MAX_WAIT_S)
        while not draft.done.is_set() and time.monotonic() < deadline:
            if draft.state == "awaiting_approval":
                self._poll_approval(draft)
            draft.done.wait(POLL_S)
        return self._summary(draft)

    def _journal_refusal(self, draft: Draft) -> None:
        """A mission refused for good goes into the journal like any other: the orchestrator
        refuses the same plans again (nothing moves) and records every attempt. It uses the
        adapter's mission hooks, so it waits for a running mission: a moment here, else in the
        background (the answer then has no journal record yet)."""
        draft.state = "refused"

        def journal() -> None:
            try:
                draft.result = run_mission(self.crew, draft.request,
                                           ScriptedPlanner(draft.plans), journal=self.journal,
                                           adapter=self.adapter, mission_id=draft.id)
            finally:
                self._robots.release()
                draft.done.set()

        if self._robots.acquire(timeout=REFUSAL_WAIT_S):
            journal()
        else:
            def later() -> None:
                self._robots.acquire()
                journal()

            threading.Thread(target=later, name=f"refusal-{draft.id}", daemon=True).start()

    def _summary(self, draft: Draft) -> dict[str, Any]:
        out: dict[str, Any] = {"mission": draft.id, "status": draft.state,
                               "attempts": len(draft.plans), "attempts_left":
                               ATTEMPTS - len(draft.plans) if draft.state == "refused" and
                               draft.result is None else 0,
                               "reason": draft.reason}
        if draft.feedback:
            out["feedback"] = draft.feedback
        result = draft.result
        if result is not None:
            out["codes"] = result.codes
            out["refusals"] = [{"stage": r.stage, "index": r.index, "problems": [
                p.to_json() for p in r.problems]} for r in result.refusals]
            out["dispatched"] = [{"step": f"{d.robot}.{d.skill}", "kind": d.kind,
                                  "succeeded": d.succeeded, "message": d.message}
                                 for d in result.dispatched]
            out["trace"] = f"crewgate trace {result.mission_id}"
        return out


def _plain(plan: Mapping[str, Any] | str) -> dict[str, Any] | str:
    return plan if isinstance(plan, str) else dict(plan)


def _s(n: int) -> str:
    return "" if n == 1 else "s"


__all__ = ["ATTEMPTS", "MissionDesk", "SubmitError"]
