"""The journal lease (crewgate.lease): a mission's process is alive exactly while it holds the
lease the mission was started under; the kernel lets go of it when the process ends, SIGKILL
included, and ``recover`` leaves alone every mission whose lease is held, whatever the backend."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from crewgate import lease
from crewgate.adapters.sim import SimAdapter
from crewgate.api import gate_for
from crewgate.journal import Journal
from crewgate.orchestrator.recovery import recover, unfinished
from crewgate.spec import Crew

pytestmark = pytest.mark.skipif(not lease.available(), reason="no flock on this platform")

# a process that starts a mission in the journal, says so, and lives until it is killed
_HOLDER = textwrap.dedent("""
    import sys, time
    from crewgate.journal import Journal
    journal = Journal(sys.argv[1])
    journal.start_mission(sys.argv[2], "sar", "Land the drone.", {})
    print("started", flush=True)
    time.sleep(120)
""")


def _holder(path: Path, mission: str) -> subprocess.Popen[str]:
    child = subprocess.Popen([sys.executable, "-c", _HOLDER, str(path), mission],
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "started"
    return child


def _killed(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait(timeout=30) == -signal.SIGKILL


def test_a_lease_is_held_while_its_process_lives_and_not_once_it_is_killed(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    child = _holder(path, "m1")
    journal = Journal(path)
    try:
        record = journal.mission("m1")
        assert record.lease is not None
        files = sorted(p.name for p in lease.folder(str(path)).iterdir())
        assert files == [f"{record.lease}.lock"]  # taken under another name, then renamed
        assert [journal.running(record), journal.running(record)] == [True, True]
        _killed(child)
        assert journal.running(record) is False
        assert list(lease.folder(str(path)).iterdir()) == []  # a free lease is removed
    finally:
        journal.close()
        if child.poll() is None:
            child.kill()


def test_closing_the_journal_lets_go_of_its_lease(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    mine, other = Journal(path), Journal(path)
    try:
        mine.start_mission("m1", "sar", "Land the drone.", {})
        mine.start_mission("m2", "sar", "Land the drone.", {})
        first, second = other.mission("m1"), other.mission("m2")
        assert first.lease == second.lease is not None  # one lease per process and journal
        assert [other.running(first), other.running(second)] == [True, True]
        mine.close()
        assert [other.running(first), other.running(second)] == [False, False]
    finally:
        other.close()


def test_a_mission_started_without_a_lease_is_not_taken_for_running(tmp_path: Path) -> None:
    """A journal written before leases (its missions have none) or in memory: the lease says
    nothing, and recovery goes by the backend's own signals."""
    path = tmp_path / "journal.db"
    journal = Journal(path)
    try:
        journal.start_mission("m1", "sar", "Land the drone.", {})
        record = journal.mission("m1")
        journal._db.execute("UPDATE missions SET lease = NULL")
        assert journal.running(journal.mission("m1")) is False
        assert journal.running(record) is True  # the lease it was started with is held here
    finally:
        journal.close()
    memory = Journal(":memory:")
    memory.start_mission("m1", "sar", "Land the drone.", {})
    assert memory.mission("m1").lease is None
    memory.close()


def test_recover_leaves_alone_a_mission_whose_process_lives_and_closes_it_once_killed(
        sar: Crew, tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    child = _holder(path, "m1")
    try:
        journal = Journal(path)
        try:
            (left,) = recover(gate_for(sar), SimAdapter(sar), journal, unfinished(journal, "sar"))
            assert (left.status, left.ok) == ("running", False)
            assert left.reason == (f"left alone: the process that runs it is alive (it holds "
                                   f"lease {journal.mission('m1').lease} in "
                                   f"{lease.folder(str(path))})")
            assert journal.mission("m1").status is None
            _killed(child)
            (closed,) = recover(gate_for(sar), SimAdapter(sar), journal,
                                unfinished(journal, "sar"))
            assert (closed.status, journal.mission("m1").status) == ("crashed", "crashed")
        finally:
            journal.close()
    finally:
        if child.poll() is None:
            child.kill()


def test_recover_removes_the_leases_of_processes_gone_between_missions(
        sar: Crew, tmp_path: Path) -> None:
    """A process killed after its last mission ended leaves its lease's file (nothing to
    recover names it): recover removes it, and leaves a live process's."""
    path = tmp_path / "journal.db"
    gone, alive = _holder(path, "m1"), _holder(path, "m2")
    journal = Journal(path)
    try:
        journal.end_mission("m1", "completed", [])
        journal.end_mission("m2", "completed", [])
        _killed(gone)
        leases = {journal.mission(m).lease for m in ("m1", "m2")}
        assert {p.name for p in lease.folder(str(path)).iterdir()} == {
            f"{token}.lock" for token in leases}
        assert recover(gate_for(sar), SimAdapter(sar), journal, unfinished(journal, "sar")) == []
        assert [p.name for p in lease.folder(str(path)).iterdir()] == [
            f"{journal.mission('m2').lease}.lock"]
    finally:
        journal.close()
        for child in (gone, alive):
            if child.poll() is None:
                child.kill()
