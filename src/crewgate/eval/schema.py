"""The shape of a ``traces.jsonl`` record, checked when the file is read.

``crewgate report`` and ``crewgate compare`` read folders that may come from elsewhere (a
colleague's run, an edited file): every record is checked against the fields the metrics, the
report and the plots read, with their types, before any of them is computed, so that a record
crewgate did not write is an error naming the file, the line and the field, never a traceback
halfway through a report. Fields beyond these are kept as they are (a record is the mission's
stable JSON, ``crewgate run --json``, plus the run's coordinates: :mod:`crewgate.eval.records`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

# strict: a number written as a string, or a list for a mapping, is refused, not coerced
_STRICT = ConfigDict(extra="allow", strict=True)
Nonfinite = Literal["nan", "inf", "-inf"]  # a non-finite float as the record writes it


class _Problem(BaseModel):
    model_config = _STRICT
    code: str
    detail: str = ""
    index: int | None = None


class _Step(BaseModel):
    model_config = _STRICT
    problems: list[_Problem] = []


class _Verdict(BaseModel):
    model_config = _STRICT
    problems: list[_Problem] = []
    steps: list[_Step] = []


class _Attempt(BaseModel):
    model_config = _STRICT
    plan: dict[str, Any] | None = None
    verdict: _Verdict
    usage: dict[str, Any] | None = None


class _Dispatched(BaseModel):
    model_config = _STRICT
    robot: str
    skill: str
    args: dict[str, Any]
    codes: list[str]
    succeeded: bool | None


class _Expected(BaseModel):
    model_config = _STRICT
    workflow: str | None
    should_block: bool


class _Object(BaseModel):
    model_config = _STRICT
    holder: str | None = None
    location: str | None = None


class _Outcome(BaseModel):
    model_config = _STRICT
    objects: dict[str, _Object] = {}
    requester_has: list[str] = []
    tb3_to_victim_m: float | Nonfinite | None = None
    trajectories: dict[str, list[list[float | Nonfinite | None]]] = {}


class _Calls(BaseModel):
    model_config = _STRICT
    cached: int = 0
    retries: int = 0


class TraceRecord(BaseModel):
    """What the metrics, the report and the plots read of a record."""

    model_config = _STRICT
    key: str
    planner: str
    condition: str
    crew: str
    crew_source: str | None = None
    suite: str
    request: str
    status: str
    enforce: bool
    planning_s: float
    planner_error: str | None = None
    model: str | None = None
    expected: _Expected
    attempts: list[_Attempt]
    dispatched: list[_Dispatched]
    final_state: dict[str, Any]
    outcome: _Outcome
    calls: _Calls | None = None


def problem(record: object) -> str | None:
    """What makes ``record`` no trace record (the first field and why), or None."""
    try:
        TraceRecord.model_validate(record)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the record"
        return f"{where}: {first['msg']}"
    return None
