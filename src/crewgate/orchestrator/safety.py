"""Every exit of a mission is a safe exit: what happens when a mission is interrupted (SIGINT,
SIGTERM) or crashes (any exception inside it).

:func:`secure` halts the mission: it cancels the command in flight, runs the crew's safe
fallback on the robots the mission engaged (through the gate, always enforced; an e-stop skips
it, since the robots run their own stop), and marks the result ``crashed`` or ``interrupted``
with the cause. While it runs, further signals are noted, not raised
(:func:`deferred_interrupts`): a second Ctrl-C does not abandon a landing drone.
"""

from __future__ import annotations

import signal
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

from crewgate.journal import EventKind
from crewgate.limits import check_request
from crewgate.orchestrator.fallback import run_fallback
from crewgate.orchestrator.result import MissionResult

if TYPE_CHECKING:
    from crewgate.orchestrator.mission import Mission

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """A signal asked the process to stop (SIGINT, SIGTERM) while a mission ran."""

    def __init__(self, signum: int) -> None:
        self.signal = signal.Signals(signum).name
        super().__init__(self.signal)


class MissionInterrupted(KeyboardInterrupt):
    """Raised by ``Orchestrator.run`` after an interrupted mission was made safe and journaled;
    it carries the mission's result (status ``interrupted``)."""

    def __init__(self, result: MissionResult) -> None:
        self.result = result
        super().__init__(result.reason)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


@contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Interrupted` in the mission (the main thread only:
    elsewhere the host owns its signals)."""
    if not _main_thread():
        yield
        return
    previous = {s: signal.signal(s, _raise) for s in SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextmanager
def deferred_interrupts() -> Iterator[list[str]]:
    """Signals arriving meanwhile are noted in the yielded list, not raised."""
    noted: list[str] = []
    if not _main_thread():
        yield noted
        return

    def note(signum: int, frame: FrameType | None) -> None:
        noted.append(signal.Signals(signum).name)

    previous = {s: signal.signal(s, note) for s in SIGNALS}
    try:
        yield noted
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def secure(mission: Mission, exc: BaseException) -> None:
    """Halt a mission an exception or a signal stopped, and leave its robots safe."""
    mission.crashed = True
    result = mission.result
    interrupted = not isinstance(exc, Exception)
    result.status = "interrupted" if interrupted else "crashed"
    cause = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    result.reason = f"{'interrupted by' if interrupted else 'crashed on'} {cause}"
    trace = "".join(traceback.format_exception(exc)) if not interrupted else ""
    try:
        mission.dispatcher.abandon()  # the command in flight, if any
    except Exception as cancel_error:  # the adapter may be what failed: go on to the fallback
        result.journal_errors.append(f"cancel: {type(cancel_error).__name__}: {cancel_error}")
    for record in result.dispatched:  # the step that was running when it happened
        if record.succeeded is None:
            record.succeeded, record.message = False, f"cancelled: {result.reason}"
            record.ended_at = mission.now()
    stopped = _abort_reason(mission)
    detail = (f"{result.reason}; e-stop: {stopped}: nothing more is dispatched" if stopped
              else f"{result.reason}; running the safe fallback")
    mission.event(EventKind.HALT, codes=result.codes, detail=detail,
                  data={"traceback": trace} if trace else None)
    if stopped is None and mission.session is not None and mission.engaged:
        run_fallback(mission, mission.session, mission.engaged, guarded=True)


def _abort_reason(mission: Mission) -> str | None:
    try:
        return mission.adapter.abort_reason()
    except Exception:
        return None


__all__ = ["Interrupted", "MissionInterrupted", "check_request", "deferred_interrupts",
           "interruptible", "secure"]
