"""How many times a workflow step may occur: ``1``, ``0..1``, ``1..*``, ``2..3``."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import PlainSerializer, PlainValidator, WithJsonSchema

_CARD_RE = re.compile(r"^\s*(\d+)\s*(?:\.\.\s*(\d+|\*)\s*)?$")


class Cardinality(tuple[int, int | None]):
    """How many times a step may occur: ``1``, ``0..1``, ``1..*``, ``2..3``. None = unbounded."""

    __slots__ = ()

    @property
    def low(self) -> int:
        return self[0]

    @property
    def high(self) -> int | None:
        return self[1]

    def __str__(self) -> str:
        low, high = self
        if high == low:
            return str(low)
        return f"{low}..{'*' if high is None else high}"

    def describe(self) -> str:
        low, high = self
        if high == low:
            return "exactly once" if low == 1 else f"exactly {low} times"
        if high is None:
            return "any number of times" if low == 0 else f"at least {low} times"
        if low == 0:
            return "at most once" if high == 1 else f"at most {high} times"
        return f"{low} to {high} times"


def parse_cardinality(value: object) -> Cardinality:
    if isinstance(value, Cardinality):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return Cardinality((value, value))
    match = _CARD_RE.match(str(value)) if isinstance(value, str) else None
    if not match:
        raise ValueError(f"cannot read count {value!r}; write 1, 0..1, 1..* or 2..3")
    low = int(match[1])
    if match[2] is None:
        return Cardinality((low, low))
    high = None if match[2] == "*" else int(match[2])
    if high is not None and high < low:
        raise ValueError(f"count {value!r} has its upper bound below its lower bound")
    return Cardinality((low, high))


CardinalityField = Annotated[
    Cardinality,
    PlainValidator(parse_cardinality),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": ["string", "integer"], "description": "1, 0..1, 1..* or 2..3"}),
]
