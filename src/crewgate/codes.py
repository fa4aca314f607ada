"""The gate's closed vocabulary: every verdict code with its family and its meaning, in one table;
and how a check reports one (a :class:`Problem`, gathered in :class:`Findings`).

The codes sit below every package that judges (the parameter kinds and rules of the crew spec,
the gate) or reports (the journal, the CLI), so that each reads the same table. The table is the
enum itself: a code cannot exist without its family and its meaning, and docs/gate.md is checked
against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from crewgate.values import quick_init


class Family(StrEnum):
    GROUNDING = "grounding"  # the step names real robots, skills and well-typed arguments
    CONTRACT = "contract"  # the step fits the selected workflow contract and the request
    REQUEST = "request"  # the plan does what the request asks, no more, no less, no one else
    STATE = "state"  # the world, now, allows it (availability, preconditions, bindings)
    PLAN = "plan"  # the planner's output could not be read as a plan
    RUNTIME = "runtime"  # something happened during execution


class Code(StrEnum):
    """A verdict code: ``Code.X.value`` is what plans, journals and JSON carry."""

    family: Family
    meaning: str

    def __new__(cls, value: str, family: Family, meaning: str) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.family = family
        member.meaning = meaning
        return member

    @classmethod
    def named(cls, value: str) -> Code:
        """The code whose value is ``value`` ("unknown_robot"); ValueError if there is none."""
        for member in cls:
            if member.value == value:
                return member
        raise ValueError(f"{value!r} is not a verdict code (known: "
                         f"{', '.join(c.value for c in cls)})")

    # grounding: names and typed values
    UNKNOWN_ROBOT = ("unknown_robot", Family.GROUNDING,
                     "the plan names a robot the crew does not have")
    UNKNOWN_SKILL = ("unknown_skill", Family.GROUNDING,
                     "the robot has no such (planner-visible) skill")
    MISSING_ARG = ("missing_arg", Family.GROUNDING,
                   "a required argument, or every group of a `one_of`, is missing")
    UNEXPECTED_ARGUMENT = ("unexpected_argument", Family.GROUNDING,
                           "an argument the skill does not take (it would be silently ignored)")
    BAD_ARGUMENT = ("bad_argument", Family.GROUNDING,
                    "a value of the wrong type or form, not one of the accepted values, or "
                    "more than one group of a `one_of`")
    OUT_OF_RANGE = ("out_of_range", Family.GROUNDING,
                    "a number outside its parameter's range (or the workflow's tighter range)")
    UNKNOWN_LOCATION = ("unknown_location", Family.GROUNDING,
                        "a location that is neither a crew location nor one of its aliases")
    UNKNOWN_OBJECT = ("unknown_object", Family.GROUNDING,
                      "an object that is neither a crew object nor one of its aliases")
    OUT_OF_BOUNDS = ("out_of_bounds", Family.GROUNDING,
                     "a point or zone outside the operational area or inside a keep-out zone")
    # contract: the workflow and the request
    UNKNOWN_WORKFLOW = ("unknown_workflow", Family.CONTRACT,
                        "the plan names no workflow, or one the crew does not declare")
    BAD_ASSIGNMENT = ("bad_assignment", Family.CONTRACT,
                      "a robot that takes no part in the workflow, or a step outside its "
                      "whitelist")
    CARDINALITY = ("cardinality", Family.CONTRACT,
                   "a step occurs more (or, if present, fewer) times than its count allows")
    MISSING_STEP = ("missing_step", Family.CONTRACT,
                    "a required step is absent, or the plan has fewer steps than `min_steps`")
    ORDER_VIOLATION = ("order_violation", Family.CONTRACT,
                       "a step whose ordering prerequisite (planned) has not completed")
    SUBSTITUTED_VALUE = ("substituted_value", Family.CONTRACT,
                         "request containment: a location, object, point, zone, number or word "
                         "the request does not state")
    BINDING_REQUIRED = ("binding_required", Family.CONTRACT,
                        "a literal value where the contract requires a runtime binding")
    # request: the plan holds to the request in both directions
    SUBSTITUTED_ROBOT = ("substituted_robot", Family.REQUEST,
                         "the request gives an action or destination to a robot it names; the "
                         "plan gives it to another one")
    EXCLUDED_ROBOT = ("excluded_robot", Family.REQUEST,
                      "a robot the request rules out acts (\"do not send the rover\", "
                      "\"drone only\", \"keep the dog parked\")")
    NEGATED_STEP = ("negated_step", Family.REQUEST,
                    "a step does what the request says not to do, or goes where it says not "
                    "to go")
    UNREQUESTED_STEP = ("unrequested_step", Family.REQUEST,
                        "a step nothing in the request asks for, that the workflow does not "
                        "need for what it asks")
    DROPPED_REQUEST = ("dropped_request", Family.REQUEST,
                       "a destination, object, value or action the request states that no step "
                       "carries")
    RETRACTED_REQUEST = ("retracted_request", Family.REQUEST,
                         "the request takes back what it asked (\"never mind\", \"don't move "
                         "anything\"): nothing may move")
    BEYOND_BOUND = ("beyond_bound", Family.REQUEST,
                    "a value beyond a bound the request states (\"below 4 metres\", \"no "
                    "higher than 4 m\", \"at least 2 m\"), given or left to its default")
    NOTHING_ASKED = ("nothing_asked", Family.REQUEST,
                     "the request asks nothing to move now: it asks a question (\"how long "
                     "would ...?\"), supposes (\"what if ...\", \"the rover might ...\"), "
                     "tells what happened, asks for later (\"tomorrow\"), for a plan only "
                     "(\"don't execute it\"), leaves it to someone else (\"I'll drive there "
                     "myself\", \"tell the medics to go\") or asks it of a robot the crew "
                     "does not have (\"send the boat to ...\")")
    UNCLEAR_NEGATION = ("unclear_negation", Family.REQUEST,
                        "the request rules something out, and the gate cannot tell what")
    UNCLEAR_PLACE = ("unclear_place", Family.REQUEST,
                     "the request names a place the gate cannot tell: a part of space (\"the "
                     "western half of ...\", \"except the northern half\", \"avoiding the "
                     "lake\") or a place said from another (\"2 m north of x 2, y 3\", \"10 "
                     "feet from room_b\")")
    OUT_OF_ORDER = ("out_of_order", Family.REQUEST,
                    "the plan does an action before one the request asks to be done first "
                    "(\"land the drone, then stop the rover\")")
    # state: the world now
    ROBOT_UNAVAILABLE = ("robot_unavailable", Family.STATE, "the robot is down or silent")
    PRECONDITION_FAILED = ("precondition_failed", Family.STATE,
                           "a precondition of the skill does not hold (now, or as predicted)")
    NO_TARGET_FIX = ("no_target_fix", Family.STATE,
                     "the binding is absent, not finite, or below its minimum confidence")
    STALE_BINDING = ("stale_binding", Family.STATE, "the binding is older than its `max_age_s`")
    FUTURE_BINDING = ("future_binding", Family.STATE,
                      "the binding is stamped later than now plus its `max_skew_s` (the "
                      "publisher's clock runs ahead), or its stamp is not a time")
    BINDING_OUT_OF_BOUNDS = ("binding_out_of_bounds", Family.STATE,
                             "the binding lies outside the area or inside a keep-out zone")
    # plan
    MALFORMED_PLAN = ("malformed_plan", Family.PLAN,
                      "no plan could be read from the planner's output (or it exceeds a bound "
                      "of the parser: size, nesting, steps, arguments, name length)")
    PLAN_TOO_LONG = ("plan_too_long", Family.PLAN,
                     "the plan has more steps than the crew's `max_steps`; none of them is "
                     "judged")
    # runtime
    OFF_PLAN = ("off_plan", Family.RUNTIME,
                "a step presented for dispatch is not the validated plan's step at that index")
    AUTHORIZATION_EXPIRED = ("authorization_expired", Family.RUNTIME,
                             "the step's authorization was older than the crew's "
                             "`dispatch_window_s` when it was to be sent; nothing was sent")


def codes_table() -> str:
    """The table of docs/gate.md: every code, its family and its meaning."""
    rows = ["| family | code | meaning |", "|---|---|---|"]
    rows += [f"| {c.family.value} | `{c.value}` | {c.meaning} |" for c in Code]
    return "\n".join(rows) + "\n"


@quick_init
@dataclass(frozen=True, slots=True)
class Problem:
    """One reason to refuse: a machine-readable code and a sentence for people and planners."""

    code: Code
    detail: str
    index: int | None = None  # the step it concerns; None for the plan as a whole

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "code": self.code.value, "detail": self.detail}


class Findings:
    """Accumulates the problems of one step (or of the plan, index None) while checks run. A
    plain class: the gate builds several per step it checks, and a dataclass's generated
    ``__init__`` (its default factory) costs twice as much."""

    __slots__ = ("index", "items")

    def __init__(self, index: int | None, items: list[Problem] | None = None) -> None:
        self.index = index
        self.items: list[Problem] = [] if items is None else items

    def __repr__(self) -> str:
        return f"Findings(index={self.index!r}, items={self.items!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Findings):
            return NotImplemented
        return (self.index, self.items) == (other.index, other.items)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def add(self, code: Code, detail: str) -> None:
        self.items.append(Problem(code, detail, self.index))

    def since(self, mark: int) -> list[Problem]:
        """The problems added after ``mark`` (a former ``len(findings.items)``)."""
        return self.items[mark:]

    def __bool__(self) -> bool:
        return bool(self.items)
