"""``crewgate serve`` and ``crewgate token`` as a user runs them: tokens written hashed, a
refusal to listen beyond loopback without tokens, and the real server process: its printed URL,
its API, and a clean stop (SIGINT) that cancels a running mission and leaves the drone landed."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from crewgate.journal import Journal
from crewgate.service.auth import digest
from tests.cli.support import ROOT, assert_clean_failure, crewgate
from tests.service.test_http import SEARCH, SEARCH_PLAN

pytest.importorskip("uvicorn", reason="crewgate serve needs uvicorn: pip install "
                    "'crewgate[serve]'")


def test_token_writes_the_hash_and_prints_the_token_once(tmp_path: Path) -> None:
    file = tmp_path / "tokens"
    made = crewgate("token", "alice", "--role", "operator", "--file", file,
                    journal=tmp_path / "j.sqlite3")
    assert made.rc == 0, made
    token = made.stdout.strip()
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)
    assert file.read_text() == f"alice operator {digest(token)}\n"
    assert file.stat().st_mode & 0o777 == 0o600
    again = crewgate("token", "alice", "--role", "viewer", "--file", file,
                     journal=tmp_path / "j.sqlite3")
    assert_clean_failure(again)
    assert f"{file} already has a user 'alice'" in again.stderr
    bad = crewgate("token", "bob", "--role", "root", "--file", file,
                   journal=tmp_path / "j.sqlite3")
    assert_clean_failure(bad)
    assert "--role: role 'root' is not one of viewer, operator, admin" in bad.stderr


def test_serve_will_not_listen_beyond_loopback_without_tokens(tmp_path: Path) -> None:
    run = crewgate("serve", "sar", "--host", "0.0.0.0", "--port", "0",
                   journal=tmp_path / "j.sqlite3")
    assert_clean_failure(run)
    assert "crewgate serve will not listen on 0.0.0.0 without tokens" in run.stderr


def test_a_token_file_that_holds_a_token_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "tokens"
    file.write_text("alice operator my-secret-token\n")
    run = crewgate("serve", "sar", "--tokens", file, "--port", "0",
                   journal=tmp_path / "j.sqlite3")
    assert_clean_failure(run)
    assert (f"{file}:1: the third field must be the token's hash (sha256:HEX), never the "
            "token itself") in run.stderr


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_the_server_process_serves_and_stops_cleanly(tmp_path: Path, stop: int) -> None:
    journal = tmp_path / "j.sqlite3"
    server = subprocess.Popen(
        [sys.executable, "-m", "crewgate", "serve", "sar", "--port", "0", "--speed", "2",
         "--journal", str(journal), "--planner", "scripted", "-o",
         f"plan={ROOT / 'examples' / 'sar_search_and_dispatch.json'}"],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        lines = [server.stderr.readline() for _ in range(2)]
        found = re.search(r"(http://127\.0\.0\.1:\d+/)#token=(\S+)", lines[1])
        assert found, lines
        base, token = found.groups()
        assert lines[0].startswith("crewgate serve sar: world A, planner scripted, journal ")
        headers = {"Authorization": f"Bearer {token}"}
        assert httpx.get(f"{base}api/me", headers=headers).json() == {"user": "local",
                                                                      "role": "admin"}
        assert httpx.get(f"{base}api/me").status_code == 401
        mission = httpx.post(f"{base}api/missions", headers=headers, json={
            "request": SEARCH, "plan": SEARCH_PLAN}).json()["mission"]
        deadline = time.monotonic() + 60
        while not httpx.get(f"{base}api/robots", headers=headers).json()["robots"]["iris"][
                "airborne"]:
            assert time.monotonic() < deadline, "the drone never took off"
            time.sleep(0.1)
        server.send_signal(stop)
        assert server.wait(60) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    record = Journal(journal, create=False)
    done = record.mission(mission)
    events = record.events(mission)
    assert (done.status, done.meta.get("submitted_by")) == ("halted", "local")
    assert [e.detail for e in events if e.kind == "refusal"][-1].endswith(
        ": the server is shutting down")
    fallback = [(e.robot, e.skill, e.detail) for e in events if e.kind == "fallback"]
    assert fallback == [("iris", "land", "dispatched")]
    landed = [e for e in events if e.kind == "result" and e.data.get("fallback")]
    assert [(e.skill, e.data["succeeded"]) for e in landed] == [("land", True)]
    assert json.loads(json.dumps(record.access()))[0]["detail"] == f"submitted {mission}"
