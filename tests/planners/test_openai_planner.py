"""The openai planner against a fake OpenAI-compatible server on 127.0.0.1 (no other network)."""

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
from crewgate.planners.base import PlanningRequest
from crewgate.planners.llm_common import LOCAL_PLACEHOLDER_KEY, is_loopback
from crewgate.planners.openai_planner import OpenAIPlanner
from crewgate.planners.registry import PlannerOptions, make_planner
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew
from crewgate.testing import FakeOpenAIServer, Reply, unused_local_port

ROOT = Path(__file__).parents[2]
REQUEST = "Drive the rover to position x 3.0, y -2.0."
GOOD: dict[str, Any] = {"workflow": "dispatch_only", "steps": [
    {"robot": "tb3", "skill": "navigate_to", "args": {"x": 3.0, "y": -2.0}}]}
OUT_OF_BOUNDS: dict[str, Any] = {"workflow": "dispatch_only", "steps": [
    {"robot": "tb3", "skill": "navigate_to", "args": {"x": 30.0, "y": -2.0}}]}
CLIENT_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_CUSTOM_HEADERS", "OPENAI_ORG_ID",
              "OPENAI_PROJECT_ID", "OPENAI_ADMIN_KEY", "MY_LLM_KEY")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CLIENT_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
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


def planner_for(server: FakeOpenAIServer, **kwargs: Any) -> OpenAIPlanner:
    kwargs.setdefault("timeout_s", 5.0)
    return OpenAIPlanner("qwen-test", base_url=server.base_url, **kwargs)


def run(planner: OpenAIPlanner) -> MissionResult:
    return run_mission("sar", REQUEST, planner, journal=":memory:")


def ask(crew: Crew, **kwargs: Any) -> PlanningRequest:
    knowledge = CONDITIONS["ro"].knowledge
    return PlanningRequest(REQUEST, crew, render_context(crew, knowledge),
                           plan_json_schema(crew, knowledge), **kwargs)


# -- the happy path ------------------------------------------------------------------------------


def test_a_valid_plan_runs_end_to_end(server: FakeOpenAIServer, sar: Crew) -> None:
    server.push(Reply(content=json.dumps(GOOD)))
    planner = planner_for(server)
    result = run(planner)
    planner.close()
    assert result.status == "completed", result.reason
    assert result.planner_error is None
    assert [(d.robot, d.skill) for d in result.dispatched if d.kind == "step"] == [
        ("tb3", "navigate_to")]
    [sent] = server.requests
    body = sent.json
    knowledge = CONDITIONS["ro"].knowledge
    assert body["model"] == "qwen-test"
    assert body["messages"][0] == {"role": "system", "content": render_context(sar, knowledge)}
    assert body["messages"][1:] == [{"role": "user", "content": REQUEST}]
    assert body["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "crewgate_plan", "schema": plan_json_schema(sar, knowledge), "strict": False}}
    assert body["temperature"] == 0.0
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {LOCAL_PLACEHOLDER_KEY}"
    assert sent.headers["x-stainless-retry-count"] == "0"


def test_usage_tokens_and_planning_time_are_reported(server: FakeOpenAIServer,
                                                     sar: Crew) -> None:
    server.push(Reply(content=json.dumps(GOOD), input_tokens=321, output_tokens=45))
    out = planner_for(server).plan(ask(sar))
    assert isinstance(out.plan, Plan)
    assert out.raw == json.dumps(GOOD)
    assert out.usage == {"prompt_tokens": 321, "completion_tokens": 45, "total_tokens": 366}
    assert 0 < out.planning_s < 5
    server.push(Reply(content=json.dumps(GOOD), input_tokens=7, output_tokens=3))
    assert run(planner_for(server)).attempts[0].usage == {
        "prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}


def test_the_key_comes_from_the_named_variable(monkeypatch: pytest.MonkeyPatch,
                                               sar: Crew) -> None:
    monkeypatch.setenv("MY_LLM_KEY", "sk-local-123")
    with FakeOpenAIServer([Reply(content=json.dumps(GOOD))], api_key="sk-local-123") as fake:
        out = planner_for(fake, api_key_env="MY_LLM_KEY").plan(ask(sar))
    assert isinstance(out.plan, Plan)
    assert fake.requests[0].headers["authorization"] == "Bearer sk-local-123"


def test_json_in_a_tool_call_is_the_raw_output(server: FakeOpenAIServer, sar: Crew) -> None:
    server.push(Reply(tool_input=GOOD))
    out = planner_for(server).plan(ask(sar))
    assert json.loads(out.raw) == GOOD
    assert isinstance(out.plan, Plan)


# -- replans -------------------------------------------------------------------------------------


def test_a_replan_carries_the_previous_output_and_the_gate_feedback(
        server: FakeOpenAIServer, sar: Crew) -> None:
    first = json.dumps(OUT_OF_BOUNDS)
    server.push(Reply(content=first), Reply(content=json.dumps(GOOD)))
    result = run(planner_for(server))
    assert result.status == "completed", result.reason
    assert [a.number for a in result.attempts] == [1, 2]
    assert "out_of_bounds" in result.attempts[0].verdict.codes
    first_body, second_body = server.bodies
    assert [m["role"] for m in first_body["messages"]] == ["system", "user"]
    messages = second_body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[1]["content"] == REQUEST
    assert messages[2]["content"] == first
    assert "The Robot Orchestrator refused your plan" in messages[3]["content"]
    assert "step 0: out_of_bounds:" in messages[3]["content"]


# -- the structured-output ladder ----------------------------------------------------------------


def test_a_server_without_json_schema_falls_back_to_json_object_for_good(sar: Crew) -> None:
    replies = [Reply(content=json.dumps(GOOD)), Reply(content=json.dumps(GOOD))]
    with FakeOpenAIServer(replies, supports_json_schema=False) as fake:
        planner = planner_for(fake)
        first = planner.plan(ask(sar))
        assert isinstance(first.plan, Plan)
        assert planner.mode == "json_object"
        assert [(b["response_format"]["type"], "schema" in b["response_format"])
                for b in fake.bodies] == [("json_schema", False), ("json_object", True),
                                          ("json_object", False)]
        second = planner.plan(ask(sar))
        assert isinstance(second.plan, Plan)
        assert len(fake.bodies) == 4
        assert fake.bodies[-1]["response_format"] == {"type": "json_object"}


def test_a_llama_cpp_like_server_gets_the_schema_in_json_mode(sar: Crew) -> None:
    """llama-cpp-python's server answers json_schema with HTTP 500 and constrains json_object
    by an attached schema: the planner steps down once and sends the grammar-ready schema."""
    replies = [Reply(content=json.dumps(GOOD))]
    with FakeOpenAIServer(replies, supports_json_schema=False, json_schema_status=500,
                          accepts_json_object_schema=True) as fake:
        planner = planner_for(fake)
        assert isinstance(planner.plan(ask(sar)).plan, Plan)
        assert planner.mode == "json_object_schema"
        sent = fake.bodies[-1]["response_format"]
    assert sent["type"] == "json_object"
    assert "$schema" not in sent["schema"]
    navigate = [b for b in sent["schema"]["properties"]["steps"]["items"]["anyOf"]
                if b["properties"]["skill"].get("const") == "navigate_to"]
    assert len(navigate) == 1
    # tb3.navigate_to's one_of groups became alternative objects, each requiring its group
    assert [alt["required"] for alt in navigate[0]["properties"]["args"]["anyOf"]] == [
        ["target"], ["x", "y"]]


def test_a_server_without_any_response_format_gets_plain_text(sar: Crew) -> None:
    replies = [Reply(content=json.dumps(GOOD)), Reply(content=json.dumps(GOOD))]
    with FakeOpenAIServer(replies, supports_json_schema=False,
                          supports_json_object=False) as fake:
        planner = planner_for(fake)
        assert isinstance(planner.plan(ask(sar)).plan, Plan)
        assert isinstance(planner.plan(ask(sar)).plan, Plan)
        formats = [b.get("response_format", {}).get("type") for b in fake.bodies]
    assert formats == ["json_schema", "json_object", "json_object", None, None]
    assert planner.mode == "text"


def test_a_bad_request_about_something_else_is_an_error_not_a_fallback(
        server: FakeOpenAIServer, sar: Crew) -> None:
    server.push(Reply(status=400, error="model 'qwen-test' is not loaded"))
    planner = planner_for(server)
    with pytest.raises(PlannerError, match=r"HTTP 400: model 'qwen-test' is not loaded"):
        planner.plan(ask(sar))
    assert planner.mode == "json_schema"
    assert len(server.requests) == 1


def test_free_form_sends_no_response_format(server: FakeOpenAIServer, sar: Crew) -> None:
    server.push(Reply(content=f"Sure! Here is the plan:\n```json\n{json.dumps(GOOD)}\n```"))
    result = run(planner_for(server, free_form=True))
    assert result.status == "completed", result.reason
    [body] = server.bodies
    assert "response_format" not in body
    assert "tools" not in body


# -- answers that are no plan --------------------------------------------------------------------


@pytest.mark.parametrize("content", ["{not json", "", "I cannot plan that."])
def test_malformed_content_is_refused_as_malformed_plan(content: str) -> None:
    with FakeOpenAIServer(default=Reply(content=content)) as fake:
        result = run(planner_for(fake))
    assert result.status == "refused"
    assert "malformed_plan" in result.codes
    assert result.planner_error is None
    assert result.dispatched == []
    assert [a.raw for a in result.attempts] == [content, content]


def test_a_cut_off_answer_is_no_plan(server: FakeOpenAIServer, sar: Crew) -> None:
    body = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "qwen-test",
            "choices": [{"index": 0, "finish_reason": "length",
                         "message": {"role": "assistant", "content": json.dumps(GOOD)}}]}
    server.push(Reply(raw_body=json.dumps(body).encode()))
    out = planner_for(server).plan(ask(sar))
    assert isinstance(out.plan, ParseFailure)
    assert "cut off" in out.plan.problems[0]
    assert out.usage == {}


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("status", "message"), [(500, "CUDA out of memory"),
                                                  (429, "Rate limit reached"),
                                                  (503, "model is loading")])
def test_http_errors_refuse_the_mission_with_a_planner_error(status: int, message: str) -> None:
    with FakeOpenAIServer([Reply(status=status, error=message)]) as fake:
        result = run(planner_for(fake))
    assert result.status == "refused"
    assert result.planner_error is not None
    assert f"HTTP {status}: {message}" in result.planner_error
    assert fake.base_url in result.planner_error
    assert result.dispatched == []
    assert result.attempts == []
    assert len(fake.requests) == 1  # no silent retries


def test_a_rejected_key_names_the_variable(sar: Crew) -> None:
    with FakeOpenAIServer([Reply(content="{}")], api_key="the-right-key") as fake, \
            pytest.raises(PlannerError, match=r"HTTP 401.*OPENAI_API_KEY"):
        planner_for(fake).plan(ask(sar))


def test_a_refusal_is_a_planner_error(server: FakeOpenAIServer, sar: Crew) -> None:
    server.push(Reply(refusal="I can't help with that."))
    with pytest.raises(PlannerError, match="refused to plan: I can't help with that"):
        planner_for(server).plan(ask(sar))


def test_a_body_that_is_not_json_is_a_planner_error(server: FakeOpenAIServer,
                                                    sar: Crew) -> None:
    server.push(Reply(raw_body=b"<html>bad gateway</html>"))
    with pytest.raises(PlannerError, match="not a valid API response"):
        planner_for(server).plan(ask(sar))


def test_a_slow_server_times_out(server: FakeOpenAIServer) -> None:
    server.push(Reply(content=json.dumps(GOOD), delay_s=5))
    start = time.perf_counter()
    result = run(planner_for(server, timeout_s=0.5))
    assert time.perf_counter() - start < 4
    assert result.status == "refused"
    assert result.planner_error is not None
    assert "timed out after 0.5 s" in result.planner_error
    assert result.dispatched == []


def test_an_unreachable_server_is_named() -> None:
    url = f"http://127.0.0.1:{unused_local_port()}/v1"
    result = run(OpenAIPlanner("qwen-test", base_url=url, timeout_s=2))
    assert result.status == "refused"
    assert result.planner_error is not None
    assert result.planner_error.startswith(f"cannot reach {url}")
    assert result.dispatched == []


# -- configuration -------------------------------------------------------------------------------


def test_a_missing_key_for_a_remote_server_fails_before_sending(
        network_calls: list[str], sar: Crew) -> None:
    options = PlannerOptions(model="gpt-test", base_url="https://api.openai.com/v1")
    with pytest.raises(UserError, match=r"set OPENAI_API_KEY \(or --api-key-env NAME\)"):
        OpenAIPlanner.from_options(sar, options)
    with pytest.raises(UserError, match="set MY_LLM_KEY"):
        OpenAIPlanner.from_options(sar, PlannerOptions(
            model="gpt-test", base_url="https://llm.example.com/v1", api_key_env="MY_LLM_KEY"))
    with pytest.raises(UserError, match="set OPENAI_API_KEY"):
        OpenAIPlanner("gpt-test")  # the default base URL is remote too
    assert network_calls == []


def test_a_missing_model_says_how_to_give_one(sar: Crew) -> None:
    with pytest.raises(UserError, match="--model NAME"):
        OpenAIPlanner.from_options(sar, PlannerOptions(base_url="http://127.0.0.1:1/v1"))


@pytest.mark.parametrize(("url", "local"), [
    ("http://127.0.0.1:8080/v1", True), ("http://localhost:11434/v1", True),
    ("http://[::1]:8000/v1", True), ("http://127.0.0.2", True),
    ("https://api.openai.com/v1", False), ("http://10.0.0.5:8000/v1", False),
    ("http://localhost.example.com/v1", False), ("", False), (None, False)])
def test_loopback_detection(url: str | None, local: bool) -> None:
    assert is_loopback(url) is local


def _declared_entry_point(name: str) -> EntryPoint:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    value = project["project"]["entry-points"][registry.GROUP][name]
    return EntryPoint(name=name, value=value, group=registry.GROUP)


def test_make_planner_loads_the_declared_entry_point(
        monkeypatch: pytest.MonkeyPatch, server: FakeOpenAIServer, sar: Crew) -> None:
    point = _declared_entry_point("openai")
    monkeypatch.setattr(registry, "entry_points", lambda group: [point])
    planner = make_planner("openai", sar, PlannerOptions(model="m", base_url=server.base_url,
                                                         timeout_s=5))
    assert isinstance(planner, OpenAIPlanner)
    assert planner.name == "openai"
    server.push(Reply(content=json.dumps(GOOD)))
    assert run(planner).status == "completed"
    assert server.bodies[0]["model"] == "m"


def test_make_planner_through_the_installed_entry_point(server: FakeOpenAIServer,
                                                       sar: Crew) -> None:
    if "openai" not in registry.available_planners():
        pytest.skip("the installed crewgate metadata predates the openai entry point in "
                    "pyproject.toml; reinstall with pip install -e .")
    planner = make_planner("openai", sar, PlannerOptions(model="m", base_url=server.base_url))
    assert isinstance(planner, OpenAIPlanner)
