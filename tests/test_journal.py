"""The mission journal: a real SQLite file in WAL mode, append-only, durable, readable back."""

from __future__ import annotations

import json
import math
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import crewgate.journal as journal_module
from crewgate.api import run_mission
from crewgate.errors import NotFoundError, UserError
from crewgate.journal import Approval, Event, EventKind, Journal, default_journal_path
from crewgate.planners import ScriptedPlanner

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_PLAN = ROOT / "examples" / "sar_search_and_dispatch.json"
SAR_REQUEST = (
    "A hiker is missing in the search zone x from -5.5 to 5.5, y from -5.5 to 5.5. Fly the drone "
    "over the zone and send the ground rover to the victim once located."
)

# Fixed, realistic mission ids (the orchestrator's format: UTC date-time, then 6 hex digits).
MID_A = "20250101-120000-aaaaaa"
MID_B = "20250101-120000-bbbbbb"
MID_C = "20250102-080000-c0ffee"


@pytest.fixture(autouse=True)
def _isolated_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever defaults to the user's journal writes into this test's tmp_path instead."""
    monkeypatch.setenv("CREWGATE_JOURNAL", str(tmp_path / "default" / "journal.sqlite3"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "journal" / "missions.sqlite3"


@pytest.fixture
def journal(db_path: Path) -> Iterator[Journal]:
    jr = Journal(db_path)
    yield jr
    jr.close()


def _raw_rows(path: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Read the file with a separate, plain sqlite3 connection (not through Journal)."""
    con = sqlite3.connect(path)
    try:
        return list(con.execute(sql, params).fetchall())
    finally:
        con.close()


# -- the file ------------------------------------------------------------------------------------


def test_file_backed_journal_is_sqlite_in_wal_mode(journal: Journal, db_path: Path) -> None:
    journal.start_mission(MID_A, "sar", "req", {})
    journal.record(MID_A, EventKind.NOTE, detail="hello")

    assert db_path.is_file()  # the parent folder was created on demand
    with db_path.open("rb") as fh:
        assert fh.read(16) == b"SQLite format 3\x00"
    # WAL is a persistent property of the database file: a fresh connection sees it too
    assert _raw_rows(db_path, "PRAGMA journal_mode") == [("wal",)]
    assert Path(f"{db_path}-wal").exists()


def test_memory_journal_is_not_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    jr = Journal(":memory:")
    jr.start_mission(MID_A, "sar", "req", {})
    jr.record(MID_A, EventKind.NOTE)
    assert [e.kind for e in jr.events(MID_A)] == ["note"]
    jr.close()
    assert list(tmp_path.iterdir()) == []


def test_default_path_honours_crewgate_journal(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "env" / "j.sqlite3"
    monkeypatch.setenv("CREWGATE_JOURNAL", str(target))
    assert default_journal_path() == target
    jr = Journal()
    jr.start_mission(MID_A, "sar", "req", {})
    jr.close()
    assert jr.path == str(target)
    assert _raw_rows(target, "SELECT mission_id FROM missions") == [(MID_A,)]


def test_default_path_falls_back_to_xdg_state_home(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CREWGATE_JOURNAL")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_journal_path() == tmp_path / "xdg" / "crewgate" / "journal.sqlite3"


def test_unwritable_location_is_a_user_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("a file where a folder should be\n")
    with pytest.raises(UserError, match="CREWGATE_JOURNAL"):
        Journal(blocker / "sub" / "journal.sqlite3")


# -- appending -----------------------------------------------------------------------------------


def test_seq_increases_per_mission_independently(journal: Journal) -> None:
    journal.start_mission(MID_A, "sar", "first", {})
    journal.start_mission(MID_B, "sar", "second", {})
    seqs_a = [journal.record(MID_A, EventKind.NOTE, detail=f"a{i}").seq for i in range(3)]
    seqs_b = [journal.record(MID_B, EventKind.NOTE, detail=f"b{i}").seq for i in range(2)]
    seqs_a.append(journal.record(MID_A, EventKind.NOTE, detail="a3").seq)

    assert seqs_a == [1, 2, 3, 4]
    assert seqs_b == [1, 2]
    events_a = journal.events(MID_A)
    assert [e.seq for e in events_a] == [1, 2, 3, 4]
    assert [e.detail for e in events_a] == ["a0", "a1", "a2", "a3"]
    assert all(e.mission_id == MID_A for e in events_a)
    assert [e.detail for e in journal.events(MID_B)] == ["b0", "b1"]


def test_event_fields_round_trip(journal: Journal) -> None:
    journal.start_mission(MID_A, "sar", "req", {"seed": 3})
    written = journal.record(MID_A, EventKind.DISPATCH, t=12.5, step=2, robot="tb3",
                             skill="navigate_to", codes=["no_target_fix", "stale_fix"], detail="go",
                             data={"args": {"target": "victim"}, "n": 1})
    (read,) = journal.events(MID_A)
    assert read == written
    assert read.to_json() == {
        "mission_id": MID_A, "seq": 1, "wall": written.wall, "t": 12.5, "kind": "dispatch",
        "step": 2, "robot": "tb3", "skill": "navigate_to",
        "codes": ["no_target_fix", "stale_fix"], "detail": "go",
        "data": {"args": {"target": "victim"}, "n": 1},
    }


def test_mission_row_records_start_end_status_and_codes(journal: Journal) -> None:
    journal.start_mission(MID_A, "sar", "find the hiker", {"world": "A", "seed": 7})
    before = journal.mission(MID_A)
    assert (before.status, before.ended_wall, before.codes) == (None, None, ())

    journal.end_mission(MID_A, "halted", ["robot_unavailable"])
    after = journal.mission(MID_A)
    assert after.crew == "sar"
    assert after.request == "find the hiker"
    assert after.meta == {"world": "A", "seed": 7}
    assert after.status == "halted"
    assert after.codes == ("robot_unavailable",)
    assert after.ended_wall is not None
    assert after.ended_wall >= after.started_wall


def test_unknown_event_kind_raises_value_error_and_writes_nothing(journal: Journal,
                                                                  db_path: Path) -> None:
    journal.start_mission(MID_A, "sar", "req", {})
    with pytest.raises(ValueError, match="'teleport'"):
        journal.record(MID_A, "teleport")  # type: ignore[arg-type]  # as an untyped caller
    assert journal.events(MID_A) == []
    assert _raw_rows(db_path, "SELECT COUNT(*) FROM events") == [(0,)]
    # the failed call did not consume a sequence number
    assert journal.record(MID_A, EventKind.NOTE).seq == 1


@pytest.mark.parametrize("kind", list(EventKind))
def test_every_declared_kind_is_accepted(journal: Journal, kind: EventKind) -> None:
    journal.start_mission(MID_A, "sar", "req", {})
    assert journal.record(MID_A, kind).kind == kind
    assert [e.kind for e in journal.events(MID_A)] == [kind]


def test_non_finite_floats_are_stored_as_strings(journal: Journal, db_path: Path) -> None:
    nan, inf = float("nan"), float("inf")
    journal.start_mission(MID_A, "sar", "req", {"offset": [nan, 1.0]})
    returned = journal.record(MID_A, EventKind.RESULT, t=1.0, data={
        "fix": [nan, inf], "nested": {"err": -inf, "ok": 0.5}, "pair": (nan, 2)})

    # what the caller (and the listeners) got back is the data as given
    assert math.isnan(returned.data["fix"][0])
    (stored,) = journal.events(MID_A)
    assert stored.data == {"fix": ["nan", "inf"], "nested": {"err": "-inf", "ok": 0.5},
                           "pair": ["nan", 2]}
    assert journal.mission(MID_A).meta == {"offset": ["nan", 1.0]}

    # the stored text is strict JSON: no bare NaN / Infinity tokens
    def reject(token: str) -> Any:
        raise AssertionError(f"non-standard JSON constant {token!r} in the journal")

    (raw,) = _raw_rows(db_path, "SELECT data FROM events")
    json.loads(raw[0], parse_constant=reject)
    (raw_meta,) = _raw_rows(db_path, "SELECT meta FROM missions")
    json.loads(raw_meta[0], parse_constant=reject)


def test_listeners_receive_every_event_in_order(journal: Journal) -> None:
    first: list[Event] = []
    second: list[str] = []
    journal.subscribe(first.append)
    journal.subscribe(lambda e: second.append(f"{e.seq}:{e.kind}"))
    journal.start_mission(MID_A, "sar", "req", {})
    returned = [journal.record(MID_A, kind) for kind in (
        EventKind.PLAN_PROPOSED, EventKind.VERDICT, EventKind.MISSION_ENDED)]

    assert first == returned
    assert second == ["1:plan_proposed", "2:verdict", "3:mission_ended"]


def test_listener_sees_an_event_already_committed(journal: Journal, db_path: Path) -> None:
    counts: list[int] = []
    journal.subscribe(lambda e: counts.append(
        _raw_rows(db_path, "SELECT COUNT(*) FROM events WHERE seq = ?", e.seq)[0][0]))
    journal.start_mission(MID_A, "sar", "req", {})
    journal.record(MID_A, EventKind.NOTE)
    journal.record(MID_A, EventKind.NOTE)
    assert counts == [1, 1]


def test_listener_does_not_see_a_rejected_event(journal: Journal) -> None:
    seen: list[Event] = []
    journal.subscribe(seen.append)
    journal.start_mission(MID_A, "sar", "req", {})
    with pytest.raises(ValueError, match="'bogus' is not a valid EventKind"):
        journal.record(MID_A, "bogus")  # type: ignore[arg-type]  # as an untyped caller
    assert seen == []


# -- durability ----------------------------------------------------------------------------------


def test_events_survive_close_and_reopen(db_path: Path) -> None:
    jr = Journal(db_path)
    jr.start_mission(MID_A, "sar", "req", {"world": "A"})
    written = [jr.record(MID_A, k, detail=k) for k in (
        EventKind.PLAN_PROPOSED, EventKind.VERDICT, EventKind.RESULT)]
    jr.end_mission(MID_A, "completed", [])
    jr.close()

    reopened = Journal(db_path)
    try:
        assert reopened.events(MID_A) == written
        mission = reopened.mission(MID_A)
        assert (mission.status, mission.meta) == ("completed", {"world": "A"})
        assert [m.mission_id for m in reopened.missions()] == [MID_A]
    finally:
        reopened.close()


def test_events_survive_a_process_killed_without_close(db_path: Path) -> None:
    """'A crash loses nothing already recorded': the writer dies with os._exit, no close()."""
    script = textwrap.dedent(f"""
        import os
        from crewgate.journal import Journal
        jr = Journal({str(db_path)!r})
        jr.start_mission({MID_A!r}, "sar", "req", {{}})
        for i in range(5):
            jr.record({MID_A!r}, "note", detail=str(i))
        os._exit(17)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 17, proc.stderr

    jr = Journal(db_path)
    try:
        assert [(e.seq, e.detail) for e in jr.events(MID_A)] == [(i + 1, str(i)) for i in range(5)]
        assert jr.mission(MID_A).status is None  # it never ended
    finally:
        jr.close()


def test_seq_continues_after_reopen(db_path: Path) -> None:
    jr = Journal(db_path)
    jr.start_mission(MID_A, "sar", "req", {})
    jr.record(MID_A, EventKind.NOTE)
    jr.record(MID_A, EventKind.NOTE)
    jr.close()

    jr = Journal(db_path)
    try:
        assert jr.record(MID_A, EventKind.NOTE).seq == 3
        assert [e.seq for e in jr.events(MID_A)] == [1, 2, 3]
    finally:
        jr.close()


# -- resolving mission ids -----------------------------------------------------------------------


def _three_missions(journal: Journal) -> None:
    for mid in (MID_A, MID_B, MID_C):
        journal.start_mission(mid, "sar", "req", {})


def test_resolve_accepts_a_unique_prefix_and_the_full_id(journal: Journal) -> None:
    _three_missions(journal)
    assert journal.resolve("20250102") == MID_C
    assert journal.resolve("20250101-120000-a") == MID_A
    assert journal.resolve(MID_B) == MID_B


def test_resolve_ambiguous_prefix_is_a_user_error_naming_the_candidates(
        journal: Journal) -> None:
    _three_missions(journal)
    with pytest.raises(UserError) as info:
        journal.resolve("20250101")
    assert not isinstance(info.value, NotFoundError)
    message = str(info.value)
    assert "ambiguous" in message
    assert "'20250101'" in message
    assert MID_A in message
    assert MID_B in message
    assert MID_C not in message


def test_resolve_unknown_id_is_not_found(journal: Journal, db_path: Path) -> None:
    _three_missions(journal)
    with pytest.raises(NotFoundError) as info:
        journal.resolve("19990101")
    assert info.value.kind == "mission"
    assert info.value.name == "19990101"
    message = str(info.value)
    assert "unknown mission '19990101'" in message
    assert str(db_path) in message


def test_resolve_in_an_empty_journal_is_not_found(journal: Journal) -> None:
    with pytest.raises(NotFoundError, match="unknown mission"):
        journal.resolve(MID_A)


def test_resolve_treats_percent_literally_not_as_a_wildcard(journal: Journal) -> None:
    journal.start_mission(MID_C, "sar", "req", {})
    with pytest.raises(NotFoundError):
        journal.resolve("%c0ffee")


def test_mission_lookup_of_unknown_id_is_not_found(journal: Journal) -> None:
    with pytest.raises(NotFoundError, match=MID_A):
        journal.mission(MID_A)


def test_resolve_prefers_an_exact_id_over_longer_matches(
        journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([1000.0, 2000.0])  # deterministic start times: "run-10" is the newer one
    monkeypatch.setattr(journal_module, "time", SimpleNamespace(time=lambda: next(clock)))
    journal.start_mission("run-1", "sar", "older", {})
    journal.start_mission("run-10", "sar", "newer", {})
    assert [m.mission_id for m in journal.missions()] == ["run-10", "run-1"]
    assert journal.resolve("run-1") == "run-1"


# -- a whole mission through the public API ------------------------------------------------------


@pytest.fixture
def sar_mission(db_path: Path) -> tuple[str, str]:
    """(mission_id, status) of the example SAR mission, journaled to db_path (then closed)."""
    plan = json.loads(EXAMPLE_PLAN.read_text(encoding="utf-8"))
    result = run_mission("sar", SAR_REQUEST, ScriptedPlanner([plan]), journal=db_path)
    return result.mission_id, result.status


def test_run_mission_journals_events_in_order(sar_mission: tuple[str, str],
                                              db_path: Path) -> None:
    mission_id, status = sar_mission
    assert status == "completed"
    jr = Journal(db_path)
    try:
        events = jr.events(mission_id)
        mission = jr.mission(mission_id)
    finally:
        jr.close()

    steps = [("iris", "takeoff"), ("iris", "search_target"), ("tb3", "navigate_to")]
    expected: list[tuple[str, int | None, str | None, str | None]] = [
        ("mission_started", None, None, None), ("plan_proposed", None, None, None),
        ("verdict", None, None, None)]
    for index, (robot, skill) in enumerate(steps):
        expected += [(kind, index, robot, skill)
                     for kind in ("authorization", "dispatch", "sent", "result")]
    expected.append(("mission_ended", None, None, None))
    assert [(e.kind, e.step, e.robot, e.skill) for e in events] == expected

    assert [e.seq for e in events] == list(range(1, len(expected) + 1))
    assert all(e.mission_id == mission_id for e in events)
    assert all(e.codes == () for e in events)  # nothing was refused or flagged
    times = [e.t for e in events if e.t is not None]
    assert len(times) == len(events)
    assert times == sorted(times)  # simulated time never runs backwards
    assert events[0].detail == SAR_REQUEST
    assert events[2].detail == "accepted"
    assert all(e.data["succeeded"] is True for e in events if e.kind == "result")
    assert events[-1].data["status"] == "completed"

    assert mission.status == "completed"
    assert mission.codes == ()
    assert mission.crew == "sar"
    assert mission.request == SAR_REQUEST
    assert mission.meta["planner"] == "scripted"
    assert mission.meta["enforce"] is True
    assert mission.ended_wall is not None



def test_a_journal_of_an_earlier_release_gains_the_new_columns(tmp_path: Path) -> None:
    """An approvals table without asked_by and mode (before the operator service) is migrated
    on opening, by whichever process opens it first; the other finds the columns there."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE approvals (mission_id TEXT PRIMARY KEY, crew TEXT NOT NULL, "
                   "request TEXT NOT NULL, plan TEXT NOT NULL, asked_wall REAL NOT NULL, "
                   "decision TEXT, decided_wall REAL, decided_by TEXT)")
        db.execute("INSERT INTO approvals VALUES ('m1', 'sar', 'go', '{}', 1.0, NULL, NULL, "
                   "NULL)")
    first, second = Journal(path), Journal(path)
    assert first.approval("m1") == Approval("m1", "sar", "go", {}, 1.0, None, None, None,
                                            "required")
    second.ask_approval("m2", "sar", "stop", {}, asked_by="alice", mode="two_person")
    with pytest.raises(UserError, match="m2 needs two-person approval and alice submitted it"):
        first.decide("m2", "approved", by="alice")
    assert first.decide("m2", "approved", by="bob").decided_by == "bob"
