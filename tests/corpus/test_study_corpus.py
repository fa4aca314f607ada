"""The study's recorded language-model plans as a conformance corpus for the gate.

Every recorded plan is checked against its scenario (with the scenario's faults applied to the
initial world). A change in any verdict shows up here; regenerate the golden file only for an
intended change (see regenerate.py) and explain it in the CHANGELOG.
"""

from __future__ import annotations

import json

from crewgate.suites import load_suite
from tests.corpus.regenerate import GOLDEN, records, verdict_codes

PERCEPTION = {"nan_transmission", "missed_detection"}


def test_verdicts_match_the_golden_file() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    current = verdict_codes()
    changed = {k: (golden.get(k), v) for k, v in current.items() if golden.get(k) != v}
    assert changed == {}, f"{len(changed)} verdicts changed, e.g. {list(changed.items())[:5]}"
    assert len(current) == 28 + 88 + 88 + 89 + 89 + 89 + 20


def test_every_recorded_plan_for_a_fault_scenario_is_blocked_before_dispatch() -> None:
    """Plan-level recall of the gate on real model output: every plan proposed for a fault
    scenario is refused before anything moves, except perception faults, which only exist at
    the rover's dispatch (covered end to end in tests/e2e)."""
    golden: dict[str, list[str]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    suites = {c: {s.id: s for s in load_suite(c).scenarios} for c in ("sar", "g1_go2")}
    missed = []
    for crew, key, record in records():
        scenario = suites[crew][record["scenario"]]
        if scenario.should_block and scenario.study_fault not in PERCEPTION and not golden[key]:
            missed.append(key)
    assert missed == []
