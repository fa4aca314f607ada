"""How the evaluation calls a planner: retries with backoff that honour Retry-After, a planner
that keeps failing, and the response cache (no network: planners raise what the SDKs would)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from crewgate.errors import PlannerError
from crewgate.eval.cache import ResponseCache, cache_key, default_cache_path
from crewgate.eval.calls import Caller, Counts, RetryPolicy
from crewgate.plan import ParseFailure, Plan
from crewgate.planners.base import Planner, PlannerOutput, PlanningRequest, Proposal
from crewgate.planners.llm.common import TransientPlannerError
from crewgate.spec import Crew

PLAN = {"workflow": "navigation_only",
        "steps": [{"robot": "go2", "skill": "navigate_to_location",
                   "args": {"location": "charging"}}]}


class Flaky(Planner):
    """Fails with the queued errors first, then answers PLAN; says what it sends."""

    name = "flaky"

    def __init__(self, *errors: PlannerError) -> None:
        self.errors = list(errors)
        self.calls = 0

    def request_identity(self, request: PlanningRequest) -> dict[str, Any]:
        return {"planner": self.name, "request": request.request, "attempt": request.attempt}

    def _propose(self, request: PlanningRequest) -> Proposal:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return Proposal(json.dumps(PLAN), usage={"prompt_tokens": 5, "completion_tokens": 3})


def ask(g1_go2: Crew, request: str = "go to charging", scenario: str = "s1") -> PlanningRequest:
    return PlanningRequest(request, g1_go2, "context", {}, "ro", scenario=scenario)


def caller(planner: Planner, waits: list[float], policy: RetryPolicy | None = None,
           cache: ResponseCache | None = None) -> Caller:
    return Caller(planner, cache=cache, policy=policy or RetryPolicy(jitter=0.0),
                  sleep=waits.append, seed=0)


def test_backoff_doubles_up_to_its_cap_and_jitter_only_shortens() -> None:
    policy = RetryPolicy(base_s=1.0, max_s=5.0, jitter=0.0)
    rng = random.Random(0)
    assert [policy.wait_s(n, None, rng) for n in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 5.0]
    jittered = RetryPolicy(base_s=1.0, max_s=5.0, jitter=0.5)
    assert all(2.0 <= jittered.wait_s(3, None, rng) <= 4.0 for _ in range(200))


def test_retry_after_is_the_wait_within_the_cap() -> None:
    policy = RetryPolicy(max_s=30.0, jitter=0.0)
    rng = random.Random(0)
    assert policy.wait_s(1, 7.0, rng) == 7.0
    assert policy.wait_s(3, 0.0, rng) == 0.0
    assert policy.wait_s(1, 3600.0, rng) == 30.0
    jittered = RetryPolicy(max_s=30.0, jitter=0.5)  # never shorter than the server asked
    assert all(8.0 <= jittered.wait_s(1, 8.0, rng) <= 9.0 for _ in range(200))


@pytest.mark.parametrize("bad", [{"attempts": 0}, {"base_s": -1.0}, {"base_s": 9.0, "max_s": 1.0},
                                 {"jitter": 1.5}])
def test_a_policy_out_of_its_bounds_is_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="retry policy"):
        RetryPolicy(**bad)


def test_transient_errors_are_retried_as_the_server_asks(g1_go2: Crew) -> None:
    planner = Flaky(TransientPlannerError("HTTP 429", retry_after=2.5),
                    TransientPlannerError("HTTP 503"))
    waits: list[float] = []
    notes: list[tuple[str, dict[str, Any]]] = []
    counts = Counts()
    out = caller(planner, waits).ask(ask(g1_go2), 0, counts,
                                     lambda detail, data: notes.append((detail, data)))
    assert isinstance(out.plan, Plan)
    assert waits == [2.5, 2.0]  # Retry-After, then the second backoff (1 s doubled)
    assert counts.to_json() == {"asked": 3, "cached": 0, "retries": 2,
                                "errors": ["HTTP 429", "HTTP 503"]}
    assert [d["retry"] for _, d in notes] == [1, 2]
    assert [d["retry_after_s"] for _, d in notes] == [2.5, None]
    assert notes[0][0] == "planner retry 1/3 in 2.50 s: HTTP 429"


def test_a_planner_that_keeps_failing_gives_up_after_its_attempts(g1_go2: Crew) -> None:
    planner = Flaky(*(TransientPlannerError("HTTP 503") for _ in range(9)))
    waits: list[float] = []
    counts = Counts()
    with pytest.raises(PlannerError, match=r"HTTP 503 \(gave up after 4 attempts\)"):
        caller(planner, waits).ask(ask(g1_go2), 0, counts, lambda *_: None)
    assert (planner.calls, waits, counts.retries) == (4, [1.0, 2.0, 4.0], 3)


def test_an_error_that_is_not_transient_is_not_retried(g1_go2: Crew) -> None:
    planner = Flaky(PlannerError("HTTP 401: check the API key"))
    waits: list[float] = []
    with pytest.raises(PlannerError, match="401"):
        caller(planner, waits).ask(ask(g1_go2), 0, Counts(), lambda *_: None)
    assert (planner.calls, waits) == (1, [])


def test_after_missions_failed_in_a_row_a_call_is_tried_once(g1_go2: Crew) -> None:
    planner = Flaky(*(TransientPlannerError("down") for _ in range(5)))
    waits: list[float] = []
    policy = RetryPolicy(attempts=2, jitter=0.0, give_up_after=2)
    calls = caller(planner, waits, policy)
    for _ in range(3):
        with pytest.raises(PlannerError):
            calls.ask(ask(g1_go2), 0, Counts(), lambda *_: None)
    assert planner.calls == 2 + 2 + 1  # two missions with a retry each, then one attempt
    assert waits == [1.0, 1.0]
    out = calls.ask(ask(g1_go2), 0, Counts(), lambda *_: None)  # back again: used again
    assert planner.calls == 6
    assert isinstance(out.plan, Plan)


def test_an_answer_is_asked_once_per_scenario_and_sample(tmp_path: Path, g1_go2: Crew) -> None:
    planner = Flaky()
    cache = ResponseCache(tmp_path / "cache.sqlite3")
    calls = caller(planner, [], cache=cache)
    first, again = Counts(), Counts()
    out = calls.ask(ask(g1_go2), 0, first, lambda *_: None)
    hit = calls.ask(ask(g1_go2), 0, again, lambda *_: None)
    assert planner.calls == 1
    assert (first.asked, first.cached, again.asked, again.cached) == (1, 0, 0, 1)
    assert (hit.raw, hit.usage, hit.planning_s) == (out.raw, out.usage, out.planning_s)
    assert hit.plan == out.plan
    calls.ask(ask(g1_go2), 1, Counts(), lambda *_: None)  # another sample
    calls.ask(ask(g1_go2, scenario="s2"), 0, Counts(), lambda *_: None)  # another scenario
    calls.ask(ask(g1_go2, request="go to the dock"), 0, Counts(), lambda *_: None)
    assert planner.calls == 4
    cache.close()


def test_keys_come_from_what_the_planner_sends(g1_go2: Crew) -> None:
    planner = Flaky()
    key = cache_key(planner, ask(g1_go2), 0)
    assert key is not None
    assert len(key) == 64
    assert key == cache_key(Flaky(), ask(g1_go2), 0)
    assert key != cache_key(planner, ask(g1_go2), 1)

    class Offline(Planner):
        name = "offline"

        def _propose(self, request: PlanningRequest) -> Proposal:
            return Proposal("")

    assert cache_key(Offline(), ask(g1_go2), 0) is None  # never cached


def test_a_cut_off_answer_stays_cut_off_from_the_cache(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite3")
    raw = '{"workflow": "navigation_only", "steps": []}'
    cache.put("k", "openai", PlannerOutput(raw, ParseFailure(("cut off",), raw), 1.25,
                                           {"prompt_tokens": 3}, "a note"))
    assert cache.get("k") == PlannerOutput(raw, ParseFailure(("cut off",), raw), 1.25,
                                           {"prompt_tokens": 3}, "a note")
    assert cache.get("other") is None
    cache.close()


@pytest.mark.parametrize("stored", [
    "not json", "[]", '{"raw": 5, "failure": null, "planning_s": 0, "usage": {}}',
    '{"raw": "", "failure": null, "planning_s": NaN, "usage": {}}',
    '{"raw": "", "failure": null, "planning_s": 0, "usage": {"t": -1}}',
    '{"raw": "", "failure": [1], "planning_s": 0, "usage": {}}',
    '{"raw": "", "failure": null, "planning_s": 0, "usage": ' + "[" * 100_000 + "]" * 100_000
    + "}",
])
def test_a_damaged_row_is_a_miss(tmp_path: Path, stored: str) -> None:
    path = tmp_path / "cache.sqlite3"
    ResponseCache(path).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO answers VALUES ('k', 'openai', ?, 0)", (stored,))
    cache = ResponseCache(path)
    assert cache.get("k") is None
    cache.close()


def test_the_cache_lives_where_the_docs_say(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    monkeypatch.delenv("CREWGATE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_path() == tmp_path / "crewgate" / "responses.sqlite3"
    monkeypatch.setenv("CREWGATE_CACHE", str(tmp_path / "elsewhere.db"))
    assert default_cache_path() == tmp_path / "elsewhere.db"
