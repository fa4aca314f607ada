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

import os
import time
from typing import TYPE_CHECKING, Any, Literal

import openai

from crewgate.errors import PlannerError, UserError
from crewgate.plan import ParseFailure, Plan, parse_plan
from crewgate.planners.base import PlannerOutput, PlanningRequest
from crewgate.planners.llm_common import (
    PLAN_TOOL,
    conversation,
    require_model,
    resolve_api_key,
    server_message,
    translate_sdk_error,
    truncated,
    usage_dict,
)
from crewgate.render.plan_schema import grammar_schema
from crewgate.spec import Crew

if TYPE_CHECKING:
    from crewgate.planners.registry import PlannerOptions

Mode = Literal["json_schema", "json_object_schema", "json_object", "text"]
LADDER: tuple[Mode, ...] = ("json_schema", "json_object_schema", "json_object", "text")
DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
SCHEMA_NAME = "crewgate_plan"
_FORMAT_WORDS = ("response_format", "response format", "json_schema", "json_object",
                 "not supported", "unsupported")


class OpenAIPlanner:
    """A Mission Planner on an OpenAI-compatible chat completions API.

    ``base_url`` defaults to ``$OPENAI_BASE_URL`` or the OpenAI API. The key is read from
    ``api_key_env`` (default ``OPENAI_API_KEY``); a server on this machine (127.0.0.1, ::1,
    localhost) gets a placeholder when the variable is unset, any other server needs it.
    """

    name = "openai"

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 api_key_env: str = DEFAULT_KEY_ENV, timeout_s: float = 60.0,
                 temperature: float | None = 0.0, free_form: bool = False,
                 max_retries: int = 0, max_tokens: int | None = None) -> None:
        self.model = require_model(model, self.name)
        if not timeout_s > 0:
            raise UserError(f"the timeout must be a positive number of seconds, got {timeout_s}")
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL")
                         or DEFAULT_BASE_URL).rstrip("/")
        self.api_key_env = api_key_env
        key = api_key or resolve_api_key(api_key_env, self.base_url)
        self.timeout_s = float(timeout_s)
        self.temperature = temperature
        self.free_form = free_form
        self.max_tokens = max_tokens
        self.mode: Mode = "text" if free_form else "json_schema"  # the ladder's current rung
        self.client = openai.OpenAI(api_key=key, base_url=self.base_url, timeout=self.timeout_s,
                                    max_retries=max_retries)

    @classmethod
    def from_options(cls, crew: Crew, options: PlannerOptions) -> OpenAIPlanner:
        return cls(require_model(options.model, cls.name), base_url=options.base_url,
                   api_key_env=options.api_key_env or DEFAULT_KEY_ENV,
                   timeout_s=options.timeout_s, temperature=options.temperature,
                   free_form=options.free_form)

    def plan(self, request: PlanningRequest) -> PlannerOutput:
        messages = self.messages(request)
        spent = 0.0
        while True:
            params = self._params(request, messages)
            start = time.perf_counter()
            try:
                response = self.client.chat.completions.create(**params)
            except (openai.BadRequestError, openai.UnprocessableEntityError,
                    openai.InternalServerError) as exc:
                spent += time.perf_counter() - start
                if self.mode != "text" and _rejects_format(exc):
                    self.mode = LADDER[LADDER.index(self.mode) + 1]
                    continue
                raise self._translate(exc) from exc
            except (openai.OpenAIError, ValueError) as exc:
                raise self._translate(exc) from exc
            spent += time.perf_counter() - start
            break
        raw, plan = self._read(response)
        usage = getattr(response, "usage", None)
        counts = usage_dict(prompt_tokens=getattr(usage, "prompt_tokens", None),
                            completion_tokens=getattr(usage, "completion_tokens", None),
                            total_tokens=getattr(usage, "total_tokens", None))
        return PlannerOutput(raw=raw, plan=plan, planning_s=spent, usage=counts)

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

    def close(self) -> None:
        """Close the client's connections (the planner cannot be used afterwards)."""
        self.client.close()

    def _translate(self, exc: Exception) -> PlannerError:
        """A client exception as a PlannerError (translated once, here)."""
        return translate_sdk_error(openai, exc, vendor="OpenAI", base_url=self.base_url,
                                   timeout_s=self.timeout_s, model=self.model,
                                   api_key_env=self.api_key_env)


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
