"""The openai planner against a fake OpenAI-compatible server on 127.0.0.1 (no other network):
what it sends, the structured-output ladder, and how it reads an answer. What it shares with
the anthropic planner is tested in test_hosted_planners.py."""

from __future__ import annotations

import json

import pytest

from crewgate.conditions import CONDITIONS
from crewgate.errors import PlannerError
from crewgate.plan import ParseFailure, Plan
from crewgate.planners.llm.common import is_loopback
from crewgate.planners.registry import make_planner
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew
from crewgate.testing import FakeOpenAIServer, Reply
from tests.planners.support import GOOD, OPENAI, REQUEST, ask

# -- what it sends -----------------------------------------------------------------------------


def test_the_request_asks_for_the_plan_schema(openai_server: FakeOpenAIServer,
                                              sar: Crew) -> None:
    openai_server.push(Reply(content=json.dumps(GOOD)))
    OPENAI.planner_for(openai_server).plan(ask(sar))
    [sent] = openai_server.requests
    body = sent.json
    knowledge = CONDITIONS["ro"].knowledge
    assert body["model"] == "qwen-test"
    assert body["messages"] == [{"role": "system", "content": render_context(sar, knowledge)},
                                {"role": "user", "content": REQUEST}]
    assert body["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "crewgate_plan", "schema": plan_json_schema(sar, knowledge), "strict": False}}
    assert body["temperature"] == 0.0
    assert "max_tokens" not in body
    assert sent.path == "/v1/chat/completions"


def test_temperature_and_max_tokens_are_sent_as_the_options_say(openai_server: FakeOpenAIServer,
                                                                sar: Crew) -> None:
    planner = make_planner("openai", sar, {"model": "m", "base_url": openai_server.base_url,
                                           "temperature": "0.7", "max_tokens": 64})
    openai_server.push(Reply(content=json.dumps(GOOD)))
    planner.plan(ask(sar))
    [body] = openai_server.bodies
    assert (body["temperature"], body["max_tokens"]) == (0.7, 64)


def test_json_in_a_tool_call_is_the_raw_output(openai_server: FakeOpenAIServer, sar: Crew) -> None:
    openai_server.push(Reply(tool_input=GOOD))
    out = OPENAI.planner_for(openai_server).plan(ask(sar))
    assert json.loads(out.raw) == GOOD
    assert isinstance(out.plan, Plan)


# -- the structured-output ladder ----------------------------------------------------------------


def test_a_server_without_json_schema_falls_back_to_json_object_for_good(sar: Crew) -> None:
    replies = [Reply(content=json.dumps(GOOD)), Reply(content=json.dumps(GOOD))]
    with FakeOpenAIServer(replies, supports_json_schema=False) as fake:
        planner = OPENAI.planner_for(fake)
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
        planner = OPENAI.planner_for(fake)
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
        planner = OPENAI.planner_for(fake)
        assert isinstance(planner.plan(ask(sar)).plan, Plan)
        assert isinstance(planner.plan(ask(sar)).plan, Plan)
        formats = [b.get("response_format", {}).get("type") for b in fake.bodies]
    assert formats == ["json_schema", "json_object", "json_object", None, None]
    assert planner.mode == "text"


def test_a_bad_request_about_something_else_is_an_error_not_a_fallback(
        openai_server: FakeOpenAIServer, sar: Crew) -> None:
    openai_server.push(Reply(status=400, error="model 'qwen-test' is not loaded"))
    planner = OPENAI.planner_for(openai_server)
    with pytest.raises(PlannerError, match=r"HTTP 400: model 'qwen-test' is not loaded"):
        planner.plan(ask(sar))
    assert planner.mode == "json_schema"
    assert len(openai_server.requests) == 1


# -- answers that are no plan --------------------------------------------------------------------


def test_a_cut_off_answer_is_no_plan(openai_server: FakeOpenAIServer, sar: Crew) -> None:
    body = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "qwen-test",
            "choices": [{"index": 0, "finish_reason": "length",
                         "message": {"role": "assistant", "content": json.dumps(GOOD)}}]}
    openai_server.push(Reply(raw_body=json.dumps(body).encode()))
    out = OPENAI.planner_for(openai_server).plan(ask(sar))
    assert isinstance(out.plan, ParseFailure)
    assert out.plan.problems == ("the answer was cut off (finish_reason length); it is not a "
                                 "complete plan",)
    assert out.usage == {}


# -- configuration -------------------------------------------------------------------------------


@pytest.mark.parametrize(("url", "local"), [
    ("http://127.0.0.1:8080/v1", True), ("http://localhost:11434/v1", True),
    ("http://[::1]:8000/v1", True), ("http://127.0.0.2", True),
    ("https://api.openai.com/v1", False), ("http://10.0.0.5:8000/v1", False),
    ("http://localhost.example.com/v1", False), ("", False), (None, False)])
def test_loopback_detection(url: str | None, local: bool) -> None:
    assert is_loopback(url) is local
