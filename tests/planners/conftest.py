"""Fixtures of the planner tests: no client variable of the user's leaks in, and a way to see
(and refuse) every attempt to reach the network."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from crewgate.testing import FakeAnthropicServer, FakeOpenAIServer

# the variables the SDK clients read on their own, and the ones the tests set
CLIENT_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_CUSTOM_HEADERS", "OPENAI_ORG_ID",
              "OPENAI_PROJECT_ID", "OPENAI_ADMIN_KEY", "ANTHROPIC_API_KEY",
              "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_CUSTOM_HEADERS",
              "ANTHROPIC_PROFILE", "MY_LLM_KEY")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CLIENT_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def network_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every attempt to resolve a name or open a connection (each one also fails)."""
    calls: list[str] = []

    def refuse(*args: object, **kwargs: object) -> Any:
        calls.append(repr(args[1:] if args and isinstance(args[0], socket.socket) else args))
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return calls


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def anthropic_server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as fake:
        yield fake
