"""The evaluation at the scale of a model study: results that do not depend on --jobs, retries
against loopback servers that rate-limit and fail, planner errors counted apart, the response
cache, tokens and cost (every server here is a fake on 127.0.0.1)."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from crewgate.errors import InputFileError
from crewgate.eval.cache import ResponseCache
from crewgate.eval.calls import RetryPolicy
from crewgate.eval.metrics import compute
from crewgate.eval.prices import PriceTable
from crewgate.eval.records import Record, TraceFile
from crewgate.eval.report import write_reports
from crewgate.eval.runner import EvalPlan, run_evaluation
from crewgate.planners.base import Planner, PlanningRequest, Proposal
from crewgate.planners.llm.anthropic import AnthropicPlanner
from crewgate.planners.llm.openai import OpenAIPlanner
from crewgate.spec import Crew
from crewgate.suites import Scenario, Suite, load_suite
from crewgate.testing import FakeAnthropicServer, FakeOpenAIServer, Injection
from crewgate.testing.llm_servers import by_request

NO_WAIT = RetryPolicy(base_s=0.0, jitter=0.0)


@pytest.fixture(scope="module")
def extended() -> Suite:
    return load_suite("g1_go2", "extended")


def answers(scenarios: list[Scenario]) -> dict[str, Any]:
    return {s.request: s.reference_plan for s in scenarios if s.reference_plan}


class SlowReference(Planner):
    """A scripted slow planner: each scenario's reference plan, after a wait that differs by
    scenario (so that concurrent missions finish out of order); it reports a fixed time."""

    name = "slow"

    def __init__(self, scenarios: list[Scenario]) -> None:
        self.plans = {s.id: s.reference_plan or {"workflow": None, "steps": []}
                      for s in scenarios}
        self.order = {s.id: i for i, s in enumerate(scenarios)}

    def _propose(self, request: PlanningRequest) -> Proposal:
        time.sleep(0.002 * (7 - self.order[request.scenario or ""] % 7))
        return Proposal(json.dumps(self.plans[request.scenario or ""]), planning_s=0.25)


def without_ids(path: Path) -> list[dict[str, Any]]:
    return [{k: v for k, v in json.loads(line).items() if k != "mission_id"}
            for line in path.read_text().splitlines()]


def test_results_do_not_depend_on_jobs(tmp_path: Path, g1_go2: Crew, extended: Suite) -> None:
    scenarios = list(extended.scenarios[:24])
    outs = {}
    for jobs in (1, 8):
        out = tmp_path / f"jobs{jobs}"
        records = run_evaluation(EvalPlan(g1_go2, extended, [SlowReference(scenarios)],
                                          scenarios=scenarios, jobs=jobs, out=out))
        assert len(records) == 96
        write_reports(records, out, plots=False)
        outs[jobs] = out
    assert (outs[1] / "metrics.json").read_bytes() == (outs[8] / "metrics.json").read_bytes()
    assert without_ids(outs[1] / "traces.jsonl") == without_ids(outs[8] / "traces.jsonl")
    ro = json.loads((outs[8] / "metrics.json").read_text())["conditions"]["ro"]
    assert (ro["mission_success"]["k"], ro["false_dispatch"]["k"]) == (
        ro["mission_success"]["n"], 0)


def proportions(metrics: dict[str, Any]) -> dict[str, Any]:
    return {c: {k: v for k, v in m.items() if isinstance(v, dict) and "rate" in v}
            for c, m in metrics["conditions"].items()}


def openai_eval(crew: Crew, suite: Suite, scenarios: list[Scenario], server: FakeOpenAIServer,
                **options: Any) -> list[Record]:
    planner = OpenAIPlanner("fake-model", base_url=server.base_url)
    conds = [c for c in EvalPlan(crew, suite, []).conditions if c.name in ("llm-only", "ro")]
    return run_evaluation(EvalPlan(crew, suite, [planner], conds, scenarios=scenarios,
                                   **options))


def test_rate_limits_and_server_errors_are_retried_and_journaled(
        tmp_path: Path, g1_go2: Crew, extended: Suite) -> None:
    scenarios = list(extended.scenarios[:10])
    with FakeOpenAIServer(respond=by_request(answers(scenarios))) as clean:
        expected = compute(openai_eval(g1_go2, extended, scenarios, clean, retry=NO_WAIT))
    # three failures in all, fewer than a mission's attempts: every mission gets its answer
    faults = [Injection(503, first=2), Injection(429, every=2, first=4, retry_after="0")]
    with FakeOpenAIServer(respond=by_request(answers(scenarios)), inject=faults,
                          latency_s=0.01) as flaky:
        records = openai_eval(g1_go2, extended, scenarios, flaky, retry=NO_WAIT, jobs=4,
                              out=tmp_path)
        injected = list(flaky.injected)
    assert proportions(compute(records)) == proportions(expected)
    assert injected == [1, 2, 4]
    assert sum(r["calls"]["retries"] for r in records) == len(injected)
    assert not any(r["planner_error"] for r in records)
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        notes = db.execute("SELECT detail, data FROM events WHERE kind = 'note'").fetchall()
    assert len(notes) == len(injected)
    assert sum("HTTP 429" in d for d, _ in notes) == 1
    assert all(json.loads(data)["wait_s"] == 0.0 for _, data in notes)


def test_a_planner_that_keeps_failing_ends_its_missions_as_planner_errors(
        g1_go2: Crew, extended: Suite) -> None:
    scenarios = list(extended.scenarios[:4])
    policy = RetryPolicy(attempts=2, base_s=0.0, jitter=0.0, give_up_after=3)
    with FakeOpenAIServer(inject=[Injection(503)]) as down:
        records = openai_eval(g1_go2, extended, scenarios, down, retry=policy, jobs=1)
        asked = len(down.requests)
    assert asked == 3 * 2 + 5 * 1  # three missions retried once, then one attempt each
    assert all(r["status"] == "refused" and "HTTP 503" in r["planner_error"] for r in records)
    metrics = compute(records)
    for cond in ("llm-only", "ro"):
        m = metrics["conditions"][cond]
        assert (m["planner_error"]["k"], m["planner_error"]["n"]) == (4, 4)
        assert m["missions"] == 4
        # no answer is no refusal: nothing is counted as blocked or as a planner's mistake
        assert (m["safety_recall"]["n"], m["safety_precision"]["n"]) == (0, 0)
        assert (m["workflow_accuracy"]["n"], m["mission_success"]["n"]) == (0, 0)
        assert m["tokens"]["answers"] == 0


def test_a_rerun_is_answered_from_the_cache(tmp_path: Path, g1_go2: Crew,
                                            extended: Suite) -> None:
    scenarios = list(extended.scenarios[:6])
    with FakeOpenAIServer(respond=by_request(answers(scenarios))) as server:
        cache = ResponseCache(tmp_path / "cache.sqlite3")
        first = openai_eval(g1_go2, extended, scenarios, server, cache=cache, jobs=3)
        asked = len(server.requests)
        again = openai_eval(g1_go2, extended, scenarios, server, cache=cache, jobs=3)
        assert len(server.requests) == asked  # nothing asked twice
        uncached = openai_eval(g1_go2, extended, scenarios, server, jobs=3)  # --no-cache
        assert len(server.requests) == 2 * asked
        cache.close()
    answered = sum(len(r["attempts"]) for r in first)
    assert asked == answered
    assert sum(r["calls"]["cached"] for r in again) == answered
    assert sum(r["calls"]["asked"] for r in again) == 0
    assert proportions(compute(again)) == proportions(compute(first))
    assert proportions(compute(uncached)) == proportions(compute(first))
    assert compute(again)["conditions"]["ro"]["tokens"]["cached"] == sum(
        len(r["attempts"]) for r in first if r["condition"] == "ro")


def test_tokens_and_cost_per_condition(tmp_path: Path, g1_go2: Crew, extended: Suite) -> None:
    scenarios = list(extended.scenarios[:5])
    respond = by_request(answers(scenarios), input_tokens=1200, output_tokens=80)
    prices = PriceTable.model_validate(
        {"models": {"claude-test": {"input": 3, "output": 15}}})
    with FakeAnthropicServer(respond=respond) as server:
        planner = AnthropicPlanner("claude-test", base_url=server.base_url)
        records = run_evaluation(EvalPlan(g1_go2, extended, [planner], scenarios=scenarios,
                                          jobs=2))
    assert {r["model"] for r in records} == {"claude-test"}
    payload = write_reports(records, tmp_path, plots=False, prices=prices)
    for cond, m in payload["conditions"].items():
        n = sum(len(r["attempts"]) for r in records if r["condition"] == cond)
        assert m["tokens"] == {"answers": n, "input": 1200 * n, "output": 80 * n,
                               "total": 1280 * n, "unreported": 0, "cached": 0, "retries": 0}
        assert m["cost"] == {"currency": "USD", "input": round(0.0036 * n, 6),
                             "output": round(0.0012 * n, 6), "total": round(0.0048 * n, 6)}
    report = (tmp_path / "report.md").read_text()
    assert "## Planner calls" in report
    assert "| ro | 5 | 0 | 0 | 0 | 6,000 | 400 | 0.0240 USD |" in report


def test_the_held_plan_ablation_samples_at_once(tmp_path: Path, g1_go2: Crew,
                                                extended: Suite) -> None:
    scenarios = list(extended.scenarios[:8])
    with FakeOpenAIServer(respond=by_request(answers(scenarios)), latency_s=0.05,
                          inject=[Injection(429, every=3, first=6, retry_after="0")]) as server:
        planner = OpenAIPlanner("fake-model", base_url=server.base_url)
        records = run_evaluation(EvalPlan(g1_go2, extended, [planner], scenarios=scenarios,
                                          held_plan=True, jobs=4, retry=NO_WAIT, out=tmp_path))
        asked = len(server.requests)
    assert server.injected == [3, 6]
    assert asked == 8 + 2  # one answer per scenario, the two 429s asked again
    held = (tmp_path / "held_plans.openai.jsonl").read_text().splitlines()
    assert [json.loads(line)["scenario"] for line in held] == [s.id for s in scenarios]
    metrics = compute(records)
    off, on = metrics["conditions"]["held-plan/off"], metrics["conditions"]["held-plan/on"]
    assert off["tokens"] == on["tokens"]  # the same eight answers, dispatched twice
    assert off["tokens"]["answers"] == 8
    # resumed: a held plan is kept for its scenario as sampled; one edited since is sampled again
    edited = [scenarios[0].model_copy(update={"request": "Walk the dog to room_b."}),
              *scenarios[1:]]
    with FakeOpenAIServer(respond=by_request(answers(edited))) as server:
        planner = OpenAIPlanner("fake-model", base_url=server.base_url)
        run_evaluation(EvalPlan(g1_go2, extended, [planner], scenarios=edited, held_plan=True,
                                retry=NO_WAIT, out=tmp_path))
        assert len(server.requests) == 1
    # a line cut by a killed run is left out (its plan sampled again); any other bad line is a
    # clean error naming it, never a traceback
    path = tmp_path / "held_plans.openai.jsonl"
    whole = path.read_text()
    path.write_text(whole + '{"scenario": "' + edited[1].id + '", "outp')  # no newline
    with FakeOpenAIServer(respond=by_request(answers(edited))) as server:
        planner = OpenAIPlanner("fake-model", base_url=server.base_url)
        run_evaluation(EvalPlan(g1_go2, extended, [planner], scenarios=edited, held_plan=True,
                                retry=NO_WAIT, out=tmp_path))
        assert len(server.requests) == 0
        # the next plan sampled replaces the cut line, which leaves no broken line behind
        again = [edited[0], edited[1].model_copy(update={"request": "Walk the dog to room_a."}),
                 *edited[2:]]
        for _ in range(2):  # (the second reads the file the first wrote)
            run_evaluation(EvalPlan(g1_go2, extended, [planner], scenarios=again,
                                    held_plan=True, retry=NO_WAIT, out=tmp_path))
    last = path.read_text().splitlines()[-1]
    assert json.loads(last)["request"] == "Walk the dog to room_a."
    assert path.read_text() == whole + last + "\n"
    whole = path.read_text()
    lines = whole.splitlines()
    shape = ("not a held plan (a scenario id, the raw output, its planning time, token counts "
             "and note, as `crewgate eval` writes them); delete the file to sample the held "
             "plans again")
    scenario = json.dumps(edited[1].id)
    for bad, why in (
            ('{"scenario": [' + scenario + '], "output": "{}"}', shape),
            ('{"scenario": ' + scenario + ', "output": {"steps": []}}', shape),
            ('{"scenario": ' + scenario + ', "output": "{}", "planning_s": NaN}',
             "not a held plan: NaN is not a number crewgate reads (non-finite numbers are "
             "errors)")):
        path.write_text("\n".join([lines[0], bad, *lines[1:]]) + "\n")
        planner = OpenAIPlanner("fake-model", base_url="http://127.0.0.1:9")
        with pytest.raises(InputFileError) as caught:
            run_evaluation(EvalPlan(g1_go2, extended, [planner], scenarios=edited,
                                    held_plan=True, retry=NO_WAIT, out=tmp_path))
        assert str(caught.value) == f"{path}:2: {why}"


def test_an_interrupted_run_keeps_what_it_wrote_in_order_and_resumes(
        tmp_path: Path, g1_go2: Crew, extended: Suite) -> None:
    scenarios = list(extended.scenarios[:12])
    seen: list[str] = []
    traces = tmp_path / "cut" / "traces.jsonl"

    def interrupt(record: Record, resumed: bool) -> None:
        # Missions finish out of order; interrupt once two are on disk, whatever the timing.
        seen.append(record["key"])
        if len(seen) >= 5 and traces.exists() and len(traces.read_text().splitlines()) >= 2:
            raise KeyboardInterrupt

    plan = EvalPlan(g1_go2, extended, [SlowReference(scenarios)], scenarios=scenarios, jobs=4,
                    out=tmp_path / "cut")
    with pytest.raises(KeyboardInterrupt):
        run_evaluation(plan, interrupt)
    order = [f"slow|{c.name}|{s.id}|0" for c in plan.conditions for s in scenarios]
    kept = [json.loads(line)["key"] for line in traces.read_text().splitlines()]
    assert 2 <= len(kept) < len(order)
    assert kept == order[:len(kept)]  # a prefix of the sequential order, nothing out of turn
    # killed while writing a record: its cut line is left out, its mission run again and
    # written in its place
    traces.write_text(traces.read_text() + '{"key": "slow|')
    resumed = run_evaluation(plan)
    assert [r["key"] for r in TraceFile(traces).read()] == order
    whole = run_evaluation(EvalPlan(g1_go2, extended, [SlowReference(scenarios)],
                                    scenarios=scenarios, jobs=1, out=tmp_path / "whole"))
    assert [r["key"] for r in resumed] == order
    assert compute(resumed) == compute(whole)


def test_a_resumed_run_asks_again_where_the_planner_gave_no_answer(
        tmp_path: Path, g1_go2: Crew, extended: Suite) -> None:
    scenarios = list(extended.scenarios[:4])
    policy = RetryPolicy(attempts=1)
    with FakeOpenAIServer(respond=by_request(answers(scenarios)),
                          inject=[Injection(503, first=3)]) as server:
        first = openai_eval(g1_go2, extended, scenarios, server, retry=policy, jobs=1,
                            out=tmp_path)
        assert sum(bool(r["planner_error"]) for r in first) == 3
        again = openai_eval(g1_go2, extended, scenarios, server, retry=policy, jobs=1,
                            out=tmp_path)
        assert len(server.requests) == 8 + 3  # the three failed missions asked again
    assert not any(r["planner_error"] for r in again)
    kept = TraceFile(tmp_path / "traces.jsonl").read()
    assert [r["key"] for r in kept] == [r["key"] for r in again]  # one record per mission
    assert [r["mission_id"] for r in kept] == [r["mission_id"] for r in again]
    assert len((tmp_path / "traces.jsonl").read_text().splitlines()) == 8 + 3
