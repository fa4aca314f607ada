"""One line of ``traces.jsonl``: a mission of the evaluation, with what the scenario expected.

A record is the mission's stable JSON (``crewgate run --json``) plus the run's coordinates
(planner, condition, scenario, sample, seed) and the scenario's expectations. Records are the
single source of every metric, table and plot, so ``crewgate report DIR`` re-renders from them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crewgate import __version__
from crewgate.errors import InputFileError
from crewgate.orchestrator.result import MissionResult
from crewgate.spec import Crew
from crewgate.suites import Scenario

Record = dict[str, Any]


def run_key(planner: str, condition: str, scenario: str, sample: int) -> str:
    return f"{planner}|{condition}|{scenario}|{sample}"


def crew_digest(crew: Crew) -> str:
    """The crew as loaded, hashed (its spec's JSON): what a resumed record was run on."""
    return hashlib.sha256(crew.model_dump_json().encode("utf-8")).hexdigest()


def fingerprint(crew: str, scenario: Scenario, condition: object, seed: int, planner: str,
                model: str | None) -> str:
    """What decides a mission's record besides its key (:func:`run_key`): crewgate's version,
    the crew (``crew``: :func:`crew_digest`), the scenario as written, the condition's settings,
    the seed, the planner and its model. A rerun with the same ``--out`` resumes only the
    missions recorded with the same; the others are run again."""
    blob = json.dumps([__version__, crew, scenario.model_dump(mode="json"), repr(condition), seed,
                       planner, model], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def make_record(result: MissionResult, *, crew: str, crew_source: str, suite: str, planner: str,
                condition: str, scenario: Scenario, sample: int, seed: int, world: str,
                fingerprint: str = "") -> Record:
    data = result.to_json()
    return {
        "key": run_key(planner, condition, scenario.id, sample), "fingerprint": fingerprint,
        "crew": crew, "crew_source": crew_source, "suite": suite, "planner": planner,
        "condition": condition,
        "scenario": scenario.id, "sample": sample, "seed": seed, "world": world,
        "faults": list(scenario.faults), "tags": list(scenario.tags),
        "expected": {"workflow": scenario.workflow, "should_block": scenario.should_block,
                     "codes": list(scenario.expect_codes), "family": scenario.family},
        **data,
    }


class TraceFile:
    """traces.jsonl: appended mission by mission (a crash loses nothing finished), read back
    for resuming and reporting. A mission run again (its planner gave no answer the first time)
    is appended again: reading keeps its last record, in the place of its first."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def keys(self) -> set[str]:
        return {r["key"] for r in self.read()} if self.path.exists() else set()

    def append(self, record: Record) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, allow_nan=False) + "\n")
            handle.flush()

    def read(self) -> list[Record]:
        latest: dict[str, Record] = {}
        for record in self._iter():
            key = record.get("key") if isinstance(record, dict) else None
            if not isinstance(key, str):
                raise InputFileError(f"{self.path}: a line that is not a mission record (no "
                                     "key); was the file written by `crewgate eval`?")
            latest[key] = record  # a dict keeps a key where it was first put
        return list(latest.values())

    def _iter(self) -> Iterator[Record]:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            raise InputFileError(f"no traces at {self.path}; run `crewgate eval ... --out DIR` "
                                 "first") from None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                if number == len(lines):
                    continue  # a line cut by an interrupted run: it will be run again
                raise InputFileError(f"{self.path}:{number}: not a trace record: {exc}") from exc
