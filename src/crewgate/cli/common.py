"""Options and helpers shared by commands."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console

out = Console(highlight=False, soft_wrap=True)

CrewArg = typer.Argument(..., metavar="CREW",
                         help="A packaged crew (see `crewgate crews`) or a crew YAML file.")
JsonOpt = typer.Option(False, "--json", help="Print machine-readable JSON only.")
JournalOpt = typer.Option(None, "--journal", envvar="CREWGATE_JOURNAL",
                          help="Journal file (default: ~/.local/state/crewgate/journal.sqlite3).")
FaultOpt = typer.Option([], "--fault", help="Inject a fault (repeatable): robot_unavailable:ROBOT"
                        "[@SKILL], nan_fix, missed_detection, stale_fix, fix_offset:X,Y, "
                        "skill_failure:ROBOT.SKILL, adapter_timeout:ROBOT.SKILL.")
WorldOpt = typer.Option(None, "--world", help="Simulator world (default: the crew's default).")
SeedOpt = typer.Option(0, "--seed", help="Simulator seed (noise, detection).")


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, allow_nan=False))

# -- planner options shared by `plan`, `run` (and `eval`) --------------------------------------
PlannerOpt = typer.Option(None, "--planner", help="Planner backend: exemplar (the offline "
                          "default), openai, anthropic, llamacpp, scripted, replay, or a plugin.")
PlanFileOpt = typer.Option(None, "--plan", help="Use this plan (JSON or raw model text) as the "
                           "planner's output (implies --planner scripted).")
PlansOpt = typer.Option(None, "--plans", help="Recorded outputs for --planner replay "
                        "(JSON Lines: scenario, condition, attempt, output).")
ModelOpt = typer.Option(None, "--model", help="Model name (openai, anthropic) or GGUF path "
                        "(llamacpp).")
BaseUrlOpt = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint, e.g. "
                          "http://127.0.0.1:8080/v1.")
ApiKeyEnvOpt = typer.Option(None, "--api-key-env", help="Environment variable holding the API "
                            "key (default OPENAI_API_KEY / ANTHROPIC_API_KEY).")
TimeoutOpt = typer.Option(60.0, "--timeout", help="Seconds to wait for the planner's answer.")
TemperatureOpt = typer.Option(0.0, "--temperature", help="Sampling temperature (openai, "
                              "llamacpp; the anthropic API takes none).")
FreeFormOpt = typer.Option(False, "--free-form", help="Switch structured output off (the "
                           "study's unconstrained JSON).")
ConditionOpt = typer.Option(None, "--condition", help="What the planner is told and whether the "
                            "gate enforces: llm-only, skill-list, ro-prompt, ro.")
