"""rclpy plumbing shared by the adapter and the robot nodes: importing it with a clear error, a
node spun by an executor on a background thread, QoS profiles, interface types by name."""

from __future__ import annotations

import importlib
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from crewgate.errors import UserError

INSTALL_HINT = 'pip install "crewgate[ros2]"'


def rclpy_modules() -> Any:
    """The rclpy package, or a UserError saying how to install it."""
    try:
        import rclpy
    except ImportError as exc:
        raise UserError(f"ROS 2 needs rclpy: {INSTALL_HINT} (rclpy and the message packages "
                        f"from PyPI); the import failed: {exc}") from exc
    return rclpy


def init_context() -> Any:
    """A fresh rclpy context, initialised without rclpy's signal handlers (the process keeps
    its own Ctrl-C); a failure (e.g. a bad ROS_DOMAIN_ID) is a UserError."""
    rclpy = rclpy_modules()
    from rclpy.signals import SignalHandlerOptions

    context = rclpy.context.Context()
    try:
        rclpy.init(context=context, signal_handler_options=SignalHandlerOptions.NO)
    except Exception as exc:  # rclpy raises RCLError and others
        raise UserError(f"cannot start ROS 2: {exc}") from exc
    return context


def qos(*, depth: int = 50, latched: bool = False, best_effort: bool = False) -> Any:
    """Reliable and volatile unless asked. A best-effort volatile reader matches any writer; a
    latched (transient local) reader gets the last value on joining, from latched writers only."""
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

    return QoSProfile(
        history=HistoryPolicy.KEEP_LAST, depth=depth,
        reliability=ReliabilityPolicy.BEST_EFFORT if best_effort else ReliabilityPolicy.RELIABLE,
        durability=DurabilityPolicy.TRANSIENT_LOCAL if latched else DurabilityPolicy.VOLATILE)


def interface(type_name: str) -> Any:
    """An interface class from "package/msg/Type" (or srv, action)."""
    try:
        package, kind, name = type_name.split("/")
        return getattr(importlib.import_module(f"{package}.{kind}"), name)
    except (ValueError, ImportError, AttributeError) as exc:
        raise UserError(f"cannot load ROS 2 interface {type_name!r}: {exc}; install its package "
                        f"({INSTALL_HINT} brings std_msgs, geometry_msgs and std_srvs; others "
                        "as wheels, e.g. pip install ros-test-msgs, or from a sourced ROS "
                        "installation) or fix the type name in the crew's ros2 section"
                        ) from exc


def subscribe_any(node: Any, kind: Any, topic: str, callback: Callable[[Any], None], *,
                  replay: bool = False) -> Any:
    """Read a topic whatever QoS its writers chose. A best-effort volatile reader matches any
    writer; with ``replay`` a reliable latched reader too, for the last value a latched writer
    published before we joined. A latched writer's sample then reaches both readers: each is
    delivered to ``callback`` once (by writer and sequence number). Returns the latched reader
    (with ``replay``; else the one reader)."""
    from rclpy.event_handler import SubscriptionEventCallbacks

    if not replay:
        return node.create_subscription(kind, topic, callback, qos(depth=10, best_effort=True))
    seen: deque[tuple[str, int]] = deque(maxlen=256)

    def once(msg: Any, info: Any) -> None:
        key = (str(info.get("publisher_gid")),
               info.get("publication_sequence_number") or info["source_timestamp"])
        if key not in seen:
            seen.append(key)
            callback(msg)

    node.create_subscription(kind, topic, once, qos(depth=10, best_effort=True))
    # a volatile writer cannot match the latched reader: expected, not worth rclpy's warning
    quiet = SubscriptionEventCallbacks(incompatible_qos=lambda event: None)
    return node.create_subscription(kind, topic, once, qos(depth=10, latched=True),
                                    event_callbacks=quiet)


class SpinningNode:
    """An rclpy node (in its own context) spun on a daemon thread from :meth:`start` until
    closed. Create the node's entities before starting it: rclpy's ``ActionClient`` joins the
    node before it is whole, and an executor spinning meanwhile dies on it."""

    def __init__(self, name: str) -> None:
        rclpy = rclpy_modules()
        from rclpy.executors import SingleThreadedExecutor

        self.context = init_context()
        self.node = rclpy.create_node(name, context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._thread = threading.Thread(target=self._spin, name=f"{name}-spin", daemon=True)
        self._closing = False

    def start(self) -> None:
        self._thread.start()

    def _spin(self) -> None:
        from rclpy.executors import ExternalShutdownException

        try:
            self.executor.spin()
        except ExternalShutdownException:  # close() from another thread
            pass
        except Exception:
            if not self._closing:
                raise
            # closing: the context may be gone before this thread saw the executor stop

    def close(self) -> None:
        """Stop spinning (the thread joined, up to 2 s), then destroy the node and its
        context."""
        rclpy = rclpy_modules()
        self._closing = True
        self.executor.shutdown(timeout_sec=1.0)
        if self._thread.ident is not None:  # started
            self._thread.join(timeout=2.0)
        self.node.destroy_node()
        if self.context.ok():
            rclpy.shutdown(context=self.context)
