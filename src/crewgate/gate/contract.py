"""Workflow-contract checks: is this step the next authorized transition of the contract?

Owns bad_assignment, cardinality, missing_step, order_violation, binding_required and the
contract's argument rules (containment -> substituted_location, ranges, required arguments).
The same function serves whole-plan validation (counting the plan's earlier steps) and
per-dispatch authorization (counting the steps dispatched and completed so far).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from crewgate.gate.arguments import ArgContext, contained, describe_value
from crewgate.gate.codes import Code
from crewgate.gate.compiled import CompiledSkill, CompiledWorkflow
from crewgate.gate.verdict import Findings
from crewgate.spec.params import BindingParam, IntegerParam, NumberParam, plan_fields
from crewgate.text.request import RequestFacts


def check_step(
    wf: CompiledWorkflow,
    robot: str,
    ref: str,
    skill: CompiledSkill | None,
    typed: Mapping[str, Any] | None,
    given: frozenset[str],
    started: Counter[str],
    completed: Counter[str],
    planned: Collection[str],
    facts: RequestFacts,
    ctx: ArgContext,
    f: Findings,
) -> None:
    """Check one step against the contract, given the steps before it.

    ``started`` counts earlier occurrences of each step, ``completed`` those that finished and
    ``planned`` is every step of the plan. An order rule (first -> then) refuses ``then`` while a
    planned ``first`` has not completed; whether ``first`` is required at all is the business of
    its cardinality (missing_step), so optional steps can still be ordered.
    """
    if robot not in wf.robots:
        f.add(Code.BAD_ASSIGNMENT, f"{ref}: robot {robot!r} takes no part in workflow "
              f"{wf.name!r} (its robots: {', '.join(sorted(wf.robots))})")
    rule = wf.spec.steps.get(ref)
    if rule is None:
        if robot in wf.robots:
            f.add(Code.BAD_ASSIGNMENT, f"{ref} is not a step of workflow {wf.name!r} "
                  f"(allowed: {', '.join(wf.spec.steps)})")
        return
    high = rule.count.high
    if high is not None and started[ref] + 1 > high:
        f.add(Code.CARDINALITY, f"{ref} may occur {rule.count.describe()} in {wf.name!r}; "
              f"this is occurrence {started[ref] + 1}")
    for order in wf.order_into.get(ref, ()):
        if order.first in planned and completed[order.first] == 0:
            why = f": {order.why}" if order.why else ""
            f.add(Code.ORDER_VIOLATION, f"{ref} before {order.first} has completed{why}")
    if skill is not None and typed is not None:
        _arg_rules(wf, ref, skill, typed, given, facts, ctx, f)


def _arg_rules(
    wf: CompiledWorkflow, ref: str, skill: CompiledSkill, typed: Mapping[str, Any],
    given: frozenset[str], facts: RequestFacts, ctx: ArgContext, f: Findings,
) -> None:
    for pname, rule in wf.arg_rules.get(ref, {}).items():
        param = skill.params[pname]
        value = typed.get(pname)
        if rule.bind is not None:
            if value != rule.bind:
                literal = [a for n in given if n != pname
                           and not isinstance(skill.params[n], BindingParam)
                           for a in plan_fields(n, skill.params[n])]
                instead = f"not literal {', '.join(literal)}" if literal else f"got {value!r}"
                f.add(Code.BINDING_REQUIRED, f"{ref} in {wf.name!r} must use {pname}: "
                      f"{rule.bind} (the runtime binding), {instead}")
            continue
        if pname not in given:
            if rule.required:
                fields = ", ".join(plan_fields(pname, param))
                f.add(Code.MISSING_ARG, f"{ref} in {wf.name!r} needs {fields}")
            continue
        if rule.from_request and not contained(param, value, facts, ctx):
            f.add(Code.SUBSTITUTED_LOCATION, f"{ref}: {pname} {describe_value(param, value)} is "
                  "not what the request states")
        if rule.range is not None and isinstance(param, NumberParam | IntegerParam) \
                and isinstance(value, int | float):
            lo, hi = rule.range
            if not lo <= float(value) <= hi:
                f.add(Code.BAD_ARGUMENT, f"{ref}: {pname} {value:g} is outside [{lo:g}, {hi:g}] "
                      f"in workflow {wf.name!r}")


def check_complete(wf: CompiledWorkflow, refs: Sequence[str], f: Findings) -> None:
    """Plan-level: required steps present, lower bounds of cardinality met, enough steps."""
    counts = Counter(refs)
    for ref, rule in wf.spec.steps.items():
        n = counts[ref]
        if n < rule.count.low:
            if n == 0:
                f.add(Code.MISSING_STEP, f"workflow {wf.name!r} requires {ref} "
                      f"({rule.count.describe()}); the plan has none")
            else:
                f.add(Code.CARDINALITY, f"workflow {wf.name!r} requires {ref} "
                      f"{rule.count.describe()}; the plan has {n}")
    if len(refs) < wf.spec.min_steps:
        f.add(Code.MISSING_STEP, f"workflow {wf.name!r} needs at least {wf.spec.min_steps} "
              f"step(s); the plan has {len(refs)}")


def skill_level_containment(
    skill: CompiledSkill, typed: Mapping[str, Any], given: frozenset[str], facts: RequestFacts,
    ctx: ArgContext, f: Findings,
) -> None:
    """Parameters marked ``from_request`` in the skill itself, in every workflow."""
    for pname, param in skill.params.items():
        if not param.from_request or pname not in given:
            continue  # a default the plan did not write is not a substitution
        value = typed[pname]
        if not contained(param, value, facts, ctx):
            f.add(Code.SUBSTITUTED_LOCATION, f"{skill.ref}: {pname} "
                  f"{describe_value(param, value)} is not what the request states")
