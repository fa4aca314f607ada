"""The gate is total and fails closed on a few thousand hostile variants of real plans (the
benchmark `benchmarks/fuzz_gate.py --plans 100000` runs many more)."""

from __future__ import annotations

from crewgate.spec import load_crew
from crewgate.testing.fuzz import Fuzzer, suite_seeds


def test_fuzzed_plans_get_verdicts_and_keep_every_invariant() -> None:
    crews = ("sar", "g1_go2")
    fuzzer = Fuzzer({c: load_crew(c) for c in crews}, suite_seeds(crews), seed=7)
    tally = fuzzer.run(2_000)
    assert (tally.exceptions, tally.violations) == ([], [])
    assert tally.tried == 2_000
    assert tally.accepted > 50  # the invariants of accepted plans were exercised
    assert tally.executed > 5
