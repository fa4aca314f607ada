"""What the hosted chat-API backends (openai, anthropic) do alike, each against its fake server on
127.0.0.1 (no other network): usage, keys, replans, free form, answers that are no plan, every
way of getting no answer, configuration mistakes, and the entry points."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import crewgate.planners.registry as registry
from crewgate import plugins
from crewgate.errors import PlannerError, UserError
from crewgate.planners.llm.common import LOCAL_PLACEHOLDER_KEY
from crewgate.planners.llm.hosted import HostedPlanner
from crewgate.planners.registry import make_planner
from crewgate.spec import Crew
from crewgate.testing import Reply, unused_local_port
from crewgate.testing.llm_servers import FakeLLMServer
from tests.planners.support import (
    BACKENDS,
    FENCED,
    GOOD,
    OUT_OF_BOUNDS,
    REQUEST,
    STRUCTURED,
    AnyBackend,
    ask,
    declared_entry_point,
    run,
    turns,
)


@pytest.fixture(params=BACKENDS, ids=[b.name for b in BACKENDS])
def backend(request: pytest.FixtureRequest) -> AnyBackend:
    chosen: AnyBackend = request.param
    return chosen


@pytest.fixture
def server(backend: AnyBackend) -> Iterator[FakeLLMServer]:
    with backend.server() as fake:
        yield fake


# -- answers -------------------------------------------------------------------------------------


def test_a_valid_plan_runs_end_to_end(backend: AnyBackend, server: FakeLLMServer) -> None:
    server.push(Reply(answer=GOOD))
    planner = backend.planner_for(server)
    result = run(planner)
    planner.close()
    assert result.status == "completed", result.reason
    assert result.planner_error is None
    assert [(d.robot, d.skill) for d in result.dispatched if d.kind == "step"] == [
        ("tb3", "navigate_to")]
    assert json.loads(result.attempts[0].raw) == GOOD
    assert server.bodies[0]["model"] == backend.model


def test_usage_tokens_and_planning_time_are_reported(backend: AnyBackend, server: FakeLLMServer,
                                                     sar: Crew) -> None:
    server.push(Reply(answer=GOOD, input_tokens=321, output_tokens=45))
    out = backend.planner_for(server).plan(ask(sar))
    prompt, answer = backend.usage_keys
    assert out.usage == {prompt: 321, answer: 45, "total_tokens": 366}
    assert json.loads(out.raw) == GOOD
    assert 0 < out.planning_s < 5
    assert server.requests[0].headers["authorization"] == f"Bearer {LOCAL_PLACEHOLDER_KEY}"
    assert server.requests[0].headers["x-stainless-retry-count"] == "0"


def test_the_key_comes_from_the_named_variable(backend: AnyBackend, sar: Crew,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_LLM_KEY", "sk-local-123")
    with backend.server([Reply(answer=GOOD)], api_key="sk-local-123") as fake:
        out = backend.planner_for(fake, api_key_env="MY_LLM_KEY").plan(ask(sar))
    assert json.loads(out.raw) == GOOD
    assert fake.requests[0].headers["authorization"] == "Bearer sk-local-123"


def test_a_replan_carries_the_previous_output_and_the_gate_feedback(
        backend: AnyBackend, server: FakeLLMServer) -> None:
    server.push(Reply(answer=OUT_OF_BOUNDS), Reply(answer=GOOD))
    result = run(backend.planner_for(server))
    assert result.status == "completed", result.reason
    assert [a.number for a in result.attempts] == [1, 2]
    assert result.attempts[0].verdict.codes == ["out_of_bounds", "substituted_value"]
    first, second = (turns(body) for body in server.bodies)
    assert first == [{"role": "user", "content": REQUEST}]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    assert second[0]["content"] == REQUEST
    assert second[1]["content"] == result.attempts[0].raw
    assert json.loads(second[1]["content"]) == OUT_OF_BOUNDS
    assert second[2]["content"].startswith("The Robot Orchestrator refused your plan:\n"
                                           "- step 0: out_of_bounds: ")


def test_free_form_asks_for_text_and_parses_it(backend: AnyBackend,
                                               server: FakeLLMServer) -> None:
    server.push(Reply(content=FENCED))
    result = run(backend.planner_for(server, free_form=True))
    assert result.status == "completed", result.reason
    [body] = server.bodies
    assert [key for key in STRUCTURED if key in body] == []


@pytest.mark.parametrize("reply", [Reply(content="{not json"), Reply(content=""),
                                   Reply(content="I would rather not.")],
                         ids=["broken-json", "empty", "prose"])
def test_answers_without_a_plan_are_refused_as_malformed(backend: AnyBackend,
                                                         reply: Reply) -> None:
    with backend.server(default=reply) as fake:
        result = run(backend.planner_for(fake))
    assert result.status == "refused"
    assert result.codes == ["malformed_plan"]
    assert result.planner_error is None
    assert result.dispatched == []
    assert [a.raw for a in result.attempts] == [reply.content, reply.content]


# -- no answer: PlannerErrors ----------------------------------------------------------------------


@pytest.mark.parametrize(("status", "message"), [(500, "Internal server error"),
                                                  (429, "Rate limit reached"),
                                                  (503, "model is loading"),
                                                  (529, "Overloaded")])
def test_http_errors_refuse_the_mission_with_a_planner_error(backend: AnyBackend, status: int,
                                                            message: str) -> None:
    with backend.server([Reply(status=status, error=message)]) as fake:
        result = run(backend.planner_for(fake))
    assert result.status == "refused"
    hint = "; rate limited or out of quota, try again later" if status == 429 else ""
    assert result.planner_error == (f"{fake.base_url} answered HTTP {status}: {message}{hint}")
    assert result.dispatched == []
    assert result.attempts == []
    assert len(fake.requests) == 1  # no silent retries


def test_a_rejected_key_names_the_variable(backend: AnyBackend, sar: Crew) -> None:
    with backend.server([Reply(answer=GOOD)], api_key="the-right-key") as fake, \
            pytest.raises(PlannerError, match=rf"HTTP 401.*{backend.key_env}"):
        backend.planner_for(fake).plan(ask(sar))


def test_a_refusal_is_a_planner_error(backend: AnyBackend, server: FakeLLMServer,
                                      sar: Crew) -> None:
    server.push(Reply(refusal="I can't help with that."))
    with pytest.raises(PlannerError) as caught:
        backend.planner_for(server).plan(ask(sar))
    assert str(caught.value) == (f"the model '{backend.model}' refused to plan: I can't help "
                                 "with that.")


def test_a_body_that_is_not_json_is_a_planner_error(backend: AnyBackend, server: FakeLLMServer,
                                                    sar: Crew) -> None:
    server.push(Reply(raw_body=b"<html>bad gateway</html>"))
    with pytest.raises(PlannerError, match="sent an answer that is not a valid API response"):
        backend.planner_for(server).plan(ask(sar))


def test_a_slow_server_times_out(backend: AnyBackend, server: FakeLLMServer) -> None:
    server.push(Reply(answer=GOOD, delay_s=5))
    result = run(backend.planner_for(server, timeout_s=0.5))
    # (the server answers GOOD after 5 s: a refusal naming the 0.5 s timeout is the timeout's)
    assert result.status == "refused"
    assert result.planner_error == (
        f"timed out after 0.5 s waiting for {server.base_url} (model '{backend.model}'); raise "
        "--timeout or check that the server is not overloaded")
    assert result.dispatched == []


def test_an_unreachable_server_is_named(backend: AnyBackend) -> None:
    url = f"http://127.0.0.1:{unused_local_port()}{backend.suffix}"
    result = run(backend.planner(backend.model, base_url=url, timeout_s=2))
    assert result.status == "refused"
    assert result.planner_error is not None
    assert result.planner_error.startswith(f"cannot reach {url}: ")
    assert result.dispatched == []


# -- configuration: UserErrors before anything is sent -------------------------------------------


def test_a_missing_key_for_a_remote_server_fails_before_sending(
        backend: AnyBackend, network_calls: list[str], sar: Crew) -> None:
    remote = backend.planner.default_base_url
    with pytest.raises(UserError) as caught:
        make_planner(backend.name, sar, {"model": "m"})  # the default base URL is remote
    assert str(caught.value) == (f"set {backend.key_env} (or --api-key-env NAME) to the API key "
                                 f"for {remote}; a local server (127.0.0.1, localhost) needs "
                                 "no key")
    with pytest.raises(UserError, match=r"^set MY_LLM_KEY "):
        make_planner(backend.name, sar, {"model": "m", "api_key_env": "MY_LLM_KEY",
                                         "base_url": f"https://llm.example.com{backend.suffix}"})
    assert network_calls == []


def test_a_missing_model_says_how_to_give_one(backend: AnyBackend, sar: Crew) -> None:
    with pytest.raises(UserError) as from_options:
        make_planner(backend.name, sar, {"base_url": "http://127.0.0.1:1"})
    assert str(from_options.value) == (f"planner {backend.name} needs option 'model' (The model "
                                       "name the server knows.)")
    with pytest.raises(UserError) as in_code:
        backend.planner(" ", base_url="http://127.0.0.1:1")
    assert str(in_code.value) == (f"the {backend.name} planner needs a model: pass --model NAME "
                                  "(the model name the server knows)")


@pytest.mark.parametrize(("options", "message"), [
    ({"timeout": 0}, "option 'timeout': input should be greater than 0, got 0"),
    ({"max_tokens": "0"}, "option 'max_tokens': input should be greater than or equal to 1, "
                          "got '0'"),
    ({"free_form": "maybe"}, "option 'free_form': input should be a valid boolean, unable to "
                             "interpret input, got 'maybe'"),
])
def test_bad_option_values_name_the_option(backend: AnyBackend, sar: Crew,
                                           options: dict[str, Any], message: str) -> None:
    with pytest.raises(UserError) as caught:
        make_planner(backend.name, sar, {"model": "m", "base_url": "http://127.0.0.1:1",
                                         **options})
    assert str(caught.value) == f"planner {backend.name}: {message}"


# -- the entry points ----------------------------------------------------------------------------


def test_make_planner_loads_the_declared_entry_point(
        backend: AnyBackend, server: FakeLLMServer, sar: Crew,
        monkeypatch: pytest.MonkeyPatch) -> None:
    point = declared_entry_point(backend.name)
    monkeypatch.setattr(plugins, "entry_points", lambda group: [point])
    planner = make_planner(backend.name, sar, {"model": "m", "base_url": server.base_url,
                                               "timeout": "5", "free-form": "true"})
    assert isinstance(planner, HostedPlanner)
    assert type(planner) is backend.planner
    assert (planner.name, planner.model, planner.timeout_s, planner.free_form) == (
        backend.name, "m", 5.0, True)
    server.push(Reply(content=FENCED))
    assert run(planner).status == "completed"
    assert server.bodies[0]["model"] == "m"
    assert [key for key in STRUCTURED if key in server.bodies[0]] == []


def test_make_planner_through_the_installed_entry_point(backend: AnyBackend, server: FakeLLMServer,
                                                       sar: Crew) -> None:
    assert registry.available_planners()[backend.name] == declared_entry_point(backend.name).value
    planner = make_planner(backend.name, sar, {"model": "m", "base_url": server.base_url})
    assert type(planner) is backend.planner
