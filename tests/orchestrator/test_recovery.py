"""Crash recovery on the simulator: a mission whose process died (its journal stops at some
event: SIGKILL, power loss) is closed ``crashed`` by :func:`recover`, with what it sent and what
was confirmed; the fallback runs on the robots it engaged, through the gate; no plan step is
ever sent again. And the mission tells its adapter when it begins and ends, on every exit."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from crewgate.adapters.sim import SimAdapter
from crewgate.api import gate_for, run_mission
from crewgate.commands import Command, Progress, Status
from crewgate.errors import AdapterError
from crewgate.journal import Event, EventKind, Journal
from crewgate.orchestrator.recovery import Recovery, read_findings, recover, unfinished
from crewgate.orchestrator.safety import MissionInterrupted
from crewgate.planners import ScriptedPlanner
from crewgate.sim.faults import parse_faults
from crewgate.spec import Crew
from tests.conftest import SAD, SAD_PLAN


class DarkJournal(Journal):
    """A journal file whose writes stop after ``dark_after`` events, as when the process is
    killed there: the mission goes on in memory, and nothing more of it reaches the disk."""

    def __init__(self, path: Path, dark_after: int) -> None:
        super().__init__(path)
        self.dark_after = dark_after
        self.writes = 0

    def record(self, mission_id: str, kind: EventKind, **fields: Any) -> Event:
        self.writes += 1
        if self.writes > self.dark_after:
            return Event(mission_id, 0, time.time(), fields.get("t"), EventKind(kind))
        return super().record(mission_id, kind, **fields)

    def end_mission(self, mission_id: str, status: str, codes: Any) -> None:
        if self.writes <= self.dark_after:
            super().end_mission(mission_id, status, codes)


class Witness(SimAdapter):
    """The simulator, recording every command started and the lifecycle hooks called."""

    def __init__(self, crew: Crew, faults: tuple[str, ...] = ()) -> None:
        super().__init__(crew, faults=parse_faults(faults, crew))
        self.started: list[Command] = []
        self.lifecycle: list[tuple[str, str]] = []

    def start(self, command: Command) -> None:
        self.started.append(command)
        super().start(command)

    def mission_began(self, mission_id: str, *, recovering: bool = False) -> None:
        self.lifecycle.append(("recovering" if recovering else "began", mission_id))

    def mission_ended(self, mission_id: str) -> None:
        self.lifecycle.append(("ended", mission_id))


def _killed_at(sar: Crew, path: Path, k: int) -> str:
    """Run the mission with its journal going dark after ``k`` events; its id."""
    journal = DarkJournal(path, k)
    try:
        result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=journal)
    finally:
        journal.close()
    return result.mission_id


def _killed_after(sar: Crew, path: Path, kind: EventKind, step: int) -> str:
    """Run the mission with its journal going dark right after its ``kind`` event of plan step
    ``step`` (found in a full run journaled to memory); its id."""
    probe = Journal(":memory:")
    run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=probe)
    events = probe.events(probe.missions()[0].mission_id)
    k = next(i for i, e in enumerate(events, 1) if e.kind is kind and e.step == step)
    return _killed_at(sar, path, k)


def _recover(sar: Crew, path: Path, adapter: SimAdapter) -> list[Recovery]:
    journal = Journal(path)
    try:
        return recover(gate_for(sar), adapter, journal, unfinished(journal, sar.name))
    finally:
        journal.close()


def _airborne(adapter: SimAdapter) -> None:
    """The drone in the air where the recovery finds it (it survived its orchestrator)."""
    takeoff = Command("before", 0, "iris", "takeoff", {"altitude": 3.0}, {}, 30.0, 10**9)
    adapter.sim.start(takeoff)
    while adapter.sim.poll(takeoff).status is Status.RUNNING:
        adapter.sim.advance(0.1)
    assert adapter.world.get("iris", "airborne") is True


def test_a_mission_killed_at_every_event_is_closed_crashed_and_no_step_is_sent_again(
        sar: Crew, tmp_path: Path) -> None:
    total = DarkJournal(tmp_path / "nominal.sqlite3", 10**6)
    run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=total)
    assert total.writes >= 15
    for k in range(1, total.writes):  # the last write is mission_ended: nothing is unfinished
        path = tmp_path / f"j{k}.sqlite3"
        mission_id = _killed_at(sar, path, k)
        adapter = Witness(sar)
        _airborne(adapter)
        (done,) = _recover(sar, path, adapter)
        why = (k, done.reason, done.fallback)
        assert done.mission_id == mission_id
        assert done.status == "crashed", why
        journal = Journal(path)
        record, events = journal.mission(mission_id), journal.events(mission_id)
        journal.close()
        assert record.status == "crashed", why
        assert events[-1].kind is EventKind.MISSION_ENDED, why
        assert events[-1].data["reason"] == done.reason, why
        # only fallback steps: no plan step is ever sent by a recovery
        assert all(c.fallback for c in adapter.started), why
        engaged = list(done.findings.engaged)
        sent_robots = {s.ref.split(".")[0] for s in done.findings.sent}
        assert sent_robots <= set(engaged), why
        expected = ["iris.land"] * ("iris" in engaged) + ["tb3.stop"] * ("tb3" in engaged)
        assert [c.ref for c in adapter.started] == expected, why
        assert done.ok, why
        assert adapter.lifecycle == [("recovering", mission_id), ("ended", mission_id)], why
        if "iris" in engaged:
            assert adapter.world.get("iris", "airborne") is False, why
        for step in done.findings.sent:
            assert f"{step.index} {step.ref}" in done.reason, why


def test_the_reason_lists_what_was_sent_and_what_was_confirmed(sar: Crew,
                                                               tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    # the journal goes dark right after the search was sent (the drone searches)
    mission_id = _killed_after(sar, path, EventKind.SENT, 1)
    (done,) = _recover(sar, path, Witness(sar))
    assert done.reason == (
        "the orchestrator stopped without closing the mission (killed, or lost power); "
        "recovered: sent 0 iris.takeoff, 1 iris.search_target; confirmed 0 iris.takeoff "
        "(succeeded); not confirmed 1 iris.search_target")
    assert done.findings.engaged == ("iris",)
    assert done.fallback == [("iris.land", "skipped: airborne == true does not hold")]
    assert done.to_json()["sent"][1] == {"index": 1, "step": "iris.search_target",
                                         "confirmed": False, "succeeded": None, "message": ""}
    journal = Journal(path)
    assert unfinished(journal, "sar") == []  # closed: a second recovery finds nothing
    assert journal.mission(mission_id).status == "crashed"
    journal.close()


def test_a_step_whose_sending_was_not_journaled_is_in_doubt_and_its_robot_is_secured(
        sar: Crew, tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    # killed between the rover's dispatch intent and the record of its sending
    _killed_after(sar, path, EventKind.DISPATCH, 2)
    adapter = Witness(sar)
    (done,) = _recover(sar, path, adapter)
    assert done.findings.in_doubt == ((2, "tb3.navigate_to"),)
    assert done.findings.engaged == ("iris", "tb3")
    assert "in doubt (the intent was journaled, not the sending) 2 tb3.navigate_to" in done.reason
    assert [c.ref for c in adapter.started] == ["tb3.stop"]  # the fresh drone is on the ground


def test_an_unreachable_robot_is_named_and_the_recovery_says_so(sar: Crew,
                                                                tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    mission_id = _killed_after(sar, path, EventKind.SENT, 2)
    adapter = Witness(sar, ("robot_unavailable:tb3",))
    _airborne(adapter)
    (done,) = _recover(sar, path, adapter)
    assert done.status == "crashed"
    assert list(done.unreachable) == ["tb3"]
    assert not done.ok
    assert [c.ref for c in adapter.started] == ["iris.land"]  # the drone still lands
    journal = Journal(path)
    notes = [e.detail for e in journal.events(mission_id) if e.kind is EventKind.FALLBACK]
    journal.close()
    assert notes[0].startswith("not reachable: robot 'tb3' is unavailable")


def test_a_mission_still_running_elsewhere_is_left_alone(sar: Crew, tmp_path: Path) -> None:
    class Alive(Witness):
        def mission_began(self, mission_id: str, *, recovering: bool = False) -> None:
            raise AdapterError(f"mission {mission_id} is still running")

    path = tmp_path / "j.sqlite3"
    mission_id = _killed_at(sar, path, 12)
    adapter = Alive(sar)
    (done,) = _recover(sar, path, adapter)
    assert (done.status, done.ok) == ("running", False)
    assert adapter.started == []
    journal = Journal(path)
    assert [m.mission_id for m in unfinished(journal, "sar")] == [mission_id]
    journal.close()


def test_a_mission_its_own_orchestrator_closed_meanwhile_is_left_as_it_was(
        sar: Crew, tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    mission_id = _killed_at(sar, path, 12)

    class Finishing(Witness):
        """Its orchestrator was slow, not dead: it closes the mission while we listen."""

        def mission_began(self, mission_id: str, *, recovering: bool = False) -> None:
            super().mission_began(mission_id, recovering=recovering)
            other = Journal(path)
            other.end_mission(mission_id, "completed", [])
            other.close()

    adapter = Finishing(sar)
    (done,) = _recover(sar, path, adapter)
    assert (done.status, done.ok) == ("ended", True)
    assert adapter.started == []
    assert adapter.lifecycle == [("recovering", mission_id), ("ended", mission_id)]
    journal = Journal(path)
    assert journal.mission(mission_id).status == "completed"
    assert journal.events(mission_id)[-1].kind is not EventKind.MISSION_ENDED
    journal.close()


def test_only_the_crews_unfinished_missions_are_recovered_oldest_first(
        sar: Crew, g1_go2: Crew, tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    first, second = _killed_at(sar, path, 5), _killed_at(sar, path, 9)
    journal = Journal(path)
    run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=journal)  # finished
    other = journal.missions(limit=1)[0].mission_id
    journal.start_mission("g1mission", "g1_go2", "bring the cube", {})  # another crew's
    assert [m.mission_id for m in unfinished(journal, "sar")] == [first, second]
    assert [m.mission_id for m in unfinished(journal, "g1_go2")] == ["g1mission"]
    journal.close()
    done = _recover(sar, path, Witness(sar))
    assert [r.mission_id for r in done] == [first, second]
    journal = Journal(path)
    assert journal.mission(other).status == "completed"
    journal.close()


def test_read_findings_ignores_fallback_events_and_other_robots() -> None:
    def ev(seq: int, kind: EventKind, step: int | None, robot: str, skill: str,
           **data: Any) -> Event:
        return Event("m", seq, 0.0, float(seq), kind, step, robot, skill, (), "done", data)

    found = read_findings([
        ev(1, EventKind.DISPATCH, 0, "iris", "takeoff"),
        ev(2, EventKind.SENT, 0, "iris", "takeoff"),
        ev(3, EventKind.RESULT, 0, "iris", "takeoff", succeeded=False),
        ev(4, EventKind.FALLBACK, None, "iris", "land"),
        ev(5, EventKind.RESULT, None, "iris", "land", succeeded=True, fallback=True),
        ev(6, EventKind.DISPATCH, 1, "ghost", "fly"),  # not a robot of the crew
    ], ["iris", "tb3"])
    assert [(s.index, s.ref, s.confirmed, s.succeeded) for s in found.sent] == [
        (0, "iris.takeoff", True, False)]
    assert found.in_doubt == ((1, "ghost.fly"),)
    assert found.engaged == ("iris",)
    assert found.last_t == 6.0


# -- the lifecycle hooks ---------------------------------------------------------------------------


class Crashing(Witness):
    def poll(self, command: Command) -> Progress:
        if command.skill == "search_target":
            raise RuntimeError("adapter bug")
        return super().poll(command)


class Interrupting(Witness):
    def poll(self, command: Command) -> Progress:
        if command.skill == "search_target":
            raise KeyboardInterrupt
        return super().poll(command)


@pytest.mark.parametrize(("adapter_class", "status"), [
    (Witness, "completed"), (Crashing, "crashed"), (Interrupting, "interrupted")])
def test_the_adapter_is_told_when_a_mission_begins_and_ends_on_every_exit(
        sar: Crew, adapter_class: type[Witness], status: str) -> None:
    adapter = adapter_class(sar)
    journal = Journal(":memory:")
    try:
        result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=journal,
                             adapter=adapter)
    except MissionInterrupted as exc:
        result = exc.result
    assert result.status == status
    assert adapter.lifecycle == [("began", result.mission_id), ("ended", result.mission_id)]


def test_a_failing_mission_ended_hook_on_a_crashed_mission_is_noted(sar: Crew) -> None:
    class Broken(Crashing):
        def mission_ended(self, mission_id: str) -> None:
            raise AdapterError("graph gone")

    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), journal=":memory:",
                         adapter=Broken(sar))
    assert result.status == "crashed"
    assert result.journal_errors == ["mission_ended: AdapterError: graph gone"]


def test_a_journal_with_damaged_rows_is_still_recovered(sar: Crew, tmp_path: Path) -> None:
    """A row crewgate did not write as it reads it (edited by hand, a damaged disk) made the
    journal's readers raise, so recovery ran no fallback; it is now read with the damage named."""
    import sqlite3

    path = tmp_path / "j.sqlite3"
    mission_id = _killed_after(sar, path, EventKind.SENT, 1)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET data = '{not json' WHERE kind = 'dispatch'")
        db.execute("UPDATE events SET codes = '[1, NaN' WHERE kind = 'verdict'")
        db.execute("UPDATE events SET kind = 'nonsense' WHERE kind = 'mission_started'")
        db.execute("UPDATE missions SET meta = '[]'")
    journal = Journal(path)
    read = journal.events(mission_id)
    journal.close()
    assert [e.data for e in read if e.kind is EventKind.DISPATCH] == [
        {"damaged": "the data column is not JSON (Expecting property name enclosed in double "
                    "quotes: line 1 column 2 (char 1))"}] * 2
    assert [e.codes for e in read if e.kind is EventKind.VERDICT] == [()]
    assert read[0].kind is EventKind.NOTE
    assert read[0].detail.startswith("damaged row: kind 'nonsense' is none crewgate writes; ")
    adapter = Witness(sar)
    _airborne(adapter)
    (done,) = _recover(sar, path, adapter)
    assert done.findings.engaged == ("iris",)
    assert [c.ref for c in adapter.started] == ["iris.land"]  # (the takeoff: adapter.sim's)
