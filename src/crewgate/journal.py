"""The journal: an append-only SQLite log (WAL) of every mission event, for audit and replay.

Owns the on-disk format. Each event carries the mission id, wall and backend time, a kind, the
step it concerns and the gate's codes. Events are committed as they happen: a crash loses nothing
already recorded. ``crewgate trace MISSION_ID`` reads it back. Each mission names the lease of
the process that runs it (:mod:`crewgate.lease`, files in ``<journal>.leases/``): held while that
process lives, which is how ``crewgate recover`` knows a mission is not to be closed.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from crewgate import lease
from crewgate.errors import NotFoundError, UserError
from crewgate.jsonsafe import encode_nonfinite, loads
from crewgate.lease import Lease


class EventKind(StrEnum):
    """What a journal event records, in the order a mission meets them."""

    MISSION_STARTED = "mission_started"
    PLAN_PROPOSED = "plan_proposed"  # a planner's output (one per attempt)
    PLANNER_ERROR = "planner_error"  # the planner gave no output
    VERDICT = "verdict"  # the whole-plan verdict of an attempt
    REPLAN = "replan"  # the refused plan's problems go back to the planner
    REFUSAL = "refusal"  # something was refused: the plan, a step at its dispatch, a skip
    AUTHORIZATION = "authorization"  # a step checked at the moment of its dispatch
    DISPATCH = "dispatch"  # a command about to be sent to a robot (the intent)
    SENT = "sent"  # the command the adapter accepted
    RESULT = "result"  # how a dispatched command ended
    HALT = "halt"  # no later step will be dispatched
    FALLBACK = "fallback"  # a step of the safe fallback: dispatched, skipped or refused
    MISSION_ENDED = "mission_ended"
    APPROVAL = "approval"  # a human's decision asked for, given, or timed out
    LEASE = "lease"  # the robots a mission waits for, and when it holds them
    NOTE = "note"  # anything else worth keeping

_SCHEMA = """
CREATE TABLE IF NOT EXISTS missions (
    mission_id TEXT PRIMARY KEY,
    crew TEXT NOT NULL,
    request TEXT NOT NULL,
    started_wall REAL NOT NULL,
    ended_wall REAL,
    status TEXT,
    codes TEXT,
    meta TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mission_id TEXT NOT NULL REFERENCES missions(mission_id),
    seq INTEGER NOT NULL,
    wall REAL NOT NULL,
    t REAL,
    kind TEXT NOT NULL,
    step INTEGER,
    robot TEXT,
    skill TEXT,
    codes TEXT NOT NULL,
    detail TEXT NOT NULL,
    data TEXT
);
CREATE INDEX IF NOT EXISTS events_by_mission ON events (mission_id, seq);
CREATE TABLE IF NOT EXISTS approvals (
    mission_id TEXT PRIMARY KEY,
    crew TEXT NOT NULL,
    request TEXT NOT NULL,
    plan TEXT NOT NULL,
    asked_wall REAL NOT NULL,
    decision TEXT,
    decided_wall REAL,
    decided_by TEXT
);
CREATE TABLE IF NOT EXISTS access (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    wall REAL NOT NULL,
    user TEXT,
    role TEXT,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    status INTEGER NOT NULL,
    detail TEXT NOT NULL
);
"""
# columns added after the first release of a table: (table, column, declaration)
_ADDED = (("approvals", "asked_by", "TEXT"), ("approvals", "mode", "TEXT"),
          ("missions", "lease", "TEXT"))

# withdrawn: by who asked; expired: nobody decided within the service's approval timeout
APPROVED, DENIED, WITHDRAWN, EXPIRED = "approved", "denied", "withdrawn", "expired"


@dataclass(frozen=True, slots=True)
class Approval:
    """A mission an agent submitted that waits for (or got) an operator's decision."""

    mission_id: str
    crew: str
    request: str
    plan: dict[str, Any]
    asked_wall: float
    decision: str | None  # None while it waits; "approved", "denied", "withdrawn", "expired"
    decided_by: str | None
    asked_by: str | None = None  # who submitted the mission
    mode: str = "required"  # or "two_person": the approver must be someone else than asked_by

    def to_json(self) -> dict[str, Any]:
        return {"mission_id": self.mission_id, "crew": self.crew, "request": self.request,
                "plan": self.plan, "asked_wall": self.asked_wall, "decision": self.decision,
                "decided_by": self.decided_by, "asked_by": self.asked_by, "mode": self.mode}


def default_journal_path() -> Path:
    """$CREWGATE_JOURNAL, else $XDG_STATE_HOME/crewgate/journal.sqlite3 (~/.local/state/...)."""
    env = os.environ.get("CREWGATE_JOURNAL")
    if env:
        return Path(env)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "crewgate" / "journal.sqlite3"


@dataclass(frozen=True, slots=True)
class Event:
    mission_id: str
    seq: int
    wall: float
    t: float | None
    kind: EventKind
    step: int | None = None
    robot: str | None = None
    skill: str | None = None
    codes: tuple[str, ...] = ()
    detail: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    id: int = 0  # its place in the whole journal (a stream's cursor); 0 if not known

    def to_json(self) -> dict[str, Any]:
        return {"mission_id": self.mission_id, "seq": self.seq, "wall": self.wall, "t": self.t,
                "kind": self.kind, "step": self.step, "robot": self.robot, "skill": self.skill,
                "codes": list(self.codes), "detail": self.detail, "data": self.data}


@dataclass(frozen=True, slots=True)
class MissionRecord:
    mission_id: str
    crew: str
    request: str
    started_wall: float
    ended_wall: float | None
    status: str | None
    codes: tuple[str, ...]
    meta: dict[str, Any]
    # the lease of the process that runs it (crewgate.lease): None when none was taken
    lease: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"mission_id": self.mission_id, "crew": self.crew, "request": self.request,
                "started_wall": self.started_wall, "ended_wall": self.ended_wall,
                "status": self.status, "codes": list(self.codes), "meta": self.meta}


Listener = Callable[[Event], None]


class Journal:
    """A mission journal in one SQLite file (``":memory:"`` for a throwaway one)."""

    def __init__(self, path: str | Path | None = None, *, create: bool = True) -> None:
        self.path = str(path) if path is not None else str(default_journal_path())
        if not create and self.path != ":memory:" and not Path(self.path).is_file():
            raise UserError(f"no journal at {self.path!r}; missions are journaled where "
                            "`crewgate run` wrote them (--journal or $CREWGATE_JOURNAL)")
        if self.path != ":memory:":
            try:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UserError(f"cannot create the journal folder for {self.path!r}: {exc}; "
                                "set CREWGATE_JOURNAL or --journal to a writable path") from exc
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")  # a commit survives a power loss
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            for table, column, declaration in _ADDED:
                known = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
                if column not in known:
                    try:
                        self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} "
                                         f"{declaration}")
                    except sqlite3.OperationalError as exc:  # another process added it first
                        if "duplicate column" not in str(exc):
                            raise
        except sqlite3.Error as exc:
            raise UserError(f"cannot open journal {self.path!r}: {exc}; set CREWGATE_JOURNAL or "
                            "--journal to a writable SQLite file") from exc
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._lease: Lease | None = None  # taken when this process starts its first mission

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def start_mission(self, mission_id: str, crew: str, request: str, meta: dict[str, Any]) -> None:
        """Journal a mission's start, with the lease of this process (crewgate.lease): while
        it is held, the mission's process is alive."""
        with self._lock:
            if self._lease is None and self.path != ":memory:" and lease.available():
                try:
                    self._lease = Lease(self.path)
                except OSError as exc:
                    raise UserError(f"cannot take a lease on journal {self.path!r} (in "
                                    f"{lease.folder(self.path)}): {exc}; the journal's folder "
                                    "must be writable") from exc
            with self._db:
                self._db.execute(
                    "INSERT INTO missions (mission_id, crew, request, started_wall, meta, lease) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (mission_id, crew, request, time.time(), _dumps(meta),
                     self._lease.token if self._lease is not None else None),
                )

    def sweep_leases(self) -> None:
        """Remove the leases on this journal whose processes are gone (one killed between
        missions leaves its file; see crewgate.lease)."""
        if self.path != ":memory:":
            lease.sweep(self.path)

    def running(self, record: MissionRecord) -> bool:
        """Whether the process that runs the mission is certainly alive: it holds the lease
        the mission was started under (False also for a mission started without one)."""
        return record.lease is not None and self.path != ":memory:" and lease.held(
            self.path, record.lease)

    def record(
        self, mission_id: str, kind: EventKind, *, t: float | None = None, step: int | None = None,
        robot: str | None = None, skill: str | None = None, codes: Iterable[str] = (),
        detail: str = "", data: dict[str, Any] | None = None,
    ) -> Event:
        kind = EventKind(kind)  # a plain string that names no kind is a ValueError
        wall, code_list, payload = time.time(), tuple(codes), data or {}
        with self._lock:
            try:
                with self._db:
                    # the next seq is taken inside the insert: correct across reopenings and
                    # across several writers of one file
                    row = self._db.execute(
                        "INSERT INTO events (mission_id, seq, wall, t, kind, step, robot, skill, "
                        "codes, detail, data) SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, "
                        "?, ?, ?, ?, ? FROM events WHERE mission_id = ? RETURNING seq, id",
                        (mission_id, wall, t, kind, step, robot, skill,
                         json.dumps(list(code_list)), detail, _dumps(payload), mission_id),
                    ).fetchone()
            except sqlite3.IntegrityError as exc:
                raise ValueError(f"mission {mission_id!r} was never started in journal "
                                 f"{self.path}; call start_mission first") from exc
            event = Event(mission_id, int(row[0]), wall, t, kind, step, robot, skill,
                          code_list, detail, payload, int(row[1]))
        for listener in self._listeners:
            listener(event)
        return event

    def end_mission(self, mission_id: str, status: str, codes: Sequence[str]) -> None:
        with self._lock, self._db:
            self._db.execute(
                "UPDATE missions SET ended_wall = ?, status = ?, codes = ? WHERE mission_id = ?",
                (time.time(), status, json.dumps(list(codes)), mission_id),
            )

    # -- approvals (a human decides; the process that runs the mission polls) -------------------

    def ask_approval(self, mission_id: str, crew: str, request: str,
                     plan: dict[str, Any], *, asked_by: str | None = None,
                     mode: str = "required") -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO approvals (mission_id, crew, request, plan, asked_wall, asked_by, "
                "mode) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (mission_id, crew, request, _dumps(plan), time.time(), asked_by, mode))

    def decide(self, mission_id: str, decision: str, by: str) -> Approval:
        """Record a decision on a waiting mission (once: a decided mission stays decided).
        Raises UserError for an unknown or already decided mission, and for an approval of a
        two-person mission by whoever submitted it."""
        if decision not in (APPROVED, DENIED, WITHDRAWN, EXPIRED):
            raise UserError(f"decision must be {APPROVED!r} or {DENIED!r}, not {decision!r}")
        if decision == APPROVED:
            asked = self.approval(mission_id)
            if asked is not None and asked.mode == "two_person" and asked.decision is None \
                    and asked.asked_by == by:
                raise UserError(f"mission {mission_id} needs two-person approval and {by} "
                                "submitted it: another operator must approve it")
        with self._lock, self._db:
            cur = self._db.execute(
                "UPDATE approvals SET decision = ?, decided_wall = ?, decided_by = ? "
                "WHERE mission_id = ? AND decision IS NULL",
                (decision, time.time(), by, mission_id))
            changed = cur.rowcount
        found = self.approval(mission_id)
        if found is None:
            waiting = [a.mission_id for a in self.approvals(waiting=True)]
            raise UserError(f"no mission {mission_id!r} asks for approval; waiting: "
                            f"{', '.join(waiting) or 'none'} (`crewgate approvals`)")
        if not changed:
            raise UserError(f"mission {mission_id} was already {found.decision} by "
                            f"{found.decided_by}")
        return found

    def approval(self, mission_id: str) -> Approval | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_APPROVAL_COLUMNS} FROM approvals WHERE mission_id = ?",
                (mission_id,)).fetchone()
        return _approval(row) if row is not None else None

    def approvals(self, *, waiting: bool = False, limit: int = 50) -> list[Approval]:
        """The latest approvals asked for (only those still waiting, with ``waiting``)."""
        where = "WHERE decision IS NULL " if waiting else ""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_APPROVAL_COLUMNS} FROM approvals {where}ORDER BY asked_wall DESC "
                "LIMIT ?", (limit,)).fetchall()
        return [_approval(r) for r in rows]

    def resolve(self, prefix: str) -> str:
        """The mission id a unique prefix (or the exact id) denotes; case-sensitive, literal."""
        if not prefix:
            raise UserError("give a mission id (or a unique prefix of one)")
        with self._lock:
            rows = [str(r[0]) for r in self._db.execute(
                "SELECT mission_id FROM missions WHERE substr(mission_id, 1, ?) = ? "
                "ORDER BY started_wall DESC", (len(prefix), prefix)).fetchall()]
        if prefix in rows:
            return prefix
        if len(rows) == 1:
            return rows[0]
        if not rows:
            recent = [m.mission_id for m in self.missions(limit=5)]
            raise NotFoundError("mission", prefix, recent, f"journal {self.path}")
        more = f" and {len(rows) - 5} more" if len(rows) > 5 else ""
        raise UserError(f"mission prefix {prefix!r} is ambiguous: {', '.join(rows[:5])}{more}; "
                        "give more characters")

    def mission(self, mission_id: str) -> MissionRecord:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_MISSION_COLUMNS} "
                "FROM missions WHERE mission_id = ?", (mission_id,)).fetchone()
        if row is None:
            raise NotFoundError("mission", mission_id, [], f"journal {self.path}")
        return _mission(row)

    def missions(self, limit: int = 20) -> list[MissionRecord]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_MISSION_COLUMNS} "
                "FROM missions ORDER BY started_wall DESC LIMIT ?", (limit,)).fetchall()
        return [_mission(r) for r in rows]

    def unfinished(self, crew: str) -> list[MissionRecord]:
        """The crew's missions with no end (their process stopped without closing them),
        oldest first."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_MISSION_COLUMNS} "
                "FROM missions WHERE crew = ? AND ended_wall IS NULL ORDER BY started_wall",
                (crew,)).fetchall()
        return [_mission(r) for r in rows]

    def events(self, mission_id: str) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE mission_id = ? ORDER BY seq",
                (mission_id,)).fetchall()
        return [_event(r) for r in rows]

    def events_after(self, after: int, limit: int = 500) -> list[Event]:
        """Every mission's events recorded after the event with id ``after``, oldest first
        (at most ``limit``): a stream's next page."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE id > ? ORDER BY id LIMIT ?",
                (after, limit)).fetchall()
        return [_event(r) for r in rows]

    def last_event_id(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()
        return int(row[0])

    # -- access (who called the service, and what it answered when it refused) -----------------

    def record_access(self, user: str | None, role: str | None, method: str, path: str,
                      status: int, detail: str) -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO access (wall, user, role, method, path, status, detail) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (time.time(), user, role, method, path[:500], status, detail[:500]))

    def access(self, limit: int = 50) -> list[dict[str, Any]]:
        """The latest access records, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT wall, user, role, method, path, status, detail FROM access "
                "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [{"wall": r[0], "user": r[1], "role": r[2], "method": r[3], "path": r[4],
                 "status": r[5], "detail": r[6]} for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
            if self._lease is not None:  # after the last write: its missions can be recovered
                self._lease.release()


_APPROVAL_COLUMNS = ("mission_id, crew, request, plan, asked_wall, decision, decided_by, "
                     "asked_by, mode")
_EVENT_COLUMNS = "mission_id, seq, wall, t, kind, step, robot, skill, codes, detail, data, id"
_MISSION_COLUMNS = ("mission_id, crew, request, started_wall, ended_wall, status, codes, meta, "
                    "lease")


# A row crewgate did not write as it reads it (a journal edited by hand, a damaged disk) is
# read all the same, never a crash of `trace` or `recover`: what does not decode is marked
# {"damaged": why} (a mapping), left out (codes), or a note that says what it was (a kind).


def _approval(row: Sequence[Any]) -> Approval:
    return Approval(row[0], row[1], row[2], _mapping(row[3], "plan"), row[4], row[5], row[6],
                    row[7], row[8] or "required")


def _event(r: Sequence[Any]) -> Event:
    kind, detail = _KINDS.get(r[4]), r[9]
    if kind is None:
        kind = EventKind.NOTE
        detail = f"damaged row: kind {r[4]!r} is none crewgate writes; {detail}"
    return Event(r[0], r[1], r[2], r[3], kind, r[5], r[6], r[7], _codes(r[8]), detail,
                 _mapping(r[10], "data") if r[10] else {}, r[11])


def _mission(row: Sequence[Any]) -> MissionRecord:
    return MissionRecord(row[0], row[1], row[2], row[3], row[4], row[5],
                         _codes(row[6]) if row[6] else (),
                         _mapping(row[7], "meta") if row[7] else {}, row[8])


_KINDS = {kind.value: kind for kind in EventKind}


def _mapping(text: object, column: str) -> dict[str, Any]:
    """A JSON object column, or ``{"damaged": why}``."""
    try:
        value = loads(text) if isinstance(text, str | bytes) else None
    except ValueError as exc:
        return {"damaged": f"the {column} column is not JSON ({exc})"}
    if not isinstance(value, dict):
        return {"damaged": f"the {column} column is not a JSON object"}
    return value


def _codes(text: object) -> tuple[str, ...]:
    """A JSON list of codes, or none when it is not one."""
    try:
        value = loads(text) if isinstance(text, str | bytes) else None
    except ValueError:
        return ()
    return tuple(c for c in value if isinstance(c, str)) if isinstance(value, list) else ()


def _dumps(data: Any) -> str:
    return json.dumps(encode_nonfinite(data), allow_nan=False, default=str)
