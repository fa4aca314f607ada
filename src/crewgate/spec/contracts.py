"""Contracts that no plan can meet, or that say more than the gate can hold, are refused.

A workflow contract is read as a promise to the planner and a rule for the gate. One that no
plan can satisfy (an order cycle, a ``min_steps`` beyond what its counts allow, required steps
beyond ``max_steps``, required arguments in two ``one_of`` groups, a range no value passes) turns
every mission of its kind into a refusal the author did not mean; one that names what can never
happen (a hidden skill as a step, an order after a step no plan can hold, a ``bind`` to a value
no step of the workflow publishes) says something the gate will not enforce. Both are refused
when the crew is loaded, each with its path in the file.

:func:`workflow_problems` needs the workflow only (``Workflow`` runs it on itself);
:func:`contract_problems` needs the crew (``Crew`` runs it with its cross-references).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from crewgate.spec.base import SpecPath, split_ref

if TYPE_CHECKING:
    from crewgate.spec.crew import Crew
    from crewgate.spec.robots import Skill
    from crewgate.spec.workflow import StepRule, Workflow


def workflow_problems(wf: Workflow) -> Iterator[tuple[SpecPath, str]]:
    """Order rules naming no step, order cycles, ``min_steps`` beyond the counts' sum."""
    edges: dict[str, list[str]] = {}
    for i, rule in enumerate(wf.order):
        missing = [(k, ref) for k, ref in (("first", rule.first), ("then", rule.then))
                   if ref not in wf.steps]
        for key, ref in missing:
            yield ("order", i, key), f"{ref!r} is not a step of this workflow"
        if missing:
            continue
        cycle = _path(edges, rule.then, rule.first)
        if cycle is not None:
            yield ("order", i), (f"this rule closes the cycle {' -> '.join([rule.first, *cycle])}:"
                                 " each step on it waits for the one before, so no plan holding "
                                 "them all can run; remove one of its rules")
            continue
        edges.setdefault(rule.first, []).append(rule.then)
    highs = [rule.count.high for rule in wf.steps.values()]
    most = sum(h for h in highs if h is not None)
    if None not in highs and wf.min_steps > most:
        yield ("min_steps",), (f"min_steps {wf.min_steps} is more than the steps' counts allow "
                               f"together ({most}); no plan can meet it: lower min_steps or "
                               "raise a count")


def _path(edges: dict[str, list[str]], start: str, goal: str) -> list[str] | None:
    """The steps from ``start`` to ``goal`` along order rules (both included), or None."""
    parent: dict[str, str | None] = {start: None}
    queue = [start]
    for node in queue:
        if node == goal:
            path: list[str] = []
            at: str | None = node
            while at is not None:
                path.append(at)
                at = parent[at]
            return path[::-1]
        for nxt in edges.get(node, []):
            if nxt not in parent:
                parent[nxt] = node
                queue.append(nxt)
    return None


def contract_problems(crew: Crew, wname: str, wf: Workflow) -> Iterator[tuple[SpecPath, str]]:
    """What in a contract no plan can meet, or can never happen, given the crew."""
    base: SpecPath = ("workflows", wname)
    never: dict[str, str] = {}  # step -> why no plan can hold it
    for ref in wf.steps:
        rname, sname = split_ref(ref)
        skill = crew.skill(rname, sname)
        if skill is None:
            continue  # an unknown skill, reported with the cross-references
        if rname not in wf.robots:
            never[ref] = f"robot {rname!r} is not listed under robots"
        elif not skill.visible:
            never[ref] = "its skill is hidden (visible: false)"
            yield (*base, "steps", ref), (f"{ref} is hidden (visible: false): a plan naming it "
                                          "gets unknown_skill, so no plan can hold the step; "
                                          "make the skill visible or remove the step")
    for i, order in enumerate(wf.order):
        then = wf.steps.get(order.then)
        if (then is not None and then.count.low >= 1 and order.first in never
                and order.then not in never):
            yield (*base, "order", i), (f"{order.then} is required but ordered after "
                                        f"{order.first}, which no plan can hold "
                                        f"({never[order.first]}); remove the rule or make "
                                        f"{order.first} a step plans can hold")
    required = sum(step.count.low for step in wf.steps.values())
    if required > crew.max_steps:
        yield (*base, "steps"), (f"the required steps need {required} steps, more than the "
                                 f"crew's max_steps {crew.max_steps}; no plan the gate reads "
                                 "can hold them")
    if wf.min_steps > crew.max_steps:
        yield (*base, "min_steps"), (f"min_steps {wf.min_steps} is more than the crew's "
                                     f"max_steps {crew.max_steps}; no plan the gate reads can "
                                     "meet it")
    for ref, step in wf.steps.items():
        skill = crew.skill(*split_ref(ref))
        if skill is not None:
            yield from _arg_problems(crew, wf, ref, step, skill, never,
                                     (*base, "steps", ref, "args"))


def _arg_problems(crew: Crew, wf: Workflow, ref: str, rule: StepRule, skill: Skill,
                  never: dict[str, str], path: SpecPath) -> Iterator[tuple[SpecPath, str]]:
    """Bindings no step publishes, ranges no value passes, ``one_of`` groups no step fills."""
    for pname, arg in rule.args.items():
        param = skill.params.get(pname)
        if param is None:
            continue  # an unknown parameter, reported with the cross-references
        if arg.bind is not None:
            producers = [f"{r}.{s}" for r, s in crew.producers(arg.bind)]
            if producers and not any(p in wf.steps and p not in never for p in producers):
                yield (*path, pname, "bind"), (
                    f"{arg.bind!r} is published only by {', '.join(producers)}, and no step of "
                    "this workflow can be one of them: its value could only be left over from "
                    "another mission; add the step that publishes it, or remove the rule")
        if arg.range is not None and param.numeric and _empty(arg.range, param):
            lo, hi = arg.range
            yield (*path, pname, "range"), (
                f"range [{lo:g}, {hi:g}] leaves no value {pname} accepts ({param.type_text()}), "
                "so no step can give it; widen the range or remove it")
    forced = {p for p, a in rule.args.items() if a.required or a.bind is not None}
    grouped = forced & {p for group in skill.one_of for p in group}
    if grouped and not any(grouped <= set(group) for group in skill.one_of):
        yield path, (f"the argument rules require {' and '.join(sorted(grouped))}, but {ref} "
                     f"takes exactly one of {skill.groups_text()}; no step can give them all")


def _empty(rng: tuple[float, float], param: object) -> bool:
    """Whether no value lies both in the range and in the parameter's own bounds."""
    low: float | None = getattr(param, "min", None)
    high: float | None = getattr(param, "max", None)
    lo = rng[0] if low is None else max(rng[0], low)
    hi = rng[1] if high is None else min(rng[1], high)
    if getattr(param, "whole", False):
        return math.ceil(lo) > math.floor(hi)
    return lo > hi
