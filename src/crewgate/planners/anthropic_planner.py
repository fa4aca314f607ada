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
import os
import time
from typing import TYPE_CHECKING, Any

import anthropic

from crewgate.errors import PlannerError, UserError
from crewgate.plan import ParseFailure, Plan, parse_plan
from crewgate.planners.base import PlannerOutput, PlanningRequest
from crewgate.planners.llm_common import (
    PLAN_TOOL,
    PLAN_TOOL_DESCRIPTION,
    conversation,
    require_model,
    resolve_api_key,
    tool_schema,
    translate_sdk_error,
    truncated,
    usage_dict,
)
from crewgate.spec import Crew

if TYPE_CHECKING:
    from crewgate.planners.registry import PlannerOptions

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"
DEFAULT_MAX_TOKENS = 1024


class AnthropicPlanner:
    """A Mission Planner on the Anthropic Messages API.

    ``base_url`` defaults to ``$ANTHROPIC_BASE_URL`` or the Anthropic API. The key is read from
    ``api_key_env`` (default ``ANTHROPIC_API_KEY``); a server on this machine (127.0.0.1, ::1,
    localhost) gets a placeholder when the variable is unset, any other server needs it.
    """

    name = "anthropic"

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 api_key_env: str = DEFAULT_KEY_ENV, timeout_s: float = 60.0,
                 free_form: bool = False, max_tokens: int = DEFAULT_MAX_TOKENS,
                 max_retries: int = 0) -> None:
        self.model = require_model(model, self.name)
        if not timeout_s > 0:
            raise UserError(f"the timeout must be a positive number of seconds, got {timeout_s}")
        if max_tokens < 1:
            raise UserError(f"max_tokens must be at least 1, got {max_tokens}")
        self.base_url = (base_url or os.environ.get("ANTHROPIC_BASE_URL")
                         or DEFAULT_BASE_URL).rstrip("/")
        self.api_key_env = api_key_env
        key = api_key or resolve_api_key(api_key_env, self.base_url)
        self.timeout_s = float(timeout_s)
        self.free_form = free_form
        self.max_tokens = max_tokens
        # An explicit key: the client then reads no credential variables or profiles.
        self.client = anthropic.Anthropic(api_key=key, base_url=self.base_url,
                                          timeout=self.timeout_s, max_retries=max_retries)

    @classmethod
    def from_options(cls, crew: Crew, options: PlannerOptions) -> AnthropicPlanner:
        return cls(require_model(options.model, cls.name), base_url=options.base_url,
                   api_key_env=options.api_key_env or DEFAULT_KEY_ENV,
                   timeout_s=options.timeout_s, free_form=options.free_form)

    def plan(self, request: PlanningRequest) -> PlannerOutput:
        params = self.params(request)
        start = time.perf_counter()
        try:
            response = self.client.messages.create(**params)
        except (anthropic.AnthropicError, ValueError) as exc:
            raise self._translate(exc) from exc
        spent = time.perf_counter() - start
        raw, plan = self._read(response)
        usage = getattr(response, "usage", None)
        tokens_in = getattr(usage, "input_tokens", None)
        tokens_out = getattr(usage, "output_tokens", None)
        total = tokens_in + tokens_out if isinstance(tokens_in, int) and isinstance(
            tokens_out, int) else None
        counts = usage_dict(input_tokens=tokens_in, output_tokens=tokens_out, total_tokens=total)
        return PlannerOutput(raw=raw, plan=plan, planning_s=spent, usage=counts)

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

    def close(self) -> None:
        """Close the client's connections (the planner cannot be used afterwards)."""
        self.client.close()

    def _translate(self, exc: Exception) -> PlannerError:
        """A client exception as a PlannerError (translated once, here)."""
        return translate_sdk_error(anthropic, exc, vendor="Anthropic", base_url=self.base_url,
                                   timeout_s=self.timeout_s, model=self.model,
                                   api_key_env=self.api_key_env)
