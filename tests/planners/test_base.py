"""The framework's side of every planner (``Planner.plan``): it times the backend's call (and
reports a recorded time where the backend gives one), keeps the token counts that are known,
parses raw answers, and turns whatever a backend raises into a PlannerError through that
backend's own translation; a PlannerError or a configuration UserError passes unchanged."""

from __future__ import annotations

import json
import time
import tomllib
from collections.abc import Callable, Iterator

import pytest

from crewgate.errors import PlannerError, UserError
from crewgate.plan import ParseFailure, Plan
from crewgate.planners import Planner, PlanningRequest, Proposal, ScriptedPlanner
from crewgate.planners.base import token_counts
from crewgate.planners.exemplar import ExemplarPlanner
from crewgate.planners.exemplar.embedding import LexicalEncoder
from crewgate.planners.registry import GROUP
from crewgate.planners.replay import Record, ReplayPlanner
from crewgate.spec import Crew
from crewgate.testing import FakeAnthropicServer, FakeOpenAIServer
from tests.planners.support import ANTHROPIC, GOOD, OPENAI, ROOT, ask

Factory = Callable[[Crew], Planner]
SERVERS: list[FakeOpenAIServer | FakeAnthropicServer] = []


def _llamacpp(crew: Crew) -> Planner:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
    from crewgate.planners.llm.llamacpp import LlamaCppPlanner, default_model_path

    try:
        return LlamaCppPlanner(default_model_path())
    except UserError as exc:
        pytest.skip(f"the default model is not installed ({exc})")


def _hosted(kind: type[FakeOpenAIServer] | type[FakeAnthropicServer]) -> Factory:
    def make(crew: Crew) -> Planner:
        server = kind()
        SERVERS.append(server)
        backend = OPENAI if kind is FakeOpenAIServer else ANTHROPIC
        return backend.planner_for(server)

    return make


# Every built-in backend, made without options (a new built-in must be added here).
FACTORIES: dict[str, Factory] = {
    "exemplar": lambda crew: ExemplarPlanner(crew, LexicalEncoder()),
    "scripted": lambda crew: ScriptedPlanner([GOOD]),
    "replay": lambda crew: ReplayPlanner([Record("s", "ro", 1, GOOD, request="go")]),
    "openai": _hosted(FakeOpenAIServer),
    "anthropic": _hosted(FakeAnthropicServer),
    "llamacpp": _llamacpp,
}


@pytest.fixture(autouse=True)
def _close_servers() -> Iterator[None]:
    yield
    while SERVERS:
        SERVERS.pop().close()


def test_every_built_in_backend_is_covered() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert sorted(FACTORIES) == sorted(project["project"]["entry-points"][GROUP])


def _translation(planner: Planner, exc: Exception) -> str:
    """What each backend says when its call raised ``exc`` (a RuntimeError "boom")."""
    if planner.name in ("openai", "anthropic"):
        vendor = "OpenAI" if planner.name == "openai" else "Anthropic"
        return f"the {vendor} client failed for {getattr(planner, 'base_url', '')}: boom"
    if planner.name == "llamacpp":
        return "llama.cpp failed on SmolLM2-135M-Instruct.Q4_1.gguf: RuntimeError: boom"
    return f"the {planner.name} planner failed: RuntimeError: boom"


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_the_framework_times_the_call_and_parses_the_answer(
        name: str, sar: Crew, monkeypatch: pytest.MonkeyPatch) -> None:
    planner = FACTORIES[name](sar)

    def slow(request: PlanningRequest) -> Proposal:
        time.sleep(0.05)
        return Proposal(json.dumps(GOOD), usage={"prompt_tokens": 3, "completion_tokens": None})

    monkeypatch.setattr(planner, "_prepare", lambda request: time.sleep(0.2))  # not timed
    monkeypatch.setattr(planner, "_propose", slow)
    out = planner.plan(ask(sar))
    assert 0.05 <= out.planning_s < 0.2
    assert out.raw == json.dumps(GOOD)
    assert isinstance(out.plan, Plan)
    assert out.plan.to_json() == GOOD
    assert out.usage == {"prompt_tokens": 3}
    assert out.note == ""


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_a_recorded_time_is_reported_as_recorded(name: str, sar: Crew,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    planner = FACTORIES[name](sar)
    monkeypatch.setattr(planner, "_prepare", lambda request: None)
    monkeypatch.setattr(planner, "_propose", lambda request: Proposal(
        "no plan here", planning_s=1.25, note="why"))
    out = planner.plan(ask(sar))
    assert (out.planning_s, out.note, out.raw) == (1.25, "why", "no plan here")
    assert isinstance(out.plan, ParseFailure)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_a_backends_exception_becomes_its_planner_error(name: str, sar: Crew,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    planner = FACTORIES[name](sar)
    boom = RuntimeError("boom")

    def fail(request: PlanningRequest) -> Proposal:
        raise boom

    monkeypatch.setattr(planner, "_prepare", lambda request: None)
    monkeypatch.setattr(planner, "_propose", fail)
    with pytest.raises(PlannerError) as caught:
        planner.plan(ask(sar))
    assert str(caught.value) == _translation(planner, boom)
    assert caught.value.__cause__ is boom


@pytest.mark.parametrize("error", [PlannerError("no answer"), UserError("bad setting")],
                         ids=["PlannerError", "UserError"])
@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_crewgate_errors_pass_unchanged(name: str, error: Exception, sar: Crew,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    planner = FACTORIES[name](sar)

    def fail(request: PlanningRequest) -> Proposal:
        raise error

    monkeypatch.setattr(planner, "_prepare", fail)
    with pytest.raises(type(error)) as caught:
        planner.plan(ask(sar))
    assert caught.value is error


def test_the_exemplar_planners_own_failures_are_translated(sar: Crew,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Without patching the hook: a failure inside the backend's real call."""
    planner = ExemplarPlanner(sar, LexicalEncoder())

    def broken(text: str, candidates: object) -> list[float]:
        raise ValueError("the encoder broke")

    monkeypatch.setattr(planner.encoder, "similarity", broken)
    with pytest.raises(PlannerError) as caught:
        planner.plan(ask(sar))
    assert str(caught.value) == "the exemplar planner failed: ValueError: the encoder broke"


def test_the_scripted_planner_runs_dry_with_a_planner_error(sar: Crew) -> None:
    planner = ScriptedPlanner([GOOD], repeat_last=False)
    assert isinstance(planner.plan(ask(sar)).plan, Plan)
    with pytest.raises(PlannerError) as caught:
        planner.plan(ask(sar))
    assert str(caught.value) == "the scripted planner has no more outputs"


@pytest.mark.parametrize(("counts", "kept"), [
    ({"input_tokens": 5, "output_tokens": 7}, {"input_tokens": 5, "output_tokens": 7,
                                               "total_tokens": 12}),
    ({"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 20},
     {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 20}),
    ({"input_tokens": 5, "output_tokens": None}, {"input_tokens": 5}),
    ({"prompt_tokens": None, "completion_tokens": None, "total_tokens": None}, {}),
    ({}, {}),
])
def test_token_counts_keep_what_is_known(counts: dict[str, int | None],
                                         kept: dict[str, int]) -> None:
    assert token_counts(counts) == kept


def test_a_planner_made_in_code_is_not_built_from_options(sar: Crew) -> None:
    class Fixed(Planner):
        name = "fixed"

        def _propose(self, request: PlanningRequest) -> Proposal:
            return Proposal("{}")

    with pytest.raises(NotImplementedError):
        Fixed.build(sar)
    assert Fixed().plan(ask(sar)).raw == "{}"
