"""The gate: whole-plan validation and the per-step check shared with dispatch-time authorization.

Checks run in the order of the architecture: capability, arguments (with request containment),
contract, state, runtime bindings. Every check that can run does run, so a verdict lists every
reason at once (the replan feedback is complete); nothing here raises on bad input.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from crewgate.errors import did_you_mean
from crewgate.gate.codes import Code
from crewgate.gate.compiled import CompiledCrew, CompiledWorkflow, compile_crew
from crewgate.gate.contract import check_complete, check_step, skill_level_containment
from crewgate.gate.state import apply_effects, check_available, check_binding, check_preconditions
from crewgate.gate.verdict import Findings, PlanVerdict, Problem, StepVerdict
from crewgate.plan import ParseFailure, Plan, Step
from crewgate.spec import Crew
from crewgate.text.request import RequestFacts
from crewgate.world import BindingValue, World


class Mode(Enum):
    PLAN = "plan"  # whole-plan validation on predicted state
    DISPATCH = "dispatch"  # authorization of a plan step against live state
    FALLBACK = "fallback"  # a safe-fallback step: capability, arguments and state only


@dataclass(slots=True)
class StepCheck:
    """The outcome of checking one step: its verdict, typed arguments and resolved bindings."""

    verdict: StepVerdict
    typed: dict[str, Any] | None = None
    bindings: dict[str, BindingValue] = field(default_factory=dict)


class Gate:
    """The deterministic checker built from a crew spec. Stateless between calls; a mission's
    progress lives in a :class:`~crewgate.gate.session.MissionGate`."""

    def __init__(self, crew: Crew) -> None:
        self.crew = crew
        self.compiled: CompiledCrew = compile_crew(crew)

    def workflow(self, name: str | None) -> CompiledWorkflow | None:
        return self.compiled.workflows.get(name) if name is not None else None

    def validate(
        self, plan: Plan | ParseFailure, request: str | RequestFacts, world: World
    ) -> PlanVerdict:
        """The whole-plan verdict against the world as it is now (nothing moves here)."""
        if isinstance(plan, ParseFailure):
            return PlanVerdict(problems=tuple(
                Problem(Code.MALFORMED_PLAN, detail) for detail in plan.problems))
        facts = request if isinstance(request, RequestFacts) else RequestFacts.read(request)
        plan_level = Findings(None)
        wf = self.workflow(plan.workflow)
        if wf is None:
            self._unknown_workflow(plan.workflow, plan_level)
        state = world.copy_state()
        now = world.now()
        bindings = dict(world.bindings)
        started: Counter[str] = Counter()
        produced: set[str] = set()
        planned = frozenset(s.ref for s in plan.steps)
        verdicts: list[StepVerdict] = []
        for index, step in enumerate(plan.steps):
            check = self.check(
                index, step, Mode.PLAN, wf=wf, facts=facts, state=state, now=now,
                bindings=bindings, started=started, completed=started, planned=planned,
                produced=produced,
            )
            verdicts.append(check.verdict)
            started[step.ref] += 1
            compiled = self.compiled.skills.get((step.robot, step.skill))
            if compiled is not None:
                if check.typed is not None and step.robot in state:
                    apply_effects(compiled, check.typed, state)
                produced.update(compiled.spec.produces)
        if wf is not None:
            check_complete(wf, [s.ref for s in plan.steps], plan_level)
        return PlanVerdict(problems=tuple(plan_level.items), steps=tuple(verdicts),
                           workflow=plan.workflow)

    def _unknown_workflow(self, name: str | None, f: Findings) -> None:
        known = list(self.compiled.workflows)
        if name is None:
            f.add(Code.UNKNOWN_WORKFLOW, f"the plan names no workflow; use one of {known}")
        else:
            f.add(Code.UNKNOWN_WORKFLOW, f"workflow {name!r} is not a contract of crew "
                  f"{self.crew.name!r}{did_you_mean(name, known)} (known: {', '.join(known)})")

    def check(
        self,
        index: int,
        step: Step,
        mode: Mode,
        *,
        wf: CompiledWorkflow | None,
        facts: RequestFacts | None,
        state: Mapping[str, Mapping[str, Any]],
        now: float,
        bindings: Mapping[str, BindingValue],
        started: Counter[str],
        completed: Counter[str],
        planned: frozenset[str] = frozenset(),
        produced: set[str] | frozenset[str] = frozenset(),
    ) -> StepCheck:
        """Check one step; ``produced`` names bindings earlier plan steps will publish."""
        f = Findings(index)
        robot = self.crew.robots.get(step.robot)
        skill = self.compiled.skills.get((step.robot, step.skill))
        if robot is None:
            f.add(Code.UNKNOWN_ROBOT, f"robot {step.robot!r} is not in crew {self.crew.name!r}"
                  f"{did_you_mean(step.robot, self.crew.robots)}")
        elif skill is None or (mode is not Mode.FALLBACK and not skill.spec.visible):
            visible = [n for n, s in robot.skills.items() if s.visible]
            f.add(Code.UNKNOWN_SKILL, f"{step.robot} has no skill {step.skill!r}"
                  f"{did_you_mean(step.skill, visible)} (its skills: {', '.join(visible)})")
            skill = None
        read = skill.read_args(step.args, self.compiled.ctx, f) if skill is not None else None
        typed, given = read if read is not None else (None, frozenset[str]())
        if mode is not Mode.FALLBACK:
            if skill is not None and typed is not None and facts is not None:
                skill_level_containment(skill, typed, given, facts, self.compiled.ctx, f)
            if wf is not None and facts is not None:
                check_step(wf, step.robot, step.ref, skill, typed, given, started, completed,
                           planned, facts, self.compiled.ctx, f)
        resolved: dict[str, BindingValue] = {}
        if robot is not None and check_available(step.robot, state, f) and skill is not None \
                and typed is not None:
            check_preconditions(skill, typed, state, f)
            for pname in skill.binding_params:
                name = typed.get(pname)
                if name is None:
                    continue
                if mode is Mode.PLAN and name in produced:
                    continue  # published by an earlier step; checked at dispatch
                value = bindings.get(name)
                check_binding(name, self.crew.bindings[name], value, now, self.crew.area, f)
                if value is not None:
                    # passed on even when refused: with enforcement off the robot acts on it
                    resolved[name] = value
        deferred = tuple(
            typed[p] for p in (skill.binding_params if skill else ())
            if mode is Mode.PLAN and typed is not None and typed.get(p) in produced
        )
        skip = bool(wf is not None and wf.spec.partial and f.items
                    and all(p.code is Code.ROBOT_UNAVAILABLE for p in f.items))
        verdict = StepVerdict(index, step.robot, step.skill, tuple(f.items), deferred, skip)
        return StepCheck(verdict, typed, resolved)
