"""JSON values crewgate did not make: non-finite floats carried through JSON, and untrusted
values quoted in messages.

JSON has no literal for NaN or infinity, and a NaN fix must survive the trip to be refused:
non-finite floats travel as the strings "nan", "inf", "-inf" (the journal, the ROS 2 protocol).
A value from a plan is quoted in verdict details by :func:`quoted`: bounded, never a huge or
deeply nested repr."""

from __future__ import annotations

import math
from typing import Any

NONFINITE = ("nan", "inf", "-inf")


def encode_nonfinite(value: Any) -> Any:
    """``value`` with every non-finite float written as its string; tuples become lists."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(k): encode_nonfinite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode_nonfinite(v) for v in value]
    return value


def decode_nonfinite(value: Any) -> Any:
    """The inverse of :func:`encode_nonfinite` on decoded JSON."""
    if isinstance(value, str) and value in NONFINITE:
        return float(value)
    if isinstance(value, dict):
        return {k: decode_nonfinite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_nonfinite(v) for v in value]
    return value


def quoted(raw: Any) -> str:
    """A refused plan value as details quote it: bounded, never a huge or deeply nested repr."""
    if isinstance(raw, str):
        return repr(raw if len(raw) <= 40 else raw[:40] + "...")
    if isinstance(raw, bool | float) or raw is None:
        return repr(raw)
    if isinstance(raw, int):
        small = raw.bit_length() <= 64
        return repr(raw) if small else "an integer too large to be a number"
    if isinstance(raw, list | tuple) and len(raw) <= 8 and all(
            isinstance(v, bool | int | float | str) or v is None for v in raw):
        return "[" + ", ".join(quoted(v) for v in raw) + "]"
    return f"a JSON {_JSON_NAMES.get(type(raw), type(raw).__name__)}"


_JSON_NAMES: dict[type, str] = {dict: "object", list: "array", tuple: "array"}
