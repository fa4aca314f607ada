"""A service over a crew, in process: the desk on a live simulator, the HTTP app, four users
(alice and bob operators, vic a viewer, ada an admin), and a real loopback server when a test
needs one (the event stream)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the service needs FastAPI: pip install 'crewgate[serve]'")

import uvicorn
from fastapi import FastAPI
from starlette.testclient import TestClient

from crewgate.adapters.sim import SimAdapter
from crewgate.journal import Journal
from crewgate.service import LiveCrew, MissionDesk
from crewgate.service.auth import Tokens, User, digest
from crewgate.service.http import create_app
from crewgate.service.server import listen
from crewgate.spec import Crew, load_crew

USERS = {"alice": "operator", "bob": "operator", "vic": "viewer", "ada": "admin"}


def token_of(user: str) -> str:
    return f"token-of-{user}-0123456789"


def auth(user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token_of(user)}"}


@dataclass
class Service:
    desk: MissionDesk
    app: FastAPI
    journal: Journal
    client: TestClient

    def call(self, method: str, path: str, user: str | None = "alice",
             **kwargs: Any) -> Any:  # starlette's client answers with its own httpx's type
        headers = auth(user) if user else {}
        return self.client.request(method, path, headers=headers, **kwargs)

    def until(self, mission: str, done: Callable[[dict[str, Any]], bool],
              timeout: float = 60.0) -> dict[str, Any]:
        """The mission's detail once ``done`` holds for it (fails after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while True:
            detail = self.desk.detail(mission)
            if done(detail):
                return detail
            assert time.monotonic() < deadline, f"mission {mission} stayed {detail['status']}"
            time.sleep(0.02)


Make = Callable[..., Service]


@pytest.fixture
def make_service(tmp_path: Path) -> Iterator[Make]:
    opened: list[tuple[MissionDesk, LiveCrew, Journal]] = []

    def make(crew: str | Crew = "sar", *, speed: float | None = None, approval: str = "none",
             approval_timeout_s: float = 900.0, planner: Any = None) -> Service:
        spec = crew if isinstance(crew, Crew) else load_crew(crew)
        live = LiveCrew(SimAdapter(spec), speed=speed)
        journal = Journal(tmp_path / f"journal{len(opened)}.sqlite3")
        desk = MissionDesk(spec, live, journal, planner=planner, source="operator",
                           approval=approval,  # type: ignore[arg-type]
                           approval_timeout_s=approval_timeout_s)
        opened.append((desk, live, journal))
        users = Tokens()
        for name, role in USERS.items():
            users.add(digest(token_of(name)), User(name, role))  # type: ignore[arg-type]
        app = create_app(desk, users)
        return Service(desk, app, journal, TestClient(app))

    yield make
    for desk, live, journal in opened:
        desk.close()
        live.close()
        journal.close()


@pytest.fixture
def loopback() -> Iterator[Callable[[FastAPI], str]]:
    """serve(app) -> the base URL of the app served by uvicorn on a loopback port."""
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def serve(app: FastAPI) -> str:
        sock = listen("127.0.0.1", 0)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off",
                                               timeout_graceful_shutdown=1))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        servers.append((server, thread))
        port = sock.getsockname()[1]
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        return f"http://127.0.0.1:{port}"

    yield serve
    for server, thread in servers:
        server.should_exit = True
        thread.join(5)
