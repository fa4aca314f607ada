"""Every number of a crew spec is finite: this module finds those that are not, wherever they sit.

A spec can only narrow the gate, and a number that is not finite widens it: a NaN bound compares
false with every value, so ``value < min`` never refuses (``min: .nan`` drops the bound); an
infinite area, age or timeout is no limit at all; an integer beyond any float crashes the
comparison that should refuse. The spec's base model runs :func:`non_finite_numbers` over the
data of every spec it builds (sections, conditions, effects and fallback arguments included), so
no model can hold one. Values found: floats that are NaN or infinite (YAML ``.nan``, ``.inf``,
``-.inf``), integers too large for a float, and strings written as a number that reads as one of
those (``1e400``, which YAML 1.1 leaves a string and JSON reads as a number).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

# where a value sits in a spec's data: ("robots", "iris", "skills", "takeoff", "duration_s")
Path = tuple[str | int, ...]

# the characters of a number literal as YAML 1.2 and JSON write one ("1e400"; a string only to
# PyYAML's YAML 1.1); words such as "inf" are not numbers here
_LITERAL = frozenset("0123456789+-.eE")


def not_finite(value: object) -> str | None:
    """How a value that is not a finite number is shown ("`.nan`", "`1e400`"), or None for any
    other value (a finite number, a word, a structure)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        if math.isfinite(value):
            return None
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    if isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            try:
                digits = str(len(str(abs(value))))
            except ValueError:  # beyond the interpreter's limit on integer text
                digits = "thousands of"
            return f"an integer of {digits} digits"
        return None
    text = value.strip() if isinstance(value, str) else ""
    if text and len(text) <= 1000 and _LITERAL.issuperset(text):
        try:
            number = float(text)
        except ValueError:
            return None  # "1-2", "e", "..." are no numbers
        return None if math.isfinite(number) else text
    return None


def non_finite_message(shown: str) -> str:
    """What the loader says of a value that is not a finite number, and how to fix it."""
    return (f"{shown} is not a finite number; a crew spec holds finite numbers only (write a "
            "finite value, or leave an optional limit out)")


def non_finite_numbers(data: object) -> Iterator[tuple[Path, str]]:
    """(path, shown) of every value in plain data (mappings, lists, scalars) that is not a
    finite number. Iterative: data nested however deep is walked without recursion."""
    stack: list[tuple[Path, object]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend(((*path, k if isinstance(k, str | int) else str(k)), v)
                         for k, v in reversed(value.items()))
        elif isinstance(value, list | tuple):
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(value))))
        else:
            shown = not_finite(value)
            if shown is not None:
                yield path, shown
