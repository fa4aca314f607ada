"""``crewgate recover`` and ``crewgate status`` on the simulator, in process: an unfinished
mission (its process died: the journal stops) is closed ``crashed`` with what was sent and
confirmed; with nothing unfinished, recover says so; status prints each robot's state."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from crewgate import lease
from crewgate.api import run_mission
from crewgate.journal import Event, EventKind, Journal
from crewgate.planners import ScriptedPlanner
from tests.cli.support import SAR_REQUEST, assert_clean_failure, crewgate
from tests.conftest import plan

SAD_PLAN = plan("search_and_dispatch", ("iris", "takeoff", {}),
                ("iris", "search_target", {"x_min": -5.5, "x_max": 5.5, "y_min": -5.5,
                                           "y_max": 5.5}),
                ("tb3", "navigate_to", {"target": "victim"}))


class _Killed(Journal):
    """Nothing more reaches the file after the search was sent: the process died there."""

    dark = False

    def record(self, mission_id: str, kind: EventKind, **fields: Any) -> Event:
        if self.dark:
            return Event(mission_id, 0, time.time(), None, EventKind(kind))
        event = super().record(mission_id, kind, **fields)
        self.dark = kind is EventKind.SENT and fields.get("skill") == "search_target"
        return event

    def end_mission(self, mission_id: str, status: str, codes: Any) -> None:
        pass


def _unfinished(journal: Path) -> str:
    killed = _Killed(journal)
    try:
        return run_mission("sar", SAR_REQUEST, ScriptedPlanner([SAD_PLAN]),
                           journal=killed).mission_id
    finally:
        killed.close()


def test_recover_closes_an_unfinished_mission_as_crashed(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite3"
    mission_id = _unfinished(journal)
    trace = crewgate("trace", mission_id, journal=journal)
    assert "status unfinished" in trace.stdout
    run = crewgate("recover", "sar", journal=journal)
    assert run.rc == 0, str(run)
    assert "1 unfinished mission" in run.stdout
    assert "iris.land skipped: airborne == true does not hold" in run.stdout  # live events
    for text in (mission_id, "crashed", "0 iris.takeoff", "1 iris.search_target",
                 "0 iris.takeoff (succeeded)"):
        assert text in run.stdout, str(run)
    trace = crewgate("trace", mission_id, "--json", journal=journal)
    data = trace.json()
    assert data["mission"]["status"] == "crashed"
    ended = data["events"][-1]
    assert ended["kind"] == "mission_ended"
    assert "sent 0 iris.takeoff, 1 iris.search_target; confirmed 0 iris.takeoff (succeeded); " \
           "not confirmed 1 iris.search_target" in ended["data"]["reason"]
    left = lease.folder(str(journal)) / "0123456789abcdef.lock"  # a process gone between missions
    left.parent.mkdir(exist_ok=True)
    left.write_text("4242\n")
    again = crewgate("recover", "sar", journal=journal)
    assert again.rc == 0, str(again)
    assert "no unfinished mission of crew sar" in again.stdout
    assert "nothing to recover" in again.stdout
    assert list(left.parent.iterdir()) == []  # its lease, free, is removed


def test_recover_json(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite3"
    mission_id = _unfinished(journal)
    run = crewgate("recover", "sar", "--json", journal=journal)
    assert run.rc == 0, str(run)
    (mission,) = run.json()["missions"]
    assert (mission["mission_id"], mission["status"], mission["ok"]) == (mission_id, "crashed",
                                                                         True)
    assert [(s["step"], s["confirmed"]) for s in mission["sent"]] == [
        ("iris.takeoff", True), ("iris.search_target", False)]
    assert mission["engaged"] == ["iris"]
    assert mission["fallback"] == [{"step": "iris.land",
                                    "outcome": "skipped: airborne == true does not hold"}]


def test_recover_with_nothing_unfinished_says_so(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite3"
    Journal(journal).close()
    run = crewgate("recover", "sar", "--json", journal=journal)
    assert run.rc == 0, str(run)
    assert run.json() == {"crew": "sar", "journal": str(journal), "missions": []}


def test_recover_without_a_journal_or_with_a_bad_backend_is_a_clean_error(
        tmp_path: Path) -> None:
    missing = crewgate("recover", "sar", journal=tmp_path / "none.sqlite3")
    assert_clean_failure(missing)
    assert "no journal at" in missing.stderr
    bad = crewgate("recover", "sar", "--backend", "sim2", journal=tmp_path / "none.sqlite3")
    assert_clean_failure(bad)
    assert "unknown backend 'sim2'" in bad.stderr


def test_status_on_the_simulator_prints_each_robots_state(tmp_path: Path) -> None:
    run = crewgate("status", "sar", journal=tmp_path / "j.sqlite3")
    assert run.rc == 0, str(run)
    for text in ("iris", "tb3", "airborne = false", "pose = [-2, -2]", "yes",
                 "\ne-stop not engaged\n"):
        assert text in run.stdout, str(run)
    data = crewgate("status", "sar", "--json", journal=tmp_path / "j.sqlite3").json()
    assert data["estop"] is None
    assert data["robots"]["iris"] == {
        "available": True, "why": None, "last_heard_s": None,
        "fields": {"pose": [-2.0, -3.0, 0.0], "airborne": False, "battery": 1.0}}
    assert data["backend"]["backend"] == "sim"


def test_status_exits_1_when_a_robot_is_unavailable(tmp_path: Path) -> None:
    run = crewgate("status", "sar", "--fault", "robot_unavailable:tb3", "--json",
                   journal=tmp_path / "j.sqlite3")
    assert run.rc == 1, str(run)
    tb3 = run.json()["robots"]["tb3"]
    assert (tb3["available"], tb3["why"]) == (False, "robot 'tb3' is unavailable")
