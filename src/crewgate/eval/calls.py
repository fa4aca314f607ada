"""How the evaluation calls a planner: through the response cache, with retries, counted.

Each mission gets its own :class:`MissionCalls` (a ``Planner`` around the real one) from the
planner's :class:`CallPolicy`-holding :class:`Caller`. A call is answered from the cache when it
can be; otherwise the planner is asked, and a ``TransientPlannerError`` (a timeout, a lost
connection, HTTP 408, 409, 429 or 5xx) is asked again after a wait: the server's ``Retry-After``
when it gave one (a little longer at random), else exponential backoff (``base_s``, doubling, at
most ``max_s``) shortened at random,
for at most ``attempts`` calls in all. Each retry is journaled (a ``note`` event of the mission:
the error, the wait). When the attempts run out the mission ends as a planner error (nothing
moves), which the metrics count apart from refusals. After ``give_up_after`` missions in a row
whose planner failed every attempt, further calls are tried once, without waiting (a server that
is down costs no more backoff; one that comes back is used again).

Concurrency (``--jobs N``): missions run in N threads, but only their planner calls overlap. The
simulator, the gate and the journal run under one lock (``engine``), which a mission holds from
its start to its end except while its planner is asked; each mission stays sequential and
deterministic, so the results do not depend on N.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from crewgate.errors import PlannerError
from crewgate.eval.cache import ResponseCache, cache_key
from crewgate.journal import EventKind, Journal
from crewgate.planners.base import Planner, PlannerOutput, PlanningRequest, Proposal
from crewgate.planners.llm.common import TransientPlannerError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to wait before asking a failing planner again."""

    attempts: int = 4  # calls in all, the first included
    base_s: float = 1.0  # the first backoff
    max_s: float = 60.0  # the longest wait, the server's Retry-After included
    jitter: float = 0.5  # a backoff is scaled by a random factor in [1 - jitter, 1]
    give_up_after: int = 5  # missions failed in a row before retries stop

    def __post_init__(self) -> None:
        if self.attempts < 1 or not 0 <= self.base_s <= self.max_s or not 0 <= self.jitter <= 1:
            raise ValueError(f"a retry policy needs attempts >= 1, 0 <= base_s <= max_s and "
                             f"0 <= jitter <= 1, got {self!r}")

    def wait_s(self, retry: int, retry_after: float | None, rng: random.Random) -> float:
        """The wait before retry number ``retry`` (1, 2, ...): the server's ``retry_after``
        lengthened by up to a quarter of ``jitter`` (never shorter: concurrent missions told
        the same wait do not all come back at once), else the backoff."""
        if retry_after is not None:
            return min(retry_after * (1.0 + 0.25 * self.jitter * rng.random()), self.max_s)
        backoff = min(self.max_s, self.base_s * 2.0 ** (retry - 1))
        return backoff * (1.0 - self.jitter * rng.random())


@dataclass(slots=True)
class Counts:
    """What one mission's planner calls cost: answers asked for, answers from the cache,
    retries, and the errors met (the last one ended the mission if it had no answer)."""

    asked: int = 0
    cached: int = 0
    retries: int = 0
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"asked": self.asked, "cached": self.cached, "retries": self.retries,
                "errors": list(self.errors)}


class Caller:
    """One planner of an evaluation: its cache, its retry policy, its run of failures."""

    def __init__(self, planner: Planner, *, cache: ResponseCache | None, policy: RetryPolicy,
                 engine: threading.Lock | None = None,
                 sleep: Callable[[float], None] = time.sleep, seed: int | None = None) -> None:
        self.planner = planner
        self.cache = cache
        self.policy = policy
        self.engine = engine  # held by a mission except while its planner is asked
        self.sleep = sleep
        self.stop = threading.Event()  # set when the evaluation is interrupted
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._failed_in_a_row = 0

    def for_mission(self, sample: int) -> MissionCalls:
        return MissionCalls(self, sample)

    def ask(self, request: PlanningRequest, sample: int, counts: Counts,
            note: Callable[[str, dict[str, Any]], None]) -> PlannerOutput:
        key = cache_key(self.planner, request, sample) if self.cache else None
        if key is not None and self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                counts.cached += 1
                return hit
        with self._lock:
            attempts = 1 if self._failed_in_a_row >= self.policy.give_up_after else \
                self.policy.attempts
        for attempt in range(1, attempts + 1):
            if self.stop.is_set():
                raise PlannerError("the evaluation was interrupted before the planner was asked")
            try:
                counts.asked += 1
                out = self._unlocked(lambda: self.planner.plan(request))
            except TransientPlannerError as exc:
                counts.errors.append(str(exc))
                if attempt == attempts:
                    self._failed(True)
                    raise PlannerError(f"{exc} (gave up after {attempts} attempt"
                                       f"{'s' if attempts > 1 else ''})") from exc
                with self._lock:
                    wait = self.policy.wait_s(attempt, exc.retry_after, self._rng)
                counts.retries += 1
                note(f"planner retry {attempt}/{attempts - 1} in {wait:.2f} s: {exc}",
                     {"retry": attempt, "wait_s": round(wait, 3), "error": str(exc),
                      "retry_after_s": exc.retry_after})
                self._unlocked(functools.partial(self.sleep, wait))
                continue
            except PlannerError as exc:
                counts.errors.append(str(exc))
                self._failed(False)
                raise
            self._failed(False)
            if key is not None and self.cache is not None:
                self.cache.put(key, self.planner.name, out)
            return out
        raise AssertionError("unreachable: the last attempt returns or raises")  # pragma: no cover

    def _unlocked(self, wait: Callable[[], T]) -> T:
        """``wait()`` (the planner's call, a backoff) without the engine lock: other missions
        go on meanwhile."""
        if self.engine is None:
            return wait()
        self.engine.release()
        try:
            return wait()
        finally:
            self.engine.acquire()

    def _failed(self, gave_up: bool) -> None:
        with self._lock:
            self._failed_in_a_row = self._failed_in_a_row + 1 if gave_up else 0


class MissionCalls(Planner):
    """The planner as one mission of the evaluation sees it (cached, retried, counted)."""

    def __init__(self, caller: Caller, sample: int) -> None:
        self.name = caller.planner.name
        self.replans = caller.planner.replans
        self.caller = caller
        self.sample = sample
        self.counts = Counts()
        self.journal: Journal | None = None
        self.mission_id: str | None = None

    def _propose(self, request: PlanningRequest) -> Proposal:
        out = self.caller.ask(request, self.sample, self.counts, self._note)
        return Proposal(out.raw, out.plan, out.usage, out.note, planning_s=out.planning_s)

    def _note(self, detail: str, data: dict[str, Any]) -> None:
        if self.journal is not None and self.mission_id is not None:
            self.journal.record(self.mission_id, EventKind.NOTE, detail=detail, data=data)
