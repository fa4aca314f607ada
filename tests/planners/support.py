"""What the tests of the hosted chat-API backends (openai, anthropic) share: the request, the
plans, each backend described once (its planner, its fake server, its key variable, the usage
keys it reports), and the helpers that ask a planner or run a mission with it."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any, Generic, TypeVar, Unpack

from crewgate.api import run_mission
from crewgate.conditions import CONDITIONS
from crewgate.orchestrator import MissionResult
from crewgate.planners.base import Planner, PlanningRequest
from crewgate.planners.llm.anthropic import AnthropicPlanner
from crewgate.planners.llm.hosted import HostedPlanner, HostedSettings
from crewgate.planners.llm.openai import OpenAIPlanner
from crewgate.planners.registry import GROUP
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew
from crewgate.testing import FakeAnthropicServer, FakeOpenAIServer
from crewgate.testing.llm_servers import FakeLLMServer

ROOT = Path(__file__).parents[2]
REQUEST = "Drive the rover to position x 3.0, y -2.0."
GOOD: dict[str, Any] = {"workflow": "dispatch_only", "steps": [
    {"robot": "tb3", "skill": "navigate_to", "args": {"x": 3.0, "y": -2.0}}]}
OUT_OF_BOUNDS: dict[str, Any] = {"workflow": "dispatch_only", "steps": [
    {"robot": "tb3", "skill": "navigate_to", "args": {"x": 30.0, "y": -2.0}}]}
FENCED = f"Here is the plan:\n```json\n{json.dumps(GOOD)}\n```\nDone."
STRUCTURED = ("response_format", "tools", "tool_choice")  # request keys of structured output


P = TypeVar("P", bound=HostedPlanner)


@dataclass(frozen=True)
class Backend(Generic[P]):
    """A hosted backend as the tests see it."""

    name: str
    planner: type[P]
    server: type[FakeLLMServer]
    model: str
    key_env: str
    usage_keys: tuple[str, str]  # what the API calls the prompt's and the answer's tokens
    suffix: str  # what the base URL adds to the server's origin

    def planner_for(self, server: FakeLLMServer, **settings: Unpack[HostedSettings]) -> P:
        """The planner on ``server`` (a 5 s timeout unless given)."""
        settings.setdefault("timeout_s", 5.0)
        settings["base_url"] = server.base_url
        return self.planner(self.model, **settings)


OPENAI = Backend("openai", OpenAIPlanner, FakeOpenAIServer, "qwen-test", "OPENAI_API_KEY",
                 ("prompt_tokens", "completion_tokens"), "/v1")
ANTHROPIC = Backend("anthropic", AnthropicPlanner, FakeAnthropicServer, "claude-test",
                    "ANTHROPIC_API_KEY", ("input_tokens", "output_tokens"), "")
AnyBackend = Backend[Any]
BACKENDS: tuple[AnyBackend, ...] = (OPENAI, ANTHROPIC)


def ask(crew: Crew, **kwargs: Any) -> PlanningRequest:
    """The request under the ``ro`` condition, as the orchestrator builds it."""
    knowledge = CONDITIONS["ro"].knowledge
    return PlanningRequest(REQUEST, crew, render_context(crew, knowledge),
                           plan_json_schema(crew, knowledge), **kwargs)


def run(planner: Planner) -> MissionResult:
    """A mission of ``sar`` on the request, journaled to memory."""
    return run_mission("sar", REQUEST, planner, journal=":memory:")


def turns(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The conversation of a request body after the system prompt (OpenAI sends it as the first
    message, Anthropic apart)."""
    return [m for m in body["messages"] if m["role"] != "system"]


def declared_entry_point(name: str) -> EntryPoint:
    """The planner entry point ``name`` as pyproject.toml declares it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return EntryPoint(name=name, value=project["project"]["entry-points"][GROUP][name],
                      group=GROUP)
