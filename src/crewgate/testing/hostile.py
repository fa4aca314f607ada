"""Hostile plan texts, each with the codes of its verdict: what the gate is held to in the tests
(tests/test_hostile_input.py) and timed on in the benchmarks (benchmarks/bench_hostile.py)."""

from __future__ import annotations

import json
from typing import Any

from crewgate.limits import MAX_PLAN_CHARS

REQ = "Drive the rover to position x 3.0, y -2.0."


def _step(args: Any) -> str:
    return ('{"workflow": "dispatch_only", "steps": [{"robot": "tb3", "skill": "navigate_to", '
            f'"args": {args}}}]}}')


# (raw plan text, the codes of its one step or of the plan), for the ``sar`` crew and REQ
HOSTILE_PLANS: dict[str, tuple[str, list[str]]] = {
    "an integer of 400 digits": (_step('{"x": 1' + "0" * 400 + ', "y": -2}'),
                                 ["bad_argument"]),
    "an integer of 5,001 digits": (_step('{"x": 1' + "0" * 5000 + ', "y": -2}'),
                                   ["malformed_plan"]),
    "NaN and Infinity": (_step('{"x": NaN, "y": Infinity}'), ["bad_argument"]),
    "1e400": (_step('{"x": 1e400, "y": -2}'), ["bad_argument"]),
    "arrays nested 5,000 deep": (_step('{"x": ' + "[" * 5000 + "]" * 5000 + ', "y": -2}'),
                                 ["malformed_plan"]),
    "arrays nested 20 deep": (_step('{"x": ' + "[" * 20 + "]" * 20 + ', "y": -2}'),
                              ["malformed_plan"]),
    "a string for a number": (_step('{"x": "three", "y": -2}'), ["bad_argument"]),
    "markup and control characters": (
        '{"workflow": "[bold]x[/]", "steps": [{"robot": "[/]\\u0000", "skill": "\\u001b[2J", '
        '"args": {}}]}', ["unknown_workflow"]),
    "a robot name of 10,000 characters": (
        '{"workflow": "dispatch_only", "steps": [{"robot": "' + "r" * 10_000 + '", "skill": '
        '"navigate_to", "args": {}}]}', ["malformed_plan"]),
    "1,000 arguments": (_step(json.dumps({f"a{i}": i for i in range(1000)})), ["malformed_plan"]),
    "no JSON at all": ("{" * 100_000, ["malformed_plan"]),
    "text longer than the bound": ("x" * (MAX_PLAN_CHARS + 1), ["malformed_plan"]),
}


__all__ = ["HOSTILE_PLANS", "REQ"]
