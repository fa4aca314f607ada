"""Skills wired to plain ROS 2 interfaces by a crew's ``ros2`` section (tests/data/crews/
wired.yaml): the orchestrator publishes a goal, calls a service, sends an action goal, fills
their fields from the checked arguments and reads the robot's pose and beacon topics; the robot
(tests/ros2/wired_robot.py, its own process) knows nothing of crewgate."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("rclpy", reason="the ROS 2 tests need rclpy: `make extras` (or pip install "
                    '"crewgate[ros2-test]")')
pytest.importorskip("test_msgs", reason="the action test needs test_msgs: "
                    'pip install "crewgate[ros2-test]"')

from crewgate.api import run_mission
from crewgate.errors import UserError
from crewgate.orchestrator import MissionResult
from crewgate.planners import ScriptedPlanner
from crewgate.ros2.adapter import Ros2Adapter
from crewgate.spec import Crew, load_crew
from tests.conftest import plan
from tests.ros2.support import NodeProcess, Ros

HERE = Path(__file__).parent
CREW = HERE.parent / "data" / "crews" / "wired.yaml"


@pytest.fixture(scope="module")
def wired() -> Crew:
    return load_crew(CREW)


def robot(ros: Ros, *args: str) -> NodeProcess:
    return ros.start([str(HERE / "wired_robot.py"), *args], "wired", up='"up"')


def said(node: NodeProcess) -> list[dict[str, Any]]:
    return [json.loads(line) for line in node.drain() if line.startswith("{")]


def errand(ros: Ros, crew: Crew, request: str, *steps: tuple[str, str, dict[str, Any]],
           binding: str | None = None, wait_s: float = 15.0) -> tuple[MissionResult, Ros2Adapter]:
    adapter = Ros2Adapter(crew, namespace=ros.namespace)
    try:
        # heard on its pose topic (however loaded the machine), then its service and action
        # servers matched (or the deadline: ``wait_s``)
        end = time.monotonic() + 15.0
        while not adapter.world.get("rover", "available") and time.monotonic() < end:
            time.sleep(0.02)
        assert adapter.connect(["rover"], wait_s) == []
        # the binding's topic matches on its own schedule: a plan judged before the first value
        # arrives is refused (fail closed), so wait for it where the test needs it
        end = time.monotonic() + 10.0
        while binding and binding not in adapter.world.bindings and time.monotonic() < end:
            time.sleep(0.02)
        result = run_mission(crew, request, ScriptedPlanner([plan("errand", *steps)]),
                             adapter=adapter, journal=":memory:")
    finally:
        adapter.close()
    return result, adapter


def test_topic_service_and_action_skills_run_with_their_fields_filled(ros: Ros,
                                                                       wired: Crew) -> None:
    node = robot(ros)
    result, adapter = errand(ros, wired, "Drive to x 1.5, y -2, survey 3 laps, then dock.",
                             ("rover", "go_to", {"goal": [1.5, -2.0]}),
                             ("rover", "survey", {"laps": 3}), ("rover", "dock", {}))
    assert result.status == "completed", (result.reason, result.codes)
    lines = said(node)
    assert {"goal": [1.5, -2.0], "frame": "map"} in lines
    assert {"survey": 3} in lines
    assert {"dock": True, "moving": False} in lines
    assert adapter.world.get("rover", "pose")[:2] == [1.5, -2.0]  # from the pose topic


def test_a_topic_skill_ends_when_its_done_when_holds(ros: Ros, wired: Crew) -> None:
    """go_to is done when the bridge reports moving == false: the dock call that follows finds
    the rover stopped, although the drive (1 s) outlasts go_to's nominal duration (0.3 s)."""
    node = robot(ros, "--drive-s", "1.0")
    result, _ = errand(ros, wired, "Drive to x 2, y 1, then dock.",
                       ("rover", "go_to", {"goal": [2.0, 1.0]}),
                       ("rover", "dock", {}))
    assert result.status == "completed", (result.reason, result.codes)
    assert {"dock": True, "moving": False} in said(node)


def test_a_service_answering_failure_halts_the_mission(ros: Ros, wired: Crew) -> None:
    robot(ros, "--dock-fails")
    result, _ = errand(ros, wired, "Dock, then drive to x 1, y 1.", ("rover", "dock", {}),
                       ("rover", "go_to", {"goal": [1, 1]}))
    assert result.status == "halted"
    assert result.dispatched[0].message == "/wired/rover/dock answered success=false: " \
                                           "dock blocked"
    assert [d.skill for d in result.dispatched if d.kind == "step"] == ["dock"]


def test_a_service_with_no_server_fails_its_step_without_waiting(ros: Ros, wired: Crew) -> None:
    """Connecting waits for the servers (here for the deadline: there is none); the dispatch
    does not wait between the gate's last check and the send: the step fails, the mission
    halts."""
    robot(ros, "--no-dock")
    result, _ = errand(ros, wired, "Dock, then drive to x 1, y 1.", ("rover", "dock", {}),
                       ("rover", "go_to", {"goal": [1, 1]}), wait_s=1.0)
    assert result.status == "halted"
    assert result.dispatched[0].message == "not accepted: service /wired/rover/dock is not " \
        "available (no server matched: start the robot's server, or correct the name in the " \
        "crew's ros2 section)"
    assert [d.skill for d in result.dispatched if d.kind == "step"] == ["dock"]


def test_an_action_goal_over_its_timeout_is_cancelled(ros: Ros, tmp_path: Path) -> None:
    node = robot(ros)
    # 10 laps at 0.05 s fit in the crew's 5 s; a copy with 0.2 s makes it overrun
    short = tmp_path / "short.yaml"
    short.write_text(CREW.read_text().replace(
        "laps: {type: integer, min: 1, max: 10}\n        duration_s: 1\n        timeout_s: 5",
        "laps: {type: integer, min: 1, max: 10}\n        duration_s: 0.1\n        timeout_s: 0.2"))
    crew = load_crew(short)
    assert crew.skill("rover", "survey").timeout_s == 0.2  # type: ignore[union-attr]
    result, _ = errand(ros, crew, "Survey 10 laps.", ("rover", "survey", {"laps": 10}))
    assert result.status == "halted"
    assert result.dispatched[0].message.startswith("timed out after 0.2 s")
    assert any(line.get("survey_cancelled") for line in _until(node, "survey_cancelled"))


def test_a_binding_on_a_volatile_driver_topic_fills_the_goal(ros: Ros, wired: Crew) -> None:
    node = robot(ros, "--beacon", "4,3")
    result, adapter = errand(ros, wired, "Approach the beacon.",
                             ("rover", "approach", {"target": "beacon"}), binding="beacon")
    assert result.status == "completed", (result.reason, result.codes)
    beacon = adapter.world.bindings["beacon"]
    assert beacon.source == "detector"
    assert beacon.value == (4.0, 3.0)
    assert {"goal": [4.0, 3.0], "frame": "beacon"} in said(node)


def test_without_the_beacon_the_approach_is_refused(ros: Ros, wired: Crew) -> None:
    node = robot(ros)
    result, _ = errand(ros, wired, "Approach the beacon.",
                       ("rover", "approach", {"target": "beacon"}))
    assert result.status == "refused"
    assert "no_target_fix" in result.codes
    assert not any("goal" in line for line in said(node))


def _until(node: NodeProcess, key: str, timeout: float = 5.0) -> list[dict[str, Any]]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        lines = said(node)
        if any(key in line for line in lines):
            return lines
        time.sleep(0.05)
    return said(node)


def test_the_crew_spec_rejects_a_field_naming_no_parameter(tmp_path: Path) -> None:
    text = CREW.read_text().replace("fields: {order: $laps}", "fields: {order: $lapz}")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(UserError, match=r"ros2\.robots\.rover\.skills\.survey\.fields\.order: "
                       r"unknown parameter of rover\.survey 'lapz' \(did you mean 'laps'\?\)"):
        load_crew(bad)


def test_the_orchestrator_node_spins_only_once_its_action_clients_exist(
        ros: Ros, wired: Crew, monkeypatch: pytest.MonkeyPatch) -> None:
    """rclpy's ActionClient joins its node before it has its lock: an executor spinning
    meanwhile died on it (AttributeError in the spin thread; nothing was heard after)."""
    from crewgate.ros2 import adapter as module
    from crewgate.ros2.wiring import Endpoint

    spinning: list[bool] = []

    def endpoint(node: Any, wiring: Any) -> Any:
        spinning.append(any(t.name == f"{node.get_name()}-spin" and t.is_alive()
                            for t in threading.enumerate()))
        return Endpoint(node, wiring)

    monkeypatch.setattr(module, "Endpoint", endpoint)
    adapter = Ros2Adapter(wired, namespace=ros.namespace)
    try:
        assert spinning == [False] * len(adapter.endpoints)
        assert len(spinning) == 4  # go_to, approach (topics), dock (service), survey (action)
        assert any(t.name == f"{adapter.spinner.node.get_name()}-spin" and t.is_alive()
                   for t in threading.enumerate())
    finally:
        adapter.close()
