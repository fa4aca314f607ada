"""Slot filling for the offline planner: a workflow contract's step template, completed from what
the request states. Never invents a value: an argument the request does not give is left out,
and a destination or object the crew does not know is passed on as written (so that the gate
can refuse it rather than the planner silently choosing another).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crewgate.planners.exemplar.cues import Cues, mentioned
from crewgate.spec import Crew, Skill, Workflow, split_ref
from crewgate.spec.intent import Brief, within
from crewgate.spec.params import FillRequest, Param
from crewgate.spec.workflow import ArgRule
from crewgate.text import RequestFacts, words


def template(crew: Crew, wf: Workflow, cues: Cues,
             sequence: Sequence[tuple[str, str]] = ()) -> list[str]:
    """The steps to plan, ordered by the contract's order rules, then by the order the request
    asks for (``sequence``: (skill first, skill after), "land the drone, then stop the rover"),
    declaration order otherwise:
    every required step; the optional ones whose skill the request names; for a robot the
    request names that has no step yet, its only optional step ("set the Iris down" in an
    abort); and all optional steps of a workflow without required ones when the request names
    none of them or addresses the whole crew ("stop everything")."""
    chosen = [ref for ref, rule in wf.steps.items() for _ in range(max(rule.count.low, 0))]
    optional = [ref for ref, rule in wf.steps.items() if rule.count.low == 0]
    asked = [ref for ref in optional if mentioned(crew, ref, cues)]
    moving = {split_ref(r)[0] for r in chosen + asked}
    for robot in sorted(cues.robots - moving):
        own = [ref for ref in optional if split_ref(ref)[0] == robot]
        if len(own) == 1:
            asked.append(own[0])
    if not chosen and wf.min_steps > 0 and (not asked or cues.universal):
        asked = optional
    asked = [ref for ref in optional if ref in asked]  # declaration order
    rules = [(r.first, r.then) for r in wf.order]
    planned = _ordered(rules, chosen + asked)
    if sequence:  # the request's order too, where the contract's allows it
        asked_order = _ordered(rules + list(sequence), chosen + asked)
        if all(asked_order.index(r.first) < asked_order.index(r.then) for r in wf.order
               if r.first in asked_order and r.then in asked_order and r.first != r.then):
            planned = asked_order
    return planned


def _ordered(rules: Sequence[tuple[str, str]], refs: list[str]) -> list[str]:
    """Kahn's algorithm over the order rules ((first, then)), declaration order breaking
    ties."""
    remaining = list(refs)
    out: list[str] = []
    while remaining:
        for ref in remaining:
            if not any(then == ref and first in remaining and first != ref
                       for first, then in rules):
                out.append(ref)
                remaining.remove(ref)
                break
        else:  # a cycle in the rules: keep declaration order
            out.extend(remaining)
            break
    return out


def action_words(crew: Crew) -> frozenset[str]:
    """Words that end no object phrase: the last words of every skill name and alias ("wave",
    "stop") and of every robot's name, kind and aliases ("take the quadruped to ..." moves the
    robot, it does not carry it)."""
    phrases = [p for r in crew.robots.values() for n, s in r.skills.items()
               for p in (n.replace("_", " "), *s.aliases)]
    phrases += [p for name, r in crew.robots.items() for p in (name, r.kind, *r.aliases)]
    return frozenset(words(p)[-1] for p in phrases if words(p))


def fill_plan(crew: Crew, wf: Workflow, refs: list[str], request: FillRequest
              ) -> list[dict[str, Any]]:
    """Arguments for each step of a template. The object a request names is given to the first
    step that takes an object (later steps act on what it picked up)."""
    out = []
    object_given = False
    for ref in refs:
        args = fill_args(crew, wf, ref, request, skip_objects=object_given)
        object_given = object_given or any(
            p.slot == "object" for n, p in _params(crew, ref).items() if n in args)
        out.append(args)
    return out


def fill_stated(crew: Crew, refs: list[str], plan_args: list[dict[str, Any]],
                brief: Brief) -> None:
    """Each quantity the request states with its unit ("6 metres") into the first step of the
    template that takes it (the parameters the intent rule reads it as being for, in order),
    unless that step has a value for it already."""
    for stated in brief.stated:
        for ref, pname in stated.params:
            if ref in refs:
                args = plan_args[refs.index(ref)]
                value = stated.quantity.value
                kind = _params(crew, ref)[pname]
                args.setdefault(pname, int(value) if kind.type == "integer"
                                and value.is_integer() else value)
                break


def fill_bounded(crew: Crew, refs: list[str], plan_args: list[dict[str, Any]],
                 brief: Brief) -> None:
    """Each parameter a bound the request states holds for ("at least 5 metres"): left as it
    is where its value (or default) keeps to the bound; else the bound itself where it may be
    ("at least", "at most"); a strict bound ("above 5 metres") is left for the gate to refuse
    (no value is the request's)."""
    for bound in brief.bounds:
        q = bound.quantity
        for ref, pname in bound.params:
            if ref not in refs:
                continue
            args = plan_args[refs.index(ref)]
            kind = _params(crew, ref)[pname]
            value = args.get(pname, kind.default_value)
            if isinstance(value, int | float) and not within(value, q.bound, q.value) \
                    and q.bound in ("<=", ">="):
                args[pname] = int(q.value) if kind.type == "integer" and q.value.is_integer() \
                    else q.value


def _params(crew: Crew, ref: str) -> dict[str, Param]:
    robot, name = split_ref(ref)
    skill = crew.skill(robot, name)
    return dict(skill.params) if skill else {}


def provided(crew: Crew, request: FillRequest) -> tuple[set[str], set[str]]:
    """The kinds of value the request states that this crew's skills could take: those it
    states as crew values (geometry, known places and objects), and those it only names in
    words the crew does not know ("to the loading dock", "bring the laptop")."""
    kinds = {p.slot: p for r in crew.robots.values() for s in r.skills.values()
             for p in s.params.values() if p.slot is not None}
    known: set[str] = set()
    unknown: set[str] = set()
    for slot, param in kinds.items():
        offer = param.offer(request)
        if offer == "known":
            known.add(slot)
        elif offer == "unknown":
            unknown.add(slot)
    return known, unknown


def filled_and_lacking(crew: Crew, wf: Workflow, refs: list[str],
                       plan_args: list[dict[str, Any]], cues: Cues
                       ) -> tuple[set[str], set[str]]:
    """The kinds of value a filled template took from the request, and those it expects from the
    request (required, or marked from_request) but could not find, in steps the request does not
    ask for by name (a request that asks for a search without saying where is incomplete, not
    a request for another workflow)."""
    filled: set[str] = set()
    lacking: set[str] = set()
    objects_seen = False
    for ref, args in zip(refs, plan_args, strict=True):
        robot, name = split_ref(ref)
        skill = crew.skill(robot, name)
        if skill is None:
            continue
        for pname, param in skill.params.items():
            kind = param.slot
            if kind is None:
                continue
            rule = wf.steps[ref].args.get(pname)
            expected = skill.is_required(pname) or param.from_request or bool(
                rule and (rule.from_request or rule.required))
            if any(f in args for f in param.plan_fields(pname)):
                filled.add(kind)
            elif expected and not _group_filled(skill, pname, args) and not (
                    kind == "object" and objects_seen  # later steps act on the picked object
            ) and not mentioned(crew, ref, cues):
                lacking.add(kind)
        objects_seen = objects_seen or "object" in filled
    return filled, lacking


def _group_filled(skill: Skill, pname: str, args: dict[str, Any]) -> bool:
    """A parameter of a one_of group whose other group was given is not missing."""
    return any(pname in g for g in skill.one_of) and any(
        f in args for g in skill.one_of if pname not in g for n in g
        for f in skill.params[n].plan_fields(n))


def fill_args(crew: Crew, wf: Workflow, ref: str, request: FillRequest, *,
              skip_objects: bool = False) -> dict[str, Any]:
    """Arguments of one step, from the request only."""
    robot, name = split_ref(ref)
    skill = crew.skill(robot, name)
    if skill is None:
        return {}
    rules = wf.steps[ref].args
    skip = _unchosen_groups(skill, rules, request.facts)
    args: dict[str, Any] = {}
    for pname, param in skill.params.items():
        if pname in skip or (skip_objects and param.slot == "object"):
            continue
        rule = rules.get(pname)
        if rule is not None and rule.bind is not None:
            args[pname] = rule.bind
            continue
        value = param.fill(pname, request,
                           required=skill.is_required(pname) or bool(rule and rule.required))
        if value is not None:
            args.update(param.as_args(pname, value))
    return args


def _unchosen_groups(skill: Skill, rules: dict[str, ArgRule], facts: RequestFacts) -> set[str]:
    """For one_of skills: the parameters of the groups not chosen. A group the contract binds or
    requires wins; otherwise the first group the request can fill."""
    if not skill.one_of:
        return set()
    chosen = None
    for group in skill.one_of:
        if any(n in rules and (rules[n].bind or rules[n].required) for n in group):
            chosen = group
            break
    if chosen is None:
        for group in skill.one_of:
            if all(skill.params[n].fillable(facts) for n in group):
                chosen = group
                break
    return {n for g in skill.one_of if g is not chosen for n in g}
