"""What checking a plan settles whatever the world: kept by the plan's content and its request.

Whole-plan validation has two parts. One depends only on the plan and the request: each step's
capability, typed arguments, containment and argument rules (:class:`Settled`), the workflow's
completeness and the request's rule over the plan and each step (:class:`SettledPlan`). The
other depends on the world: availability, preconditions, runtime bindings and the state each
step predicts. A planner's plans, an evaluation's conditions and faults, a replan and the
dispatches of one mission meet the same plans and requests again and again, so the first part
is kept (:class:`SettledPlans`), keyed by the plan's content (robots, skills, workflow and
arguments: every value with its type, so that ``1``, ``1.0`` and ``True``, or ``0.0`` and
``-0.0``, are different plans) and by the request's reading itself (the same object). A plan
with a value of no built-in type (a subclass of ``str``, any object of the caller's) is not
kept, only checked.

The second part is a function of what the plan is judged on: every robot's fields and where
each object is (and, for a plan that reads runtime bindings, the clock and the bindings). A
plan judged again on exactly that (the same bytes, :func:`exact`: an evaluation's plan met again
in its scenario's world, a planner checking the same proposal twice) gets the verdict it got;
a few are kept per plan (``KEPT_STATES``). Any change, however small, is another state.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any, NamedTuple, cast

from crewgate.codes import Code, Problem
from crewgate.gate.verdict import PlanVerdict, StepVerdict
from crewgate.plan import Plan
from crewgate.spec import Skill, Workflow
from crewgate.spec.intent import PlannedStep
from crewgate.text.request import RequestFacts
from crewgate.world import BindingValue

KEPT_PLANS = 2048  # plans kept per gate; the oldest half is dropped when full
# A step's content as a key: marshal's bytes at version 2 (no back-references nor interning
# marks, so equal values give equal bytes) tell every value apart (1, 1.0 and True; 0.0 and
# -0.0, its floats being binary; a list and a tuple) and take only the exact built-in types
# (a subclass of str or int, any other object: ValueError), in one C call.
_EXACT = 2
_dumps = cast(Callable[[object, int], bytes], marshal.dumps)  # any object: ValueError if unwritable
# a step's names, and its content, as a tuple (read in C)
_NAMES = attrgetter("robot", "skill")
_CONTENT = attrgetter("robot", "skill", "args")


class Settled(NamedTuple):
    """What checking a step settles whatever the state (:meth:`Gate.settle`): the skill, its
    typed arguments and the parameters the plan gave, the workflow (``progress``: the one whose
    transitions are checked, when the check runs under a request) and the problems found, by
    where they stand in the verdict: before the workflow's progress (capability, arguments,
    containment), its argument rules, and last the request's rule at dispatch. Immutable (a
    named tuple: one is built per step settled, in a fraction of a frozen dataclass's time)."""

    skill: Skill | None
    typed: dict[str, Any] | None
    given: frozenset[str]
    workflow: Workflow | None
    progress: Workflow | None
    before: tuple[Problem, ...]
    rules: tuple[Problem, ...]
    request: tuple[Problem, ...]
    # the step's verdict when nothing that can change adds a problem (see :func:`clean`)
    clean: StepVerdict | None = None
    # validating a plan: the step as its request sees it, and whether the request asks for
    # it itself (Intent.planned, Intent.direct): they depend on the step and the request alone
    planned: PlannedStep | None = None
    direct: bool = False


def clean(index: int, robot: str, skill: str, workflow: Workflow | None,
          problems: tuple[Problem, ...], deferred: tuple[str, ...] = ()) -> StepVerdict:
    """The verdict of step ``index`` with these problems (and bindings ``deferred`` to its
    dispatch). Built once per settled step with only its settled problems: what the gate
    gives whenever availability, preconditions, bindings and progress add nothing (most steps,
    most of the time); built afresh only when they do. A step is skipped, not refused, when
    its partial workflow's only problem with it is an unavailable robot."""
    skip = bool(workflow is not None and problems and workflow.partial
                and all(p.code is Code.ROBOT_UNAVAILABLE for p in problems))
    return StepVerdict(index, robot, skill, problems, deferred, skip)


class PlanShape(NamedTuple):
    """What a plan's workflow and its steps' robots and skills settle, whatever their arguments
    and the request: each step's ``robot.skill``, all of them, the plan-level problems of its
    workflow (unknown, incomplete), each step's transition problems (which follow from the
    steps before it), the crew's skill of each step's name (visible or not), how many first
    steps have their effects predicted (:meth:`Prediction.until`), the crew's robots named,
    whether a step reads runtime bindings, and the steps whose skill reads the world beyond
    availability (preconditions, bindings)."""

    refs: tuple[str, ...]
    planned: frozenset[str]
    problems: tuple[Problem, ...]
    transitions: tuple[tuple[Problem, ...], ...]
    skills: tuple[Skill | None, ...]
    until: int
    robots: tuple[str, ...]
    timed: bool
    readers: tuple[int, ...]


class SettledPlan(NamedTuple):
    """What validating a plan settles whatever the world: each step's :class:`Settled` (its
    workflow transition and the request's rule on it included), its ``robot.skill`` and the
    crew's skill of that name (visible or not: what its effects and bindings predict), and the
    plan-level problems (unknown workflow, completeness, the request's rule over the plan).
    ``until``: the steps before this index have their effects predicted (on a copy of the
    state; 0: none, and validation reads the live state). ``clean`` and ``verdict``: each
    step's clean verdict, and the plan's verdict when every step's is (the world adds nothing
    to them). ``still``: the world can add to a step only that its robot is unavailable (no
    step has preconditions or runtime bindings, none is predicted); ``robots``: the crew's
    robots the steps name, each once."""

    facts: RequestFacts
    refs: tuple[str, ...]
    planned: frozenset[str]
    steps: tuple[Settled, ...]
    skills: tuple[Skill | None, ...]
    problems: tuple[Problem, ...]
    until: int
    clean: tuple[StepVerdict, ...]
    verdict: PlanVerdict
    still: bool
    robots: tuple[str, ...]
    # a step reads runtime bindings: its verdict depends on the clock and what was published
    timed: bool
    # the plan's verdicts on the last states it was judged on (:func:`exact`)
    judged: dict[bytes, PlanVerdict]


KEPT_STATES = 4  # states a plan's verdicts are kept for; all dropped when full
# a state this long as bytes (a crew of many robots) is judged every time: what is kept stays
# small (KEPT_PLANS x KEPT_STATES x this, at most)
MAX_STATE_BYTES = 1024


def exact(robots: Mapping[str, Any], objects: Mapping[str, Any], now: float | None = None,
          bindings: Mapping[str, BindingValue] | None = None) -> bytes | None:
    """What a plan is judged on (every robot's fields and where each object is; when it reads
    runtime bindings, the clock and every binding too) as bytes that are equal only when that
    is (see ``_EXACT``); None when a value is of no built-in type (a backend's own number
    type) or when it is longer than ``MAX_STATE_BYTES``: then the verdict is not kept."""
    try:
        found = _dumps((robots, objects), _EXACT) if bindings is None else _dumps(
            (robots, objects, now, [(k, b.value, b.stamp, b.confidence, b.source)
                                    for k, b in bindings.items()]), _EXACT)
    except ValueError:
        return None
    return found if len(found) <= MAX_STATE_BYTES else None


def remember(settled: SettledPlan, state: bytes, verdict: PlanVerdict) -> None:
    """Keep the plan's verdict on this (:func:`exact`)."""
    judged = settled.judged
    if len(judged) >= KEPT_STATES:
        judged.clear()  # one call: concurrent validations of the plan may be keeping theirs
    judged[state] = verdict


class SettledPlans:
    """The settled part of the plans a gate validated last, and of their steps (a step's
    capability, arguments, containment and argument rules depend on the step, its workflow
    and the request, not on its place in the plan: plans share steps, a long plan repeats
    them); see the module's doc."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, bytes], SettledPlan] = {}
        self._steps: dict[tuple[str, bytes, bytes], tuple[RequestFacts, int, Settled]] = {}
        self.shapes: dict[bytes, PlanShape] = {}

    def shape_key(self, plan: Plan) -> bytes | None:
        """The plan's workflow and its steps' names (exact bytes), or None: not kept."""
        try:
            return _dumps((plan.workflow, list(map(_NAMES, plan.steps))), _EXACT)
        except ValueError:
            return None

    def put_shape(self, key: bytes, shape: PlanShape) -> None:
        if len(self.shapes) >= KEPT_PLANS:
            self.shapes.clear()
        self.shapes[key] = shape

    def key(self, plan: Plan, facts: RequestFacts) -> tuple[str, bytes] | None:
        """The plan's content and its request, or None for a plan that is not kept."""
        try:  # one C call, no Python work per value
            return facts.text, _dumps((plan.workflow, list(map(_CONTENT, plan.steps))), _EXACT)
        except ValueError:  # a value of another type than JSON's (a subclass included)
            return None

    @staticmethod
    def step_keys(plan: Plan, facts: RequestFacts) -> list[tuple[str, bytes, bytes]]:
        """Each step's key among the kept steps: its request, its plan's workflow and itself
        (for a plan that has a key: every value of it is written)."""
        workflow = _dumps(plan.workflow, _EXACT)
        return [(facts.text, workflow, _dumps(step, _EXACT))
                for step in map(_CONTENT, plan.steps)]

    def get(self, key: tuple[str, bytes] | None, facts: RequestFacts) -> SettledPlan | None:
        found = self._kept.get(key) if key is not None else None
        return found if found is not None and found.facts is facts else None

    def put(self, key: tuple[str, bytes] | None, settled: SettledPlan) -> None:
        if key is None:
            return
        if len(self._kept) >= KEPT_PLANS:
            for old in list(self._kept)[:KEPT_PLANS // 2]:
                self._kept.pop(old, None)  # another thread may have dropped it
        self._kept[key] = settled

    def step(self, key: tuple[str, bytes, bytes], index: int,
             facts: RequestFacts) -> Settled | None:
        """The step's settled checks (``key``: from :meth:`step_keys`), kept when a plan had
        the step under this request (its problems given this ``index``), or None."""
        found = self._steps.get(key)
        if found is None or found[0] is not facts:
            return None
        _, at, settled = found
        if at == index or not (settled.before or settled.rules):
            return settled
        return settled._replace(before=_at(settled.before, index),
                                rules=_at(settled.rules, index), clean=None)

    def put_step(self, key: tuple[str, bytes, bytes], index: int, facts: RequestFacts,
                 settled: Settled) -> None:
        if len(self._steps) >= KEPT_PLANS:
            for old in list(self._steps)[:KEPT_PLANS // 2]:
                self._steps.pop(old, None)
        self._steps[key] = (facts, index, settled)

    def clear(self) -> None:
        self._kept.clear()
        self._steps.clear()
        self.shapes.clear()


def _at(problems: tuple[Problem, ...], index: int) -> tuple[Problem, ...]:
    return tuple(Problem(p.code, p.detail, index) for p in problems)
