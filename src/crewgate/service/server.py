"""Serving an ASGI app with uvicorn on a socket bound beforehand (so that port 0 picks a free
port that can be printed, and a taken port fails before the robots are opened)."""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from crewgate.errors import UserError


def listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say so, and without it
    # every answer on a kept-alive connection waits ~40 ms (Nagle against delayed ACKs)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose "
                        "another --port (0 picks a free one) or --host") from exc
    sock.listen(256)  # a client that connects before the server runs waits, not refused
    return sock


@contextmanager
def signals_noted() -> Iterator[list[str]]:
    """SIGINT and SIGTERM are noted in the yielded list, not raised, for the whole life of the
    service: uvicorn stops serving on the first (it raises the signal again once it stopped,
    which lands here), and the missions are then closed without a second signal cutting that
    short (a landing drone is not abandoned)."""
    noted: list[str] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return

    def note(signum: int, frame: FrameType | None) -> None:
        noted.append(signal.Signals(signum).name)

    previous = {s: signal.signal(s, note) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield noted
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def run_server(app: Any, sock: socket.socket) -> None:
    """Serve until SIGINT or SIGTERM (uvicorn's handlers: it finishes the open requests)."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", lifespan="off",
                            timeout_graceful_shutdown=3)
    uvicorn.Server(config).run(sockets=[sock])


__all__ = ["listen", "run_server", "signals_noted"]
