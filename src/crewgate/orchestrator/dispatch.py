"""The dispatcher: the only code that reaches an adapter's hooks.

Sending is one uninterrupted sequence: redeem the authorization (consumed once; a refused step
under enforcement never gets past ``redeem``), the gate's last check of what can have changed
since it was issued (the authorization's age, the robot's readiness read afresh), the e-stop,
and the send. Nothing that can block (a journal write, a garbage collection: see
:mod:`crewgate.orchestrator.collector`) sits between the last check and the send: the mission
journals its intent before :meth:`Dispatcher.send` and what was sent after it.
:meth:`Dispatcher.follow` then waits for the result in backend time, enforcing the skill's
timeout and the e-stop (cancel, then report failure), and tells the mission gate how the step
ended. Nothing is retried: a failure is reported, and the mission decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from crewgate.adapters.base import Adapter
from crewgate.codes import Problem
from crewgate.commands import Command, Status
from crewgate.errors import AdapterError
from crewgate.gate.session import Authorization, MissionGate
from crewgate.orchestrator.collector import collector_held
from crewgate.spec import Crew

DEFAULT_TIMEOUT_S = 10.0  # for skills the crew does not declare (dispatched with enforcement off)


@dataclass(frozen=True, slots=True)
class StepOutcome:
    succeeded: bool
    message: str
    started_at: float
    ended_at: float
    result: dict[str, Any] = field(default_factory=dict)
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class Sent:
    """A command the adapter accepted."""

    auth: Authorization
    command: Command
    started_at: float
    problems: tuple[Problem, ...] = ()  # the last check's findings, when not enforced


@dataclass(frozen=True, slots=True)
class Held:
    """A command that did not start: refused by the gate's last check or held by an e-stop
    (both: never sent), or rejected by the adapter (sent, and not accepted: the robot's or the
    backend's refusal, which the mission counts as a dispatch that failed)."""

    why: Literal["refused", "estop", "rejected"]
    problems: tuple[Problem, ...]  # the gate's last check (empty unless refused)
    outcome: StepOutcome


class Dispatcher:
    def __init__(self, crew: Crew, adapter: Adapter, tick_s: float) -> None:
        self.crew = crew
        self.adapter = adapter
        self.tick_s = tick_s
        self.in_flight: tuple[MissionGate, Sent] | None = None  # sent and not yet ended

    def send(self, gate: MissionGate, auth: Authorization) -> Sent | Held:
        """Redeem, check what can have changed, send: with nothing that can block in between."""
        gate.redeem(auth)
        skill = self.crew.skill(auth.step.robot, auth.step.skill)
        timeout = skill.timeout_s if skill is not None else DEFAULT_TIMEOUT_S
        command = Command(
            mission_id=auth.mission_id, index=auth.index, robot=auth.step.robot,
            skill=auth.step.skill, args=auth.args,
            bindings=auth.bindings, timeout_s=timeout, token=auth.token,
            fallback=auth.kind == "fallback",
        )
        with collector_held():  # no garbage collection between the last check and the send
            now = self.adapter.now()
            problems = gate.last_check(auth, now, self.crew.dispatch_window_s,
                                       self.adapter.not_ready(auth.step.robot))
            stopped = self.adapter.abort_reason()
            if stopped is not None or (problems and auth.enforced):
                gate.record_result(auth, False)
                if stopped is not None:
                    return Held("estop", (), StepOutcome(
                        False, f"not sent: e-stop: {stopped}", now, now))
                why = "; ".join(p.detail for p in problems)
                return Held("refused", problems, StepOutcome(False, f"not sent: {why}", now,
                                                             now))
            try:
                self.adapter.start(command)
            except AdapterError as exc:
                gate.record_result(auth, False)
                return Held("rejected", (), StepOutcome(False, f"not accepted: {exc}", now,
                                                        self.adapter.now()))
        sent = Sent(auth, command, now, problems)
        self.in_flight = (gate, sent)
        return sent

    def follow(self, gate: MissionGate, sent: Sent) -> StepOutcome:
        """Wait for a sent command to end (in backend time); an e-stop (the adapter's
        ``abort_reason``) cancels it, as a timeout does."""
        outcome = self._follow(gate, sent)
        self.in_flight = None
        return outcome

    def abandon(self) -> None:
        """Cancel the command in flight, if any (a mission that crashed while it ran)."""
        if self.in_flight is not None:
            gate, sent = self.in_flight
            self.in_flight = None
            gate.record_result(sent.auth, False)
            self.adapter.cancel(sent.command)

    def _follow(self, gate: MissionGate, sent: Sent) -> StepOutcome:
        auth, command, start = sent.auth, sent.command, sent.started_at
        while True:
            self.adapter.wait(self.tick_s)
            progress = self.adapter.poll(command)
            now = self.adapter.now()
            if progress.status is not Status.RUNNING:
                ok = progress.status is Status.SUCCEEDED
                gate.record_result(auth, ok)
                return StepOutcome(ok, progress.message, start, now, dict(progress.result))
            abort = self.adapter.abort_reason()
            if abort is not None or now - start > command.timeout_s:
                self.adapter.cancel(command)
                gate.record_result(auth, False)
                if abort is not None:
                    return StepOutcome(False, f"cancelled: {abort}", start, now)
                return StepOutcome(False, f"timed out after {command.timeout_s:g} s; cancelled",
                                   start, now, timed_out=True)
