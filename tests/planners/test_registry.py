"""The registry and the options of each backend: planners found by name ("did you mean"), built
from option values by name, unknown options named with what the backend takes, every option
typed, defaulted and described."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

import crewgate.planners.registry as registry
from crewgate import plugins
from crewgate.errors import NotFoundError, UserError
from crewgate.planners.exemplar import ExemplarPlanner
from crewgate.planners.options import PlannerOptions, describe_options, parse_options
from crewgate.planners.registry import describe_planners, make_planner, planner_class
from crewgate.spec import Crew

BUILT_IN = ["anthropic", "exemplar", "llamacpp", "openai", "replay", "scripted"]
REPLAY = Path(__file__).parents[1] / "corpus" / "study" / "g1_go2" / \
    "recorded_plans_4arm_seed1.jsonl"


def test_an_unknown_planner_gets_did_you_mean() -> None:
    with pytest.raises(NotFoundError) as close:
        planner_class("openia")
    assert str(close.value) == ("unknown planner 'openia' (did you mean 'openai'?); or install a "
                                "plugin that registers it in the crewgate.planners entry-point "
                                "group")
    with pytest.raises(NotFoundError) as far:
        planner_class("gpt9")
    assert str(far.value) == ("unknown planner 'gpt9'; known: anthropic, exemplar, llamacpp, "
                              "openai, replay, scripted; or install a plugin that registers it "
                              "in the crewgate.planners entry-point group")


def test_an_unknown_option_gets_did_you_mean_and_the_options_taken(sar: Crew) -> None:
    with pytest.raises(UserError) as typo:
        make_planner("exemplar", sar, {"treshold": 0.2})
    assert str(typo.value) == ("planner exemplar takes no option 'treshold' (did you mean "
                               "'threshold'?); it takes: encoder, threshold")
    with pytest.raises(UserError) as other:
        make_planner("replay", sar, {"plans": str(REPLAY), "model": "m"})
    assert str(other.value) == "planner replay takes no option 'model'; it takes: plans"


def test_a_backend_without_options_says_so() -> None:
    with pytest.raises(UserError) as caught:
        parse_options("fixed", PlannerOptions, {"model": "m"})
    assert str(caught.value) == "planner fixed takes no option 'model'; it takes: none"


def test_option_names_are_written_with_dashes_or_underscores() -> None:
    class Sample(PlannerOptions):
        free_form: bool = False
        base_url: str | None = None

    assert parse_options("x", Sample, {"free-form": "true", " base_url ": "u"}) == Sample(
        free_form=True, base_url="u")


def test_text_values_are_read_as_the_options_types(sar: Crew) -> None:
    planner = make_planner("exemplar", sar, {"encoder": "lexical", "threshold": "0.5"})
    assert isinstance(planner, ExemplarPlanner)
    assert (planner.encoder.name, planner.threshold) == ("lexical", 0.5)


@pytest.mark.parametrize(("values", "message"), [
    ({"encoder": "bert"}, "planner exemplar: option 'encoder': input should be 'auto', "
                          "'minilm' or 'lexical', got 'bert'"),
    ({"threshold": "-1"}, "planner exemplar: option 'threshold': input should be greater than "
                          "or equal to 0, got '-1'"),
])
def test_a_bad_value_names_the_option_and_the_value(sar: Crew, values: dict[str, Any],
                                                    message: str) -> None:
    with pytest.raises(UserError) as caught:
        make_planner("exemplar", sar, values)
    assert str(caught.value) == message


def test_a_missing_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    point = EntryPoint(name="openai", value="crewgate_missing_sdk:Planner",
                       group=registry.GROUP)
    monkeypatch.setattr(plugins, "entry_points", lambda group: [point])
    with pytest.raises(UserError) as caught:
        planner_class("openai")
    assert str(caught.value) == ("planner 'openai' needs an optional dependency: No module named "
                                 "'crewgate_missing_sdk'; install it with pip install "
                                 '"crewgate[openai]"')


def test_an_entry_point_that_is_no_planner_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    point = EntryPoint(name="odd", value="crewgate.errors:UserError", group=registry.GROUP)
    monkeypatch.setattr(plugins, "entry_points", lambda group: [point])
    with pytest.raises(UserError) as caught:
        planner_class("odd")
    assert str(caught.value) == ("the planner entry point odd = crewgate.errors:UserError is not "
                                 "a subclass of crewgate.planners.base.Planner")
    assert [info.error for info in describe_planners()] == [str(caught.value)]


def test_every_built_in_backend_is_described() -> None:
    infos = describe_planners()
    assert [info.name for info in infos] == BUILT_IN
    assert [info.error for info in infos] == [None] * len(BUILT_IN)
    for info in infos:
        assert info.summary, info.name
        for option in info.options:
            assert option.description, f"{info.name}.{option.name}"
            assert option.description.endswith("."), f"{info.name}.{option.name}"
    exemplar = next(i for i in infos if i.name == "exemplar")
    assert [o.to_json() for o in exemplar.options] == [
        {"name": "encoder", "type": "auto|minilm|lexical", "default": "auto",
         "required": False, "description": "Sentence similarity: minilm (MiniLM embeddings, the "
         "embeddings extra), lexical (TF-IDF of stems and trigrams), or auto (minilm when "
         "installed)."},
        {"name": "threshold", "type": "float >= 0", "default": None, "required": False,
         "description": "The score below which no workflow fits the request (default: 0.30 "
         "with minilm, 0.12 with lexical)."}]


def test_option_types_read_well() -> None:
    class Sample(PlannerOptions):
        path: Path
        count: int = 3
        ratio: float | None = None

    assert [(o.name, o.type, o.default, o.required) for o in describe_options(Sample)] == [
        ("path", "path", None, True), ("count", "int", 3, False),
        ("ratio", "float", None, False)]
