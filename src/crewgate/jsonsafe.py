"""JSON has no literal for NaN or infinity, and a NaN fix must survive the trip to be refused:
non-finite floats travel as the strings "nan", "inf", "-inf" (the journal, the ROS 2 protocol)."""

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
