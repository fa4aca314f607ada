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
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewgate.errors import InputFileError, PlannerError, UserError
from crewgate.plan import parse_plan
from crewgate.planners.base import PlannerOutput, PlanningRequest
from crewgate.spec import Crew

if TYPE_CHECKING:
    from crewgate.planners.registry import PlannerOptions


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


class ReplayPlanner:
    name = "replay"

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
    def from_options(cls, crew: Crew, options: PlannerOptions) -> ReplayPlanner:
        if options.plans is None:
            raise UserError("the replay planner needs --plans FILE (JSON Lines of recorded "
                            "outputs: scenario, condition, attempt, output)")
        return cls(read_records(options.plans), source=str(options.plans),
                   requests=_suite_requests(crew.name))

    def plan(self, request: PlanningRequest) -> PlannerOutput:
        start = time.perf_counter()
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
        elapsed = time.perf_counter() - start
        return PlannerOutput(raw, parse_plan(record.output),
                             record.planning_s if record.planning_s is not None else elapsed)


def read_records(path: Path) -> list[Record]:
    """Records of a replay file; a bad line is a UserError naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputFileError(f"replay file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(f"cannot read replay file {str(path)!r}: {exc}") from exc
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            records.append(Record(
                scenario=str(obj["scenario"]), condition=str(obj["condition"]),
                attempt=int(obj.get("attempt", 1)), output=obj["output"],
                request=obj.get("request"), planning_s=obj.get("planning_s")))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise InputFileError(
                f"{path}:{number}: not a replay record ({exc}); each line must be "
                '{"scenario": ID, "condition": NAME, "attempt": 1|2, "output": ...}') from exc
    if not records:
        raise InputFileError(f"replay file {str(path)!r} holds no records")
    return records


def _suite_requests(crew: str) -> dict[str, str]:
    """Scenario id -> request for the crew's packaged suites (empty for other crews)."""
    from crewgate.eval.scenarios import load_suite, packaged_suites

    out: dict[str, str] = {}
    for name in packaged_suites():
        if name.startswith(f"{crew}_"):
            for s in load_suite(crew, name[len(crew) + 1:]).scenarios:
                out.setdefault(s.id, s.request)
    return out
