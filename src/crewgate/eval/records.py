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
from typing import Any, BinaryIO

from crewgate import __version__
from crewgate.errors import InputFileError
from crewgate.eval.schema import problem
from crewgate.jsonsafe import loads
from crewgate.limits import BOM
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
        append_line(self.path, json.dumps(record, allow_nan=False))

    def read(self) -> list[Record]:
        """The records, each checked (crewgate.eval.schema): one that is not a mission
        record is an InputFileError naming the line and the field."""
        latest: dict[str, Record] = {}
        for number, record in written_lines(self.path, "trace record"):
            wrong = problem(record)
            if wrong is not None:
                raise InputFileError(f"{self.path}:{number}: not a mission record ({wrong}); "
                                     "was the file written by `crewgate eval`?")
            latest[record["key"]] = record  # a dict keeps a key where it was first put
        return list(latest.values())


def append_line(path: Path, line: str) -> None:
    """Append one line to a JSON Lines file an evaluation writes. A last line cut by a killed
    run (no newline at its end: a record never finished, left out when read) is dropped first,
    so that it does not become a broken line inside the file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+b") as handle:
        end = handle.seek(0, 2)
        if end:
            handle.seek(end - 1)
            if handle.read(1) != b"\n":
                handle.truncate(_line_start(handle, end))
        handle.write((line + "\n").encode("utf-8"))
        handle.flush()


def _line_start(handle: BinaryIO, end: int) -> int:
    """Where the line that ends at ``end`` starts (read back in blocks)."""
    while end > 0:
        start = max(0, end - 65_536)
        handle.seek(start)
        found = handle.read(end - start).rfind(b"\n")
        if found != -1:
            return start + found + 1
        end = start
    return 0


def written_lines(path: Path, what: str) -> Iterator[tuple[int, Any]]:
    """(line number, JSON value) of each line of a JSON Lines file an evaluation appends to
    (see :func:`crewgate.jsonsafe.loads`). A last line that is not JSON was cut by an
    interrupted run and is left out (what it held is run again); any other is an
    InputFileError naming the file and the line."""
    try:
        lines = path.read_text(encoding="utf-8").removeprefix(BOM).splitlines()
    except FileNotFoundError:
        raise InputFileError(f"no traces at {path}; run `crewgate eval ... --out DIR` "
                             "first") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(f"cannot read {path}: {exc}") from exc
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield number, loads(line)
        except ValueError as exc:
            if number == len(lines):
                continue  # a line cut by an interrupted run: it will be run again
            raise InputFileError(f"{path}:{number}: not a {what}: {exc}") from exc
