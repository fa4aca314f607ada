"""The ROS 2 adapter: the orchestrator's robots are ROS 2 nodes, found on the graph.

The world state is fed by the robots themselves: their state topics (also their heartbeat), the
binding topics (stamped points: presence, finiteness, area and freshness by the stamp are then
the gate's business) and the e-stop topic. A robot silent for longer than its declared
``liveness_timeout_s`` becomes unavailable: the gate refuses its dispatches, and a step it was
running fails, which halts the mission into its safe fallback.

While a mission runs, the adapter publishes the orchestrator's heartbeat
(:mod:`crewgate.ros2.heartbeat`), which the robots' lost-link failsafe watches.
"""

from __future__ import annotations

import itertools
import math
import secrets
import threading
import time
from functools import partial
from typing import Any

from crewgate.adapters.base import Adapter
from crewgate.commands import RUNNING, Command, Progress, Status
from crewgate.errors import AdapterError
from crewgate.jsonsafe import loads
from crewgate.ros2.heartbeat import Heartbeat
from crewgate.ros2.protocol import (
    Feedback,
    SkillRequest,
    Topics,
    decode_state,
    encode_cancel,
)
from crewgate.ros2.runtime import SpinningNode, interface, qos, subscribe_any
from crewgate.ros2.section import Ros2Section
from crewgate.ros2.wiring import Endpoint, WiredCall
from crewgate.spec import Crew
from crewgate.world import BindingValue, World

MAX_OBJECTS_TEXT = 65_536  # an objects map is small; more is not read
LIVENESS_PERIOD_S = 0.02  # how often silence is checked
ACCEPT_TIMEOUT_S = 2.0  # a robot that does not acknowledge a request in time failed it
# A skill's success, the state it changed and the bindings it produced travel on different
# topics, in no guaranteed order: a success is held (this long at most) until they have come, so
# that the next step is judged on the world the success left.
SETTLE_S = 0.5
ESTOP_ARRIVAL_S = 0.1  # a latched value arrives this soon after its writer matched
ESTOP_HEAR_S = 2.0  # at most this long for every e-stop writer on the graph to be matched

_ids = itertools.count(1)


class Ros2Adapter(Adapter):
    name = "ros2"
    tick_s = 0.01

    def __init__(self, crew: Crew, *, namespace: str | None = None) -> None:
        super().__init__(World(crew, clock=time.time))
        self.crew = crew
        self.topics = Topics.of(crew, namespace)
        section = crew.section(Ros2Section)
        self.wired = dict(section.robots) if section else {}
        for fields in self.world.robots.values():
            fields["available"] = False  # unknown until heard on the graph
        self.heard: dict[str, float] = {}
        self.feedback: dict[str, Feedback] = {}
        self.sent: dict[str, tuple[float, Command]] = {}
        self.calls: dict[str, WiredCall] = {}
        self.estop: str | None = None
        self._confidence: dict[str, float] = {}
        self._arrived: dict[tuple[str, str], float] = {}  # (binding, point|confidence) -> when
        self._done_at: dict[str, float] = {}  # request id -> when its success arrived
        self._lock = threading.Lock()
        self._session = secrets.token_hex(4)  # this adapter's prefix of request ids
        # spun once every entity exists: the wired skills' action clients among them
        self.spinner = SpinningNode(f"crewgate_orchestrator_{next(_ids)}")
        try:
            self._connect()
        except BaseException:
            self.spinner.close()
            raise
        self.spinner.start()

    # -- graph ---------------------------------------------------------------------------------

    def _connect(self) -> None:
        String, Bool, Float32 = (interface(f"std_msgs/msg/{t}") for t in
                                 ("String", "Bool", "Float32"))
        PointStamped, PoseStamped = (interface(f"geometry_msgs/msg/{t}") for t in
                                     ("PointStamped", "PoseStamped"))
        self.String = String
        node = self.spinner.node
        self.requests = {}
        self.cancels = {}
        for robot in self.crew.robots:
            subscribe_any(node, String, self.topics.state(robot), self._on_state)
            wiring = self.wired.get(robot)
            if wiring and wiring.pose_topic:
                subscribe_any(node, PoseStamped, wiring.pose_topic,
                              partial(self._on_pose, robot))
            node.create_subscription(String, self.topics.feedback(robot), self._on_feedback,
                                     qos())
            self.requests[robot] = node.create_publisher(String, self.topics.request(robot),
                                                         qos())
            self.cancels[robot] = node.create_publisher(String, self.topics.cancel(robot), qos())
        self.endpoints = {(robot, skill): Endpoint(node, wiring)
                          for robot, r in self.wired.items()
                          for skill, wiring in r.skills.items()}
        for name in self.crew.bindings:
            subscribe_any(node, PointStamped, self.topics.binding(name),
                          partial(self._on_binding, name), replay=True)
            subscribe_any(node, Float32, self.topics.confidence(name),
                          partial(self._on_confidence, name), replay=True)
        self._estop_in = subscribe_any(node, Bool, self.topics.estop(), self._on_estop,
                                       replay=True)
        self.Bool = Bool
        # the operator's e-stop from this side (a service's, an agent's), latched as
        # `crewgate estop` publishes it: every node stops itself on it
        self._estop_out = node.create_publisher(Bool, self.topics.estop(),
                                                qos(depth=1, latched=True))
        # where the objects are, as the robots report them (latched: the last map arrives)
        subscribe_any(node, String, self.topics.objects(), self._on_objects, replay=True)
        node.create_timer(LIVENESS_PERIOD_S, self._check_liveness)
        self.heartbeat = Heartbeat(node, String, self.topics.heartbeat())

    def _on_state(self, msg: Any) -> None:
        try:
            robot, _, fields = decode_state(msg.data)
        except (ValueError, KeyError, TypeError):
            return  # not crewgate's: ignore
        if robot in self.world.robots:
            fields = {k: v for k, v in fields.items() if k != "available"}
            self.world.update(robot, **fields)
            self._heard(robot)

    def _on_objects(self, msg: Any) -> None:
        """``{OBJECT: WHERE}`` on the crew's objects topic; what is not the crew's is ignored
        (bounded: one entry per crew object at most)."""
        try:
            found = loads(msg.data) if len(msg.data) <= MAX_OBJECTS_TEXT else None
        except (ValueError, TypeError):
            return
        if not isinstance(found, dict):
            return
        with self.world.lock:
            for name, where in found.items():
                if name in self.crew.objects and isinstance(where, str):
                    self.world.objects[name] = where

    def _on_pose(self, robot: str, msg: Any) -> None:
        p = msg.pose.position
        self.world.update(robot, pose=[p.x, p.y, p.z])
        self._heard(robot)

    def _heard(self, robot: str) -> None:
        with self._lock:
            self.heard[robot] = time.monotonic()
        if not self.world.get(robot, "available") and self.estop is None:
            self.world.set_available(robot, True)

    def _silent(self, robot: str, since: float) -> bool:
        """Whether ``robot`` has not been heard for longer than its liveness timeout (counting
        from ``since`` if it never was)."""
        last = self.heard.get(robot, since)
        return time.monotonic() - last > self.crew.robots[robot].liveness_timeout_s

    def _check_liveness(self) -> None:
        for robot in self.crew.robots:  # (never heard: unavailable already, not "silent")
            if self._silent(robot, since=math.inf) and self.world.get(robot, "available"):
                self.world.set_available(robot, False)

    def _on_binding(self, name: str, msg: Any) -> None:
        stamp = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        value = (float(msg.point.x), float(msg.point.y))
        with self._lock:
            self._arrived[(name, "point")] = time.monotonic()
            confidence = self._confidence.get(name)
        self.world.publish(name, BindingValue(value, stamp, confidence, msg.header.frame_id))

    def _on_confidence(self, name: str, msg: Any) -> None:
        with self._lock:
            self._arrived[(name, "confidence")] = time.monotonic()
            self._confidence[name] = float(msg.data)
        current = self.world.bindings.get(name)
        if current is not None:  # it overtook the point it belongs to
            self.world.publish(name, BindingValue(current.value, current.stamp,
                                                  float(msg.data), current.source))

    def _on_feedback(self, msg: Any) -> None:
        try:
            fb = Feedback.decode(msg.data)
        except (ValueError, KeyError, TypeError):
            return
        with self._lock:
            if fb.id in self.sent:
                self.feedback[fb.id] = fb

    def _on_estop(self, msg: Any) -> None:
        held = self.estop is not None
        if msg.data:
            self.estop = f"e-stop received on {self.topics.estop()}"
            for robot in self.crew.robots:
                self.world.set_available(robot, False)
        else:
            self.estop = None
        if bool(msg.data) != held:  # held here now: heard from here by whoever starts later
            self._estop_out.publish(self.Bool(data=bool(msg.data)))

    def abort_reason(self) -> str | None:
        return super().abort_reason() or self.estop  # our own stop says who engaged it

    def engage_stop(self, why: str) -> None:
        """Halt this side's missions and publish the e-stop: every robot node cancels what it
        runs and runs its own stop (the drone lands) until released."""
        super().engage_stop(why)
        self._estop_out.publish(self.Bool(data=True))

    def release_stop(self) -> None:
        """Release it on the topic too (whoever engaged it there: releasing is an admin's)."""
        super().release_stop()
        self.estop = None  # our own false arrives a moment later; nothing is held meanwhile
        self._estop_out.publish(self.Bool(data=False))

    def hear_estop(self, timeout_s: float) -> None:
        """Wait (at most ``timeout_s``) until every latched writer of the e-stop topic on the
        graph has matched this adapter's latched reader, and a moment more for the value each
        holds to arrive: what :attr:`estop` says is then the graph's, not only what discovery
        had brought so far (:meth:`connect` ends with it)."""
        from rclpy.qos import DurabilityPolicy

        node, topic = self.spinner.node, self.topics.estop()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            latched = sum(1 for info in node.get_publishers_info_by_topic(topic)
                          if info.qos_profile.durability == DurabilityPolicy.TRANSIENT_LOCAL)
            if self._estop_in.get_publisher_count() >= latched:
                break
            time.sleep(0.02)
        time.sleep(min(ESTOP_ARRIVAL_S, max(0.0, deadline - time.monotonic())))

    def not_ready(self, robot: str) -> str | None:
        """Judged afresh from the last heartbeat, not from the liveness timer's last round."""
        if robot in self.crew.robots and self._silent(robot, since=-math.inf):
            return (f"robot {robot!r} has not been heard for more than "
                    f"{self.crew.robots[robot].liveness_timeout_s:g} s")
        stop = self.abort_reason()
        if stop is not None and robot in self.crew.robots:  # the fact, not "unavailable"
            return f"robot {robot!r} is held by the e-stop ({stop})"
        return super().not_ready(robot)

    def mission_began(self, mission_id: str, *, recovering: bool = False) -> None:
        if recovering:  # never close a mission whose orchestrator still heartbeats it
            self.heartbeat.check_not_running(mission_id)
        self.heartbeat.begin(mission_id)

    def mission_ended(self, mission_id: str) -> None:
        self.heartbeat.end(mission_id)

    def last_heard(self, robot: str) -> float | None:
        """Seconds since ``robot`` was last heard (its state or pose), or None if never."""
        with self._lock:
            heard = self.heard.get(robot)
        return None if heard is None else time.monotonic() - heard

    def connect(self, robots: list[str], timeout_s: float) -> list[str]:
        """Wait until every robot has been heard and the service and action servers of its
        wired skills have matched (a dispatch never waits for one), then until the e-stop
        writers on the graph have matched (:meth:`hear_estop`, at most ``ESTOP_HEAR_S``); the
        robots still silent at the deadline. A server that has not matched by then fails its
        step when dispatched."""
        deadline = time.monotonic() + timeout_s
        wired = [e for (robot, _), e in self.endpoints.items() if robot in robots]
        # heard, not available: under an engaged e-stop a robot is heard but not available
        while time.monotonic() < deadline:
            if all(r in self.heard for r in robots) and all(e.ready() for e in wired):
                break
            time.sleep(0.02)
        # a mission begun now must know of an engaged e-stop: its latched value comes from
        # writers that discovery may match a moment after the robots' state
        self.hear_estop(ESTOP_HEAR_S)
        return [r for r in robots if r not in self.heard]

    def describe(self) -> str:
        return f"ROS 2 namespace /{self.topics.namespace.strip('/')}"

    def meta(self) -> dict[str, Any]:
        return {"backend": self.name, "namespace": self.topics.namespace}

    # -- hooks ---------------------------------------------------------------------------------

    def _key(self, command: Command) -> str:
        """The request id of a command: unique across orchestrator processes (a robot answers
        a repeated id with the feedback it gave before, and tokens restart in every process)."""
        return f"{self._session}-{command.token}"

    def start(self, command: Command) -> None:
        key = self._key(command)
        endpoint = self.endpoints.get((command.robot, command.skill))
        with self._lock:
            self.sent[key] = (time.monotonic(), command)
        if endpoint is not None:
            skill = self.crew.skill(command.robot, command.skill)
            nominal = skill.duration_s if skill else 1.0
            self.calls[key] = WiredCall(endpoint, command, self.world, nominal)
            return
        request = SkillRequest(key, command.mission_id, command.index, command.skill,
                               dict(command.args),
                               {n: b.to_json() for n, b in command.bindings.items()},
                               command.timeout_s, command.fallback)
        publisher = self.requests.get(command.robot)
        if publisher is None:
            raise AdapterError(f"no robot {command.robot!r} on the ROS 2 graph")
        publisher.publish(self.String(data=request.encode()))

    def poll(self, command: Command) -> Progress:
        key = self._key(command)
        if key in self.calls:
            return self.calls[key].poll()
        with self._lock:
            fb = self.feedback.get(key)
            sent_at = self.sent.get(key, (time.monotonic(), command))[0]
        if self.estop is not None:  # the robots stop themselves; the mission stops too
            return Progress(Status.FAILED, f"cancelled: {self.estop}")
        if self._silent(command.robot, sent_at):
            return Progress(Status.FAILED, f"{command.robot} went silent (no heartbeat for "
                            f"{self.crew.robots[command.robot].liveness_timeout_s:g} s)")
        if fb is None:
            if time.monotonic() - sent_at > ACCEPT_TIMEOUT_S:
                return Progress(Status.FAILED, f"{command.robot} did not acknowledge within "
                                f"{ACCEPT_TIMEOUT_S:g} s")
            return RUNNING
        if fb.status == "succeeded":
            if not self._settled(command, sent_at, key):
                return RUNNING
            return Progress(Status.SUCCEEDED, fb.message, fb.result)
        if fb.final:
            return Progress(Status.FAILED, f"{fb.status}: {fb.message}".rstrip(": "), fb.result)
        return RUNNING

    def _settled(self, command: Command, sent_at: float, key: str) -> bool:
        """Whether what the successful skill changed has arrived: a state message, since the
        success, from its robot and every robot its effects touch, and the bindings it
        produces (with their confidence where a rule reads it) since the request."""
        skill = self.crew.skill(command.robot, command.skill)
        now = time.monotonic()
        with self._lock:
            done_at = self._done_at.setdefault(key, now)
            if now - done_at > SETTLE_S:
                return True  # the gate judges what there is (a missing fix is refused)
            robots = {command.robot} | {ref.split(".", 1)[0] for ref in
                                        (skill.effects if skill else {})
                                        if ref.split(".", 1)[0] in self.crew.robots}
            if any(self.heard.get(r, -math.inf) <= done_at for r in robots):
                return False
            for name in skill.produces if skill else ():
                parts = ["point"] + (["confidence"]
                                     if self.crew.bindings[name].min_confidence is not None
                                     else [])
                if any(self._arrived.get((name, part), -math.inf) < sent_at for part in parts):
                    return False
        return True

    def acknowledged(self, command: Command) -> bool:
        """Whether the robot has answered the request (for latency measurements)."""
        with self._lock:
            return self._key(command) in self.feedback

    def cancel(self, command: Command) -> None:
        key = self._key(command)
        if key in self.calls:
            self.calls[key].cancel()
            return
        publisher = self.cancels.get(command.robot)
        if publisher is not None:
            publisher.publish(self.String(data=encode_cancel(key)))

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)

    def close(self) -> None:
        self.spinner.close()

