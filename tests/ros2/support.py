"""Support for the ROS 2 tests: a protocol client in the test process, robot nodes in their
own processes, one domain and namespace per test (loopback discovery only)."""


from __future__ import annotations

import itertools
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rclpy
from rclpy.context import Context
from rclpy.event_handler import PublisherEventCallbacks
from rclpy.executors import SingleThreadedExecutor
from rclpy.signals import SignalHandlerOptions

from crewgate.ros2.protocol import Feedback, SkillRequest, Topics, decode_state, encode_cancel
from crewgate.ros2.runtime import interface, qos

String = interface("std_msgs/msg/String")
Bool = interface("std_msgs/msg/Bool")
Float32 = interface("std_msgs/msg/Float32")
PointStamped = interface("geometry_msgs/msg/PointStamped")

UP_TIMEOUT_S = 20.0

# ROS 2 domains whose ports stay below Linux's ephemeral range (32768 and up) are 0 - 101; 0 is
# everyone's default and the low ones are where people run their own robots. Each xdist worker
# walks its own slice of the rest, from a random place, so that two tests running at once never
# share a domain, and a domain is reused as late as possible (Fast DDS's shared-memory ports of
# a participant killed in one test are still around for the next test in its domain).
DOMAINS = range(30, 102)


def _domains(worker: str, workers: int, start: float) -> list[int]:
    """The domains worker ``gwN`` of ``workers`` walks, from ``start`` (0 to 1) of its slice."""
    index = int(worker.removeprefix("gw") or 0) if worker.startswith("gw") else 0
    size = len(DOMAINS) // max(1, workers)
    mine = list(DOMAINS[index * size:(index + 1) * size])
    first = int(start * len(mine))
    return mine[first:] + mine[:first]


NETWORK = {"ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"}  # discovery on loopback only

_walk: Iterator[int] | None = None


def next_domain() -> int:
    """This test's domain: the next of this worker's slice (round and round)."""
    global _walk
    if _walk is None:
        _walk = itertools.cycle(_domains(os.environ.get("PYTEST_XDIST_WORKER", "gw0"),
                                         int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")),
                                         random.random()))
    return next(_walk)


# -- a small protocol client in this process ------------------------------------------------------

class Client:
    """Publishes requests, cancels and e-stops; records feedback, state, bindings, objects."""

    def __init__(self, domain: int, namespace: str) -> None:
        self.context = Context()
        rclpy.init(context=self.context, domain_id=domain,
                   signal_handler_options=SignalHandlerOptions.NO)
        self.node = rclpy.create_node(f"crewgate_test_{uuid.uuid4().hex[:8]}",
                                      context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.topics = Topics(namespace)
        self.feedback: dict[str, list[tuple[float, Feedback]]] = defaultdict(list)
        self.states: dict[str, list[tuple[float, dict[str, Any]]]] = defaultdict(list)
        self.bindings: list[tuple[str, str, Any]] = []  # (name, "confidence"|"point", msg)
        self.objects: list[dict[str, str]] = []
        self.sent: dict[str, float] = {}
        self._pubs: dict[str, Any] = {}
        self._subs: dict[str, Any] = {}

    def close(self) -> None:
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.try_shutdown(context=self.context)

    # subscriptions
    def watch(self, robot: str) -> None:
        self._subscribe(String, self.topics.feedback(robot), self._on_feedback, qos())
        self._subscribe(String, self.topics.state(robot), self._on_state, qos(depth=10))

    def watch_binding(self, name: str) -> None:
        latched = qos(depth=10, latched=True)
        self._subscribe(Float32, self.topics.confidence(name),
                        lambda m: self.bindings.append((name, "confidence", m)), latched)
        self._subscribe(PointStamped, self.topics.binding(name),
                        lambda m: self.bindings.append((name, "point", m)), latched)

    def watch_objects(self) -> None:
        from crewgate.ros2.protocol import loads

        self._subscribe(String, self.topics.objects(),
                        lambda m: self.objects.append(loads(m.data)), qos(depth=1, latched=True))

    def _subscribe(self, kind: Any, topic: str, callback: Callable[[Any], None],
                   profile: Any) -> None:
        self._subs[topic] = self.node.create_subscription(kind, topic, callback, profile)

    def _on_feedback(self, msg: Any) -> None:
        fb = Feedback.decode(msg.data)
        self.feedback[fb.id].append((time.monotonic(), fb))

    def _on_state(self, msg: Any) -> None:
        robot, _, fields = decode_state(msg.data)
        self.states[robot].append((time.monotonic(), fields))

    # publishing
    def _pub(self, kind: Any, topic: str, profile: Any) -> Any:
        if topic not in self._pubs:
            self._pubs[topic] = self.node.create_publisher(kind, topic, profile)
        return self._pubs[topic]

    def connect(self, robot: str, timeout: float = 10.0) -> None:
        """Wait until this client and the robot's node see each other."""
        request = self._pub(String, self.topics.request(robot), qos())
        cancel = self._pub(String, self.topics.cancel(robot), qos())
        feedback = self._subs[self.topics.feedback(robot)]
        assert self.wait(lambda: request.get_subscription_count() > 0
                         and cancel.get_subscription_count() > 0
                         and feedback.get_publisher_count() > 0, timeout), f"{robot} not found"
        self.spin(0.2)  # let the other side finish matching too

    def request(self, robot: str, skill: str, args: dict[str, Any] | None = None) -> str:
        rid = uuid.uuid4().hex
        text = SkillRequest(rid, "m-test", len(self.sent), skill, args or {}).encode()
        self.sent[rid] = time.monotonic()
        self._pub(String, self.topics.request(robot), qos()).publish(String(data=text))
        return rid

    def cancel(self, robot: str, rid: str) -> None:
        self._pub(String, self.topics.cancel(robot), qos()).publish(
            String(data=encode_cancel(rid)))

    def estop(self, engaged: bool, *, latched: bool = True, wait: bool = True) -> None:
        topic = self.topics.estop()
        profile = qos(depth=1, latched=True) if latched else qos(depth=10)
        key = topic + ("#latched" if latched else "#volatile")
        if key not in self._pubs:  # (a volatile writer does not match the latched reader)
            quiet = PublisherEventCallbacks(incompatible_qos=lambda event: None)
            self._pubs[key] = self.node.create_publisher(Bool, topic, profile,
                                                         event_callbacks=quiet)
        if wait:
            assert self.wait(lambda: self._pubs[key].get_subscription_count() > 0, 5.0)
        self._pubs[key].publish(Bool(data=engaged))

    # waiting
    def spin(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.executor.spin_once(timeout_sec=max(0.0, min(0.05, end - time.monotonic())))

    def wait(self, predicate: Callable[[], bool], timeout: float) -> bool:
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                return False
            self.executor.spin_once(timeout_sec=0.02)
        return True

    def statuses(self, rid: str) -> list[str]:
        return [fb.status for _, fb in self.feedback[rid]]

    def final(self, rid: str, timeout: float = 5.0) -> Feedback:
        assert self.wait(lambda: any(fb.final for _, fb in self.feedback[rid]), timeout), (
            f"no final feedback for {rid}: {self.statuses(rid)}")
        return next(fb for _, fb in self.feedback[rid] if fb.final)

    def run(self, robot: str, skill: str, args: dict[str, Any] | None = None,
            timeout: float = 5.0) -> Feedback:
        return self.final(self.request(robot, skill, args), timeout)

    def latest(self, robot: str) -> dict[str, Any]:
        return self.states[robot][-1][1] if self.states[robot] else {}


# -- node processes -------------------------------------------------------------------------------

@dataclass
class NodeProcess:
    proc: subprocess.Popen[str]
    lines: queue.Queue[str]
    stderr: Path
    up: str = " up on "
    output: list[str] = field(default_factory=list)

    def wait_up(self, timeout: float = UP_TIMEOUT_S) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            self.output.append(line)
            if self.up in line:
                return line
        raise AssertionError(f"node did not come up: {self.describe()}")

    def drain(self) -> list[str]:
        """Every line printed so far."""
        while True:
            try:
                self.output.append(self.lines.get_nowait())
            except queue.Empty:
                return self.output

    def describe(self) -> str:
        """Whether the process runs, and what it printed (for a failing assertion)."""
        return (f"exit {self.proc.poll()}; stdout {self.drain()}; "
                f"stderr {self.stderr.read_text()[-4000:]!r}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 5.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout)
        return self.proc.returncode


class Ros:
    """One test's ROS 2 world: a domain, a namespace, node processes and a client."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.domain = next_domain()
        self.namespace = f"cg_{uuid.uuid4().hex[:10]}"
        self.env = {**os.environ, **NETWORK, "ROS_DOMAIN_ID": str(self.domain),
                    "PYTHONUNBUFFERED": "1"}
        self.nodes: list[NodeProcess] = []
        self._client: Client | None = None

    @property
    def client(self) -> Client:
        if self._client is None:
            self._client = Client(self.domain, self.namespace)
        return self._client

    def spawn(self, crew: str, robot: str, *args: str, speed: float = 10.0,
              wait: bool = True) -> NodeProcess:
        """``crewgate node CREW ROBOT`` in this test's domain and namespace."""
        return self.start(["-m", "crewgate.onboard.node", crew, robot, "--namespace",
                           self.namespace, "--speed", str(speed), *args], robot,
                          wait=wait)

    def start(self, argv: list[str], label: str, *, up: str = " up on ",
              wait: bool = True) -> NodeProcess:
        """A Python process in this test's domain; up once it prints a line containing ``up``."""
        stderr = self.tmp_path / f"{label}-{len(self.nodes)}.stderr"
        proc = subprocess.Popen([sys.executable, *argv], env=self.env, stdout=subprocess.PIPE,
                                stderr=stderr.open("w"), text=True)
        lines: queue.Queue[str] = queue.Queue()

        def pump() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line.rstrip("\n"))

        threading.Thread(target=pump, daemon=True).start()
        node = NodeProcess(proc, lines, stderr, up=up)
        self.nodes.append(node)
        if wait:
            node.wait_up()
        return node

    def close(self) -> None:
        try:
            if self._client is not None:
                self._client.close()
        finally:
            for node in self.nodes:
                node.stop()


