"""Slot filling for the offline planner: a workflow contract's step template, completed from what
the request states. Never invents a value: an argument the request does not give is left out,
and a destination or object the crew does not know is passed on as written (so that the gate
can refuse it rather than the planner silently choosing another).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

from crewgate.planners.embedding import stem
from crewgate.spec import Crew, Skill, Workflow, split_ref
from crewgate.spec.params import (
    BindingParam,
    EnumParam,
    IntegerParam,
    LocationParam,
    NumberParam,
    ObjectParam,
    Param,
    PointParam,
    ZoneParam,
    plan_fields,
)
from crewgate.text.request import RequestFacts, words
from crewgate.text.vocabulary import BOUNDARY, Vocabulary

_ARTICLES = {"the", "a", "an", "my", "our", "your", "this", "that"}
_PRONOUNS = {"me", "us", "you", "him", "her", "them", "it", "everyone", "everybody"}
_PHRASE_END = {"for", "please", "and", "then", "so", "now", "using", "with", "by", "at", "on",
               "from", "to", "when", "once", "before", "after", "immediately"}
_DEST = re.compile(r"\b(?:to|into|towards|toward)\s+(?:the\s+)?([a-z0-9_][a-z0-9_ \-']*)", re.I)
_SOURCE = re.compile(r"\bfrom\s+(?:the\s+)?([a-z0-9_][a-z0-9_ \-']*)", re.I)
_OBJECT = re.compile(
    r"\b(?:bring|take|carry|deliver|hand|pass|give|fetch|grab|get|load|move|lift|pick(?:\s+up)?"
    r"|ship|transport)\s+(?:me\s+|us\s+)?(?:the\s+|a\s+|an\s+)?([a-z0-9_][a-z0-9_ \-']*)", re.I)


def template(crew: Crew, wf: Workflow, request: str) -> list[str]:
    """The steps to plan: every required step, and the optional ones the request asks for (all
    of them when it names none but the workflow needs at least one), in an order that satisfies
    the workflow's order rules (declaration order otherwise)."""
    toks = {stem(w) for w in words(request)}
    text = " ".join(stem(w) for w in words(request))
    chosen = [ref for ref, rule in wf.steps.items() for _ in range(max(rule.count.low, 0))]
    optional = [ref for ref, rule in wf.steps.items() if rule.count.low == 0]
    asked = [ref for ref in optional if _mentioned(crew, ref, toks, text)]
    if not chosen and wf.min_steps > 0 and (not asked or _universal(request)):
        asked = optional  # "stop everything", "stand down all robots"
    return _ordered(wf, chosen + asked)


_EVERYTHING = {"all", "everyth", "everything", "every", "whole", "entire"}


def _universal(request: str) -> bool:
    """The request addresses the whole crew ("stop everything", "all robots", "both robots")."""
    toks = words(request)
    return bool(set(toks) & _EVERYTHING) or any(
        a == "both" and b.startswith(("robot", "of")) for a, b in itertools.pairwise(toks))
_NEGATIONS = {"not", "no", "don", "dont", "never", "without", "nor"}


def negated_robots(crew: Crew, request: str) -> set[str]:
    """Robots the request says to leave out: "do not send the rover", "no ground robot",
    "leave the drone alone", "keep the rover parked"."""
    toks = list(words(request))
    out = set()
    for robot, spec in crew.robots.items():
        for phrase in [robot, spec.kind, *spec.aliases]:
            target = list(words(phrase))
            n = len(target)
            for i in range(len(toks) - n + 1):
                if toks[i:i + n] != target:
                    continue
                before = set(toks[max(0, i - 4):i])
                after = toks[i + n:i + n + 2]
                if before & _NEGATIONS or ("leave" in before and "alone" in after) or (
                        "keep" in before and set(after) & {"parked", "still", "put", "where"}):
                    out.add(robot)
    return out


def unasked_robots(crew: Crew, refs: list[str], request: str) -> list[str]:
    """Robots a template would move although the request names neither them nor any of their
    steps in it."""
    toks = {stem(w) for w in words(request)}
    text = " ".join(stem(w) for w in words(request))
    if _universal(request):
        return []  # "stop everything" asks every robot
    robots = dict.fromkeys(split_ref(r)[0] for r in refs)
    out = []
    for robot in robots:
        spec = crew.robots.get(robot)
        names = [robot, *(spec.aliases if spec else []), *([spec.kind] if spec else [])]
        if _says(names, toks, text):
            continue
        if any(_mentioned(crew, r, toks, text) for r in refs if split_ref(r)[0] == robot):
            continue
        out.append(robot)
    return out


def _mentioned(crew: Crew, ref: str, toks: set[str], text: str) -> bool:
    robot, name = split_ref(ref)
    skill = crew.skill(robot, name)
    return _says([name.replace("_", " "), *(skill.aliases if skill else [])], toks, text)


def _says(phrases: list[str], toks: set[str], text: str) -> bool:
    for phrase in phrases:
        stems = [stem(w) for w in words(phrase)]
        if len(stems) == 1 and stems[0] in toks:
            return True
        if len(stems) > 1 and f" {' '.join(stems)} " in f" {text} ":
            return True
    return False


def _ordered(wf: Workflow, refs: list[str]) -> list[str]:
    """Kahn's algorithm over the order rules, declaration order breaking ties."""
    remaining = list(refs)
    out: list[str] = []
    while remaining:
        for ref in remaining:
            waits = [r.first for r in wf.order if r.then == ref and r.first in remaining
                     and r.first != ref]
            if not waits:
                out.append(ref)
                remaining.remove(ref)
                break
        else:  # a cycle in the rules: keep declaration order
            out.extend(remaining)
            break
    return out


def fill_plan(crew: Crew, wf: Workflow, refs: list[str], facts: RequestFacts,
              places: Vocabulary, things: Vocabulary) -> list[dict[str, Any]]:
    """Arguments for each step of a template. The object a request names is given to the first
    step that takes an object (later steps act on what it picked up)."""
    out = []
    object_given = False
    for ref in refs:
        args = fill_args(crew, wf, ref, facts, places, things, skip_objects=object_given)
        object_given = object_given or any(
            isinstance(p, ObjectParam) for n, p in _params(crew, ref).items() if n in args)
        out.append(args)
    return out


def _params(crew: Crew, ref: str) -> dict[str, Param]:
    robot, name = split_ref(ref)
    skill = crew.skill(robot, name)
    return dict(skill.params) if skill else {}


def provided(crew: Crew, facts: RequestFacts, things: Vocabulary) -> set[str]:
    """The kinds of value the request states that this crew's skills could take."""
    kinds = {type(p) for r in crew.robots.values() for s in r.skills.values()
             for p in s.params.values()}
    out = set()
    if PointParam in kinds and facts.points:
        out.add("point")
    if ZoneParam in kinds and facts.zones:
        out.add("zone")
    if LocationParam in kinds and any(True for _ in _candidates(_DEST, facts.text)):
        out.add("location")
    if ObjectParam in kinds and (things.named_in(facts) or any(
            True for _ in _candidates(_OBJECT, facts.text))):
        out.add("object")
    return out


def filled_and_lacking(crew: Crew, wf: Workflow, refs: list[str],
                       plan_args: list[dict[str, Any]], request: str
                       ) -> tuple[set[str], set[str]]:
    """The kinds of value a filled template took from the request, and those it expects from the
    request (required, or marked from_request) but could not find, in steps the request does not
    ask for by name (a request that asks for a search without saying where is incomplete, not
    a request for another workflow)."""
    toks = {stem(w) for w in words(request)}
    text = " ".join(stem(w) for w in words(request))
    filled: set[str] = set()
    lacking: set[str] = set()
    objects_seen = False
    for ref, args in zip(refs, plan_args, strict=True):
        robot, name = split_ref(ref)
        skill = crew.skill(robot, name)
        if skill is None:
            continue
        for pname, param in skill.params.items():
            kind = _KIND.get(type(param))
            if kind is None:
                continue
            rule = wf.steps[ref].args.get(pname)
            expected = skill.is_required(pname) or param.from_request or bool(
                rule and (rule.from_request or rule.required))
            if any(f in args for f in plan_fields(pname, param)):
                filled.add(kind)
            elif expected and not _group_filled(skill, pname, args) and not (
                    kind == "object" and objects_seen  # later steps act on the picked object
            ) and not _mentioned(crew, ref, toks, text):
                lacking.add(kind)
        objects_seen = objects_seen or "object" in filled
    return filled, lacking


def _group_filled(skill: Skill, pname: str, args: dict[str, Any]) -> bool:
    """A parameter of a one_of group whose other group was given is not missing."""
    return any(pname in g for g in skill.one_of) and any(
        f in args for g in skill.one_of if pname not in g for n in g
        for f in plan_fields(n, skill.params[n]))


_KIND: dict[type, str] = {PointParam: "point", ZoneParam: "zone", LocationParam: "location",
                          ObjectParam: "object"}


def fill_args(crew: Crew, wf: Workflow, ref: str, facts: RequestFacts,
              places: Vocabulary, things: Vocabulary, *, skip_objects: bool = False
              ) -> dict[str, Any]:
    """Arguments of one step, from the request only."""
    robot, name = split_ref(ref)
    skill = crew.skill(robot, name)
    if skill is None:
        return {}
    rules = wf.steps[ref].args
    skip = _unchosen_groups(skill, rules, facts)
    args: dict[str, Any] = {}
    for pname, param in skill.params.items():
        if pname in skip or (skip_objects and isinstance(param, ObjectParam)):
            continue
        rule = rules.get(pname)
        if rule is not None and rule.bind is not None:
            args[pname] = rule.bind
            continue
        value = _value(pname, param, skill, facts, places, things,
                       required=skill.is_required(pname) or bool(rule and rule.required))
        if value is None:
            continue
        fields = plan_fields(pname, param)
        if len(fields) > 1:
            args.update(zip(fields, value, strict=True))
        else:
            args[pname] = value
    return args


def _unchosen_groups(skill: Skill, rules: dict[str, Any], facts: RequestFacts) -> set[str]:
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
            if all(_fillable(skill.params[n], facts) for n in group):
                chosen = group
                break
    return {n for g in skill.one_of if g is not chosen for n in g}


def _fillable(param: Param, facts: RequestFacts) -> bool:
    if isinstance(param, PointParam):
        return bool(facts.points)
    if isinstance(param, ZoneParam):
        return bool(facts.zones)
    return not isinstance(param, BindingParam)


def _value(name: str, param: Param, skill: Skill, facts: RequestFacts, places: Vocabulary,
           things: Vocabulary, *, required: bool) -> Any:
    if isinstance(param, PointParam):
        return _last_point(facts) if facts.points else None
    if isinstance(param, ZoneParam):
        return list(facts.zones[0]) if facts.zones else None
    if isinstance(param, LocationParam):
        if required:
            return _phrase(_DEST, facts.text, places)
        return _phrase(_SOURCE, facts.text, places, known_only=True)
    if isinstance(param, ObjectParam):
        named = things.named_in(facts)
        if len(named) == 1:
            return named[0]
        return _phrase(_OBJECT, facts.text, things) if not named else None
    if isinstance(param, NumberParam | IntegerParam):
        return _attached_number(name, facts.text)
    if isinstance(param, EnumParam):
        stated = [v for v in param.values if facts.states_words(v)]
        return stated[0] if len(stated) == 1 else None
    return None


def _last_point(facts: RequestFacts) -> list[float]:
    """The destination among stated points: the last one ("from (1, 2) to (3, 4)")."""
    x, y = facts.points[-1]
    return [x, y]


def _phrase(pattern: re.Pattern[str], text: str, vocab: Vocabulary,
            known_only: bool = False) -> str | None:
    """The first noun phrase the pattern captures (up to the word that ends it): the crew's
    canonical name when the whole phrase denotes one, else the phrase as written. Never a part
    of it: "the charging bay" is not ``charging`` (the gate refuses it, not the planner)."""
    for candidate in _candidates(pattern, text):
        resolved = vocab.resolve(candidate)
        if resolved is not None:
            return resolved
        if not known_only:
            return candidate
    return None


def _candidates(pattern: re.Pattern[str], text: str) -> Iterator[str]:
    """Per match, the noun phrase it starts: articles dropped, cut at a function word."""
    for m in pattern.finditer(text):
        kept: list[str] = []
        for word in re.split(r"[\s,.;:!?]+", m.group(1).strip()):
            bare = word.strip("'-").lower()
            if not bare or bare in _PHRASE_END or (bare in BOUNDARY and kept) or re.fullmatch(
                    r"[-+]?\d+(\.\d+)?", bare):
                break
            if not kept and bare in _PRONOUNS:
                break
            if not kept and bare in _ARTICLES:
                continue
            kept.append(bare)
            if len(kept) == 4:
                break
        if kept:
            yield " ".join(kept)


def _attached_number(name: str, text: str) -> float | None:
    """A number stated for this parameter: "altitude of 5", "5 m altitude", "at 4 m"."""
    label = re.escape(name.replace("_", " "))
    m = re.search(rf"\b{label}\b\D{{0,12}}?([-+]?\d+(?:\.\d+)?)", text, re.I) or re.search(
        rf"([-+]?\d+(?:\.\d+)?)\s*(?:m|meters|metres)?\s+{label}\b", text, re.I)
    return float(m.group(1)) if m else None


def delexicalize(text: str, places: Vocabulary, things: Vocabulary) -> str:
    """The request with its values replaced by placeholders ("go to the loading dock" -> "go to
    the place"), so that choosing a workflow compares intents, not particular places, objects
    or numbers."""
    out = f" {text.lower()} "
    for m in _DEST.finditer(text):
        for phrase in _candidates(_DEST, m.group(0)):
            out = out.replace(f" {phrase} ", " place ")
    for vocab, word in ((places, " place "), (things, " item ")):
        for phrases in vocab.phrases.values():
            for phrase in sorted(phrases, key=len, reverse=True):
                out = re.sub(rf"(?<![a-z0-9_]){re.escape(phrase)}(?![a-z0-9_])", word, out)
                out = re.sub(rf"(?<![a-z0-9_]){re.escape(phrase.replace(' ', '_'))}(?![a-z0-9_])",
                             word, out)
    out = re.sub(r"[-+]?\d+(?:\.\d+)?", " n ", out)
    return " ".join(out.split())
