"""A price table (``--prices FILE``): what a model's tokens cost, to turn the evaluation's token
counts into money.

Bounds, stated once: the file is YAML (or JSON) of at most 1 MB with at most 1,000 models;
every price is a finite number >= 0 (no NaN, no infinity, no text, no booleans); the prices are
per ``per_tokens`` tokens (default 1,000,000, the way vendors quote them)::

    currency: USD
    per_tokens: 1000000
    models:
      gpt-4o-mini: {input: 0.15, output: 0.60}
      claude-sonnet-4-5: {input: 3, output: 15}
      openai:qwen2.5: {input: 0, output: 0}   # PLANNER:MODEL wins over MODEL

A record's price is looked up as ``PLANNER:MODEL``, then ``MODEL``, then ``PLANNER``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from crewgate.errors import InputFileError
from crewgate.limits import read_text
from crewgate.yamlsafe import load_yaml, yaml_problem

MAX_PRICES_CHARS = 1_000_000
MAX_MODELS = 1_000


def _number(value: object) -> object:
    """Only real numbers are prices: a boolean or a text ("0.15") is refused, as is NaN."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{value!r} is not a number; write it without quotes, e.g. 0.15")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value!r} is not a finite number; give the price, e.g. 0.15")
    return value


Price = Annotated[float, BeforeValidator(_number), Field(ge=0)]


class ModelPrice(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    input: Price = Field(description="The price of input (prompt) tokens, per per_tokens.")
    output: Price = Field(description="The price of output (completion) tokens, per "
                          "per_tokens.")


class PriceTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    currency: str = Field("USD", min_length=1, max_length=16)
    per_tokens: Annotated[int, BeforeValidator(_number), Field(ge=1, le=10**12)] = 1_000_000
    models: dict[Annotated[str, Field(min_length=1, max_length=200)], ModelPrice] = Field(
        max_length=MAX_MODELS)

    def price_of(self, planner: str, model: str | None) -> ModelPrice | None:
        for name in ((f"{planner}:{model}", model) if model else ()) + (planner,):
            if name in self.models:
                return self.models[name]
        return None

    def cost(self, price: ModelPrice, input_tokens: int, output_tokens: int
             ) -> dict[str, Any]:
        per = float(self.per_tokens)
        spent_in, spent_out = input_tokens * price.input / per, output_tokens * price.output / per
        return {"currency": self.currency, "input": round(spent_in, 6),
                "output": round(spent_out, 6), "total": round(spent_in + spent_out, 6)}


def load_prices(path: Path) -> PriceTable:
    """The price table in ``path``; an ``InputFileError`` naming the bad value and the fix."""
    text = read_text(path, "price file", MAX_PRICES_CHARS)
    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        raise InputFileError(f"price file {str(path)!r}: {yaml_problem(exc)}") from None
    if not isinstance(data, dict):
        raise InputFileError(f"price file {str(path)!r} must be a mapping with `models:`, e.g. "
                             "models: {gpt-4o-mini: {input: 0.15, output: 0.6}}")
    try:
        return PriceTable.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors()[:10]:
            where = ".".join(str(p) for p in err["loc"]) or "(top)"
            given = repr(err.get("input"))
            given = given if len(given) <= 80 else given[:77] + "..."
            lines.append(f"  {where}: {err['msg']} (given: {given})")
        raise InputFileError(
            f"price file {str(path)!r} is not a price table:\n" + "\n".join(lines)
            + "\nwrite `models: {MODEL: {input: PRICE, output: PRICE}}` with prices per "
            "per_tokens tokens (default 1000000), numbers >= 0") from None


def check_prices(table: PriceTable, path: Path, planners: list[tuple[str, str | None]]) -> None:
    """Every planner of a model (name, model) has a price, before anything is run (a planner
    without a model, an offline one, costs nothing and needs none)."""
    for planner, model in planners:
        if model and table.price_of(planner, model) is None:
            name = model
            raise InputFileError(f"price file {str(path)!r} has no price for model {name!r} "
                                 f"(planner {planner}); add `{name}: {{input: PRICE, output: "
                                 "PRICE}` under models:")
