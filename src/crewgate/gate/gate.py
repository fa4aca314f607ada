"""The gate: whole-plan validation and the per-step check shared with dispatch-time authorization.

Checks run in the order of the architecture: capability, arguments (with request containment),
contract, state, runtime bindings. Each check is a rule object of the crew spec (a parameter
kind, a skill, a workflow and its step, argument and order rules, a precondition, a binding):
the gate decides which rules apply in which mode and in what order, the rules do the checking.
Every check that can run does run, so a verdict lists every reason at once (the replan feedback
is complete); nothing here raises on bad input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from operator import is_
from types import MappingProxyType
from typing import Any, cast

from crewgate.codes import Code, Findings, Problem
from crewgate.gate.predict import Prediction
from crewgate.gate.settled import (
    PlanShape,
    Settled,
    SettledPlan,
    SettledPlans,
    clean,
    exact,
    remember,
)
from crewgate.gate.unknown import Unknown
from crewgate.gate.verdict import PlanVerdict, StepVerdict
from crewgate.plan import ParseFailure, Plan, Step
from crewgate.spec import Crew
from crewgate.spec.expressions import State
from crewgate.spec.intent import Held, PlannedStep, Typed
from crewgate.text.request import RequestFacts
from crewgate.values import tuple_of
from crewgate.world import BindingValue, World

# no progress: a plan's transitions are settled with the plan
_NONE: Mapping[str, int] = MappingProxyType({})
_NO_PARAMS: frozenset[str] = frozenset()

# The codes the gate gives itself; every other code is given by a rule of the crew spec.
GATE_CODES = frozenset({Code.MALFORMED_PLAN, Code.PLAN_TOO_LONG, Code.UNKNOWN_WORKFLOW,
                        Code.UNKNOWN_ROBOT,
                        Code.UNKNOWN_SKILL, Code.ROBOT_UNAVAILABLE, Code.OFF_PLAN,
                        Code.AUTHORIZATION_EXPIRED})


class Mode(Enum):
    PLAN = "plan"  # whole-plan validation on predicted state
    DISPATCH = "dispatch"  # authorization of a plan step against live state
    FALLBACK = "fallback"  # a safe-fallback step: capability, arguments and state only


@dataclass(slots=True)
class StepCheck:
    """The outcome of checking one step: its verdict, typed arguments (and the parameters the
    plan gave) and resolved bindings."""

    verdict: StepVerdict
    typed: dict[str, Any] | None = None
    bindings: dict[str, BindingValue] = field(default_factory=dict)
    given: frozenset[str] = frozenset()


class Gate:
    """The deterministic checker built from a crew spec. Stateless between calls; a mission's
    progress lives in a :class:`~crewgate.gate.session.MissionGate`."""

    def __init__(self, crew: Crew) -> None:
        self.crew = crew
        self.ctx = crew.context
        self.intent = crew.intent
        # compiled once per crew: each skill's request-held parameters, its effects
        # (crewgate.gate.predict) and the refusals of names a plan gets wrong
        self._stated = {id(skill): tuple((p, k) for p, k in skill.params.items()
                                         if k.from_request)
                        for robot in crew.robots.values() for skill in robot.skills.values()}
        self.prediction = Prediction(crew)
        self.unknown = Unknown(crew)
        self._robots, self._bindings, self._area = crew.robots, crew.bindings, crew.area
        self.settled_plans = SettledPlans()

    def held_to(self, plan: Plan, facts: RequestFacts,
                typed: Sequence[Typed] | None = None) -> Held:
        """The plan held to its request (see :meth:`Intent.hold`)."""
        return self.intent.hold(plan.workflow, [(s.robot, s.skill, s.args) for s in plan.steps],
                                facts, typed)

    def validate(
        self, plan: Plan | ParseFailure, request: str | RequestFacts, world: World
    ) -> PlanVerdict:
        """The whole-plan verdict against the world as it is now (nothing moves here)."""
        if isinstance(plan, ParseFailure):
            return PlanVerdict(problems=tuple(
                Problem(Code.MALFORMED_PLAN, detail) for detail in plan.problems))
        if len(plan.steps) > self.crew.max_steps:
            return PlanVerdict(problems=(Problem(
                Code.PLAN_TOO_LONG, f"the plan has {len(plan.steps)} steps; crew "
                f"{self.crew.name!r} reads plans of at most {self.crew.max_steps} (max_steps)"),),
                workflow=plan.workflow)
        facts = request if isinstance(request, RequestFacts) else RequestFacts.read(request)
        key = self.settled_plans.key(plan, facts)
        settled = self.settled_plans.get(key, facts)
        if settled is None:
            settled = self.settle_plan(plan, facts, key)
            self.settled_plans.put(key, settled)
        if settled.still:
            with world.lock:  # only availability can refuse a step: checked alone
                robots = world.robots
                for robot in settled.robots:
                    if robots[robot].get("available", True) is not True:
                        break
                else:
                    return settled.verdict
        copy: dict[str, dict[str, Any]] | None = None
        with world.lock:
            # what the plan is judged on, as bytes: judged again on the same, it gets the
            # verdict it got (the clock and the bindings as published now, judged and kept
            # alike, are part of it when a step reads bindings)
            if settled.timed:
                now, bindings = world.now(), dict(world.bindings)
                seen = exact(world.robots, world.objects, now, bindings)
            else:
                seen = exact(world.robots, world.objects)
            if seen is not None:
                found = settled.judged.get(seen)
                if found is not None:
                    return found
            if not settled.timed:
                now, bindings = world.now(), world.bindings
            if settled.until:
                copy = world.copy_state()  # to predict on; judged after the lock is let go
            else:  # nothing to predict: the live state, read as authorization reads it
                verdict = self._judged_plan(plan, settled, world.state_view(), None, now,
                                            bindings)
        if copy is not None:
            verdict = self._judged_plan(plan, settled, copy, copy, now, bindings)
        if seen is not None:
            remember(settled, seen, verdict)
        return verdict

    def _judged_plan(self, plan: Plan, settled: SettledPlan, state: State,
                     copy: dict[str, dict[str, Any]] | None, now: float,
                     bindings: Mapping[str, BindingValue]) -> PlanVerdict:
        """The plan judged on ``state`` (``copy``: the same, a copy into which each step's
        effects are written for the steps after it)."""
        produced: set[str] = set()
        verdicts: list[StepVerdict] = []
        last = len(plan.steps) - 1
        for index, step in enumerate(plan.steps):
            at = settled.steps[index]
            verdicts.append(self._judged(at, index, step, Mode.PLAN, plan.workflow, state, now,
                                         bindings, _NONE, _NONE, settled.planned, produced))
            skill = settled.skills[index]
            if skill is not None and index < last:  # what the last step leaves, none reads
                if copy is not None and index < settled.until and at.typed is not None \
                        and step.robot in copy:
                    self.prediction.after(skill, step.robot, at.typed, copy)
                if skill.produces:
                    produced.update(skill.produces)
        if all(map(is_, verdicts, settled.clean)):
            return settled.verdict  # every step as settled: the verdict built with the plan
        return PlanVerdict(problems=settled.problems, steps=tuple(verdicts),
                           workflow=plan.workflow)

    def settle_plan(self, plan: Plan, facts: RequestFacts,
                    key: tuple[str, bytes] | None = None) -> SettledPlan:
        """What validating the plan under this request settles whatever the world (see
        :mod:`crewgate.gate.settled`): each step's settled checks, with the workflow's
        transitions (which, in a plan, follow from the steps before it) among its rules and
        the request's rule on it last, and the plan-level problems. ``key``: the plan's
        (:meth:`SettledPlans.key`; None: it is not kept, nor are its steps' checks)."""
        shape = self.shape(plan)
        kept = self.settled_plans
        keys = kept.step_keys(plan, facts) if key is not None else None
        steps = []
        for index, step in enumerate(plan.steps):
            settled = kept.step(keys[index], index, facts) if keys is not None else None
            if settled is None:
                settled = self.settle(index, step, Mode.PLAN, workflow=plan.workflow,
                                      facts=facts)
                if keys is not None:
                    kept.put_step(keys[index], index, facts, settled)
            steps.append(settled)
        held = self.intent.held(cast(list[PlannedStep], [s.planned for s in steps]), facts,
                                [s.direct for s in steps])  # PLAN mode: every step's made
        # no step is the answer to a request that takes back or asks nothing: why the plan is
        # refused is the request's, not that it names no workflow
        answered = not steps and (held.brief.retracted is not None
                                  or held.brief.idle is not None)
        plan_level = Findings(None, [] if answered else list(shape.problems))
        self.intent.check_plan(held.brief, held.steps, plan_level)
        verdicts: list[StepVerdict] = []  # each step's, when nothing that can change adds to it
        for index, (step, settled) in enumerate(zip(plan.steps, steps, strict=True)):
            found = Findings(index)  # the request's rule
            self.intent.check(held.brief, held.steps, index, held.asked, found)
            # a problem under the request's rule is never a skippable one: judge's skip holds
            rules = (*shape.transitions[index], *settled.rules)
            requested = tuple(found.items)
            verdicts.append(clean(index, step.robot, step.skill, settled.workflow,
                                  (*settled.before, *rules, *requested)))
            steps[index] = tuple_of(Settled, (settled.skill, settled.typed, settled.given,
                                              settled.workflow, None, settled.before, rules,
                                              requested, verdicts[-1], settled.planned,
                                              settled.direct))
        problems = tuple(plan_level.items)
        # the world adds to no step but through its robot's availability (no preconditions,
        # runtime bindings or predicted state to read): validation checks just that
        still = not shape.until and not any(
            steps[i].skill is not None and steps[i].typed is not None for i in shape.readers)
        verdict = PlanVerdict(problems=problems, steps=tuple(verdicts), workflow=plan.workflow)
        return tuple_of(SettledPlan, (facts, shape.refs, shape.planned, tuple(steps),
                                      shape.skills, problems, shape.until, verdict.steps, verdict,
                                      still, shape.robots, shape.timed, {}))

    def shape(self, plan: Plan) -> PlanShape:
        """What the plan's workflow and its steps' names settle, whatever their arguments and
        the request (kept per workflow and names: plans share them, see PlanShape)."""
        key = self.settled_plans.shape_key(plan)
        found = self.settled_plans.shapes.get(key) if key is not None else None
        if found is not None:
            return found
        workflow = plan.workflow
        plan_level = Findings(None)
        wf = self.crew.workflows.get(workflow) if workflow is not None else None
        if wf is None:
            self.unknown.workflow(workflow, plan_level)
        steps = plan.steps
        refs = tuple([s.ref for s in steps])
        planned = frozenset(refs)
        transitions: list[tuple[Problem, ...]]
        if wf is not None and workflow is not None:
            wf.check_complete(workflow, refs, plan_level)
            started: dict[str, int] = {}
            transitions = []
            for index, step in enumerate(steps):
                at = Findings(index)  # the workflow's transition, given the steps before
                ref = refs[index]
                wf.check(workflow, step.robot, ref, started, started, planned, at)
                started[ref] = started.get(ref, 0) + 1
                transitions.append(tuple(at.items))
        else:
            transitions = [()] * len(refs)
        # the crew's skill of each step's name, visible or not: what its effects predict
        robots, skill_of = self._robots, self.crew.skill
        skills = tuple([skill_of(s.robot, s.skill) for s in steps])
        timed, readers = False, []
        for index, skill in enumerate(skills):
            if skill is not None and (skill.preconditions or skill.binding_params):
                readers.append(index)
                timed = timed or bool(skill.binding_params)
        shape = PlanShape(
            refs, planned, tuple(plan_level.items), tuple(transitions), skills,
            self.prediction.until(skills),
            tuple(dict.fromkeys([s.robot for s in steps if s.robot in robots])), timed,
            tuple(readers))
        if key is not None:
            self.settled_plans.put_shape(key, shape)
        return shape

    def check(
        self,
        index: int,
        step: Step,
        mode: Mode,
        *,
        workflow: str | None,
        facts: RequestFacts | None,
        state: State,
        now: float,
        bindings: Mapping[str, BindingValue],
        started: Mapping[str, int],
        completed: Mapping[str, int],
        planned: frozenset[str] = frozenset(),
        produced: set[str] | frozenset[str] = frozenset(),
        held: Held | None = None,
    ) -> StepCheck:
        """Check one step; ``produced`` names bindings earlier plan steps will publish; ``held``
        (at dispatch) holds the step to its request, as whole-plan validation did."""
        settled = self.settle(index, step, mode, workflow=workflow, facts=facts, held=held)
        return self.judge(settled, index, step, mode, workflow, state, now, bindings, started,
                          completed, planned, produced)

    def settle(self, index: int, step: Step, mode: Mode, *, workflow: str | None,
               facts: RequestFacts | None, held: Held | None = None) -> Settled:
        """What checking the step settles whatever the state and the mission's progress:
        capability, arguments, request containment, the workflow's argument rules and (at
        dispatch) the request's rule. A plan is immutable, so a mission settles each of its
        steps once (:class:`~crewgate.gate.session.MissionGate`)."""
        f = Findings(index)
        ref = step.ref
        skill = self.unknown.skill(step, mode is not Mode.FALLBACK, f)
        checked = skill.check(step.args, self.ctx, f, ref) if skill is not None else None
        typed, given = checked if checked is not None else (None, _NO_PARAMS)
        wf = self.crew.workflows.get(workflow) if workflow is not None else None
        progress = rule = None
        rules = Findings(index)
        brief = None
        if mode is not Mode.FALLBACK and facts is not None:
            # what the request states where it asks (a value named only in a question, "how
            # far is x 5, y 5?", is none a step may take)
            brief = self.intent.brief(facts.text)
            stated = brief.asked_facts or facts
            if skill is not None and typed is not None:
                for pname, param in self._stated[id(skill)]:
                    if pname in given:  # a default is no substitution
                        param.check_stated(pname, typed[pname], stated, self.ctx, f, ref)
            if wf is not None and workflow is not None:
                progress = wf
                rule = wf.steps.get(ref)  # what Workflow.check returns
                if rule is not None and skill is not None and typed is not None:
                    for pname, arg in rule.args.items():
                        arg.check(ref, workflow, pname, skill, typed, given, stated, self.ctx,
                                  rules)
        requested: tuple[Problem, ...] = ()
        if held is not None and mode is Mode.DISPATCH and index < len(held.steps):
            request = Findings(index)
            self.intent.check(held.brief, held.steps, index, held.asked, request, dispatch=True)
            requested = tuple(request.items)
        before, ruled = tuple(f.items), tuple(rules.items)
        if mode is Mode.PLAN:  # its verdict comes when the plan is settled (settle_plan)
            planned = self.intent.planned(workflow, step.robot, step.skill, step.args,
                                          (typed, given), skill, rule)
            direct = brief is not None and facts is not None and self.intent.direct(
                brief, planned, facts)
            return tuple_of(Settled, (skill, typed, given, wf, progress, before, ruled,
                                      requested, None, planned, direct))
        return tuple_of(Settled, (skill, typed, given, wf, progress, before, ruled, requested,
                                  clean(index, step.robot, step.skill, wf,
                                        (*before, *ruled, *requested)), None, False))

    def judge(self, settled: Settled, index: int, step: Step, mode: Mode,
              workflow: str | None, state: State, now: float,
              bindings: Mapping[str, BindingValue], started: Mapping[str, int],
              completed: Mapping[str, int], planned: frozenset[str] = frozenset(),
              produced: set[str] | frozenset[str] = frozenset()) -> StepCheck:
        """The step's verdict now: its settled problems, in the order of the checks, with
        what can change since (the workflow's progress, availability, preconditions,
        runtime bindings); with its typed arguments and the bindings it resolved."""
        resolved: dict[str, BindingValue] = {}
        verdict = self._judged(settled, index, step, mode, workflow, state, now, bindings,
                               started, completed, planned, produced, resolved)
        return StepCheck(verdict, settled.typed, resolved, settled.given)

    def _judged(self, settled: Settled, index: int, step: Step, mode: Mode,
                workflow: str | None, state: State, now: float,
                bindings: Mapping[str, BindingValue], started: Mapping[str, int],
                completed: Mapping[str, int], planned: frozenset[str],
                produced: set[str] | frozenset[str],
                resolved: dict[str, BindingValue] | None = None) -> StepVerdict:
        """:meth:`judge`'s verdict (``resolved``, when given, receives the bindings read)."""
        skill, typed = settled.skill, settled.typed
        progress: list[Problem] = []  # (a plan's transitions are settled with the plan)
        if settled.progress is not None and workflow is not None:
            found = Findings(index, progress)
            settled.progress.check(workflow, step.robot, step.ref, started, completed, planned,
                                   found)
        live: list[Problem] = []
        deferred: list[str] = []
        robot = step.robot
        if robot not in self._robots:
            pass
        elif state[robot].get("available", True) is not True:
            live.append(Problem(Code.ROBOT_UNAVAILABLE, f"robot {robot!r} is unavailable", index))
        elif skill is not None and typed is not None and (skill.preconditions
                                                          or skill.binding_params):
            found = Findings(index, live)
            if skill.preconditions:
                skill.check_preconditions(step.ref, robot, typed, state, found)
            for pname in skill.binding_params:
                name = typed.get(pname)
                if name is None:
                    continue
                if mode is Mode.PLAN and name in produced:
                    deferred.append(name)  # published by an earlier step; checked at dispatch
                    continue
                value = bindings.get(name)
                self._bindings[name].check(name, value, now, self._area, found)
                if value is not None and resolved is not None:
                    # passed on even when refused: with enforcement off the robot acts on it
                    resolved[name] = value
        if settled.clean is not None and not (progress or live or deferred):
            return settled.clean
        return clean(index, robot, step.skill, settled.workflow,
                     (*settled.before, *progress, *settled.rules, *live, *settled.request),
                     tuple(deferred))


__all__ = ["GATE_CODES", "Gate", "Mode", "Settled", "StepCheck"]
