"""The anthropic planner against a fake Messages API server on 127.0.0.1 (no other network)."""

from __future__ import annotations

import json
import socket
import time
import tomllib
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

import crewgate.planners.registry as registry
from crewgate.api import run_mission
from crewgate.conditions import CONDITIONS
from crewgate.errors import PlannerError, UserError
from crewgate.orchestrator import MissionResult
from crewgate.plan import ParseFailure, Plan
from crewgate.planners.anthropic_planner import AnthropicPlanner
from crewgate.planners.base import PlanningRequest
from crewgate.planners.llm_common import LOCAL_PLACEHOLDER_KEY
from crewgate.planners.registry import PlannerOptions, make_planner
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew
from crewgate.testing import FakeAnthropicServer, Reply, unused_local_port

ROOT = Path(__file__).parents[2]
REQUEST = "Drive the rover to position x 3.0, y -2.0."
GOOD: dict[str, Any] = {"workflow": "dispatch_only", "steps": [
    {"robot": "tb3", "skill": "navigate_to", "args": {"x": 3.0, "y": -2.0}}]}
OUT_OF_BOUNDS: dict[str, Any] = {"workflow": "dispatch_only", "steps": [
    {"robot": "tb3", "skill": "navigate_to", "args": {"x": 30.0, "y": -2.0}}]}
CLIENT_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
              "ANTHROPIC_CUSTOM_HEADERS", "ANTHROPIC_PROFILE", "MY_CLAUDE_KEY")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CLIENT_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as fake:
        yield fake


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


def planner_for(server: FakeAnthropicServer, **kwargs: Any) -> AnthropicPlanner:
    kwargs.setdefault("timeout_s", 5.0)
    return AnthropicPlanner("claude-test", base_url=server.base_url, **kwargs)


def run(planner: AnthropicPlanner) -> MissionResult:
    return run_mission("sar", REQUEST, planner, journal=":memory:")


def ask(crew: Crew, **kwargs: Any) -> PlanningRequest:
    knowledge = CONDITIONS["ro"].knowledge
    return PlanningRequest(REQUEST, crew, render_context(crew, knowledge),
                           plan_json_schema(crew, knowledge), **kwargs)


# -- the happy path ------------------------------------------------------------------------------


def test_a_valid_plan_runs_end_to_end(server: FakeAnthropicServer, sar: Crew) -> None:
    server.push(Reply(tool_input=GOOD))
    planner = planner_for(server)
    result = run(planner)
    planner.close()
    assert result.status == "completed", result.reason
    assert result.planner_error is None
    assert [(d.robot, d.skill) for d in result.dispatched if d.kind == "step"] == [
        ("tb3", "navigate_to")]
    assert json.loads(result.attempts[0].raw) == GOOD
    [sent] = server.requests
    body = sent.json
    knowledge = CONDITIONS["ro"].knowledge
    assert sent.path == "/v1/messages"
    assert body["model"] == "claude-test"
    assert body["max_tokens"] == 1024
    assert body["system"] == render_context(sar, knowledge)
    assert body["messages"] == [{"role": "user", "content": REQUEST}]
    [tool] = body["tools"]
    assert tool["name"] == "submit_plan"
    expected = {k: v for k, v in plan_json_schema(sar, knowledge).items()
                if k not in ("$schema", "title")}
    assert tool["input_schema"] == expected
    assert body["tool_choice"]["type"] == "tool"
    assert body["tool_choice"]["name"] == "submit_plan"
    assert "temperature" not in body
    assert sent.headers["authorization"] == f"Bearer {LOCAL_PLACEHOLDER_KEY}"
    assert sent.headers["x-stainless-retry-count"] == "0"


def test_usage_tokens_and_planning_time_are_reported(server: FakeAnthropicServer,
                                                     sar: Crew) -> None:
    server.push(Reply(tool_input=GOOD, input_tokens=500, output_tokens=60))
    out = planner_for(server).plan(ask(sar))
    assert isinstance(out.plan, Plan)
    assert out.usage == {"input_tokens": 500, "output_tokens": 60, "total_tokens": 560}
    assert 0 < out.planning_s < 5


def test_the_key_comes_from_the_named_variable(monkeypatch: pytest.MonkeyPatch,
                                               sar: Crew) -> None:
    monkeypatch.setenv("MY_CLAUDE_KEY", "sk-ant-local")
    with FakeAnthropicServer([Reply(tool_input=GOOD)], api_key="sk-ant-local") as fake:
        out = planner_for(fake, api_key_env="MY_CLAUDE_KEY").plan(ask(sar))
    assert isinstance(out.plan, Plan)


# -- replans -------------------------------------------------------------------------------------


def test_a_replan_carries_the_previous_output_and_the_gate_feedback(
        server: FakeAnthropicServer) -> None:
    server.push(Reply(tool_input=OUT_OF_BOUNDS), Reply(tool_input=GOOD))
    result = run(planner_for(server))
    assert result.status == "completed", result.reason
    assert "out_of_bounds" in result.attempts[0].verdict.codes
    messages = server.bodies[1]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[0]["content"] == REQUEST
    assert json.loads(messages[1]["content"]) == OUT_OF_BOUNDS
    assert messages[1]["content"] == result.attempts[0].raw
    assert "The Robot Orchestrator refused your plan" in messages[2]["content"]
    assert "step 0: out_of_bounds:" in messages[2]["content"]
    assert server.bodies[1]["tool_choice"]["name"] == "submit_plan"


# -- free form -----------------------------------------------------------------------------------


def test_free_form_sends_no_tools_and_parses_the_text(server: FakeAnthropicServer) -> None:
    server.push(Reply(content=f"Here is the plan:\n```json\n{json.dumps(GOOD)}\n```\nDone."))
    result = run(planner_for(server, free_form=True))
    assert result.status == "completed", result.reason
    [body] = server.bodies
    assert "tools" not in body
    assert "tool_choice" not in body


# -- answers that are no plan --------------------------------------------------------------------


@pytest.mark.parametrize("reply", [Reply(content="{not json"), Reply(content=""),
                                   Reply(content="I would rather not.")])
def test_malformed_answers_are_refused_as_malformed_plan(reply: Reply) -> None:
    with FakeAnthropicServer(default=reply) as fake:
        result = run(planner_for(fake))
    assert result.status == "refused"
    assert "malformed_plan" in result.codes
    assert result.planner_error is None
    assert result.dispatched == []


def test_a_tool_input_that_is_no_plan_is_malformed(server: FakeAnthropicServer,
                                                   sar: Crew) -> None:
    server.push(Reply(tool_input={"workflow": "dispatch_only"}))
    out = planner_for(server).plan(ask(sar))
    assert isinstance(out.plan, ParseFailure)
    assert out.raw == json.dumps({"workflow": "dispatch_only"})


def test_a_cut_off_answer_is_no_plan(server: FakeAnthropicServer, sar: Crew) -> None:
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "submit_plan",
                         "input": GOOD}],
            "stop_reason": "max_tokens", "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1024}}
    server.push(Reply(raw_body=json.dumps(body).encode()))
    out = planner_for(server).plan(ask(sar))
    assert isinstance(out.plan, ParseFailure)
    assert "cut off" in out.plan.problems[0]


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("status", "message"), [(500, "Internal server error"),
                                                  (429, "Number of requests has exceeded"),
                                                  (529, "Overloaded")])
def test_http_errors_refuse_the_mission_with_a_planner_error(status: int, message: str) -> None:
    with FakeAnthropicServer([Reply(status=status, error=message)]) as fake:
        result = run(planner_for(fake))
    assert result.status == "refused"
    assert result.planner_error is not None
    assert f"HTTP {status}: {message}" in result.planner_error
    assert fake.base_url in result.planner_error
    assert result.dispatched == []
    assert len(fake.requests) == 1  # no silent retries


def test_a_rejected_key_names_the_variable(sar: Crew) -> None:
    with FakeAnthropicServer([Reply(tool_input=GOOD)], api_key="right") as fake, \
            pytest.raises(PlannerError, match=r"HTTP 401.*ANTHROPIC_API_KEY"):
        planner_for(fake).plan(ask(sar))


def test_a_refusal_is_a_planner_error(server: FakeAnthropicServer, sar: Crew) -> None:
    server.push(Reply(refusal="I can't help with that."))
    with pytest.raises(PlannerError, match="refused to plan: I can't help with that"):
        planner_for(server).plan(ask(sar))


def test_a_body_that_is_not_json_is_a_planner_error(server: FakeAnthropicServer,
                                                    sar: Crew) -> None:
    server.push(Reply(raw_body=b"not json"))
    with pytest.raises(PlannerError, match="not a valid API response"):
        planner_for(server).plan(ask(sar))


def test_a_slow_server_times_out(server: FakeAnthropicServer) -> None:
    server.push(Reply(tool_input=GOOD, delay_s=5))
    start = time.perf_counter()
    result = run(planner_for(server, timeout_s=0.5))
    assert time.perf_counter() - start < 4
    assert result.status == "refused"
    assert result.planner_error is not None
    assert "timed out after 0.5 s" in result.planner_error
    assert result.dispatched == []


def test_an_unreachable_server_is_named() -> None:
    url = f"http://127.0.0.1:{unused_local_port()}"
    result = run(AnthropicPlanner("claude-test", base_url=url, timeout_s=2))
    assert result.status == "refused"
    assert result.planner_error is not None
    assert result.planner_error.startswith(f"cannot reach {url}")
    assert result.dispatched == []


# -- configuration -------------------------------------------------------------------------------


def test_a_missing_key_for_a_remote_server_fails_before_sending(
        network_calls: list[str], sar: Crew) -> None:
    options = PlannerOptions(model="claude-test", base_url="https://api.anthropic.com")
    with pytest.raises(UserError, match=r"set ANTHROPIC_API_KEY \(or --api-key-env NAME\)"):
        AnthropicPlanner.from_options(sar, options)
    with pytest.raises(UserError, match="set MY_CLAUDE_KEY"):
        AnthropicPlanner.from_options(sar, PlannerOptions(
            model="claude-test", base_url="https://proxy.example.com",
            api_key_env="MY_CLAUDE_KEY"))
    with pytest.raises(UserError, match="set ANTHROPIC_API_KEY"):
        AnthropicPlanner("claude-test")  # the default base URL is remote too
    assert network_calls == []


def test_a_missing_model_says_how_to_give_one(sar: Crew) -> None:
    with pytest.raises(UserError, match="--model NAME"):
        AnthropicPlanner.from_options(sar, PlannerOptions(base_url="http://127.0.0.1:1"))


def _declared_entry_point(name: str) -> EntryPoint:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    value = project["project"]["entry-points"][registry.GROUP][name]
    return EntryPoint(name=name, value=value, group=registry.GROUP)


def test_make_planner_loads_the_declared_entry_point(
        monkeypatch: pytest.MonkeyPatch, server: FakeAnthropicServer, sar: Crew) -> None:
    point = _declared_entry_point("anthropic")
    monkeypatch.setattr(registry, "entry_points", lambda group: [point])
    planner = make_planner("anthropic", sar, PlannerOptions(model="m", base_url=server.base_url,
                                                            timeout_s=5, free_form=True))
    assert isinstance(planner, AnthropicPlanner)
    assert planner.name == "anthropic"
    server.push(Reply(content=json.dumps(GOOD)))
    assert run(planner).status == "completed"
    assert "tools" not in server.bodies[0]


def test_make_planner_through_the_installed_entry_point(server: FakeAnthropicServer,
                                                       sar: Crew) -> None:
    if "anthropic" not in registry.available_planners():
        pytest.skip("the installed crewgate metadata predates the anthropic entry point in "
                    "pyproject.toml; reinstall with pip install -e .")
    planner = make_planner("anthropic", sar, PlannerOptions(model="m", base_url=server.base_url))
    assert isinstance(planner, AnthropicPlanner)
