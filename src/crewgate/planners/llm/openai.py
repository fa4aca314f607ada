"""The ``openai`` planner: any OpenAI-compatible chat completions endpoint (OpenAI, vLLM, Ollama,
LM Studio, llama.cpp server) through the official ``openai`` client.

Output mode ladder: the planner first asks for structured output (``response_format`` of type
``json_schema`` with the plan schema, not strict). A server that rejects it (an HTTP 400/422, or
the 500 of llama-cpp-python's server, about the response format) is asked again at once in JSON
mode with the schema attached (``{"type": "json_object", "schema": ...}``, the llama.cpp servers'
grammar-constrained form, with the schema spelled for grammar converters), then in plain JSON
mode, then in plain text; the mode that worked is kept for the rest of the planner's life. With
``free_form`` the planner only ever asks for plain text (the study's unconstrained JSON).

The planner proposes; it never actuates. Whatever it answers is parsed tolerantly and checked by
the gate: an empty or malformed answer is a ``ParseFailure`` (the verdict ``malformed_plan``), not
an error. Failures to get an answer at all (unreachable server, timeout, HTTP errors, a refusal)
raise ``PlannerError``; client retries are off, the orchestrator decides what happens next.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar, Literal, Self, Unpack

import openai
from pydantic import Field

from crewgate.errors import PlannerError
from crewgate.plan import ParseFailure, Plan, parse_plan
from crewgate.planners.base import PlanningRequest, Proposal
from crewgate.planners.llm.common import PLAN_TOOL, conversation, server_message, truncated
from crewgate.planners.llm.hosted import (
    HostedOptions,
    HostedPlanner,
    HostedSettings,
    hosted_settings,
    key_env_field,
)
from crewgate.render.plan_schema import grammar_schema
from crewgate.spec import Crew

Mode = Literal["json_schema", "json_object_schema", "json_object", "text"]
LADDER: tuple[Mode, ...] = ("json_schema", "json_object_schema", "json_object", "text")
DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
SCHEMA_NAME = "crewgate_plan"
_FORMAT_WORDS = ("response_format", "response format", "json_schema", "json_object",
                 "not supported", "unsupported")


class OpenAIOptions(HostedOptions):
    base_url: str | None = Field(None, description="The endpoint, up to and including /v1 "
                                 "(default: $OPENAI_BASE_URL, else https://api.openai.com/v1).")
    api_key_env: str | None = key_env_field(DEFAULT_KEY_ENV)
    temperature: float | None = Field(0.0, ge=0, description="Sampling temperature, sent as "
                                      "is.")


class OpenAIPlanner(HostedPlanner):
    """Any OpenAI-compatible chat completions endpoint (OpenAI, vLLM, Ollama, LM Studio, the
    llama.cpp servers), asked for structured output first.

    ``mode`` is the rung of the output-mode ladder in use (see the module).
    """

    name = "openai"
    Options = OpenAIOptions
    vendor = "OpenAI"
    sdk: ClassVar[ModuleType] = openai
    base_url_env = "OPENAI_BASE_URL"
    default_base_url = DEFAULT_BASE_URL
    default_key_env = DEFAULT_KEY_ENV
    usage_fields = ("prompt_tokens", "completion_tokens", "total_tokens")

    def __init__(self, model: str, *, temperature: float | None = 0.0,
                 **settings: Unpack[HostedSettings]) -> None:
        super().__init__(model, **settings)
        self.temperature = temperature
        self.mode: Mode = "text" if self.free_form else "json_schema"  # the ladder's rung

    @classmethod
    def from_options(cls, crew: Crew, options: OpenAIOptions) -> Self:
        return cls(options.model, temperature=options.temperature, **hosted_settings(options))

    def _connect(self, api_key: str, max_retries: int) -> openai.OpenAI:
        return openai.OpenAI(api_key=api_key, base_url=self.base_url, timeout=self.timeout_s,
                             max_retries=max_retries)

    def _propose(self, request: PlanningRequest) -> Proposal:
        messages = self.messages(request)
        while True:
            try:
                response = self.client.chat.completions.create(
                    **self._params(request, messages))
            except (openai.BadRequestError, openai.UnprocessableEntityError,
                    openai.InternalServerError) as exc:
                if self.mode != "text" and _rejects_format(exc):
                    self.mode = LADDER[LADDER.index(self.mode) + 1]
                    continue
                raise
            raw, plan = self._read(response)
            return Proposal(raw, plan, self.usage(response))

    def api_params(self, request: PlanningRequest) -> dict[str, Any]:
        return self._params(request, self.messages(request))

    def messages(self, request: PlanningRequest) -> list[dict[str, str]]:
        """The chat messages for a request: system context, request, and on a replan the
        previous answer and the gate's feedback."""
        out = [{"role": "system", "content": request.context}] if request.context else []
        out.extend({"role": t.role, "content": t.text} for t in conversation(request))
        return out

    def _params(self, request: PlanningRequest, messages: list[dict[str, str]]
                ) -> dict[str, Any]:
        params: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if self.max_tokens is not None:
            params["max_tokens"] = self.max_tokens
        if self.mode == "json_schema":
            params["response_format"] = {"type": "json_schema", "json_schema": {
                "name": SCHEMA_NAME, "schema": dict(request.plan_schema), "strict": False}}
        elif self.mode == "json_object_schema":
            params["response_format"] = {"type": "json_object",
                                         "schema": grammar_schema(request.plan_schema)}
        elif self.mode == "json_object":
            params["response_format"] = {"type": "json_object"}
        return params

    def _read(self, response: Any) -> tuple[str, Plan | ParseFailure]:
        """The raw answer (the message text, or JSON a server put in a tool call) and its plan."""
        choices = getattr(response, "choices", None) or []
        if not choices:
            return "", parse_plan("")
        choice = choices[0]
        message = getattr(choice, "message", None)
        refusal = getattr(message, "refusal", None)
        finish = getattr(choice, "finish_reason", None)
        if refusal:
            raise PlannerError(f"the model {self.model!r} refused to plan: {refusal}")
        if finish == "content_filter":
            raise PlannerError(f"{self.base_url} withheld the answer of {self.model!r} "
                               "(finish_reason content_filter)")
        raw = getattr(message, "content", None) or ""
        if not raw.strip():
            raw = _tool_arguments(getattr(message, "tool_calls", None)) or raw
        if finish == "length":
            return raw, truncated(raw, "finish_reason length")
        return raw, parse_plan(raw)


def _rejects_format(exc: openai.APIStatusError) -> bool:
    """True when an HTTP 400/422 (or llama-cpp-python's 500 for a request it cannot validate)
    is about the requested response format (a rejection that names another parameter is not)."""
    param = exc.body.get("param") if isinstance(exc.body, dict) else None
    if isinstance(param, str) and param:
        return "response_format" in param
    text = f"{server_message(exc.body)} {exc.message}".lower()
    return any(word in text for word in _FORMAT_WORDS)


def _tool_arguments(tool_calls: Any) -> str:
    """The arguments of the first function tool call (the plan tool's, when there is one)."""
    calls = [c for c in tool_calls or [] if getattr(c, "function", None) is not None]
    calls.sort(key=lambda c: getattr(c.function, "name", "") != PLAN_TOOL)
    for call in calls:
        arguments = getattr(call.function, "arguments", None)
        if isinstance(arguments, str) and arguments.strip():
            return arguments
    return ""
