"""Crash recovery across processes: ``crewgate run --backend ros2`` SIGKILLed while the drone
searches. The drone node's lost-link failsafe lands it within ``orchestrator_timeout_s`` + 1 s of
the kill; ``crewgate recover`` then closes the mission ``crashed`` with what was sent and what was
confirmed, and leaves a mission alone while its orchestrator lives. The robot nodes log every
request they receive: no plan step ever reaches a robot twice."""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("rclpy", reason="the ROS 2 tests need rclpy: `make extras` (or pip install "
                    '"crewgate[ros2-test]")')

from crewgate.journal import EventKind, Journal
from crewgate.spec import load_crew
from tests.cli.support import CREWGATE, EXAMPLE_PLAN, SAR_REQUEST, write_plan
from tests.cli.support import crewgate_process as crewgate
from tests.ros2.support import Client, NodeProcess, Ros

pytestmark = pytest.mark.slow  # processes killed and recovered: tens of seconds each
ROOT = Path(__file__).resolve().parents[2]
REQUEST_LINE = re.compile(r"request \S+: (\w+) \(mission (\w+), step (\d+)(, fallback)?\)")


def _airborne(client: Client) -> bool:
    return bool(client.latest("iris").get("airborne"))


def _orchestrator(ros: Ros, crew: str, journal: Path) -> NodeProcess:
    """``crewgate run CREW <the SAR request> --backend ros2`` in its own process (with the
    example plan: what is tested here is the crash, not the planner)."""
    return ros.start([str(CREWGATE), "run", crew, SAR_REQUEST, "--plan", str(EXAMPLE_PLAN),
                      "--backend", "ros2", "--namespace", ros.namespace, "--journal",
                      str(journal)], "orchestrator", wait=False)


def _searching(client: Client, journal: Path, orch: NodeProcess, timeout: float = 60.0) -> str:
    """Wait until the orchestrator journaled the search as sent (the drone searches); the
    mission id."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert orch.proc.poll() is None, orch.describe()
        client.spin(0.05)
        if not journal.exists():
            continue
        jr = Journal(journal, create=False)
        try:
            missions = jr.missions(limit=1)
            if missions and any(e.kind is EventKind.SENT and e.skill == "search_target"
                                for e in jr.events(missions[0].mission_id)):
                return missions[0].mission_id
        finally:
            jr.close()
    raise AssertionError(f"the search was never sent: {orch.drain()}")


def _requests(node: NodeProcess) -> list[tuple[str, str, int, bool]]:
    """(skill, mission, step, fallback) of every request the robot node logged receiving."""
    return [(m[1], m[2], int(m[3]), m[4] is not None)
            for m in REQUEST_LINE.finditer(node.stderr.read_text())]


def _plan_steps_once(*nodes: NodeProcess) -> None:
    steps = Counter((mission, step) for node in nodes
                    for _, mission, step, fallback in _requests(node) if not fallback)
    assert [key for key, n in steps.items() if n > 1] == []


def test_a_killed_orchestrator_leaves_the_drone_to_land_itself_and_recover_closes_it(
        ros: Ros, tmp_path: Path) -> None:
    iris = ros.spawn("sar", "iris", speed=10)
    tb3 = ros.spawn("sar", "tb3", speed=10)
    client = ros.client
    client.watch("iris")
    journal = tmp_path / "j.sqlite3"
    orch = _orchestrator(ros, "sar", journal)
    mission_id = _searching(client, journal, orch)
    assert client.wait(lambda: _airborne(client), 5.0)
    orch.proc.kill()  # SIGKILL: no finally, no fallback, no journal end
    killed = time.monotonic()
    orch.proc.wait(5.0)
    timeout = load_crew("sar").robots["iris"].orchestrator_timeout_s
    assert client.wait(lambda: not _airborne(client), timeout + 3.0)
    landed = next(t for t, fields in client.states["iris"]
                  if t > killed and fields.get("airborne") is False)
    print(f"\nSIGKILL -> the drone reports airborne false: {landed - killed:.3f} s "
          f"(orchestrator_timeout_s {timeout:g} s)")
    assert landed - killed <= timeout + 1.0
    assert landed - killed >= timeout - 0.2  # its own failsafe, not something earlier
    assert client.wait(lambda: "lost link: iris.land succeeded" in iris.stderr.read_text(), 3.0)
    log = iris.stderr.read_text()
    assert f"lost link: no heartbeat from the orchestrator of mission {mission_id}" in log
    assert Journal(journal).mission(mission_id).status is None  # unfinished

    recovered = crewgate("recover", "sar", "--backend", "ros2", "--namespace", ros.namespace,
                         "--wait-for", "5", "--json", journal=journal)
    assert recovered.rc == 0, str(recovered)
    (mission,) = recovered.json()["missions"]
    assert (mission["mission_id"], mission["status"]) == (mission_id, "crashed")
    assert [(s["step"], s["confirmed"], s["succeeded"]) for s in mission["sent"]] == [
        ("iris.takeoff", True, True), ("iris.search_target", False, None)]
    assert mission["engaged"] == ["iris"]
    assert mission["unreachable"] == {}
    assert mission["fallback"] == [{"step": "iris.land",
                                    "outcome": "skipped: airborne == true does not hold"}]
    jr = Journal(journal, create=False)
    assert jr.mission(mission_id).status == "crashed"
    ended = jr.events(mission_id)[-1]
    jr.close()
    assert ended.kind is EventKind.MISSION_ENDED
    assert ("sent 0 iris.takeoff, 1 iris.search_target; confirmed 0 iris.takeoff (succeeded); "
            "not confirmed 1 iris.search_target") in ended.data["reason"]
    # counted at the robots: each plan step reached its robot once, and recovery sent nothing
    assert _requests(iris) == [("takeoff", mission_id, 0, False),
                               ("search_target", mission_id, 1, False)]
    assert _requests(tb3) == []
    _plan_steps_once(iris, tb3)


def test_recover_leaves_a_live_mission_alone_and_lands_a_drone_without_a_failsafe(
        ros: Ros, tmp_path: Path) -> None:
    """A drone whose failsafe would wait for 10 minutes: the recovery's fallback lands it."""
    text = (ROOT / "src" / "crewgate" / "crews" / "sar.yaml").read_text(encoding="utf-8")
    anchor = "    liveness_timeout_s: 1.0\n"  # iris's, the first robot
    crew = tmp_path / "sar_patient.yaml"
    crew.write_text(text.replace(anchor, anchor + "    orchestrator_timeout_s: 600\n", 1),
                    encoding="utf-8")
    assert load_crew(crew).robots["iris"].orchestrator_timeout_s == 600
    iris = ros.spawn(str(crew), "iris", speed=2)  # the search lasts long enough
    tb3 = ros.spawn(str(crew), "tb3", speed=2)
    client = ros.client
    client.watch("iris")
    journal = tmp_path / "j.sqlite3"
    orch = _orchestrator(ros, str(crew), journal)
    mission_id = _searching(client, journal, orch)

    alive = crewgate("recover", str(crew), "--backend", "ros2", "--namespace", ros.namespace,
                     "--wait-for", "5", "--json", journal=journal)
    assert alive.rc == 1, str(alive)
    (mission,) = alive.json()["missions"]
    assert mission["status"] == "running"
    assert "it holds lease" in mission["reason"]  # its process is alive: certain, at once
    assert orch.proc.poll() is None  # the mission went on
    assert Journal(journal).mission(mission_id).status is None

    orch.proc.kill()
    orch.proc.wait(5.0)
    client.spin(2.0)
    assert _airborne(client)  # no failsafe for 10 minutes: it hovers
    recovered = crewgate("recover", str(crew), "--backend", "ros2", "--namespace",
                         ros.namespace, "--wait-for", "5", "--json", journal=journal)
    assert recovered.rc == 0, str(recovered)
    (mission,) = recovered.json()["missions"]
    assert mission["status"] == "crashed"
    assert mission["fallback"] == [{"step": "iris.land", "outcome": "succeeded"}]
    assert client.wait(lambda: not _airborne(client), 5.0)
    assert Journal(journal).mission(mission_id).status == "crashed"
    # the plan steps reached the drone once; the recovery sent one fallback step
    assert _requests(iris) == [("takeoff", mission_id, 0, False),
                               ("search_target", mission_id, 1, False),
                               ("land", mission_id, 0, True)]
    assert _requests(tb3) == []
    _plan_steps_once(iris, tb3)


def test_a_new_orchestrator_process_is_never_answered_with_an_earlier_ones_feedback(
        ros: Ros, tmp_path: Path) -> None:
    """Request ids are unique across orchestrator processes: a robot answers a repeated id
    with the feedback it gave before, so a restarted orchestrator (or a recovery) whose ids
    restarted would see its steps "succeed" without the robot moving."""
    ros.spawn("sar", "iris", speed=20)
    tb3 = ros.spawn("sar", "tb3", speed=20)
    client = ros.client
    client.watch("tb3")
    journal = tmp_path / "j.sqlite3"
    for x, y in ((2.5, 1.0), (-1.0, -2.0)):
        plan = write_plan(tmp_path / "plan.json", "dispatch_only",
                          ("tb3", "navigate_to", {"x": x, "y": y}))
        run = crewgate("run", "sar", f"Move the ground robot to x {x}, y {y}.", "--plan",
                       plan, "--backend", "ros2", "--namespace", ros.namespace,
                       journal=journal)
        assert run.rc == 0, str(run)
        assert client.wait(lambda: bool(client.states["tb3"]), 5.0)
        client.spin(0.3)
        pose = client.latest("tb3")["pose"]
        assert math.dist(pose[:2], (x, y)) < 0.6, (x, y, pose)
    assert [skill for skill, *_ in _requests(tb3)] == ["navigate_to", "navigate_to"]
