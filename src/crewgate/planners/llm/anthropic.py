"""The ``anthropic`` planner: Claude models through the official ``anthropic`` client.

Structured mode (the default) offers one tool, ``submit_plan``, whose input schema is the plan
schema, and forces it with ``tool_choice``; the raw output is the tool input as JSON. With
``free_form`` the model answers in plain text, parsed tolerantly. The system prompt is the
request's context; a replan adds the previous answer and the gate's feedback as turns.

The planner proposes; it never actuates. An empty or malformed answer is a ``ParseFailure`` (the
verdict ``malformed_plan``), not an error. Failures to get an answer at all (unreachable server,
timeout, HTTP errors, a refusal) raise ``PlannerError``; client retries are off.

Sampling temperature is not sent: the ``anthropic`` client 2.x has no such parameter (API
version 2026-10-21 rejects sampling parameters), so ``--temperature`` does not apply here.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any, ClassVar, Self

import anthropic
from pydantic import Field

from crewgate.errors import PlannerError
from crewgate.plan import ParseFailure, Plan, parse_plan
from crewgate.planners.base import PlanningRequest, Proposal
from crewgate.planners.llm.common import (
    PLAN_TOOL,
    PLAN_TOOL_DESCRIPTION,
    conversation,
    tool_schema,
    truncated,
)
from crewgate.planners.llm.hosted import (
    HostedOptions,
    HostedPlanner,
    hosted_settings,
    key_env_field,
)
from crewgate.spec import Crew

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"
DEFAULT_MAX_TOKENS = 1024


class AnthropicOptions(HostedOptions):
    base_url: str | None = Field(None, description="The server, without /v1 (default: "
                                 "$ANTHROPIC_BASE_URL, else https://api.anthropic.com).")
    api_key_env: str | None = key_env_field(DEFAULT_KEY_ENV)
    max_tokens: int | None = Field(DEFAULT_MAX_TOKENS, ge=1, description="The longest answer "
                                   "in tokens (the API requires a limit).")


class AnthropicPlanner(HostedPlanner):
    """Claude models on the Anthropic Messages API, the plan submitted through a forced tool
    call."""

    name = "anthropic"
    Options = AnthropicOptions
    vendor = "Anthropic"
    sdk: ClassVar[ModuleType] = anthropic
    base_url_env = "ANTHROPIC_BASE_URL"
    default_base_url = DEFAULT_BASE_URL
    default_key_env = DEFAULT_KEY_ENV
    default_max_tokens = DEFAULT_MAX_TOKENS
    usage_fields = ("input_tokens", "output_tokens")

    @classmethod
    def from_options(cls, crew: Crew, options: AnthropicOptions) -> Self:
        return cls(options.model, **hosted_settings(options))

    def _connect(self, api_key: str, max_retries: int) -> anthropic.Anthropic:
        return anthropic.Anthropic(api_key=api_key, base_url=self.base_url,
                                   timeout=self.timeout_s, max_retries=max_retries)

    def _propose(self, request: PlanningRequest) -> Proposal:
        response = self.client.messages.create(**self.params(request))
        raw, plan = self._read(response)
        return Proposal(raw, plan, self.usage(response))

    def api_params(self, request: PlanningRequest) -> dict[str, Any]:
        return self.params(request)

    def params(self, request: PlanningRequest) -> dict[str, Any]:
        """The Messages API parameters of a request."""
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": [{"role": t.role, "content": t.text} for t in conversation(request)],
        }
        if request.context:
            params["system"] = request.context
        if not self.free_form:
            params["tools"] = [{"name": PLAN_TOOL, "description": PLAN_TOOL_DESCRIPTION,
                                "input_schema": tool_schema(request.plan_schema)}]
            params["tool_choice"] = {"type": "tool", "name": PLAN_TOOL,
                                     "disable_parallel_tool_use": True}
        return params

    def _read(self, response: Any) -> tuple[str, Plan | ParseFailure]:
        """The raw answer (the plan tool's input as JSON, else the text) and its plan."""
        blocks = getattr(response, "content", None) or []
        text = "".join(str(getattr(b, "text", "")) for b in blocks
                       if getattr(b, "type", None) == "text")
        stop = getattr(response, "stop_reason", None)
        if stop == "refusal":
            said = f": {text.strip()}" if text.strip() else ""
            raise PlannerError(f"the model {self.model!r} refused to plan{said}")
        tools = [b for b in blocks if getattr(b, "type", None) == "tool_use"]
        tools.sort(key=lambda b: getattr(b, "name", "") != PLAN_TOOL)
        raw = text
        if tools:
            tool_input = getattr(tools[0], "input", None)
            raw = json.dumps(tool_input) if isinstance(tool_input, dict) else str(tool_input)
        if stop == "max_tokens":
            return raw, truncated(raw, f"stop_reason max_tokens at {self.max_tokens} tokens")
        return raw, parse_plan(raw)
