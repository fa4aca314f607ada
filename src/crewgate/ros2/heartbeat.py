"""The orchestrator's heartbeat on ROS 2: what the robots' lost-link failsafe watches.

While a mission runs, the adapter publishes ``{"mission": ID, "seq": N}`` on the heartbeat topic
(:meth:`~crewgate.ros2.protocol.Topics.heartbeat`) every ``HEARTBEAT_PERIOD_S``, the first one at
once; when the mission ends (however it ends, as long as this process lives) it publishes
``{"mission": null}`` once and waits, boundedly, until every matched reader acknowledged it (the
topic is reliable and volatile, readers too), so that the robots stand down instead of
stopping. A SIGKILLed process or a power loss sends nothing
more: each robot runs its own safe stop after its ``orchestrator_timeout_s``.

The heartbeat runs only while a mission runs, not while the adapter is open: a robot must stop
itself when the orchestrator of a mission disappears, not when any program that joined the graph
(``crewgate status``, a test) exits; and a second process's heartbeat must never keep a robot's
watchdog fed after the mission's own orchestrator died.

It also listens: :meth:`Heartbeat.check_not_running` says whether another orchestrator is still
heartbeating a mission, so that ``crewgate recover`` never closes a live mission.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from crewgate.errors import AdapterError
from crewgate.ros2.protocol import HEARTBEAT_PERIOD_S, decode_heartbeat, encode_heartbeat
from crewgate.ros2.runtime import qos

ACK_TIMEOUT_S = 0.5  # at most this long waiting for the robots to acknowledge the final null
# Before judging whether another orchestrator still runs a mission, listen this long since the
# adapter opened (discovery, then several heartbeat periods), and this long since each writer
# on the heartbeat topic was first seen (a loaded machine discovers late); a heartbeat of
# that mission heard within this long means it is alive.
LISTEN_S = 1.5
MAX_LISTEN_S = 10.0  # whatever the writers discovered, the judgement waits no longer


class Heartbeat:
    """The heartbeat publisher (and listener) of one orchestrator node."""

    def __init__(self, node: Any, string_type: Any, topic: str) -> None:
        self.topic = topic
        self._string = string_type
        self._publisher = node.create_publisher(string_type, topic, qos(depth=10))
        self._lock = threading.Lock()
        self._mission: str | None = None
        self._seq = 0
        self._own: set[str] = set()  # missions this orchestrator ran: its own echoes
        self._heard: dict[str, float] = {}  # mission -> when another orchestrator named it
        self._opened = time.monotonic()
        self._node = node
        self._writers: dict[bytes, float] = {}  # writers on the topic -> when first seen
        node.create_subscription(string_type, topic, self._on_heartbeat, qos(depth=10))
        node.create_timer(HEARTBEAT_PERIOD_S, self._tick)

    @property
    def mission(self) -> str | None:
        return self._mission

    def begin(self, mission_id: str) -> None:
        """Heartbeat ``mission_id`` from now on (one at once)."""
        with self._lock:
            self._mission = mission_id
            self._own.add(mission_id)
            self._publish_locked()

    def end(self, mission_id: str) -> None:
        """Stop heartbeating and publish ``mission: null`` once, acknowledged (boundedly)."""
        from rclpy.duration import Duration

        with self._lock:
            if self._mission != mission_id:
                return
            self._mission = None
            self._publish_locked()
        self._publisher.wait_for_all_acked(Duration(seconds=ACK_TIMEOUT_S))

    def check_not_running(self, mission_id: str) -> None:
        """Raise AdapterError if another orchestrator heartbeats ``mission_id``: listening at
        least ``LISTEN_S`` since this node opened and since every writer on the topic was first
        seen (at most ``MAX_LISTEN_S`` in all)."""
        cap = time.monotonic() + MAX_LISTEN_S
        while True:
            self._discover()
            with self._lock:
                heard = self._heard.get(mission_id)
                until = max([self._opened, *self._writers.values()]) + LISTEN_S
            now = time.monotonic()
            if heard is not None and now - heard <= LISTEN_S:
                raise AdapterError(f"mission {mission_id} is still running: its orchestrator's "
                                   f"heartbeat was heard {now - heard:.1f} s ago on "
                                   f"{self.topic}")
            if now >= until or now >= cap:
                return
            time.sleep(min(0.05, until - now))

    def _discover(self) -> None:
        """Note when each writer on the topic was first seen (this node's own too: it is seen
        at once, and adds nothing to the wait)."""
        now = time.monotonic()
        gids = [bytes(info.endpoint_gid)
                for info in self._node.get_publishers_info_by_topic(self.topic)]
        with self._lock:
            for gid in gids:
                self._writers.setdefault(gid, now)

    def _tick(self) -> None:
        self._discover()  # from the start, so that a writer found early is not waited for
        with self._lock:
            if self._mission is not None:
                self._publish_locked()

    def _publish_locked(self) -> None:
        self._seq += 1
        self._publisher.publish(self._string(data=encode_heartbeat(self._mission, self._seq)))

    def _on_heartbeat(self, msg: Any) -> None:
        try:
            mission, _ = decode_heartbeat(msg.data)
        except (ValueError, KeyError, TypeError):
            return
        if mission is None:
            return
        with self._lock:
            if mission not in self._own:
                self._heard[mission] = time.monotonic()
