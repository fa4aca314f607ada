"""Regenerate study_verdicts.json after an intended change of the gate, then review the diff:
`python -m tests.corpus.regenerate && git diff tests/corpus/study_verdicts.json`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from crewgate.api import check_plan
from crewgate.spec import load_crew
from crewgate.suites import load_suite

HERE = Path(__file__).parent
GOLDEN = HERE / "study_verdicts.json"


def records() -> list[tuple[str, str, dict[str, Any]]]:
    """(crew, key, record) for every recorded plan; key is FILE:LINE."""
    out = []
    for crew in ("sar", "g1_go2"):
        for path in sorted((HERE / "study" / crew).glob("*.jsonl")):
            for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                out.append((crew, f"{crew}/{path.name}:{line_no}", json.loads(line)))
    return out


def verdict_codes() -> dict[str, list[str]]:
    suites = {crew: {s.id: s for s in load_suite(crew).scenarios} for crew in ("sar", "g1_go2")}
    crews = {crew: load_crew(crew) for crew in suites}
    codes = {}
    for crew, key, record in records():
        scenario = suites[crew][record["scenario"]]
        verdict = check_plan(crews[crew], record["output"], scenario.request,
                             faults=scenario.faults)
        codes[key] = verdict.codes
    return codes


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(verdict_codes(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
