"""`crewgate planners`, and the planner options `plan`, `run` and `eval` share (one definition):
`--planner`, the shorthands, `-o KEY=VALUE`; run in process with typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from crewgate.cli import evaluate, plan, plugins, run  # noqa: F401 (registers the commands)
from crewgate.cli.app import app
from tests.cli.support import EXAMPLE_PLAN, ROOT, SAR_REQUEST

G1_SEED1 = ROOT / "tests" / "corpus" / "study" / "g1_go2" / "recorded_plans_4arm_seed1.jsonl"
OPTIONS = {
    "anthropic": ["model", "base_url", "api_key_env", "timeout", "free_form", "max_tokens"],
    "exemplar": ["encoder", "threshold"],
    "llamacpp": ["model", "chat_format", "n_ctx", "n_threads", "temperature", "seed",
                 "free_form", "max_tokens"],
    "openai": ["model", "base_url", "api_key_env", "timeout", "free_form", "max_tokens",
               "temperature"],
    "replay": ["plans"],
    "scripted": ["plan"],
}
EXEMPLAR_TAKES = "encoder, threshold"


def crewgate(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


# -- crewgate planners ---------------------------------------------------------------------------


def test_planners_json_lists_every_built_in_backend_with_its_options() -> None:
    result = crewgate("planners", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {p["name"]: [o["name"] for o in p["options"]] for p in data} == OPTIONS
    assert [p["error"] for p in data] == [None] * len(OPTIONS)
    openai = next(p for p in data if p["name"] == "openai")
    assert openai["target"] == "crewgate.planners.llm.openai:OpenAIPlanner"
    assert openai["options"][0] == {"name": "model", "type": "str", "default": None,
                                    "required": True,
                                    "description": "The model name the server knows."}
    assert openai["options"][3] == {"name": "timeout", "type": "float > 0", "default": 60.0,
                                    "required": False,
                                    "description": "Seconds to wait for the answer."}


def test_planners_reads_well() -> None:
    result = crewgate("planners")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    heads = [line.split()[:2] for line in lines if line and not line.startswith(" ")]
    assert heads == [["anthropic", "crewgate.planners.llm.anthropic:AnthropicPlanner"],
                     ["exemplar", "crewgate.planners.exemplar:ExemplarPlanner"],
                     ["llamacpp", "crewgate.planners.llm.llamacpp:LlamaCppPlanner"],
                     ["openai", "crewgate.planners.llm.openai:OpenAIPlanner"],
                     ["replay", "crewgate.planners.replay:ReplayPlanner"],
                     ["scripted", "crewgate.planners.scripted:ScriptedPlanner"]]
    rows = [line.split()[:4] for line in lines if line.startswith("  model (--model)")]
    assert rows == [["model", "(--model)", "str", "required"],
                    ["model", "(--model)", "path", "-"],
                    ["model", "(--model)", "str", "required"]]
    assert "  encoder    auto|minilm|lexical  auto " in result.stdout


# -- the shared planner options ------------------------------------------------------------------


@pytest.mark.parametrize("command", [["plan", "sar", SAR_REQUEST], ["run", "sar", SAR_REQUEST],
                                     ["eval", "sar", "--no-plots"]],
                         ids=["plan", "run", "eval"])
def test_a_shorthand_the_backend_does_not_take_exits_2(command: list[str]) -> None:
    result = crewgate(*command, "--model", "qwen2.5")
    assert result.exit_code == 2
    assert result.stderr == (f"error: planner exemplar takes no option 'model'; it takes: "
                             f"{EXEMPLAR_TAKES}\n")
    assert result.stdout == ""


def test_an_option_is_typed_and_named_by_the_backend() -> None:
    typo = crewgate("plan", "sar", SAR_REQUEST, "-o", "treshold=0.2")
    assert (typo.exit_code, typo.stderr) == (2, "error: planner exemplar takes no option "
                                                "'treshold' (did you mean 'threshold'?); it "
                                                f"takes: {EXEMPLAR_TAKES}\n")
    bad = crewgate("plan", "sar", SAR_REQUEST, "--option", "encoder=bert")
    assert (bad.exit_code, bad.stderr) == (2, "error: planner exemplar: option 'encoder': input "
                                              "should be 'auto', 'minilm' or 'lexical', got "
                                              "'bert'\n")
    shape = crewgate("plan", "sar", SAR_REQUEST, "-o", "encoder")
    assert (shape.exit_code, shape.stderr) == (2, "error: -o takes KEY=VALUE (a planner option "
                                                  "and its value), got 'encoder'\n")
    twice = crewgate("plan", "sar", SAR_REQUEST, "--planner", "openai", "--model", "a",
                     "-o", "model=b")
    assert (twice.exit_code, twice.stderr) == (2, "error: planner option 'model' is given "
                                                  "twice: 'a' and 'b'\n")


def test_an_unknown_planner_exits_2_with_did_you_mean() -> None:
    result = crewgate("plan", "sar", SAR_REQUEST, "--planner", "exemplr")
    assert result.exit_code == 2
    assert result.stderr == ("error: unknown planner 'exemplr' (did you mean 'exemplar'?); or "
                             "install a plugin that registers it in the crewgate.planners "
                             "entry-point group\n")


def test_backend_options_reach_the_backend() -> None:
    result = crewgate("plan", "sar", SAR_REQUEST, "-o", "encoder=lexical", "-o",
                      "threshold=5", "--json")
    assert result.exit_code == 1, result.output  # nothing scores 5: no workflow fits
    data = json.loads(result.stdout)
    assert data["planner"] == "exemplar"
    assert data["plan"] == {"workflow": None, "steps": []}
    assert data["note"] == ("no workflow of crew 'sar' fits the request: the closest is "
                            "'search_and_dispatch' (score 0.49 < 5.00, lexical encoder)")


def test_a_file_shorthand_implies_its_planner() -> None:
    scripted = crewgate("plan", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN, "--json")
    assert scripted.exit_code == 0, scripted.output
    data = json.loads(scripted.stdout)
    assert (data["planner"], data["plan"]) == ("scripted", json.loads(EXAMPLE_PLAN.read_text()))
    replay = crewgate("plan", "g1_go2", "go to the loading dock", "--plans", G1_SEED1, "--json")
    assert replay.exit_code == 1, replay.output
    data = json.loads(replay.stdout)
    assert (data["planner"], data["verdict"]["codes"]) == ("replay", ["substituted_value"])


def test_eval_gives_each_planner_the_options_it_takes(tmp_path: Path) -> None:
    both = crewgate("eval", "g1_go2", "--planner", "replay", "--planner", "exemplar",
                    "--plans", G1_SEED1, "-o", "encoder=lexical", "--conditions", "ro",
                    "--no-plots", "--json")
    assert both.exit_code == 0, both.output
    assert sorted(json.loads(both.stdout)["planners"]) == ["exemplar", "replay"]
    none = crewgate("eval", "g1_go2", "--planner", "replay", "--planner", "exemplar",
                    "--plans", G1_SEED1, "--model", "m", "--no-plots")
    assert none.exit_code == 2
    assert none.stderr == ("error: none of the planners replay, exemplar takes option 'model' "
                           "(replay takes: plans; exemplar takes: encoder, threshold)\n")
