"""The crew spec compiled into lookup tables the gate checks against, once per crew.

Everything here is derived from the spec objects (the same ones the planner context is rendered
from); nothing is declared twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from crewgate.gate.arguments import MISSING, ArgContext, read_param
from crewgate.gate.codes import Code
from crewgate.gate.verdict import Findings
from crewgate.spec import Crew, Skill, Workflow, split_ref
from crewgate.spec.params import BindingParam, Param, param_default, plan_fields
from crewgate.spec.workflow import ArgRule, OrderRule
from crewgate.text.vocabulary import Vocabulary


@dataclass(frozen=True, slots=True)
class CompiledSkill:
    robot: str
    name: str
    spec: Skill
    params: Mapping[str, Param]
    arg_names: frozenset[str]  # every plan argument name the skill accepts
    required: frozenset[str]
    defaults: Mapping[str, Any]
    binding_params: Mapping[str, BindingParam]

    @property
    def ref(self) -> str:
        return f"{self.robot}.{self.name}"

    def read_args(
        self, args: Mapping[str, Any], ctx: ArgContext, f: Findings
    ) -> tuple[dict[str, Any], frozenset[str]] | None:
        """Typed arguments with defaults filled in, and the names the plan gave; None when any
        argument is invalid."""
        where = self.ref
        before = len(f.items)
        unknown = [k for k in args if k not in self.arg_names]
        if unknown:
            takes = ", ".join(sorted(self.arg_names)) or "no arguments"
            f.add(Code.BAD_ARGUMENT, f"{where} takes no argument {', '.join(map(repr, unknown))} "
                  f"(it takes: {takes})")
        typed: dict[str, Any] = {}
        given: set[str] = set()
        for name, param in self.params.items():
            value = read_param(name, param, args, ctx, f, where)
            if value is MISSING:
                if name in self.required:
                    fields = ", ".join(plan_fields(name, param))
                    f.add(Code.MISSING_ARG, f"{where} needs argument {fields}")
                elif name in self.defaults:
                    typed[name] = self.defaults[name]
                continue
            typed[name] = value
            given.add(name)
        for_groups = self.spec.one_of
        if for_groups:
            complete = [g for g in for_groups if all(n in given for n in g)]
            if not complete:
                f.add(Code.MISSING_ARG, f"{where} needs one of: {_groups(self, for_groups)}")
            elif len(complete) > 1:
                f.add(Code.BAD_ARGUMENT, f"{where} takes one of {_groups(self, for_groups)}, "
                      "not several")
        # a value outside the area is still a well-typed value (later checks may use it)
        typing_failed = any(p.code is not Code.OUT_OF_BOUNDS for p in f.items[before:])
        return None if typing_failed else (typed, frozenset(given))


def _groups(skill: CompiledSkill, groups: list[list[str]]) -> str:
    return " or ".join(
        ", ".join(f for n in g for f in plan_fields(n, skill.params[n])) for g in groups
    )


@dataclass(frozen=True, slots=True)
class CompiledWorkflow:
    name: str
    spec: Workflow
    robots: frozenset[str]
    order_into: Mapping[str, tuple[OrderRule, ...]]  # step ref -> rules where it is `then`
    arg_rules: Mapping[str, Mapping[str, ArgRule]]


@dataclass(frozen=True, slots=True)
class CompiledCrew:
    crew: Crew
    skills: Mapping[tuple[str, str], CompiledSkill]
    workflows: Mapping[str, CompiledWorkflow]
    ctx: ArgContext
    producers: Mapping[str, frozenset[str]] = field(default_factory=dict)  # binding -> step refs


def compile_crew(crew: Crew) -> CompiledCrew:
    skills: dict[tuple[str, str], CompiledSkill] = {}
    for rname, robot in crew.robots.items():
        for sname, skill in robot.skills.items():
            skills[(rname, sname)] = _compile_skill(rname, sname, skill)
    workflows = {name: _compile_workflow(name, wf) for name, wf in crew.workflows.items()}
    ctx = ArgContext(
        areas=crew.area,
        locations=Vocabulary.build("location", crew.locations),
        objects=Vocabulary.build("object", crew.objects),
    )
    producers = {
        b: frozenset(f"{r}.{s}" for r, s in crew.producers(b)) for b in crew.bindings
    }
    return CompiledCrew(crew, skills, workflows, ctx, producers)


def _compile_skill(robot: str, name: str, skill: Skill) -> CompiledSkill:
    arg_names: set[str] = set()
    for pname, param in skill.params.items():
        arg_names.update(plan_fields(pname, param))
        arg_names.add(pname)
    defaults = {n: param_default(p) for n, p in skill.params.items()
                if param_default(p) is not None}
    return CompiledSkill(
        robot=robot,
        name=name,
        spec=skill,
        params=dict(skill.params),
        arg_names=frozenset(arg_names),
        required=frozenset(n for n in skill.params if skill.is_required(n)),
        defaults=defaults,
        binding_params={n: p for n, p in skill.params.items() if isinstance(p, BindingParam)},
    )


def _compile_workflow(name: str, wf: Workflow) -> CompiledWorkflow:
    order_into: dict[str, list[OrderRule]] = {}
    for rule in wf.order:
        order_into.setdefault(rule.then, []).append(rule)
    return CompiledWorkflow(
        name=name,
        spec=wf,
        robots=frozenset(wf.robots),
        order_into={k: tuple(v) for k, v in order_into.items()},
        arg_rules={ref: rule.args for ref, rule in wf.steps.items() if rule.args},
    )


__all__ = ["CompiledCrew", "CompiledSkill", "CompiledWorkflow", "compile_crew", "split_ref"]
