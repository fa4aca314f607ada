"""Workflow contracts: which robot-skill steps a kind of mission may contain, how often, in what
order, with which argument rules.

Each rule here renders itself for the planner (``describe``) and is checked by the gate through
the same object (``check``). The same checks serve whole-plan validation (counting the plan's
earlier steps) and per-dispatch authorization (counting the steps dispatched and completed).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from crewgate.codes import Code, Findings
from crewgate.spec.base import Name, Range, Rule, SpecModel, SpecProblems, StepRef
from crewgate.spec.cardinality import Cardinality, CardinalityField
from crewgate.spec.contracts import workflow_problems
from crewgate.spec.params import CrewContext
from crewgate.text.request import RequestFacts

Approval = Literal["none", "required", "two_person"]

if TYPE_CHECKING:
    from crewgate.spec.robots import Skill


class ArgRule(SpecModel, Rule):
    """A contract's rule on one argument of one step."""

    codes: ClassVar[frozenset[Code]] = frozenset(
        {Code.BINDING_REQUIRED, Code.MISSING_ARG, Code.SUBSTITUTED_VALUE, Code.OUT_OF_RANGE})

    from_request: bool = Field(
        False, description="The value must be one the request states (request containment)."
    )
    bind: Name | None = Field(
        None,
        description="The argument must refer to this runtime binding, never a literal value "
        "(binding_required).",
    )
    range: Range | None = Field(None, description="A tighter numeric range for this workflow.")
    required: bool = Field(False, description="The argument must be given in this workflow.")

    @field_validator("range")
    @classmethod
    def _ordered(cls, value: tuple[float, float] | None) -> tuple[float, float] | None:
        if value is not None and value[0] > value[1]:
            raise ValueError(f"range [{value[0]:g}, {value[1]:g}] is empty; write [low, high]")
        return value

    def describe(self, param: str) -> str:
        parts: list[str] = []
        if self.bind is not None:
            parts.append(f"{param} must be the runtime binding {self.bind!r}, never literal "
                         "values")
        if self.from_request:
            parts.append(f"{param} must be exactly what the request states")
        if self.required:
            parts.append(f"{param} is required")
        if self.range is not None:
            parts.append(f"{param} in [{self.range[0]:g}, {self.range[1]:g}]")
        return ", ".join(parts)

    def check(self, ref: str, workflow: str, pname: str, skill: Skill,
              typed: Mapping[str, Any], given: frozenset[str], facts: RequestFacts,
              ctx: CrewContext, f: Findings) -> None:
        param = skill.params[pname]
        value = typed.get(pname)
        if self.bind is not None:
            if value != self.bind:
                literal = [a for n in sorted(given) if n != pname and not skill.params[n].runtime
                           for a in skill.params[n].plan_fields(n)]
                instead = f"not literal {', '.join(literal)}" if literal else f"got {value!r}"
                f.add(Code.BINDING_REQUIRED, f"{ref} in {workflow!r} must use {pname}: "
                      f"{self.bind} (the runtime binding), {instead}")
            return
        if pname not in given:
            if self.required:
                f.add(Code.MISSING_ARG, f"{ref} in {workflow!r} needs "
                      f"{', '.join(param.plan_fields(pname))}")
            return
        if self.from_request:
            param.check_stated(pname, value, facts, ctx, f, ref)
        if self.range is not None and param.numeric and isinstance(value, int | float):
            lo, hi = self.range
            if not lo <= float(value) <= hi:
                f.add(Code.OUT_OF_RANGE, f"{ref}: {pname} {value:g} is outside [{lo:g}, {hi:g}] "
                      f"in workflow {workflow!r}")


class StepRule(SpecModel, Rule):
    """One allowed robot-skill step of a workflow: how often, with which argument rules."""

    codes: ClassVar[frozenset[Code]] = frozenset({Code.CARDINALITY, Code.MISSING_STEP})

    count: CardinalityField = Field(
        default_factory=lambda: Cardinality((1, 1)),
        description="How many times it may occur; a lower bound >= 1 makes it required.",
    )
    args: dict[Name, ArgRule] = Field(default_factory=dict, description="Argument rules.")
    description: str = Field("", description="Why this step is here, shown to the planner.")

    @field_validator("count")
    @classmethod
    def _possible(cls, value: Cardinality) -> Cardinality:
        if value.high == 0:
            raise ValueError("count 0 allows the step no occurrence; remove the step from the "
                             "workflow instead")
        return value

    def describe(self, ref: str) -> str:
        line = f"- {ref}: {self.count.describe()}"
        if self.description:
            line += f", {self.description}"
        rules = [rule.describe(p) for p, rule in self.args.items()]
        return line + ("; " + "; ".join(rules) if rules else "")

    def check(self, ref: str, workflow: str, occurrence: int, f: Findings) -> None:
        """The ``occurrence``-th time the step is planned or dispatched (1 for the first)."""
        high = self.count.high
        if high is not None and occurrence > high:
            f.add(Code.CARDINALITY, f"{ref} may occur {self.count.describe()} in {workflow!r}; "
                  f"this is occurrence {occurrence}")

    def check_planned(self, ref: str, workflow: str, planned: int, f: Findings) -> None:
        """The whole plan holds ``planned`` occurrences: enough of them?"""
        if planned >= self.count.low:
            return
        if planned == 0:
            f.add(Code.MISSING_STEP, f"workflow {workflow!r} requires {ref} "
                  f"({self.count.describe()}); the plan has none")
        else:
            f.add(Code.CARDINALITY, f"workflow {workflow!r} requires {ref} "
                  f"{self.count.describe()}; the plan has {planned}")


class OrderRule(SpecModel, Rule):
    """``then`` may only be dispatched after ``first`` has completed. Whether ``first`` must be
    planned at all is its count's business, so optional steps can be ordered too."""

    codes: ClassVar[frozenset[Code]] = frozenset({Code.ORDER_VIOLATION})

    first: StepRef = Field(description="The step that must complete first.")
    then: StepRef = Field(description="The step that must wait for it.")
    why: str = Field("", description="The reason, shown to the planner and in verdicts.")

    def describe(self) -> str:
        why = f" ({self.why})" if self.why else ""
        return f"- {self.then} only after {self.first} has completed{why}"

    def check(self, planned: Collection[str], completed: Mapping[str, int], f: Findings) -> None:
        if self.first in planned and not completed.get(self.first):
            why = f": {self.why}" if self.why else ""
            f.add(Code.ORDER_VIOLATION, f"{self.then} before {self.first} has completed{why}")


class Workflow(SpecModel, Rule):
    """A workflow contract: the only shapes a mission of this kind may take."""

    codes: ClassVar[frozenset[Code]] = frozenset({Code.BAD_ASSIGNMENT, Code.MISSING_STEP})

    description: str = Field(description="When to use this workflow, shown to the planner.")
    examples: list[str] = Field(
        default_factory=list, description="Example requests that call for this workflow."
    )
    aliases: list[str] = Field(
        default_factory=list,
        description="Words that ask for this workflow as a whole (abort: abort, call off the "
        "mission, stand down): a request that says one asks for each step the workflow allows, "
        "as a skill's alias asks for the skill (\"Abort the mission.\" names no robot nor "
        "action of its own). Shown to the planner.",
    )
    robots: list[Name] = Field(min_length=1, description="Robots that may take part.")
    steps: dict[StepRef, StepRule] = Field(
        min_length=1, description="The allowed robot-skill steps (a whitelist)."
    )
    order: list[OrderRule] = Field(default_factory=list, description="Ordering across steps.")
    min_steps: int = Field(1, ge=0, description="A plan needs at least this many steps.")
    partial: bool = Field(
        False,
        description="A safety workflow (abort): a step refused only because its robot is "
        "unavailable is skipped and journaled, and the other steps still run, so that an "
        "emergency stop stops what it can.",
    )
    approval: Approval = Field(
        "none",
        description="Whether a human must approve a mission of this workflow before anything "
        "moves: `none`; `required` (an operator approves each mission an agent or a service "
        "client submits: it waits as `awaiting_approval` until `crewgate approve MISSION`, the "
        "service's console or API); `two_person` (as `required`, and the approver must be "
        "another person than who submitted it). `true` and `false` mean `required` and `none`. "
        "Approval never overrides the gate: an approved plan is still authorized step by step "
        "at dispatch. An operator's own `crewgate run` is its own approval.",
    )

    @field_validator("approval", mode="before")
    @classmethod
    def _approval_flag(cls, value: object) -> object:
        if isinstance(value, bool):
            return "required" if value else "none"
        return value

    @model_validator(mode="after")
    def _check(self) -> Workflow:
        problems = list(workflow_problems(self))
        if problems:
            raise SpecProblems(problems)
        return self

    @cached_property
    def order_into(self) -> Mapping[str, tuple[OrderRule, ...]]:
        """Step ref -> the order rules where it is ``then``."""
        into: dict[str, list[OrderRule]] = {}
        for rule in self.order:
            into.setdefault(rule.then, []).append(rule)
        return {ref: tuple(rules) for ref, rules in into.items()}

    @cached_property
    def required(self) -> tuple[tuple[str, StepRule], ...]:
        """The steps a plan must hold (a count's lower bound of 1 or more), in their order: the
        only ones :meth:`check_complete` can find missing."""
        return tuple((ref, rule) for ref, rule in self.steps.items() if rule.count.low >= 1)

    def describe(self, name: str) -> str:
        out = [f"### {name}: {self.description.strip()}", f"Robots: {', '.join(self.robots)}.",
               "Steps:"]
        out += [rule.describe(ref) for ref, rule in self.steps.items()]
        if self.min_steps > 1 or (self.min_steps == 1
                                  and all(r.count.low == 0 for r in self.steps.values())):
            out.append(f"At least {self.min_steps} step(s).")
        out += [rule.describe() for rule in self.order]
        if self.partial:
            out.append("A step whose robot is unavailable is skipped; the other steps still run.")
        if self.aliases:
            out.append(f"Asked for as: {', '.join(self.aliases)}.")
        if self.examples:
            out.append("Example requests: " + " | ".join(repr(e) for e in self.examples))
        return "\n".join(out)

    def check(self, name: str, robot: str, ref: str, started: Mapping[str, int],
              completed: Mapping[str, int], planned: Collection[str], f: Findings
              ) -> StepRule | None:
        """Is step ``ref`` (of ``robot``) the next authorized transition, given the steps
        started (earlier in the plan, or dispatched) and completed so far? Its step rule, for
        the argument rules, when it is one of the contract's steps."""
        if robot not in self.robots:
            f.add(Code.BAD_ASSIGNMENT, f"{ref}: robot {robot!r} takes no part in workflow "
                  f"{name!r} (its robots: {', '.join(sorted(self.robots))})")
        rule = self.steps.get(ref)
        if rule is None:
            if robot in self.robots:
                f.add(Code.BAD_ASSIGNMENT, f"{ref} is not a step of workflow {name!r} "
                      f"(allowed: {', '.join(self.steps)})")
            return None
        rule.check(ref, name, started.get(ref, 0) + 1, f)
        for order in self.order_into.get(ref, ()):
            order.check(planned, completed, f)
        return rule

    def check_complete(self, name: str, refs: Sequence[str], f: Findings) -> None:
        """Plan-level: required steps present, lower bounds of counts met, enough steps."""
        counts: dict[str, int] = {}  # (a plan is a few steps: Counter's set-up costs more)
        for ref in refs:
            counts[ref] = counts.get(ref, 0) + 1
        for ref, rule in self.required:
            rule.check_planned(ref, name, counts.get(ref, 0), f)
        if len(refs) < self.min_steps:
            f.add(Code.MISSING_STEP, f"workflow {name!r} needs at least {self.min_steps} "
                  f"step(s); the plan has {len(refs)}")


__all__ = ["ArgRule", "Cardinality", "OrderRule", "StepRule", "Workflow"]
