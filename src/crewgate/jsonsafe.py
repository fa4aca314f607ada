"""JSON crewgate did not make: read as hostile, non-finite floats carried through it, and
untrusted values quoted in messages.

:func:`loads` reads JSON from outside the process (a replay file, a ROS 2 topic, an
evaluation's files, the response cache): every failure is a ``ValueError`` naming it, including
what the standard decoder lets through or raises otherwise: NaN and Infinity literals and
numbers too large for a float (non-finite numbers are errors everywhere), and nesting deep
enough to exhaust the decoder's recursion.

JSON has no literal for NaN or infinity, and a NaN fix must survive the trip to be refused:
non-finite floats travel as the strings "nan", "inf", "-inf" (the journal, the ROS 2 protocol).
A value from a plan is quoted in verdict details by :func:`quoted`: bounded, never a huge or
deeply nested repr."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

NONFINITE = ("nan", "inf", "-inf")
MAX_DEPTH = 32  # nesting decode_nonfinite reads (a protocol message nests a few levels)


def loads(text: str | bytes) -> Any:
    """The JSON value of ``text``; a ValueError for anything else (see the module's doc)."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite,
                          parse_int=read_int)
    except RecursionError:  # the C decoder stops cleanly at the interpreter's recursion limit
        raise ValueError("the JSON nests too deep to be read") from None


def read_int(digits: str) -> int:
    """An integer of JSON text; a ValueError that says so for one too long for the interpreter
    to read (its own error names a setting of the interpreter, no fix for the file)."""
    if len(digits) > sys.get_int_max_str_digits() > 0:
        raise ValueError(f"an integer of {len(digits):,} digits is too long to read (a number "
                         "crewgate reads has a few digits)")
    return int(digits)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number crewgate reads (non-finite numbers are errors)")


def _finite(digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):  # "1e400"
        raise ValueError(f"{digits} is not a number crewgate reads (non-finite numbers are "
                         "errors)")
    return value


def encode_nonfinite(value: Any) -> Any:
    """``value`` with every non-finite float written as its string; tuples become lists."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(k): encode_nonfinite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode_nonfinite(v) for v in value]
    return value


def decode_nonfinite(value: Any, depth: int = 0) -> Any:
    """The inverse of :func:`encode_nonfinite` on decoded JSON; a ValueError for a value nested
    deeper than ``MAX_DEPTH`` (so that its recursion stays shallow)."""
    if isinstance(value, str) and value in NONFINITE:
        return float(value)
    if isinstance(value, dict | list) and depth >= MAX_DEPTH:
        raise ValueError(f"the JSON nests deeper than {MAX_DEPTH} levels")
    if isinstance(value, dict):
        return {k: decode_nonfinite(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_nonfinite(v, depth + 1) for v in value]
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
