"""Which planner failures may pass if asked again (timeouts, lost connections, HTTP 408, 409,
429, 5xx) and how long the server asked to wait; the fake servers' latency, injected failures
and answers by request, all on 127.0.0.1."""

from __future__ import annotations

import email.utils
import json
import threading
from typing import Any

import pytest

from crewgate.errors import PlannerError
from crewgate.planners.base import PlanningRequest
from crewgate.planners.llm.anthropic import AnthropicPlanner
from crewgate.planners.llm.common import TransientPlannerError, retry_after_s
from crewgate.planners.llm.openai import OpenAIPlanner
from crewgate.spec import Crew
from crewgate.testing import FakeAnthropicServer, FakeOpenAIServer, Injection, Reply
from crewgate.testing.llm_servers import by_request

PLAN = {"workflow": "navigation_only", "steps": [
    {"robot": "go2", "skill": "navigate_to_location", "args": {"location": "charging"}}]}


def ask(crew: Crew, request: str = "go to charging") -> PlanningRequest:
    return PlanningRequest(request, crew, "You plan for a crew.", {"type": "object"})


@pytest.mark.parametrize(("headers", "expected"), [
    ({"Retry-After": "7"}, 7.0),
    ({"retry-after": "1.5"}, 1.5),
    ({"retry-after-ms": "250", "Retry-After": "9"}, 0.25),
    ({"Retry-After": "0"}, 0.0),
    ({"Retry-After": "86400"}, 3600.0),  # bounded
    ({"Retry-After": "-3"}, None),
    ({"Retry-After": "nan"}, None),
    ({"Retry-After": "inf"}, None),
    ({"Retry-After": "soon"}, None),
    ({"Retry-After": "9" * 40}, None),
    ({}, None),
    (None, None),
])
def test_retry_after_is_read_within_bounds(headers: dict[str, str] | None,
                                           expected: float | None) -> None:
    assert retry_after_s(headers) == expected


def test_retry_after_as_an_http_date() -> None:
    now = 1_800_000_000.0
    when = email.utils.formatdate(now + 30, usegmt=True)
    assert retry_after_s({"Retry-After": when}, now=now) == 30.0
    past = email.utils.formatdate(now - 30, usegmt=True)
    assert retry_after_s({"Retry-After": past}, now=now) == 0.0


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504])
def test_openai_transient_statuses(g1_go2: Crew, status: int) -> None:
    with FakeOpenAIServer(inject=[Injection(status, retry_after="7")]) as server:
        planner = OpenAIPlanner("m", base_url=server.base_url)
        with pytest.raises(TransientPlannerError, match=f"HTTP {status}") as caught:
            planner.plan(ask(g1_go2))
    assert caught.value.retry_after == 7.0
    assert len(server.requests) == 1  # the client itself never retries


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_openai_errors_that_will_not_pass(g1_go2: Crew, status: int) -> None:
    with FakeOpenAIServer([Reply(status=status, error="no")]) as server:
        planner = OpenAIPlanner("m", base_url=server.base_url)
        with pytest.raises(PlannerError) as caught:
            planner.plan(ask(g1_go2))
    assert not isinstance(caught.value, TransientPlannerError)


def test_anthropic_overloaded_is_transient(g1_go2: Crew) -> None:
    with FakeAnthropicServer(inject=[Injection(529, first=1)], default=Reply(answer=PLAN)) as srv:
        planner = AnthropicPlanner("claude-test", base_url=srv.base_url)
        with pytest.raises(TransientPlannerError, match="HTTP 529") as caught:
            planner.plan(ask(g1_go2))
        assert caught.value.retry_after is None
        assert json.loads(planner.plan(ask(g1_go2)).raw) == PLAN  # the next one passes


def test_a_timeout_and_a_dead_server_are_transient(g1_go2: Crew) -> None:
    with FakeOpenAIServer(latency_s=2.0, default=Reply(answer=PLAN)) as slow:
        planner = OpenAIPlanner("m", base_url=slow.base_url, timeout_s=0.2)
        with pytest.raises(TransientPlannerError, match="timed out"):
            planner.plan(ask(g1_go2))
        base = slow.base_url
    with pytest.raises(TransientPlannerError, match="cannot reach"):
        OpenAIPlanner("m", base_url=base, timeout_s=2).plan(ask(g1_go2))


def test_injections_count_model_requests_and_keep_the_queue() -> None:
    faults = [Injection(503, first=1), Injection(429, every=3, retry_after="2")]
    with FakeOpenAIServer([Reply(content="a"), Reply(content="b")], inject=faults,
                          default=Reply(content="z")) as server:
        planner = OpenAIPlanner("m", base_url=server.base_url)
        got: list[str] = []
        for _ in range(5):
            try:
                got.append(planner.client.chat.completions.create(
                    model="m", messages=[{"role": "user", "content": "x"}]
                ).choices[0].message.content or "")
            except Exception as exc:
                got.append(type(exc).__name__)
    assert got == ["InternalServerError", "a", "RateLimitError", "b", "z"]
    assert server.injected == [1, 3]


@pytest.mark.parametrize("bad", [{"status": 200}, {"status": 429, "every": 0},
                                 {"status": 503, "first": -1}])
def test_an_injection_out_of_bounds_is_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="injection"):
        Injection(**bad)


def test_latency_applies_to_concurrent_requests_at_once(g1_go2: Crew) -> None:
    """Four requests with 0.3 s latency each, at once: the server answers them together (the
    answers, not the clock, are asserted: each one is the plan for its own request)."""
    plans = {f"go to place {i}": {**PLAN, "note": i} for i in range(4)}
    with FakeOpenAIServer(respond=by_request(plans), latency_s=0.3) as server:
        planner = OpenAIPlanner("m", base_url=server.base_url)
        got: dict[str, str] = {}

        def one(text: str) -> None:
            got[text] = planner.plan(ask(g1_go2, text)).raw

        threads = [threading.Thread(target=one, args=(t,)) for t in plans]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert {t: json.loads(raw)["note"] for t, raw in got.items()} == {
        f"go to place {i}": i for i in range(4)}


def test_answers_by_request_read_the_first_user_turn_on_a_replan(g1_go2: Crew) -> None:
    with FakeAnthropicServer(respond=by_request({"go to charging": PLAN},
                                                otherwise={"workflow": "x", "steps": []},
                                                input_tokens=40, output_tokens=9)) as server:
        planner = AnthropicPlanner("claude-test", base_url=server.base_url)
        first = planner.plan(ask(g1_go2))
        replan = PlanningRequest("go to charging", g1_go2, "ctx", {"type": "object"},
                                 attempt=2, feedback=({"index": 0, "code": "c", "detail": "d"},),
                                 previous_output="{}")
        again = planner.plan(replan)
        other = planner.plan(ask(g1_go2, "something else"))
    assert json.loads(first.raw) == json.loads(again.raw) == PLAN
    assert json.loads(other.raw)["workflow"] == "x"
    assert first.usage == {"input_tokens": 40, "output_tokens": 9, "total_tokens": 49}
