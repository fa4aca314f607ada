"""The plan JSON Schema compiled into a GBNF grammar for llama.cpp.

llama-cpp-python's converter builds the structure; numbers and integers with bounds get rules of
their own (the converter ignores ``minimum``/``maximum``): plain decimals with at most
``DECIMALS`` fraction digits, no exponent, inside the bounds. llama.cpp then checks the grammar
against the model's vocabulary, once per schema.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from crewgate.errors import PlannerError
from crewgate.planners.llm.llamacpp.loader import LlamaModel, llama_cpp_module, load_llama_cpp
from crewgate.render.plan_schema import grammar_schema

DECIMALS = 3  # fraction digits the grammar allows in a bounded number


def plan_grammar(schema: Mapping[str, Any]) -> str:
    """The GBNF grammar of the plan schema.

    llama-cpp-python's converter builds the structure; numbers and integers with bounds are then
    swapped for rules of their own (the converter ignores ``minimum``/``maximum``): plain decimals
    with at most ``DECIMALS`` fraction digits, no exponent, inside the bounds. Raises ValueError
    when the converter rejects the schema.
    """
    llama_grammar = llama_cpp_module("llama_grammar")
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


def check_grammar(llama: Any, text: str) -> None:
    """Have llama.cpp parse the grammar against the model's vocabulary; PlannerError if it does
    not (llama-cpp-python would otherwise hand a null sampler to the sampling chain)."""
    llama_cpp = load_llama_cpp()
    vocab = llama_cpp.llama_model_get_vocab(llama.model)
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, text.encode("utf-8"), b"root")
    if not sampler:
        raise PlannerError("llama.cpp rejected the grammar built from the plan schema")
    llama_cpp.llama_sampler_free(sampler)


def compiled_grammar(model: LlamaModel, schema: Mapping[str, Any]) -> Any:
    """The LlamaGrammar of ``schema`` on ``model``, built and checked by llama.cpp once per
    schema (kept on the model, shared by the planners on it)."""
    key = json.dumps(schema, sort_keys=True)
    if key not in model.grammars:
        llama = model.get()
        try:
            text = plan_grammar(schema)
        except ValueError as exc:
            raise PlannerError(str(exc)) from exc
        check_grammar(llama, text)
        llama_grammar = llama_cpp_module("llama_grammar")
        model.grammars[key] = llama_grammar.LlamaGrammar.from_string(text, verbose=False)
    return model.grammars[key]
