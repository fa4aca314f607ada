"""The ROS 2 wiring of a simulated robot node: publishers, subscriptions and timers around a
:class:`~crewgate.onboard.server.RobotServer`, which is pure Python.

QoS: all reliable; requests, feedback and cancels volatile, depth 50; state and the
orchestrator's heartbeat volatile, depth 10; bindings, the object map and the e-stop transient
local (late joiners get the last value). The e-stop is read with
:func:`~crewgate.ros2.runtime.subscribe_any`, so that any publisher reaches it (``ros2 topic
pub`` included); each message is applied once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crewgate.onboard.server import RobotServer
from crewgate.ros2.protocol import ESTOP_LISTEN_S, Feedback, Topics
from crewgate.ros2.runtime import interface, qos, rclpy_modules, subscribe_any
from crewgate.world import BindingValue

if TYPE_CHECKING:
    from rclpy.node import Node

    from crewgate.sim.simulator import Simulator


def _messages() -> tuple[Any, Any, Any, Any]:
    """String, Bool, Float32, PointStamped."""
    return (interface("std_msgs/msg/String"), interface("std_msgs/msg/Bool"),
            interface("std_msgs/msg/Float32"), interface("geometry_msgs/msg/PointStamped"))


def require_rclpy() -> None:
    """rclpy and the message packages, or a UserError saying how to install them."""
    rclpy_modules()
    _messages()


class RobotNode:
    """The ROS 2 wiring of a :class:`RobotServer`: it is also the server's sink."""

    def __init__(self, node: Node, sim: Simulator, robot: str, *, topics: Topics, rate: float,
                 speed: float, listen_s: float = ESTOP_LISTEN_S) -> None:
        self.String, self.Bool, self.Float32, self.PointStamped = _messages()
        self.node = node
        self.robot = robot
        self.topics = topics
        requests, state, latched = qos(depth=50), qos(depth=10), qos(depth=1, latched=True)
        self._feedback = node.create_publisher(self.String, topics.feedback(robot), requests)
        self._state = node.create_publisher(self.String, topics.state(robot), state)
        self._objects = node.create_publisher(self.String, topics.objects(), latched)
        self._estop = node.create_publisher(self.Bool, topics.estop(), latched)
        self._points: dict[str, Any] = {}
        self._confidences: dict[str, Any] = {}
        self._latched = latched
        self.server = RobotServer(sim, robot, self, speed=speed, listen_s=listen_s)
        for name in sim.crew.bindings:  # up front: matched before the first value
            if any(r == robot for r, _ in sim.crew.producers(name)):
                self._binding_publishers(name)
        for other in sim.bodies:
            node.create_subscription(self.String, topics.request(other),
                                     self._on_request(other), requests)
            if other != robot:
                node.create_subscription(self.String, topics.state(other),
                                         self._on_state(other), state)
        node.create_subscription(self.String, topics.cancel(robot),
                                 lambda msg: self.server.on_cancel(msg.data), requests)
        node.create_subscription(self.String, topics.objects(),
                                 lambda msg: self.server.on_objects(msg.data), latched)
        subscribe_any(node, self.Bool, topics.estop(),
                      lambda msg: self.server.on_estop(bool(msg.data)), replay=True)
        node.create_subscription(self.String, topics.heartbeat(),
                                 lambda msg: self.server.on_heartbeat(msg.data), state)
        node.create_timer(max(0.01, sim.dt / speed), self.server.tick)
        node.create_timer(1.0 / rate, self._publish_state)

    # -- subscriptions ------------------------------------------------------------------------

    def _on_request(self, robot: str) -> Callable[[Any], None]:
        return lambda msg: self.server.on_request(robot, msg.data)

    def _on_state(self, robot: str) -> Callable[[Any], None]:
        return lambda msg: self.server.on_state(robot, msg.data)

    def _publish_state(self) -> None:
        text = self.server.state_text()
        if text is not None:
            self._state.publish(self.String(data=text))

    # -- the server's sink --------------------------------------------------------------------

    def feedback(self, fb: Feedback) -> None:
        self._feedback.publish(self.String(data=fb.encode()))

    def objects(self, text: str) -> None:
        self._objects.publish(self.String(data=text))

    def estop(self, engaged: bool) -> None:
        self._estop.publish(self.Bool(data=engaged))

    def state(self, text: str) -> None:
        self._state.publish(self.String(data=text))

    def _binding_publishers(self, name: str) -> None:
        if name not in self._points:
            self._points[name] = self.node.create_publisher(
                self.PointStamped, self.topics.binding(name), self._latched)
            self._confidences[name] = self.node.create_publisher(
                self.Float32, self.topics.confidence(name), self._latched)

    def binding(self, name: str, value: BindingValue, stamp: float) -> None:
        self._binding_publishers(name)
        if value.confidence is not None:
            self._confidences[name].publish(self.Float32(data=float(value.confidence)))
        msg = self.PointStamped()
        sec = math.floor(stamp)
        msg.header.stamp.sec = int(sec)
        msg.header.stamp.nanosec = min(int((stamp - sec) * 1e9), 999_999_999)
        msg.header.frame_id = value.source
        coords = [float(v) for v in value.value or ()] + [math.nan] * 2
        msg.point.x, msg.point.y = coords[0], coords[1]
        msg.point.z = coords[2] if value.value is not None and len(value.value) > 2 else 0.0
        self._points[name].publish(msg)

    def log(self, message: str) -> None:
        self.node.get_logger().info(message)
