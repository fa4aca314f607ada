"""The operator service's core on ROS 2: the robots are ``crewgate node`` processes, the service
in this process. Two missions on disjoint robots run at the same time; the service's e-stop
reaches the robots on the e-stop topic (the drone lands by itself) and is released."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("rclpy", reason="the ROS 2 tests need rclpy: `make extras` (or pip install "
                    '"crewgate[ros2-test]")')

from crewgate.journal import EventKind, Journal
from crewgate.ros2.adapter import Ros2Adapter
from crewgate.service import LiveCrew, MissionDesk
from crewgate.spec import load_crew
from tests.conftest import plan
from tests.ros2.support import Ros
from tests.service.test_http import SEARCH, SEARCH_PLAN, drive

SPEED = 20.0
# a search long enough (about 3 s of wall time) to be stopped in the middle
WIDE = ("Fly the drone over x from -5 to 9, y from -5 to 9 and check for people, then come back "
        "down. Keep the rover parked.")
WIDE_PLAN = plan("search_only", ("iris", "takeoff", {}), ("iris", "search_target", {
    "x_min": -5, "x_max": 9, "y_min": -5, "y_max": 9}), ("iris", "land", {}))


def test_the_service_runs_missions_on_disjoint_robots_and_stops_the_crew(ros: Ros) -> None:
    ros.spawn("sar", "iris", speed=SPEED)
    tb3 = ros.spawn("sar", "tb3", speed=SPEED)
    spec = load_crew("sar")
    adapter = Ros2Adapter(spec, namespace=ros.namespace)
    assert adapter.connect(list(spec.robots), 15.0) == []
    live = LiveCrew(adapter)
    journal = Journal(":memory:")
    desk = MissionDesk(spec, live, journal, source="operator")
    try:
        request, to_point = drive(2.5, -4.0)
        air = desk.submit(SEARCH, SEARCH_PLAN, wait_s=0, by="alice")["mission"]
        ground = desk.submit(request, to_point, wait_s=0, by="bob")["mission"]
        done = [desk.wait(m, 120) for m in (air, ground)]
        assert [d["status"] for d in done] == ["completed", "completed"], [
            (e.kind.value, e.step, e.detail) for m in (air, ground) for e in journal.events(m)]
        leased = [e.id for m in (air, ground) for e in journal.events(m)
                  if e.kind == EventKind.LEASE and e.detail.startswith("leased")]
        ends = [e.id for m in (air, ground) for e in journal.events(m)
                if e.kind == EventKind.MISSION_ENDED]
        assert max(leased) < min(ends)  # both held their robots at once
        again = desk.submit(WIDE, WIDE_PLAN, wait_s=0, by="alice")["mission"]
        deadline = time.monotonic() + 60
        while adapter.world.get("iris", "airborne") is not True:
            assert time.monotonic() < deadline, "iris never took off"
            time.sleep(0.05)
        stop = desk.estop(by="vic")
        assert stop == {"estop": "e-stop engaged by vic", "safe_stop": []}
        halted = desk.wait(again, 60)
        assert halted["status"] == "halted", [(e.kind.value, e.detail)
                                              for e in journal.events(again)]
        # the node heard the e-stop topic and ran its own stop: the drone lands
        deadline = time.monotonic() + 60
        while adapter.world.get("iris", "airborne") is not False:
            assert time.monotonic() < deadline, "iris did not land on the e-stop"
            time.sleep(0.05)
        assert desk.estop(release=True) == {"estop": None}
        deadline = time.monotonic() + 30
        while adapter.not_ready("tb3") is not None:  # heard again after the release
            assert time.monotonic() < deadline, (adapter.not_ready("tb3"), {
                r: adapter.last_heard(r) for r in spec.robots}, tb3.describe())
            time.sleep(0.05)
        request, back = drive(-1.0, 4.0)
        assert desk.submit(request, back, wait_s=120, by="bob")["status"] == "completed"
    finally:
        desk.close()
        live.close()
        journal.close()
