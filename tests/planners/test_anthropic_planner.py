"""The anthropic planner against a fake Messages API server on 127.0.0.1 (no other network): what
it sends (a forced plan tool) and how it reads an answer. What it shares with the openai planner
is tested in test_hosted_planners.py."""

from __future__ import annotations

import json

from crewgate.conditions import CONDITIONS
from crewgate.plan import ParseFailure
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew
from crewgate.testing import FakeAnthropicServer, Reply
from tests.planners.support import ANTHROPIC, GOOD, REQUEST, ask, run

# -- what it sends -------------------------------------------------------------------------------


def test_the_request_forces_the_plan_tool(anthropic_server: FakeAnthropicServer,
                                          sar: Crew) -> None:
    anthropic_server.push(Reply(tool_input=GOOD))
    out = ANTHROPIC.planner_for(anthropic_server).plan(ask(sar))
    assert json.loads(out.raw) == GOOD
    [sent] = anthropic_server.requests
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
    assert body["tool_choice"] == {"type": "tool", "name": "submit_plan",
                                   "disable_parallel_tool_use": True}
    assert "temperature" not in body


def test_a_replan_forces_the_plan_tool_again(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.push(Reply(tool_input={"workflow": "dispatch_only", "steps": [
        {"robot": "tb3", "skill": "navigate_to", "args": {"x": 30.0, "y": -2.0}}]}),
        Reply(tool_input=GOOD))
    assert run(ANTHROPIC.planner_for(anthropic_server)).status == "completed"
    assert [b["tool_choice"]["name"] for b in anthropic_server.bodies] == [
        "submit_plan", "submit_plan"]


# -- answers that are no plan --------------------------------------------------------------------


def test_a_tool_input_that_is_no_plan_is_malformed(anthropic_server: FakeAnthropicServer,
                                                   sar: Crew) -> None:
    anthropic_server.push(Reply(tool_input={"workflow": "dispatch_only"}))
    out = ANTHROPIC.planner_for(anthropic_server).plan(ask(sar))
    assert isinstance(out.plan, ParseFailure)
    assert out.raw == json.dumps({"workflow": "dispatch_only"})


def test_a_cut_off_answer_is_no_plan(anthropic_server: FakeAnthropicServer, sar: Crew) -> None:
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "submit_plan",
                         "input": GOOD}],
            "stop_reason": "max_tokens", "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1024}}
    anthropic_server.push(Reply(raw_body=json.dumps(body).encode()))
    out = ANTHROPIC.planner_for(anthropic_server).plan(ask(sar))
    assert isinstance(out.plan, ParseFailure)
    assert out.plan.problems == ("the answer was cut off (stop_reason max_tokens at 1024 "
                                 "tokens); it is not a complete plan",)
    assert out.usage == {"input_tokens": 10, "output_tokens": 1024, "total_tokens": 1034}
