"""Skills wired to plain ROS 2 interfaces by the crew's ``ros2`` section: publish a message, call a
service, or send an action goal, with fields filled from the typed arguments the gate checked."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from crewgate.commands import RUNNING, Command, Progress, Status
from crewgate.errors import AdapterError
from crewgate.ros2.runtime import interface, qos
from crewgate.ros2.section import Ros2Skill
from crewgate.world import World

# A topic skill's done_when may hold before the robot has reacted to the message ("moving ==
# false" before it sets off), and that is not the skill's end: it ends once the condition, seen
# not to hold since the message was sent, holds again; or, never seen not to hold (a motion that
# begins and ends between two of the robot's state reports), once it holds after the skill's
# nominal duration, and never before this.
DONE_WHEN_AFTER_S = 0.2


def field_value(template: Any, command: Command) -> Any:
    """'$param' -> the typed argument (a binding argument: its resolved value); '$param.i' ->
    its i-th element; anything else as written."""
    if not (isinstance(template, str) and template.startswith("$")):
        return template
    name, _, index = template[1:].partition(".")
    value: Any = command.args.get(name)
    if isinstance(value, str) and value in command.bindings:
        value = command.bindings[value].value
    if index:
        if value is None:
            raise AdapterError(f"{command.ref}: {template} has no value")
        value = list(value)[int(index)]
    return value


def fill(message: Any, fields: Mapping[str, Any], command: Command) -> Any:
    """Set dotted fields of a message (or request, or goal), converting to each field's type."""
    for path, template in fields.items():
        target = message
        *parents, leaf = path.split(".")
        for part in parents:
            target = getattr(target, part)
        current = getattr(target, leaf)
        value = field_value(template, command)
        if isinstance(current, bool):
            value = bool(value)
        elif isinstance(current, float):
            value = float(value)
        elif isinstance(current, int):
            value = int(value)
        elif isinstance(current, str):
            value = str(value)
        setattr(target, leaf, value)
    return message


class Endpoint:
    """The publisher, service client or action client of one wired skill, made when the adapter
    joins the graph: discovery takes time, and a message published on a publisher made at
    dispatch would be lost before any subscriber matched it."""

    def __init__(self, node: Any, wiring: Ros2Skill) -> None:
        self.wiring = wiring
        self.kind = interface(wiring.type)
        if wiring.kind == "topic":
            self.handle: Any = node.create_publisher(self.kind, wiring.name, qos(depth=10))
        elif wiring.kind == "service":
            self.handle = node.create_client(self.kind, wiring.name)
        else:
            from rclpy.action.client import ActionClient

            self.handle = ActionClient(node, self.kind, wiring.name)

    def ready(self) -> bool:
        """Its service or action server has matched (a topic needs none). Never waits: the
        adapter waits for it when it connects, not between the gate's last check and the send."""
        if self.wiring.kind == "service":
            return bool(self.handle.service_is_ready())
        if self.wiring.kind == "action":
            return bool(self.handle.server_is_ready())
        return True


class WiredCall:
    """One dispatched skill on a topic, service or action; polled by the adapter."""

    def __init__(self, endpoint: Endpoint, command: Command, world: World,
                 nominal_s: float) -> None:
        wiring = self.wiring = endpoint.wiring
        self.command, self.world = command, world
        self.started = time.monotonic()
        self.duration = wiring.duration_s or nominal_s
        self.future: Any = None
        self.goal_handle: Any = None
        self.result_future: Any = None
        self.cancelled = False
        self.began = False  # its done_when was seen not to hold since the message was sent
        kind = endpoint.kind
        if wiring.kind == "topic":
            endpoint.handle.publish(fill(kind(), wiring.fields, command))
            return
        if not endpoint.ready():
            raise AdapterError(f"{wiring.kind} {wiring.name} is not available (no server "
                               "matched: start the robot's server, or correct the name in the "
                               "crew's ros2 section)")
        if wiring.kind == "service":
            self.future = endpoint.handle.call_async(fill(kind.Request(), wiring.fields, command))
        else:
            self.future = endpoint.handle.send_goal_async(fill(kind.Goal(), wiring.fields,
                                                                command))

    def poll(self) -> Progress:
        if self.cancelled:
            return Progress(Status.FAILED, "cancelled")
        kind = self.wiring.kind
        if kind == "topic":
            cond = self.wiring.done_when
            if cond is not None:
                if not cond.holds(self.world.robots, self.command.robot):
                    self.began = True
                    return RUNNING
                elapsed = time.monotonic() - self.started
                if self.began or elapsed >= max(DONE_WHEN_AFTER_S, self.duration):
                    return Progress(Status.SUCCEEDED)
                return RUNNING
            done = time.monotonic() - self.started >= self.duration
            return Progress(Status.SUCCEEDED) if done else RUNNING
        if kind == "service":
            if not self.future.done():
                return RUNNING
            response = self.future.result()
            field = self.wiring.success_field
            if field is not None and not getattr(response, field, False):
                message = getattr(response, "message", "")
                return Progress(Status.FAILED, f"{self.wiring.name} answered "
                                f"{field}=false{': ' + message if message else ''}")
            return Progress(Status.SUCCEEDED)
        return self._poll_action()

    def _poll_action(self) -> Progress:
        if self.goal_handle is None:
            if not self.future.done():
                return RUNNING
            self.goal_handle = self.future.result()
            if not self.goal_handle.accepted:
                return Progress(Status.FAILED, f"{self.wiring.name} rejected the goal")
            self.result_future = self.goal_handle.get_result_async()
        if not self.result_future.done():
            return RUNNING
        from action_msgs.msg import GoalStatus

        status = self.result_future.result().status
        if status == GoalStatus.STATUS_SUCCEEDED:
            return Progress(Status.SUCCEEDED)
        return Progress(Status.FAILED, f"{self.wiring.name} ended with goal status {status}")

    def cancel(self) -> None:
        self.cancelled = True
        if self.goal_handle is not None:
            self.goal_handle.cancel_goal_async()
        elif self.wiring.kind == "action" and self.future is not None:
            # the goal is not accepted yet: cancel it as soon as it is
            self.future.add_done_callback(
                lambda f: f.result().cancel_goal_async() if f.result().accepted else None)
