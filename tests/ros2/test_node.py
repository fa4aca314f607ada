"""``crewgate node``: simulated robots as ROS 2 nodes in their own processes, driven from this
process over loopback (ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST, a domain of its own and a unique
namespace per test); the nodes run 10-20x faster than real time."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("rclpy", reason="the ROS 2 tests need rclpy: `make extras` (or pip install "
                    '"crewgate[ros2-test]")')


from crewgate.commands import token_of
from crewgate.errors import UserError
from crewgate.onboard.node import NodeOptions, parse_args, prepare
from crewgate.onboard.server import RobotServer
from crewgate.ros2.protocol import Feedback, SkillRequest
from crewgate.world import BindingValue
from tests.ros2.support import NETWORK, Client, Ros, next_domain


def _airborne(client: Client) -> bool:
    return bool(client.latest("iris").get("airborne"))


# -- the command line -----------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["sar", "nosuch"], "unknown robot 'nosuch'"),
    (["sar", "iris", "--fault", "robot_unavailable:nobody"], "has no robot 'nobody'"),
    (["sar", "iris", "--world", "Z"], "unknown world 'Z'"),
    (["nocrew", "iris"], "unknown crew 'nocrew'"),
    (["sar", "iris", "--namespace", "1bad"], "is not a ROS 2 namespace"),
    (["sar", "iris", "--speed", "0"], "--speed must be a positive"),
    (["sar", "iris", "--estop-listen", "-1"], r"--estop-listen must be seconds from 0 to 60, "
     r"not -1\.0 \(the time a starting node listens for an engaged e-stop before it takes "
     r"plan steps; default 1\)"),
    (["sar", "iris", "--estop-listen", "nan"], "--estop-listen must be seconds from 0 to 60, "
     "not nan"),
    (["sar", "iris", "--estop-listen", "61"], "--estop-listen must be seconds from 0 to 60, "
     "not 61"),
])
def test_bad_input_raises_user_error(args: list[str], message: str) -> None:
    with pytest.raises(UserError, match=message):
        prepare(parse_args(args))


def test_bad_input_exits_2_with_one_clear_line(tmp_path: Path) -> None:
    env = {**os.environ, **NETWORK, "ROS_DOMAIN_ID": str(next_domain())}
    done = subprocess.run([sys.executable, "-m", "crewgate.onboard.node", "sar", "irsi"], env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "error: unknown robot 'irsi' (did you mean 'iris'?)" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_rclpy_is_a_user_error_naming_the_extra(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    from crewgate.onboard.ros import require_rclpy

    monkeypatch.setitem(sys.modules, "rclpy", None)  # as if not installed
    with pytest.raises(UserError, match=r'pip install "crewgate\[ros2\]"'):
        require_rclpy()


def test_without_rclpy_the_node_exits_2_with_the_install_hint() -> None:
    code = ("import sys; sys.modules['rclpy'] = None; "
            "from crewgate.onboard.node import main; main(['sar', 'iris'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=30, env={**os.environ, **NETWORK,
                                           "ROS_DOMAIN_ID": str(next_domain())})
    assert done.returncode == 2
    assert 'pip install "crewgate[ros2]"' in done.stderr


# -- one node -------------------------------------------------------------------------------------

def test_takeoff_succeeds_and_the_state_stream_shows_airborne(ros: Ros) -> None:
    node = ros.spawn("sar", "iris")
    assert node.output[-1].startswith("crewgate node iris (sar, world A) up on /cg_")
    client = ros.client
    client.watch("iris")
    client.connect("iris")
    assert client.wait(lambda: len(client.states["iris"]) >= 3, 4.0)
    assert client.latest("iris")["airborne"] is False
    rid = client.request("iris", "takeoff", {"altitude": 2.0})
    assert client.wait(lambda: client.statuses(rid)[:1] == ["accepted"], 3.0)
    final = client.final(rid)
    assert final.status == "succeeded", final
    assert final.result == {"altitude": 2.0}
    assert client.wait(lambda: client.latest("iris")["pose"][2] == pytest.approx(2.0), 3.0)
    assert _airborne(client)
    # the heartbeat: about 20 state messages a second
    n = len(client.states["iris"])
    client.spin(1.0)
    assert 8 <= len(client.states["iris"]) - n <= 32  # (loose: shared CPUs)
    assert node.stop(signal.SIGTERM) == 0  # a clean shutdown


def test_unknown_skill_and_bad_arguments_are_rejected(ros: Ros) -> None:
    ros.spawn("sar", "tb3")
    client = ros.client
    client.watch("tb3")
    client.connect("tb3")
    fb = client.run("tb3", "takeoff")
    assert (fb.status, fb.message) == ("rejected", "tb3 has no skill 'takeoff'")
    fb = client.run("tb3", "navigate_to", {"goal": "nowhere"})
    assert fb.status in ("rejected", "failed")


@pytest.mark.parametrize("fault", ["", "nan_fix", "stale_fix"])
def test_search_publishes_the_victim_fix_as_a_point_stamped(ros: Ros, fault: str) -> None:
    ros.spawn("sar", "iris", *(["--fault", fault] if fault else []), speed=20.0)
    client = ros.client
    client.watch("iris")
    client.watch_binding("victim")
    client.connect("iris")
    assert client.wait(lambda: all(client._subs[t].get_publisher_count() > 0 for t in (
        client.topics.binding("victim"), client.topics.confidence("victim"))), 4.0)
    assert client.run("iris", "takeoff", {"altitude": 3.0}).status == "succeeded"
    fb = client.run("iris", "search_target", {"zone": [3.0, 7.0, 3.0, 7.0]}, timeout=10.0)
    assert fb.status == "succeeded", fb
    assert fb.result["detected"] is True
    assert client.wait(lambda: {k for _, k, _ in client.bindings} == {"confidence", "point"},
                       2.0), client.bindings
    kinds = [k for _, k, _ in client.bindings]
    assert kinds.index("confidence") < kinds.index("point")
    confidence = next(m for _, k, m in client.bindings if k == "confidence")
    assert confidence.data == pytest.approx(0.9)
    point = next(m for _, k, m in client.bindings if k == "point")
    assert point.header.frame_id == "iris"
    stamp = point.header.stamp.sec + point.header.stamp.nanosec * 1e-9
    now = time.time()
    if fault == "nan_fix":
        assert math.isnan(point.point.x)
        assert math.isnan(point.point.y)
        assert all(math.isnan(v) for v in fb.result["fix"])
    else:
        assert math.dist((point.point.x, point.point.y), (5.0, 5.0)) < 1.0
    if fault == "stale_fix":  # older than the binding's max_age_s (120 s), in real seconds
        assert now - 200.0 < stamp < now - 120.0
    else:
        assert now - 3.0 < stamp <= now + 0.1


def test_a_robot_down_from_the_start_is_silent_and_rejects_requests(ros: Ros) -> None:
    ros.spawn("sar", "tb3", "--fault", "robot_unavailable:tb3")
    client = ros.client
    client.watch("tb3")
    client.connect("tb3")
    client.spin(0.5)
    assert client.states["tb3"] == []
    fb = client.run("tb3", "navigate_to", {"goal": [1.0, 1.0]})
    assert (fb.status, fb.message) == ("rejected", "tb3 does not respond")
    assert client.states["tb3"] == []


def test_a_robot_drops_out_when_another_robot_starts_the_trigger_skill(ros: Ros) -> None:
    fault = ("--fault", "robot_unavailable:tb3@takeoff")
    ros.spawn("sar", "iris", *fault)
    ros.spawn("sar", "tb3", *fault)
    client = ros.client
    for robot in ("iris", "tb3"):
        client.watch(robot)
        client.connect(robot)
    assert client.wait(lambda: len(client.states["tb3"]) >= 3, 4.0)
    assert client.run("iris", "takeoff").status == "succeeded"
    heard = len(client.states["tb3"])
    client.spin(0.5)
    assert len(client.states["tb3"]) - heard <= 1  # one may have been in flight
    assert client.run("tb3", "stop").status == "rejected"


def test_cancel_stops_a_running_skill(ros: Ros) -> None:
    node = ros.spawn("sar", "tb3")
    client = ros.client
    client.watch("tb3")
    client.connect("tb3")
    rid = client.request("tb3", "navigate_to", {"goal": [8.0, 8.0]})
    assert client.wait(lambda: "running" in client.statuses(rid), 4.0), client.statuses(rid)
    assert client.latest("tb3")["moving"] is True
    client.cancel("tb3", rid)
    fb = client.final(rid, 4.0)
    assert fb.status == "cancelled"
    assert client.wait(lambda: client.latest("tb3")["moving"] is False, 3.0)
    pose = client.latest("tb3")["pose"]
    client.spin(0.3)
    assert client.latest("tb3")["pose"] == pose  # it stays put
    assert node.stop(signal.SIGINT) == 0  # Ctrl-C: a clean shutdown


def test_estop_lands_an_airborne_drone_and_holds_until_released(ros: Ros) -> None:
    ros.spawn("sar", "iris")
    client = ros.client
    client.watch("iris")
    client.connect("iris")
    assert client.run("iris", "takeoff", {"altitude": 2.0}).status == "succeeded"
    assert client.wait(lambda: _airborne(client), 3.0)
    # a sweep of 6 m x 16 m away from the victim: about a minute of simulated flight, so the
    # e-stop comes first however loaded the machine (a 2 m x 2 m one once ended before it)
    rid = client.request("iris", "search_target", {"zone": [-6.0, 0.0, -6.0, 10.0]})
    assert client.wait(lambda: "accepted" in client.statuses(rid), 3.0)
    # as `ros2 topic pub` would: volatile, again every 0.2 s (a new volatile writer's first
    # sample is lost if the node's reader has not matched it yet; the node applies it once)
    end = time.monotonic() + 4.0
    while not any(f.final for _, f in client.feedback[rid]) and time.monotonic() < end:
        client.estop(True, latched=False)
        client.spin(0.2)
    fb = client.final(rid, 1.0)
    assert (fb.status, fb.message) == ("cancelled", "e-stop")
    assert client.wait(lambda: not _airborne(client), 4.0)  # landed (3 s at 10x)
    assert client.latest("iris")["pose"][2] == 0.0
    fb = client.run("iris", "takeoff")
    assert fb.status == "rejected"
    assert "e-stop" in fb.message
    client.estop(False)  # released through a latched publisher
    client.spin(0.2)
    assert client.run("iris", "takeoff").status == "succeeded"


def test_a_node_started_after_the_estop_is_stopped_too(ros: Ros) -> None:
    client = ros.client
    client.estop(True, wait=False)  # nobody listens yet: the latched value waits for them
    ros.spawn("sar", "iris")
    client.watch("iris")
    client.connect("iris")
    fb = client.run("iris", "takeoff")
    assert fb.status == "rejected"
    assert "e-stop" in fb.message


# -- two nodes ------------------------------------------------------------------------------------

def test_two_nodes_keep_the_objects_consistent(ros: Ros) -> None:
    ros.spawn("g1_go2", "g1")
    ros.spawn("g1_go2", "go2")
    client = ros.client
    for robot in ("g1", "go2"):
        client.watch(robot)
        client.connect(robot)
    assert client.wait(lambda: len(client.states["go2"]) >= 3, 4.0)
    fb = client.run("g1", "grab_from_table", {"object": "red_cube"})
    assert fb.status == "succeeded", fb
    assert client.wait(lambda: client.latest("g1").get("holding") == "red_cube", 3.0)
    fb = client.run("g1", "place_on_table", {"object": "red_cube"})
    assert fb.status == "succeeded", fb
    assert fb.result == {"object": "red_cube", "loaded_onto": "go2"}
    assert client.wait(lambda: client.latest("go2").get("payload") == "red_cube", 3.0)
    # g1's next state message may come after go2's (two topics, no order between them)
    assert client.wait(lambda: client.latest("g1").get("holding") is None, 3.0)
    # a late joiner gets the last object map (transient local)
    client.watch_objects()
    assert client.wait(lambda: bool(client.objects), 4.0)
    assert client.objects[-1] == {"red_cube": "go2", "block": "table_a", "bottle": "table_a"}
    # go2 carries it away
    fb = client.run("go2", "navigate_to_location", {"location": "room_a"})
    assert fb.status == "succeeded", fb
    assert client.wait(lambda: client.latest("go2").get("location") == "room_a", 3.0)
    assert client.latest("go2")["payload"] == "red_cube"


def test_loading_fails_when_the_quadruped_is_not_running(ros: Ros) -> None:
    ros.spawn("g1_go2", "g1")
    client = ros.client
    client.watch("g1")
    client.connect("g1")
    assert client.run("g1", "grab_from_table", {"object": "red_cube"}).status == "succeeded"
    client.spin(1.0)  # past go2's liveness timeout (1 s): never heard of
    fb = client.run("g1", "place_on_table", {"object": "red_cube"})
    assert (fb.status, fb.message) == ("failed", "go2 is not there to load")


# -- the server without ROS -----------------------------------------------------------------------

@dataclass
class Recorder:
    feedbacks: list[Feedback] = field(default_factory=list)
    bindings: list[tuple[str, BindingValue, float]] = field(default_factory=list)
    maps: list[str] = field(default_factory=list)
    states: list[str] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)
    held: list[bool] = field(default_factory=list)  # the e-stop as republished

    def feedback(self, fb: Feedback) -> None:
        self.feedbacks.append(fb)

    def binding(self, name: str, value: BindingValue, stamp: float) -> None:
        self.bindings.append((name, value, stamp))

    def objects(self, text: str) -> None:
        self.maps.append(text)

    def state(self, text: str) -> None:
        self.states.append(text)

    def log(self, message: str) -> None:
        self.logs.append(message)

    def estop(self, engaged: bool) -> None:
        self.held.append(engaged)


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _server(robot: str, *faults: str, speed: float = 1.0, crew: str = "sar"
            ) -> tuple[RobotServer, Recorder, FakeClock]:
    sim = prepare(NodeOptions(crew, robot, faults=faults))
    clock, sink = FakeClock(), Recorder()
    server = RobotServer(sim, robot, sink, speed=speed, listen_s=0.0, monotonic=clock,
                         wall=lambda: 1.7e9 + clock.t)
    return server, sink, clock


def _req(skill: str, args: dict[str, Any] | None = None, rid: str = "r1") -> str:
    return SkillRequest(rid, "m", 0, skill, args or {}).encode()


def test_server_runs_in_real_time_times_speed() -> None:
    server, sink, clock = _server("iris", speed=10.0)
    server.on_request("iris", _req("takeoff", {"altitude": 2.0}))
    assert [f.status for f in sink.feedbacks] == ["accepted"]
    clock.t += 0.1  # 1 simulated second: still climbing
    server.tick()
    assert server.sim.t == pytest.approx(1.0)
    assert [f.status for f in sink.feedbacks] == ["accepted"]
    clock.t += 0.15
    server.tick()
    last = sink.feedbacks[-1]
    assert last.status == "succeeded"
    assert last.t == pytest.approx(1.7e9 + clock.t)


def test_a_stale_fix_keeps_its_age_in_real_seconds_whatever_the_speed() -> None:
    server, sink, clock = _server("iris", "stale_fix", speed=20.0)
    server.on_request("iris", _req("takeoff", {"altitude": 3.0}, "a"))
    while sink.feedbacks[-1].status != "succeeded":
        clock.t += 0.05
        server.tick()
    server.on_request("iris", _req("search_target", {"zone": [3, 7, 3, 7]}, "b"))
    while sink.feedbacks[-1].status != "succeeded":
        clock.t += 0.05
        server.tick()
    ((name, value, stamp),) = sink.bindings
    assert name == "victim"
    assert value.source == "iris"
    assert stamp == pytest.approx(1.7e9 + clock.t - (server.sim.t - value.stamp), abs=0.06)
    assert 1.7e9 + clock.t - stamp > 120.0


def test_the_drop_out_trigger_on_another_robots_request_silences_this_one() -> None:
    server, sink, _ = _server("tb3", "robot_unavailable:tb3@search_target")
    assert server.state_text() is not None
    server.on_request("iris", _req("takeoff"))
    assert server.state_text() is not None
    server.on_request("iris", _req("search_target", {"zone": [0, 1, 0, 1]}))
    assert server.down
    assert server.state_text() is None
    server.on_request("tb3", _req("stop", rid="x"))
    assert [(f.status, f.message) for f in sink.feedbacks] == [
        ("rejected", "tb3 does not respond")]


def test_mirrored_state_wins_over_the_local_copy_and_expires() -> None:
    server, _, clock = _server("g1", crew="g1_go2")
    server.on_state("go2", '{"robot": "go2", "t": 0, "fields": {"location": "room_a", '
                           '"available": true}}')
    clock.t += 0.5
    server.tick()
    assert server.sim.world.get("go2", "location") == "room_a"
    assert server.sim.world.get("go2", "available") is True
    clock.t += 1.0  # past go2's liveness timeout
    server.tick()
    assert server.sim.world.get("go2", "available") is False


def test_tokens_are_stable_hashes_of_the_request_id() -> None:
    assert token_of("abc") == token_of("abc") != token_of("abd")
    assert 0 <= token_of("abc") < 2**64


def test_hostile_messages_on_every_topic_are_ignored_and_logged() -> None:
    # anyone on the domain can publish: a message nested past the decoder's recursion, or with
    # NaN, is logged and ignored; the node goes on (no exception leaves a callback)
    server, sink, _ = _server("tb3")
    deep = '{"id": "r9", "skill": ' + "[" * 100_000 + "]" * 100_000 + "}"
    nan = '{"id": "r9", "robot": "iris", "skill": "stop", "fields": {"x": NaN}}'
    for text in (deep, nan):
        server.on_request("tb3", text)
        server.on_cancel(text)
        server.on_state("iris", text)
        server.on_objects(text)
        server.on_heartbeat(text)
    too_deep, not_a_number = ("the JSON nests too deep to be read",
                              "NaN is not a number crewgate reads (non-finite numbers are errors)")
    assert [line.replace(deep[:80], "DEEP").replace(nan[:80], "NAN") for line in sink.logs] == [
        f"ignored a malformed request 'DEEP': {too_deep}",
        f"ignored a malformed cancel 'DEEP': {too_deep}",
        f"ignored malformed state of iris: {too_deep}",
        f"ignored a malformed object map: {too_deep}",
        f"ignored a malformed heartbeat 'DEEP': {too_deep}",
        f"ignored a malformed request 'NAN': {not_a_number}",
        f"ignored a malformed cancel 'NAN': {not_a_number}",
        f"ignored malformed state of iris: {not_a_number}",
        f"ignored a malformed object map: {not_a_number}",
        f"ignored a malformed heartbeat 'NAN': {not_a_number}",
    ]
    assert sink.feedbacks == []
    server.on_request("tb3", _req("stop"))  # and it still serves requests
    assert [f.status for f in sink.feedbacks] == ["accepted"]
