"""Per-mission authorization: each dispatch is re-checked against live state at the moment it
happens, and each authorization is consumed exactly once.

A :class:`MissionGate` holds what a mission has done so far (steps dispatched and completed) so
that the contract is checked as a sequence of transitions, not once up front.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple

from crewgate.codes import Code, Problem
from crewgate.errors import GateViolation
from crewgate.gate.gate import Gate, Mode, Settled
from crewgate.gate.verdict import StepVerdict
from crewgate.plan import Plan, Step
from crewgate.spec import FallbackStep, split_ref
from crewgate.text.request import RequestFacts
from crewgate.world import BindingValue, World

_serial = itertools.count(1)


class Authorization(NamedTuple):
    """Permission to dispatch one step once, or (enforcement off) the record that it was
    dispatched with these codes anyway. Immutable (a named tuple: one is issued per dispatch,
    and a tuple is built in a fraction of a frozen dataclass's time)."""

    mission_id: str
    index: int  # type: ignore[assignment]  # the field, not tuple.index
    step: Step
    kind: Literal["step", "fallback"]
    verdict: StepVerdict
    args: Mapping[str, Any]  # typed arguments with defaults; the raw ones when they did not type
    args_typed: bool
    bindings: Mapping[str, BindingValue]  # runtime values resolved at authorization
    enforced: bool
    issued_at: float
    token: int

    @property
    def ok(self) -> bool:
        return self.verdict.ok

    @property
    def dispatchable(self) -> bool:
        """Clean, or enforcement is off (the study's baselines dispatch regardless)."""
        return self.verdict.ok or not self.enforced

    @property
    def skip(self) -> bool:
        """Refused only because the robot is unavailable, in a partial (safety) workflow: the
        mission skips this step and goes on."""
        return self.verdict.skip and self.enforced


class MissionGate:
    """The gate's view of one running mission."""

    def __init__(
        self, gate: Gate, mission_id: str, request: str, plan: Plan, *, enforce: bool = True
    ) -> None:
        self.gate = gate
        self.mission_id = mission_id
        self.facts = RequestFacts.read(request)
        self.plan = plan
        self.enforce = enforce
        self.workflow = plan.workflow
        self.planned = frozenset(s.ref for s in plan.steps)
        self.held = gate.held_to(plan, self.facts)  # the plan held to its request, once
        self.started: Counter[str] = Counter()
        self.completed: Counter[str] = Counter()
        self._outstanding: dict[int, Authorization] = {}
        self._settled: dict[int, Settled] = {}  # per plan step: what its checks settle

    def settled(self, index: int, step: Step) -> Settled:
        """What checking ``step`` as step ``index`` settles whatever the state (capability,
        arguments, containment, argument rules, the request's rule): once per step of the
        immutable plan; afresh for a step that is not the plan's."""
        return self._settled_on(index, step, self._on_plan(index, step))

    def _on_plan(self, index: int, step: Step) -> bool:
        steps = self.plan.steps
        planned = steps[index] if 0 <= index < len(steps) else None
        return planned is step or planned == step

    def _settled_on(self, index: int, step: Step, on_plan: bool) -> Settled:
        found = self._settled.get(index) if on_plan else None
        if found is None:
            found = self.gate.settle(index, step, Mode.DISPATCH, workflow=self.workflow,
                                     facts=self.facts, held=self.held)
            if on_plan:
                self._settled[index] = found
        return found

    def authorize(self, index: int, step: Step, world: World) -> Authorization:
        """Check ``step`` as the plan's step ``index`` against live state and bindings now:
        what its plan-time checks settled (:meth:`settled`) with what can have changed since
        (the mission's progress, availability, preconditions, runtime bindings)."""
        on_plan = self._on_plan(index, step)
        settled = self._settled_on(index, step, on_plan)
        with world.lock:
            check = self.gate.judge(settled, index, step, Mode.DISPATCH, self.workflow,
                                    world.state_view(), world.now(), world.bindings,
                                    self.started, self.completed, self.planned)
        verdict = check.verdict
        if not on_plan:
            off = Problem(Code.OFF_PLAN, f"step {index} {step.ref} is not the validated plan's "
                          f"step {index}", index)
            verdict = StepVerdict(index, step.robot, step.skill, (*verdict.problems, off))
        return self._issue(index, step, "step", verdict, check.typed, check.bindings, world,
                           enforced=self.enforce)

    def authorize_fallback(self, index: int, fallback: FallbackStep, world: World) -> Authorization:
        """A safe-fallback step: checked for capability, arguments and state, never contract."""
        robot, skill = split_ref(fallback.step)
        step = Step(robot, skill, dict(fallback.args))
        with world.lock:
            check = self.gate.check(
                index, step, Mode.FALLBACK, workflow=None, facts=None, state=world.state_view(),
                now=world.now(), bindings=world.bindings, started=Counter(), completed=Counter(),
            )
        # the fallback is always enforced, even in the baselines: it must never make things worse
        return self._issue(index, step, "fallback", check.verdict, check.typed, check.bindings,
                           world, enforced=True)

    def _issue(
        self, index: int, step: Step, kind: Literal["step", "fallback"], verdict: StepVerdict,
        typed: dict[str, Any] | None, bindings: Mapping[str, BindingValue], world: World, *,
        enforced: bool,
    ) -> Authorization:
        auth = Authorization(
            mission_id=self.mission_id, index=index, step=step, kind=kind, verdict=verdict,
            args=dict(typed) if typed is not None else dict(step.args),
            args_typed=typed is not None,
            bindings=dict(bindings), enforced=enforced,
            issued_at=world.now(), token=next(_serial),
        )
        self._outstanding[auth.token] = auth
        return auth

    def redeem(self, auth: Authorization) -> None:
        """Consume an authorization at dispatch. Reuse, forgery or a refused step under
        enforcement is a bug in the caller: it raises, and nothing is dispatched."""
        issued = self._outstanding.pop(auth.token, None)
        if issued is not auth:
            raise GateViolation(
                f"authorization {auth.token} for {auth.step.ref} was not issued by this mission's "
                "gate or was already used; each authorization is consumed exactly once")
        if not auth.dispatchable:
            raise GateViolation(f"{auth.step.ref} was refused ({', '.join(auth.verdict.codes)}); "
                                "a refused step cannot be dispatched under enforcement")
        if auth.kind == "step":
            self.started[auth.step.ref] += 1

    def last_check(self, auth: Authorization, now: float, window_s: float,
                   not_ready: str | None) -> tuple[Problem, ...]:
        """The gate's last word on a redeemed authorization, immediately before the send: what
        can have changed since it was issued (its age, the robot's readiness). Refused under
        enforcement; recorded otherwise, as every verdict is. ``not_ready`` is the adapter's
        reason the robot cannot take a command now, or None."""
        problems = []
        age = now - auth.issued_at
        if not age <= window_s:
            problems.append(Problem(Code.AUTHORIZATION_EXPIRED, f"{auth.step.ref} was authorized "
                                    f"{age:.3f} s ago; the dispatch window is {window_s:g} s",
                                    auth.index))
        if not_ready is not None:
            problems.append(Problem(Code.ROBOT_UNAVAILABLE, f"{auth.step.ref}: {not_ready}",
                                    auth.index))
        return tuple(problems)

    def record_result(self, auth: Authorization, succeeded: bool) -> None:
        if succeeded and auth.kind == "step":
            self.completed[auth.step.ref] += 1
