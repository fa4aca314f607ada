"""The robots' lost-link failsafe without ROS: the watchdog on the orchestrator's heartbeat, and
the simulated robot server that runs its own safe stop when the heartbeat of a mission is lost
(injected clocks: no waiting, no processes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from crewgate.onboard.node import NodeOptions, prepare
from crewgate.onboard.server import RobotServer
from crewgate.onboard.watchdog import Lost, Watchdog
from crewgate.ros2.protocol import (
    Feedback,
    SkillRequest,
    decode_heartbeat,
    encode_cancel,
    encode_heartbeat,
)
from crewgate.world import BindingValue


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Recorder:
    feedbacks: list[Feedback] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)
    held: list[bool] = field(default_factory=list)  # the e-stop as republished

    def feedback(self, fb: Feedback) -> None:
        self.feedbacks.append(fb)

    def binding(self, name: str, value: BindingValue, stamp: float) -> None:
        pass

    def objects(self, text: str) -> None:
        pass

    def state(self, text: str) -> None:
        pass

    def log(self, message: str) -> None:
        self.logs.append(message)

    def estop(self, engaged: bool) -> None:
        self.held.append(engaged)


# -- the watchdog ---------------------------------------------------------------------------------

def test_it_arms_on_a_mission_heartbeat_and_expires_after_its_timeout() -> None:
    clock = Clock()
    dog = Watchdog(2.0, clock)
    assert dog.expired() is None  # disarmed: silence means nothing
    clock.t += 100
    assert dog.expired() is None
    assert dog.beat("m1") == "orchestrator heartbeat: mission m1; failsafe armed (2 s)"
    assert dog.beat("m1") is None  # the same mission: nothing to log
    clock.t += 1.9
    dog.beat("m1")
    clock.t += 2.0
    assert dog.expired() is None  # exactly the timeout: not yet
    clock.t += 0.01
    lost = dog.expired()
    assert lost is not None
    assert lost.mission == "m1"
    assert lost.silent_s == pytest.approx(2.01)
    assert not dog.armed  # disarmed until the next mission heartbeat
    assert dog.expired() is None
    assert dog.lost("m1")
    assert not dog.lost("m2")


def test_a_heartbeat_naming_no_mission_disarms_it() -> None:
    clock = Clock()
    dog = Watchdog(1.0, clock)
    dog.beat("m1")
    assert dog.beat(None) == "orchestrator heartbeat: mission m1 ended; failsafe disarmed"
    clock.t += 60
    assert dog.expired() is None
    assert not dog.lost("m1")
    dog.beat("m2")  # the next mission arms it again
    clock.t += 1.5
    assert dog.expired() == Lost("m2", 1.5)


@pytest.mark.parametrize("timeout", [0.0, -1.0, float("nan")])
def test_a_timeout_that_is_not_positive_is_refused(timeout: float) -> None:
    with pytest.raises(ValueError, match="must be positive"):
        Watchdog(timeout, Clock())


def test_the_heartbeat_message_round_trips_and_junk_is_refused() -> None:
    assert decode_heartbeat(encode_heartbeat("abc", 7)) == ("abc", 7)
    assert decode_heartbeat(encode_heartbeat(None, 8)) == (None, 8)
    for junk in ('{"seq": 1}', "[1]", '{"mission": 5}', '{"mission": ""}', "nope"):
        with pytest.raises((ValueError, TypeError)):
            decode_heartbeat(junk)


# -- the simulated robot's failsafe ---------------------------------------------------------------

def _server(robot: str, speed: float = 10.0, listen_s: float = 0.0
            ) -> tuple[RobotServer, Recorder, Clock]:
    sim = prepare(NodeOptions("sar", robot))
    clock, sink = Clock(), Recorder()
    server = RobotServer(sim, robot, sink, speed=speed, listen_s=listen_s, monotonic=clock,
                         wall=lambda: 1.7e9 + clock.t)
    return server, sink, clock


def _req(skill: str, args: dict[str, Any] | None = None, rid: str = "r1", mission: str = "m1",
         index: int = 0, fallback: bool = False) -> str:
    return SkillRequest(rid, mission, index, skill, args or {}, fallback=fallback).encode()


def _run(server: RobotServer, clock: Clock, seconds: float, *, beat: str | None = None) -> None:
    """Let ``seconds`` of wall time pass in ticks of 50 ms, heartbeating ``beat`` meanwhile."""
    for _ in range(round(seconds / 0.05)):
        if beat is not None:
            server.on_heartbeat(encode_heartbeat(beat, 0))
        clock.t += 0.05
        server.tick()


def _finals(sink: Recorder, rid: str) -> list[tuple[str, str]]:
    return [(f.status, f.message) for f in sink.feedbacks if f.id == rid and f.final]


def test_a_drone_whose_orchestrator_goes_silent_mid_search_lands_by_itself() -> None:
    server, sink, clock = _server("iris")
    timeout = server.sim.crew.robots["iris"].orchestrator_timeout_s
    server.on_request("iris", _req("takeoff", {"altitude": 3.0}, "a"))
    _run(server, clock, 1.0, beat="m1")
    assert server.sim.world.get("iris", "airborne") is True
    server.on_request("iris", _req("search_target", {"zone": [-5.5, 5.5, -5.5, 5.5]}, "b",
                                   index=1))
    _run(server, clock, 0.5, beat="m1")
    assert _finals(sink, "b") == []  # searching
    # the orchestrator is killed: no heartbeat from now on
    _run(server, clock, timeout - 0.1)
    assert _finals(sink, "b") == []  # still within the timeout: it goes on
    _run(server, clock, 0.2)
    assert _finals(sink, "b") == [("cancelled", "lost link: orchestrator heartbeat lost")]
    assert any(line.startswith("lost link: no heartbeat from the orchestrator of mission m1 for")
               for line in sink.logs)
    assert "lost link: iris.land" in sink.logs
    _run(server, clock, 1.0)  # 3 m at 1 m/s, 10x real time
    assert server.sim.world.get("iris", "airborne") is False
    assert "lost link: iris.land succeeded" in sink.logs
    # that mission is over for this robot: its plan steps are refused, its fallback still runs
    server.on_request("iris", _req("takeoff", {}, "c", index=2))
    assert _finals(sink, "c")[0][0] == "rejected"
    assert "mission m1 was lost" in _finals(sink, "c")[0][1]
    server.on_request("iris", _req("land", {}, "d", fallback=True))
    assert _finals(sink, "d") == []  # accepted
    # another mission's steps are taken
    server.on_request("iris", _req("takeoff", {}, "e", mission="m2"))
    assert [f.status for f in sink.feedbacks if f.id == "e"] == ["accepted"]


def test_a_rover_stops_when_the_heartbeat_is_lost_and_not_when_the_mission_ends() -> None:
    server, sink, clock = _server("tb3", speed=1.0)
    server.on_heartbeat(encode_heartbeat("m1", 1))
    server.on_request("tb3", _req("navigate_to", {"goal": [4.0, -2.0]}, "a", index=0))
    _run(server, clock, 0.5, beat="m1")
    server.on_heartbeat(encode_heartbeat(None, 9))  # the mission ended: disarmed
    _run(server, clock, 5.0)
    assert not any(line.startswith("lost link") for line in sink.logs)
    assert "orchestrator heartbeat: mission m1 ended; failsafe disarmed" in sink.logs
    server.on_heartbeat(encode_heartbeat("m2", 1))
    server.on_request("tb3", _req("navigate_to", {"goal": [4.0, 2.0]}, "b", mission="m2"))
    _run(server, clock, 0.3, beat="m2")
    _run(server, clock, 2.5)
    assert _finals(sink, "b") == [("cancelled", "lost link: orchestrator heartbeat lost")]
    assert "lost link: tb3.stop" in sink.logs
    _run(server, clock, 0.5)
    assert server.sim.world.get("tb3", "moving") is False


def test_a_malformed_heartbeat_is_logged_and_changes_nothing() -> None:
    server, sink, _ = _server("iris")
    server.on_heartbeat("m1")
    assert sink.logs[-1].startswith("ignored a malformed heartbeat 'm1'")
    assert not server.watchdog.armed


def test_every_request_is_logged_by_the_robot() -> None:
    server, sink, _ = _server("iris")
    server.on_request("iris", _req("takeoff", {}, "a", mission="m9", index=0))
    server.on_request("iris", _req("land", {}, "b", mission="m9", fallback=True))
    assert [line for line in sink.logs if line.startswith("request ")] == [
        "request a: takeoff (mission m9, step 0)",
        "request b: land (mission m9, step 0, fallback)"]


# -- the e-stop a node starts under ---------------------------------------------------------------

def test_a_node_starting_under_an_engaged_estop_never_takes_a_step_sent_before_it_hears_it(
        ) -> None:
    """The latched e-stop reaches a new node only once discovery has matched its publisher: a
    plan step sent before that is held for the node's first listen_s, then refused."""
    server, sink, clock = _server("iris", listen_s=1.0)
    server.on_request("iris", _req("takeoff", {}, "a"))
    assert sink.feedbacks == []  # held: neither accepted nor refused yet
    assert server.state_text() is None  # silent while it listens: no orchestrator sends yet
    _run(server, clock, 0.5)
    server.on_estop(True)  # the latched value arrives
    _run(server, clock, 0.6)
    assert _finals(sink, "a") == [("rejected", "e-stop engaged: no new requests until it is "
                                               "released (estop false)")]
    assert server.sim.world.get("iris", "airborne") is False
    assert server.state_text() is not None


def test_a_step_held_while_listening_runs_when_no_estop_comes_and_can_be_cancelled() -> None:
    server, sink, clock = _server("iris", listen_s=1.0)
    server.on_request("iris", _req("takeoff", {}, "a"))
    server.on_request("iris", _req("takeoff", {}, "b", index=1))
    server.on_cancel(encode_cancel("b"))
    assert _finals(sink, "b") == [("cancelled", "cancelled on request")]
    server.on_request("iris", _req("land", {}, "f", fallback=True))  # a fallback runs at once
    assert [f.status for f in sink.feedbacks if f.id == "f"] == ["accepted"]
    _run(server, clock, 0.95)
    assert [f.status for f in sink.feedbacks if f.id == "a"] == []
    _run(server, clock, 0.1)
    assert [f.status for f in sink.feedbacks if f.id == "a"] == ["accepted"]
    assert "request a held: listening for an e-stop for 1 s after start" in sink.logs
    assert [f.status for f in sink.feedbacks if f.id == "b"] == ["cancelled"]  # never started


def test_a_node_holds_the_estop_it_heard_for_those_who_start_later() -> None:
    """Every change of the e-stop a node holds is republished (latched, by the ROS 2 wiring):
    a node or orchestrator started after the e-stop's own writer left hears it from here. Only
    changes: a repeated value, or this node's own echo coming back, republishes nothing."""
    server, sink, _ = _server("iris", listen_s=0.0)
    for engaged in (True, True, False, False, True):
        server.on_estop(engaged)
    assert sink.held == [True, False, True]
    assert [line for line in sink.logs if line.startswith("e-stop")] == [
        "e-stop engaged", "e-stop released", "e-stop engaged"]
