"""Every exit is a safe exit: an exception at any point of a mission, SIGINT and SIGTERM halt it,
cancel what runs, land what flies (the crew's fallback, through the gate) and close it in the
journal with the cause; between the gate's last check and the send nothing can block."""

from __future__ import annotations

import gc
import os
import signal
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import pytest

from crewgate.adapters.sim import SimAdapter
from crewgate.api import run_mission
from crewgate.commands import Command, Progress
from crewgate.errors import AdapterError
from crewgate.journal import Event, EventKind, Journal
from crewgate.orchestrator import MissionResult
from crewgate.orchestrator.collector import collector_held
from crewgate.orchestrator.safety import MissionInterrupted
from crewgate.planners import ScriptedPlanner
from crewgate.spec import Crew
from tests.conftest import SAD, SAD_PLAN


class FailingJournal(Journal):
    """A journal whose ``fail_at``-th write (1-based) fails once, as a locked database does."""

    def __init__(self, fail_at: int) -> None:
        super().__init__(":memory:")
        self.fail_at = fail_at
        self.writes = 0

    def record(self, mission_id: str, kind: EventKind, **fields: Any) -> Event:
        self.writes += 1
        if self.writes == self.fail_at:
            raise sqlite3.OperationalError("database is locked")
        return super().record(mission_id, kind, **fields)


def _nominal_writes(sar: Crew) -> int:
    journal = FailingJournal(fail_at=0)
    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=journal)
    assert result.status == "completed"
    return journal.writes


def test_an_exception_at_every_journal_write_ends_the_mission_safely(sar: Crew) -> None:
    total = _nominal_writes(sar)
    assert total >= 15
    for k in range(2, total):  # write 1 is mission_started: nothing has begun
        journal = FailingJournal(fail_at=k)
        adapter = SimAdapter(sar)
        result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=journal,
                             adapter=adapter)
        why = (k, result.status, result.reason)
        assert result.status == "crashed", why
        assert "OperationalError: database is locked" in result.reason, why
        record = journal.mission(result.mission_id)
        assert (record.status, record.ended_wall is not None) == ("crashed", True), why
        kinds = [e.kind for e in journal.events(result.mission_id)]
        assert kinds[-1] is EventKind.MISSION_ENDED, why
        # whatever was running is cancelled, a drone in the air is landed, nothing else starts
        assert adapter.sim.running == {}, why
        assert result.final_state["iris"]["airborne"] is False, why
        steps = [d for d in result.dispatched if d.kind == "step"]
        fallback = [f"{d.robot}.{d.skill}" for d in result.dispatched if d.kind == "fallback"]
        flew = any(d.skill == "takeoff" and d.succeeded for d in steps)
        rover_sent = any(d.robot == "tb3" for d in steps)
        assert fallback == ["iris.land"] * flew + ["tb3.stop"] * rover_sent, why


class BrokenAdapter(SimAdapter):
    """The simulator, whose adapter fails with a bug (not an AdapterError) at a chosen hook."""

    def __init__(self, crew: Crew, hook: str, after: int) -> None:
        super().__init__(crew)
        self.hook, self.after, self.calls = hook, after, 0

    def _maybe_fail(self, hook: str) -> None:
        if hook == self.hook:
            self.calls += 1
            if self.calls == self.after:
                raise RuntimeError(f"bug in {hook}")

    def start(self, command: Command) -> None:
        self._maybe_fail("start")
        super().start(command)

    def poll(self, command: Command) -> Progress:
        self._maybe_fail("poll")
        return super().poll(command)


@pytest.mark.parametrize(("hook", "after", "sent"), [
    ("start", 2, ["iris.takeoff"]),  # the search never started: land
    ("poll", 200, ["iris.takeoff", "iris.search_target"]),  # mid-search: cancel, then land
])
def test_an_adapter_bug_mid_mission_lands_the_drone(sar: Crew, hook: str, after: int,
                                                   sent: list[str]) -> None:
    adapter = BrokenAdapter(sar, hook, after)
    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=":memory:",
                         adapter=adapter)
    assert result.status == "crashed"
    assert result.reason == f"crashed on RuntimeError: bug in {hook}"
    assert [f"{d.robot}.{d.skill}" for d in result.dispatched] == [*sent, "iris.land"]
    assert result.final_state["iris"]["airborne"] is False
    assert adapter.sim.running == {}  # the search was cancelled, not left running


class SignalAdapter(SimAdapter):
    """The simulator, signalling this process after ``after`` ticks of backend time."""

    def __init__(self, crew: Crew, signum: int, after: int, again: bool = False) -> None:
        super().__init__(crew)
        self.signum, self.after, self.again, self.ticks = signum, after, again, 0

    def wait(self, seconds: float) -> None:
        self.ticks += 1
        if self.ticks == self.after or (self.again and self.ticks > self.after
                                         and self.ticks % 50 == 0):
            os.kill(os.getpid(), self.signum)
        super().wait(seconds)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_mid_search_interrupts_and_lands(sar: Crew, signum: int) -> None:
    journal = Journal(":memory:")
    # a second signal during the landing is noted, not obeyed
    adapter = SignalAdapter(sar, signum, after=300, again=True)
    with pytest.raises(MissionInterrupted) as caught:
        run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=journal, adapter=adapter)
    result: MissionResult = caught.value.result
    assert result.status == "interrupted"
    assert result.reason == f"interrupted by Interrupted: {signal.Signals(signum).name}"
    assert [f"{d.robot}.{d.skill}" for d in result.dispatched] == [
        "iris.takeoff", "iris.search_target", "iris.land"]
    assert [d.succeeded for d in result.dispatched] == [True, False, True]
    assert journal.mission(result.mission_id).status == "interrupted"
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # handlers restored


def test_a_planner_bug_refuses_the_mission_and_nothing_moves(sar: Crew) -> None:
    class Broken(ScriptedPlanner):
        def _propose(self, request: Any) -> Any:
            raise ZeroDivisionError("planner bug")

    result = run_mission(sar, SAD, Broken([SAD_PLAN]), journal=":memory:")
    assert (result.status, result.dispatched) == ("refused", [])
    assert result.planner_error == ("the scripted planner failed: ZeroDivisionError: planner "
                                    "bug")


# -- between the last check and the send ----------------------------------------------------------


class HookedJournal(Journal):
    """A journal that runs ``hook`` before the write of a given event kind and step."""

    def __init__(self, kind: EventKind, step: int, hook: Callable[[], None]) -> None:
        super().__init__(":memory:")
        self.kind, self.step, self.hook = kind, step, hook

    def record(self, mission_id: str, kind: EventKind, **fields: Any) -> Event:
        if kind is self.kind and fields.get("step") == self.step:
            self.hook()
        return super().record(mission_id, kind, **fields)


def test_an_authorization_older_than_the_dispatch_window_is_not_sent(sar: Crew) -> None:
    adapter = SimAdapter(sar)

    def slow_write() -> None:  # the journal write takes longer than the window
        adapter.sim.t += sar.dispatch_window_s + 1.0

    journal = HookedJournal(EventKind.DISPATCH, 2, slow_write)
    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=journal, adapter=adapter)
    assert result.status == "halted"
    assert result.codes == ["authorization_expired"]
    assert [f"{d.robot}.{d.skill}" for d in result.dispatched] == [
        "iris.takeoff", "iris.search_target", "iris.land"]
    assert [r.stage for r in result.refusals] == ["dispatch"]


def test_a_robot_lost_between_authorization_and_send_is_not_sent(sar: Crew) -> None:
    adapter = SimAdapter(sar)
    journal = HookedJournal(EventKind.DISPATCH, 2,
                            lambda: adapter.world.set_available("tb3", False))
    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=journal, adapter=adapter)
    assert (result.status, result.codes) == ("halted", ["robot_unavailable"])
    assert "tb3.navigate_to" not in [f"{d.robot}.{d.skill}" for d in result.dispatched]


def test_no_garbage_collection_starts_between_the_last_check_and_the_send(sar: Crew) -> None:
    seen: list[tuple[str, bool]] = []

    class Watching(SimAdapter):
        def not_ready(self, robot: str) -> str | None:  # read by the last check
            seen.append(("check", gc.isenabled()))
            return super().not_ready(robot)

        def start(self, command: Command) -> None:
            seen.append(("send", gc.isenabled()))
            super().start(command)

    assert gc.isenabled()
    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=":memory:",
                         adapter=Watching(sar))
    assert result.status == "completed"
    assert seen == [("check", False), ("send", False)] * 3
    assert gc.isenabled()


def test_a_refused_or_rejected_send_gives_the_collector_back(sar: Crew) -> None:
    class Refusing(SimAdapter):
        def start(self, command: Command) -> None:
            raise AdapterError("iris is busy")

    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=":memory:",
                         adapter=Refusing(sar))
    assert result.status == "halted"
    assert gc.isenabled()


def test_the_collector_holds_are_counted_and_keep_a_callers_choice() -> None:
    assert gc.isenabled()
    with collector_held():
        with collector_held():  # another mission's send, on another thread
            assert not gc.isenabled()
        assert not gc.isenabled()  # the first hold still stands
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_held():
        raise RuntimeError("the adapter's bug")
    assert gc.isenabled()
    gc.disable()  # the caller's own choice outlives a hold
    try:
        with collector_held():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_holds_on_many_threads_give_the_collector_back_once_all_end() -> None:
    started, release = threading.Barrier(5), threading.Event()

    def hold() -> None:
        with collector_held():
            started.wait()
            release.wait()

    threads = [threading.Thread(target=hold) for _ in range(4)]
    for t in threads:
        t.start()
    started.wait()
    assert not gc.isenabled()
    release.set()
    for t in threads:
        t.join()
    assert gc.isenabled()


def test_the_journal_holds_the_intent_before_and_what_was_sent_after(sar: Crew) -> None:
    journal = Journal(":memory:")
    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=journal)
    kinds = [(e.kind.value, e.step) for e in journal.events(result.mission_id)
             if e.kind in (EventKind.AUTHORIZATION, EventKind.DISPATCH, EventKind.SENT,
                           EventKind.RESULT)]
    assert kinds == [(k, i) for i in range(3)
                     for k in ("authorization", "dispatch", "sent", "result")]


def test_an_adapter_that_refuses_a_command_is_a_failure_not_a_crash(sar: Crew) -> None:
    class Refusing(SimAdapter):
        def start(self, command: Command) -> None:
            if command.skill == "search_target":
                raise AdapterError("iris is busy")
            super().start(command)

    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=":memory:",
                         adapter=Refusing(sar))
    assert (result.status, result.reason) == (
        "halted", "step 1 iris.search_target failed: not accepted: iris is busy")
