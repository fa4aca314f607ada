"""The Mission Planner: what a planner is asked, what it answers, and the base class that owns
everything around a backend's call. A planner proposes; it never actuates.

A planner gets the request, the rendered context, the plan JSON Schema and, on a replan, the
gate's structured feedback; it returns its raw output, the parsed plan, the time its own call
took, and token usage where known.

``Planner.plan`` is the framework's method (the backends never override it): it runs the
backend's hook ``_propose``, times it, parses the raw answer when the hook did not, keeps the
token counts that are known, and translates whatever else the backend raised into a
``PlannerError`` through one hook, ``_translate``. The orchestrator records a ``PlannerError``
and turns it into a refused mission; nothing moves. A backend's options are a pydantic model
(``Options``), parsed by the framework (see ``crewgate.planners.options``).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from crewgate.errors import PlannerError, UserError
from crewgate.plan import ParseFailure, Plan, parse_plan
from crewgate.planners.options import PlannerOptions, parse_options
from crewgate.spec import Crew

TOTAL = "total_tokens"


@dataclass(frozen=True, slots=True)
class PlanningRequest:
    request: str
    crew: Crew
    context: str
    plan_schema: Mapping[str, Any]
    condition: str = "ro"
    attempt: int = 1
    feedback: Sequence[Mapping[str, Any]] = ()  # gate problems: {"index", "code", "detail"}
    previous_output: str = ""  # the raw output the feedback is about (on a replan)
    scenario: str | None = None  # set by the evaluation harness (replay matches on it)


@dataclass(frozen=True, slots=True)
class PlannerOutput:
    raw: str
    plan: Plan | ParseFailure
    planning_s: float
    usage: Mapping[str, int] = field(default_factory=dict)
    note: str = ""  # why the planner proposes no plan (e.g. no workflow fits the request)


MAX_STORED_RAW_CHARS = 1_000_000  # a stored answer longer than this is not trusted


def stored_output(raw: object, spent: object, usage: object, note: object,
                  failure: object = None) -> PlannerOutput | None:
    """A planner's answer as kept in a file crewgate wrote (the evaluation's response cache,
    its held plans), or None when the stored values are not one (never trusted further than
    their shape: a damaged or foreign file): raw text, a finite planning time in seconds,
    token counts, a note, and the parse failure's problems when the answer was kept as one."""
    if (not isinstance(raw, str) or len(raw) > MAX_STORED_RAW_CHARS
            or not isinstance(note, str)
            or not isinstance(spent, int | float) or isinstance(spent, bool)
            or not 0 <= spent < 1e6 or not isinstance(usage, Mapping)
            or not all(isinstance(k, str) and type(v) is int and v >= 0
                       for k, v in usage.items())):
        return None
    if failure is not None and not (isinstance(failure, list)
                                    and all(isinstance(p, str) for p in failure)):
        return None
    plan = ParseFailure(tuple(failure), raw) if failure else parse_plan(raw)
    return PlannerOutput(raw, plan, float(spent), dict(usage), note)


@dataclass(frozen=True, slots=True)
class Proposal:
    """What a backend's ``_propose`` returns.

    ``plan`` is None when the framework should parse ``raw`` (tolerantly: malformed text is a
    ``ParseFailure``, never an error). ``usage`` holds the token counts the backend read, None
    where unknown. ``planning_s`` is None unless the time to report is not the time the call
    took (replay reports the recorded time of the original call).
    """

    raw: str
    plan: Plan | ParseFailure | None = None
    usage: Mapping[str, int | None] = field(default_factory=dict)
    note: str = ""
    planning_s: float | None = None


class Planner(ABC):
    """A Mission Planner backend. Subclasses set ``name`` and ``Options`` and implement
    ``from_options`` and ``_propose``; they may override ``_prepare`` and ``_translate``."""

    name: str
    Options: ClassVar[type[PlannerOptions]] = PlannerOptions  # what the backend takes
    # whether asking again, with the gate's feedback, can get another answer: a planner that
    # reads neither the feedback nor the attempt, and answers a request the same every time,
    # is not asked again after a refusal (the mission's replan would repeat its answer)
    replans: bool = True

    @classmethod
    def from_options(cls, crew: Crew, options: Any) -> Self:
        """The planner for ``crew`` configured by ``options``, an instance of ``cls.Options``
        (``build`` validates it first). Every backend registered as an entry point implements
        it; a planner made only in code (a test double) need not."""
        raise NotImplementedError(f"{cls.__name__} is not built from options; construct it")

    @classmethod
    def build(cls, crew: Crew, values: Mapping[str, object] | None = None) -> Self:
        """The planner from option values by name: unknown names and bad values are
        ``UserError``s that name the option and what the backend takes."""
        return cls.from_options(crew, parse_options(cls.name, cls.Options, values or {}))

    def plan(self, request: PlanningRequest) -> PlannerOutput:
        """Propose a plan for ``request``. Raises ``PlannerError`` when no answer came (and
        ``UserError`` for a configuration mistake found only now); never anything else."""
        try:
            self._prepare(request)
            start = time.perf_counter()
            proposal = self._propose(request)
            elapsed = time.perf_counter() - start
        except (PlannerError, UserError):
            raise
        except Exception as exc:
            raise self._translate(exc) from exc
        plan = parse_plan(proposal.raw) if proposal.plan is None else proposal.plan
        spent = elapsed if proposal.planning_s is None else proposal.planning_s
        return PlannerOutput(proposal.raw, plan, spent, token_counts(proposal.usage),
                             proposal.note)

    def _prepare(self, request: PlanningRequest) -> None:
        """Work done before the clock starts (loading a model, compiling a grammar): one-time
        costs that are not the planner's answer time. Nothing by default."""

    @abstractmethod
    def _propose(self, request: PlanningRequest) -> Proposal:
        """The backend's call: ask the model (or the script, or the records) for an answer.
        Raise ``PlannerError`` when there is none; let third-party exceptions through to
        ``_translate``."""

    def _translate(self, exc: Exception) -> PlannerError:
        """A backend's exception as a PlannerError that says what to do (override per
        backend; this one names the exception)."""
        return PlannerError(f"the {self.name} planner failed: {type(exc).__name__}: {exc}")


def token_counts(counts: Mapping[str, int | None]) -> dict[str, int]:
    """The token counts that are known; ``total_tokens`` added as the sum of the others when
    the backend did not report it and every other count is known."""
    known = {k: int(v) for k, v in counts.items()
             if isinstance(v, int) and not isinstance(v, bool)}
    parts = [k for k in counts if k != TOTAL]
    if TOTAL not in known and parts and all(k in known for k in parts):
        known[TOTAL] = sum(known[k] for k in parts)
    return known


def feedback_text(feedback: Sequence[Mapping[str, Any]]) -> str:
    """Replan feedback as text for language models: one refused step per line."""
    lines = ["The Robot Orchestrator refused your plan:"]
    for item in feedback:
        where = "plan" if item.get("index") is None else f"step {item['index']}"
        lines.append(f"- {where}: {item['code']}: {item['detail']}")
    lines.append("Propose a corrected plan that fixes every problem, as one JSON object. If the "
                 "request cannot be done safely with this crew, answer with an empty list of "
                 "steps.")
    return "\n".join(lines)
