"""The dispatcher: the only code that reaches an adapter's hooks.

It redeems an authorization (consumed once; a refused step under enforcement never gets past
``redeem``), sends the command, waits for the result in backend time, enforces the skill's
timeout and the e-stop (cancel, then report failure) and tells the mission gate how the step
ended. Nothing is retried: a failure is reported, and the mission decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crewgate.adapters.base import Adapter
from crewgate.commands import Command, Status
from crewgate.errors import AdapterError
from crewgate.gate.session import Authorization, MissionGate
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


class Dispatcher:
    def __init__(self, crew: Crew, adapter: Adapter, tick_s: float) -> None:
        self.crew = crew
        self.adapter = adapter
        self.tick_s = tick_s

    def run(self, gate: MissionGate, auth: Authorization) -> StepOutcome:
        """Dispatch one authorized step and wait for it to end (in backend time); an e-stop
        (the adapter's ``abort_reason``) cancels it, as a timeout does."""
        gate.redeem(auth)
        skill = self.crew.skill(auth.step.robot, auth.step.skill)
        timeout = skill.timeout_s if skill is not None else DEFAULT_TIMEOUT_S
        command = Command(
            mission_id=auth.mission_id, index=auth.index, robot=auth.step.robot,
            skill=auth.step.skill, args=auth.args,
            bindings=auth.bindings, timeout_s=timeout, token=auth.token,
            fallback=auth.kind == "fallback",
        )
        start = self.adapter.now()
        try:
            self.adapter.start(command)
        except AdapterError as exc:
            gate.record_result(auth, False)
            return StepOutcome(False, f"not accepted: {exc}", start, self.adapter.now())
        while True:
            self.adapter.wait(self.tick_s)
            progress = self.adapter.poll(command)
            now = self.adapter.now()
            if progress.status is not Status.RUNNING:
                ok = progress.status is Status.SUCCEEDED
                gate.record_result(auth, ok)
                return StepOutcome(ok, progress.message, start, now, dict(progress.result))
            abort = self.adapter.abort_reason()
            if abort is not None or now - start > timeout:
                self.adapter.cancel(command)
                gate.record_result(auth, False)
                if abort is not None:
                    return StepOutcome(False, f"cancelled: {abort}", start, now)
                return StepOutcome(False, f"timed out after {timeout:g} s; cancelled", start, now,
                                   timed_out=True)
