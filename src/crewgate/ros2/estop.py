"""Publishing the e-stop and hearing it taken: what ``crewgate estop`` does on the graph.

Every node and orchestrator that holds the e-stop republishes, latched, each change of what it
holds (docs/ros2.md): those latched writers are its *holders*. So the one who publishes a value
can hear it taken: it reads every holder's last value with a latched reader, and is done once
each holder on the graph holds the new value. Until then it republishes the value whenever a
reader has matched since, and every ``REPUBLISH_S`` (a best-effort reader that matched a moment
ago may have missed it; holders take a repeated value as nothing new). Discovery brings a
node's writer apart from its readers, sometimes later: a crewgate node or orchestrator (its
name begins with ``crewgate_``) seen reading the topic is waited for as a holder until its
writer comes; and a node's name comes apart from its endpoints (until then rclpy calls it
``_NODE_NAME_UNKNOWN_``), so an endpoint of a node not yet named is waited for until it is.
Without holders (robot drivers with a plain reader only), a matched reader is all it can know.

Writing the value is not enough to know it arrived: a command that exits at the first matched
reader may leave with its latched value undelivered, and a status read a moment later would
still say what the holders held before.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Any

from crewgate.ros2.runtime import SpinningNode, interface, qos

REPUBLISH_S = 0.5  # while not every holder holds it, the value is published again this often
ACK_WAIT_S = 0.5  # at most this long, at the end, for the matched readers to acknowledge it
POLL_S = 0.02
# discovery brings the nodes already up within moments of our start, not at once: whoever it
# has not brought in this time is not waited for (it hears the value from the other holders)
DISCOVERY_S = 1.0
UNNAMED = "_NODE_NAME_UNKNOWN_"  # rclpy's name for a writer whose node's name has not come yet
OURS = "crewgate_"  # the node names of crewgate's robot nodes and orchestrators: holders
ESTOP_NODE = "crewgate_estop_"  # ... but for this command's (another one's is a writer only)


@dataclass(frozen=True, slots=True)
class Offer:
    """What came of publishing the e-stop value ``engaged`` on ``topic``."""

    topic: str
    engaged: bool
    readers: int  # readers matched when it ended
    holders: tuple[tuple[str, bool | None], ...]  # (node, the value it holds; None: not heard)

    @property
    def taken(self) -> bool:
        """A reader matched, and every holder heard holds the value."""
        return self.readers > 0 and all(v == self.engaged for _, v in self.holders)

    @property
    def dissent(self) -> tuple[tuple[str, bool | None], ...]:
        """The holders that do not (yet) hold the value."""
        return tuple((n, v) for n, v in self.holders if v != self.engaged)


@dataclass(frozen=True, slots=True)
class Graph:
    """What discovery has brought of the e-stop topic, as the command sees it (its own reader
    and writer left out)."""

    readers: int  # readers matched to the command's writer
    reader_nodes: tuple[str, ...]  # the node of each reader on the graph
    holders: dict[bytes, str]  # each latched writer's endpoint gid -> its node

    @property
    def whole(self) -> bool:
        """Every reader on the graph has matched, and every reader's and writer's node is named:
        a node's name comes apart from its endpoints, and until it has, one of ours reading the
        topic cannot be told to be waited for as a holder."""
        return (self.readers >= len(self.reader_nodes) and UNNAMED not in self.reader_nodes
                and UNNAMED not in self.holders.values())

    def offer(self, topic: str, engaged: bool, latest: dict[bytes, bool]) -> Offer:
        """Where publishing ``engaged`` stands, given the last value heard from each writer.
        One of crewgate's nodes or orchestrators seen reading the topic is a holder not heard
        until its writer comes (discovery brings a node's writer apart from its readers)."""
        held = [(n, latest.get(gid)) for gid, n in self.holders.items()]
        ours = {n for n in self.reader_nodes if n.startswith(OURS) and not n.startswith(ESTOP_NODE)}
        held += [(n, None) for n in ours - set(self.holders.values())]
        return Offer(topic, engaged, self.readers, tuple(sorted(held, key=lambda h: h[0])))


def offer_estop(topic: str, engaged: bool, wait_s: float) -> Offer:
    """Publish ``engaged`` on ``topic`` latched, and wait (at most ``wait_s``) until a reader has
    matched and every holder of the e-stop on the graph holds it."""
    from rclpy.qos import DurabilityPolicy

    bool_type = interface("std_msgs/msg/Bool")
    name = f"{ESTOP_NODE}{os.getpid()}"  # ours is told from the holders by its node name
    spinner = SpinningNode(name)  # (a missing rclpy: a clear error)
    latest: dict[bytes, bool] = {}  # a holder's endpoint gid -> the last value it published
    lock = threading.Lock()

    def heard(msg: Any, info: dict[str, Any]) -> None:
        with lock:
            latest[bytes(info["publisher_gid"]["data"])] = bool(msg.data)

    try:
        node = spinner.node
        publisher = node.create_publisher(bool_type, topic, qos(depth=1, latched=True))
        node.create_subscription(bool_type, topic, heard, qos(depth=10, latched=True))
        spinner.start()
        value = bool_type(data=engaged)
        deadline = time.monotonic() + wait_s
        discovered = min(deadline, time.monotonic() + DISCOVERY_S)
        publisher.publish(value)  # at once: the readers already matched have it now
        published_to, published_at = 0, time.monotonic()
        while True:
            # (our own reader matched our writer at once: it is not counted)
            readers = max(0, publisher.get_subscription_count() - 1)
            graph = Graph(
                readers=readers,
                reader_nodes=tuple(info.node_name
                                   for info in node.get_subscriptions_info_by_topic(topic)
                                   if info.node_name != name),
                holders={bytes(info.endpoint_gid): info.node_name
                         for info in node.get_publishers_info_by_topic(topic)
                         if info.qos_profile.durability == DurabilityPolicy.TRANSIENT_LOCAL
                         and info.node_name != name})
            with lock:
                offer = graph.offer(topic, engaged, latest)
            now = time.monotonic()
            if (offer.taken and graph.whole and now >= discovered) or now >= deadline:
                break
            # again to a reader matched since (a volatile one gets no latched value), and
            # now and then while a holder disagrees (a best-effort delivery may be lost)
            if readers > published_to or (offer.dissent and now - published_at >= REPUBLISH_S):
                publisher.publish(value)
                published_to, published_at = readers, now
            time.sleep(POLL_S)
        if readers:
            from rclpy.duration import Duration

            publisher.wait_for_all_acked(Duration(seconds=ACK_WAIT_S))
    finally:
        spinner.close()
    return offer
