"""A robot on plain ROS 2 interfaces, as tests/data/crews/wired.yaml wires it: it knows nothing of
crewgate. A goal topic (PoseStamped), a docking service (std_srvs/Trigger), a survey action
(test_msgs/Fibonacci), its pose at 20 Hz (the orchestrator's heartbeat) and a beacon fix
(PointStamped, volatile, as a typical driver publishes it), and a small bridge's JSON state
(``moving``: true for ``--drive-s`` after each goal). Each thing it receives is printed as one
JSON line for the test to read.

    python tests/ros2/wired_robot.py [--dock-fails | --no-dock] [--beacon X,Y] [--drive-s S]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import time
from typing import Any

import rclpy
from geometry_msgs.msg import PointStamped, PoseStamped
from rclpy.action.server import ActionServer, CancelResponse, ServerGoalHandle
from rclpy.executors import ExternalShutdownException, MultiThreadedExecutor
from std_msgs.msg import String
from std_srvs.srv import Trigger
from test_msgs.action import Fibonacci

LAP_S = 0.05


def say(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dock-fails", action="store_true")
    parser.add_argument("--no-dock", action="store_true", help="serve no docking service")
    parser.add_argument("--beacon", default=None)
    parser.add_argument("--drive-s", type=float, default=0.5)
    opts = parser.parse_args(argv)
    rclpy.init()
    node = rclpy.create_node("wired_rover")
    pose = [0.0, 0.0]
    arrives = [0.0]  # when the current drive ends (monotonic)

    def moving() -> bool:
        return time.monotonic() < arrives[0]

    def on_goal(msg: Any) -> None:
        pose[:] = [msg.pose.position.x, msg.pose.position.y]
        arrives[0] = time.monotonic() + opts.drive_s
        say(goal=pose, frame=msg.header.frame_id)

    def on_dock(request: Any, response: Any) -> Any:
        response.success = not opts.dock_fails
        response.message = "dock blocked" if opts.dock_fails else "docked"
        say(dock=response.success, moving=moving())
        return response

    def on_survey(goal: ServerGoalHandle[Any, Any, Any]) -> Any:
        say(survey=goal.request.order)
        result = Fibonacci.Result()
        for _ in range(goal.request.order):
            if goal.is_cancel_requested:
                goal.canceled()
                say(survey_cancelled=True)
                return result
            time.sleep(LAP_S)
        goal.succeed()
        return result

    node.create_subscription(PoseStamped, "/wired/rover/goal", on_goal, 10)
    if not opts.no_dock:
        node.create_service(Trigger, "/wired/rover/dock", on_dock)
    ActionServer(node, Fibonacci, "/wired/rover/survey", on_survey,
                 cancel_callback=lambda goal: CancelResponse.ACCEPT)
    pose_pub = node.create_publisher(PoseStamped, "/wired/rover/pose", 10)
    beacon_pub = node.create_publisher(PointStamped, "/wired/beacon", 10)
    state_pub = node.create_publisher(String, "/wired/rover/bridge_state", 10)

    def publish() -> None:
        msg = PoseStamped()
        msg.header.stamp = node.get_clock().now().to_msg()
        msg.pose.position.x, msg.pose.position.y = pose
        pose_pub.publish(msg)
        state_pub.publish(String(data=json.dumps(
            {"robot": "rover", "t": time.time(), "fields": {"moving": moving()}})))
        if opts.beacon:
            x, y = (float(v) for v in opts.beacon.split(","))
            fix = PointStamped()
            fix.header.stamp = node.get_clock().now().to_msg()
            fix.header.frame_id = "detector"
            fix.point.x, fix.point.y = x, y
            beacon_pub.publish(fix)

    node.create_timer(0.05, publish)
    executor = MultiThreadedExecutor(num_threads=2)
    executor.add_node(node)
    signal.signal(signal.SIGTERM, lambda *_: executor.shutdown(timeout_sec=0))
    say(up=True)
    with contextlib.suppress(KeyboardInterrupt, ExternalShutdownException):
        executor.spin()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
