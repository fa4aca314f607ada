"""The replay planner: recorded raw outputs played back, for the held-plan ablation and for
regression tests of new gate versions on the same plans.

A replay file is JSON Lines, one object per line:
``{"scenario": ID, "condition": NAME, "attempt": 1|2, "output": RAW_TEXT_OR_PLAN}``
(optionally ``"request"`` and ``"planning_s"``). The evaluation harness matches records by
scenario id; ``crewgate plan`` and ``run`` match by request text, through the record's
``request`` or the crew's packaged scenario suites. A replan with no recorded second attempt
repeats the last recorded output (the study's planner did not change its mind either).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from pydantic import Field

from crewgate.errors import InputFileError, PlannerError
from crewgate.jsonsafe import loads, quoted
from crewgate.limits import MAX_RECORDS_CHARS, read_text
from crewgate.plan import parse_plan
from crewgate.planners.base import Planner, PlanningRequest, Proposal
from crewgate.planners.options import PlannerOptions
from crewgate.spec import Crew
from crewgate.suites import packaged_requests


@dataclass(frozen=True, slots=True)
class Record:
    scenario: str
    condition: str
    attempt: int
    output: str | Mapping[str, Any]
    request: str | None = None
    planning_s: float | None = None


def _key(text: str) -> str:
    return " ".join(text.lower().split())


class ReplayOptions(PlannerOptions):
    plans: Path = Field(description="Recorded outputs: a JSON Lines file, one record a line "
                        "(scenario, condition, attempt, output; optionally request, planning_s).")


class ReplayPlanner(Planner):
    """Recorded raw outputs played back, matched by scenario id or request text: the held-plan
    ablation, and the study's own plans under any gate version."""

    name = "replay"
    Options = ReplayOptions

    def __init__(self, records: Iterable[Record], *, source: str = "<records>",
                 requests: Mapping[str, str] | None = None) -> None:
        self.records = list(records)
        self.source = source
        # a request shared by several scenarios maps to the first (suite order: nominal first)
        self.by_request: dict[str, str] = {}
        for r in self.records:
            if r.request:
                self.by_request.setdefault(_key(r.request), r.scenario)
        for sid, text in (requests or {}).items():
            self.by_request.setdefault(_key(text), sid)

    @classmethod
    def from_options(cls, crew: Crew, options: ReplayOptions) -> Self:
        return cls(read_records(options.plans), source=str(options.plans),
                   requests=packaged_requests(crew.name))

    def _propose(self, request: PlanningRequest) -> Proposal:
        scenario = request.scenario or self.by_request.get(_key(request.request))
        if scenario is None:
            raise PlannerError(f"no recorded output in {self.source} for the request "
                               f"{request.request!r} (records are matched by scenario id)")
        found = [r for r in self.records
                 if r.scenario == scenario and r.condition == request.condition]
        if not found:
            raise PlannerError(f"no recorded output in {self.source} for scenario {scenario!r} "
                               f"under condition {request.condition!r}")
        earlier = [r for r in found if r.attempt <= request.attempt] or found
        record = max(earlier, key=lambda r: r.attempt)
        raw = record.output if isinstance(record.output, str) else json.dumps(record.output)
        # the recorded latency when there is one, for the latency metrics
        return Proposal(raw, parse_plan(record.output), planning_s=record.planning_s)


def read_records(path: Path) -> list[Record]:
    """Records of a replay file; a bad line is a UserError naming the file, the line and what
    is wrong with it."""
    lines = read_text(path, "replay file", MAX_RECORDS_CHARS).splitlines()
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(record_of(loads(line)))
        except ValueError as exc:
            raise InputFileError(
                f"{path}:{number}: not a replay record ({exc}); each line must be "
                '{"scenario": ID, "condition": NAME, "attempt": 1|2, "output": ...}') from exc
    if not records:
        raise InputFileError(f"replay file {str(path)!r} holds no records")
    return records


def record_of(obj: object) -> Record:
    """A replay record from a line's JSON value; a ValueError naming the field that is not one
    (an output is raw text or a plan object; a planning time a finite number of seconds)."""
    if not isinstance(obj, dict):
        raise ValueError(f"a JSON {type(obj).__name__}, not an object")
    for name in ("scenario", "condition", "output"):
        if name not in obj:
            raise ValueError(f"no {name!r}")
    scenario, condition, output = obj["scenario"], obj["condition"], obj["output"]
    attempt, request, spent = obj.get("attempt", 1), obj.get("request"), obj.get("planning_s")
    if not isinstance(scenario, str) or not isinstance(condition, str):
        raise ValueError("'scenario' and 'condition' are strings")
    if type(attempt) is not int or attempt < 1:
        raise ValueError(f"'attempt' is 1 or more, not {quoted(attempt)}")
    if not isinstance(output, str | dict):
        raise ValueError(f"'output' is raw text or a plan object, not {quoted(output)}")
    if request is not None and not isinstance(request, str):
        raise ValueError(f"'request' is text, not {quoted(request)}")
    if spent is not None and (not isinstance(spent, int | float) or isinstance(spent, bool)
                              or not 0 <= spent < 1e9):
        raise ValueError(f"'planning_s' is seconds, not {quoted(spent)}")
    return Record(scenario, condition, attempt, output, request,
                  None if spent is None else float(spent))
