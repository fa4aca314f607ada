"""What an evaluation's planner calls cost: the tokens of every answer, summed from the records
(each answer's ``usage`` as its server reported it: OpenAI's ``prompt_tokens`` and
``completion_tokens``, Anthropic's ``input_tokens`` and ``output_tokens``), the answers taken
from the response cache and the retries (the record's ``calls``), and their price."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crewgate.eval.prices import PriceTable
from crewgate.eval.records import Record

TOKEN_FIELDS = {"input": ("prompt_tokens", "input_tokens"),
                "output": ("completion_tokens", "output_tokens")}


def _usage(usage: Any) -> tuple[int, int, int] | None:
    """(input, output, total) tokens of one answer, None when the planner reported none."""
    if not isinstance(usage, dict):
        return None
    found = {part: next((int(usage[f]) for f in names if type(usage.get(f)) is int), None)
             for part, names in TOKEN_FIELDS.items()}
    if found["input"] is None and found["output"] is None:
        return None
    given, got = found["input"] or 0, found["output"] or 0
    total = usage.get("total_tokens")
    return given, got, int(total) if type(total) is int else given + got


def tokens(recs: Sequence[Record]) -> dict[str, int]:
    """Token usage of every answer the missions were given, and what the calls took."""
    sums = {"answers": 0, "input": 0, "output": 0, "total": 0, "unreported": 0, "cached": 0,
            "retries": 0}
    for r in recs:
        for attempt in r.get("attempts") or []:
            sums["answers"] += 1
            used = _usage(attempt.get("usage"))
            if used is None:
                sums["unreported"] += 1
                continue
            sums["input"] += used[0]
            sums["output"] += used[1]
            sums["total"] += used[2]
        calls = r.get("calls") or {}
        sums["cached"] += int(calls.get("cached", 0))
        sums["retries"] += int(calls.get("retries", 0))
    return sums


def cost(recs: Sequence[Record], prices: PriceTable) -> dict[str, Any] | None:
    """The tokens priced by model; None when a mission's model has no price."""
    spent = {"input": 0.0, "output": 0.0, "total": 0.0}
    for r in recs:
        price = prices.price_of(str(r.get("planner")), r.get("model"))
        used = [u for a in r.get("attempts") or [] if (u := _usage(a.get("usage")))]
        if not used:
            continue
        if price is None:
            return None
        mission = prices.cost(price, sum(u[0] for u in used), sum(u[1] for u in used))
        for part in spent:
            spent[part] += float(mission[part])
    return {"currency": prices.currency, **{k: round(v, 6) for k, v in spent.items()}}
