"""The evaluation's response cache: a planner's answers, kept so that a rerun or a resumed run
does not pay for a call twice.

An answer is keyed by what decides it: the planner's request identity (the backend, the server,
the model, the sampling settings, the exact messages and plan schema it sends: see
``HostedPlanner.request_identity``), and by the mission's scenario and sample index: the cache
only ever stands in for a call the same scenario and sample already made, so that
``--samples K`` asks K times even at temperature 0 and two scenarios with the same request
(different faults) get answers of their own, as without the cache; and a run's answers are the
same whatever ``--jobs``. Only answers are kept, never failures.
Planners without a request identity (the offline ones: ``exemplar``, ``replay``, ``scripted``)
are not cached: they cost nothing to ask again.

The cache is one SQLite file: ``$CREWGATE_CACHE``, else
``$XDG_CACHE_HOME/crewgate/responses.sqlite3`` (``~/.cache/crewgate/...``). A row that cannot be
read back (a damaged or foreign file) is a miss, and the fresh answer replaces it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from crewgate.errors import UserError
from crewgate.jsonsafe import loads
from crewgate.plan import ParseFailure
from crewgate.planners.base import PlannerOutput, PlanningRequest, stored_output

_SCHEMA = """CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY, planner TEXT NOT NULL, answer TEXT NOT NULL, stored REAL NOT NULL)"""


@runtime_checkable
class Identified(Protocol):
    """A planner whose answer is decided by what it sends (the hosted backends)."""

    name: str

    def request_identity(self, request: PlanningRequest) -> dict[str, Any]: ...


def default_cache_path() -> Path:
    """$CREWGATE_CACHE, else $XDG_CACHE_HOME/crewgate/responses.sqlite3 (~/.cache/...)."""
    env = os.environ.get("CREWGATE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "crewgate" / "responses.sqlite3"


def cache_key(planner: object, request: PlanningRequest, sample: int) -> str | None:
    """The key of ``request``'s answer from ``planner`` for ``sample``; None for a planner
    without a request identity (not cached)."""
    if not isinstance(planner, Identified):
        return None
    identity = {"identity": planner.request_identity(request), "scenario": request.scenario,
                "sample": sample}
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), allow_nan=False,
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ResponseCache:
    """Answers by key, in one SQLite file shared by the threads of an evaluation."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise UserError(f"cannot open the response cache {self.path}: {exc}; set "
                            "CREWGATE_CACHE to a writable file, or pass --no-cache") from exc
        self._lock = threading.Lock()

    def get(self, key: str) -> PlannerOutput | None:
        with self._lock:
            try:
                row = self._db.execute("SELECT answer FROM answers WHERE key = ?",
                                       (key,)).fetchone()
            except sqlite3.Error:
                return None
        return _decode(row[0]) if row else None

    def put(self, key: str, planner: str, output: PlannerOutput) -> None:
        failure = output.plan.problems if isinstance(output.plan, ParseFailure) else None
        answer = json.dumps({"raw": output.raw, "failure": list(failure) if failure else None,
                             "planning_s": output.planning_s, "usage": dict(output.usage),
                             "note": output.note}, allow_nan=False)
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?)",
                             (key, planner, answer, time.time()))

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _decode(text: object) -> PlannerOutput | None:
    """A stored answer, or None when it is not one (never trusted further than its shape)."""
    try:
        data = loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    if not isinstance(data, Mapping):
        return None
    return stored_output(data.get("raw"), data.get("planning_s"), data.get("usage"),
                         data.get("note", ""), data.get("failure"))
