"""What a request says about robots and actions, for the offline planner: which robots and
skills it names (by name, kind, alias), which robots it says to leave out, whether it
addresses the whole crew, and whether it names a workflow.

Bounds: a request is read in time linear in its length: its words once, the robots' phrases
looked up by their first word (a bounded number of candidates per word), a bounded window of
words around each mention.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

from crewgate.planners.exemplar.embedding import stem
from crewgate.spec import Crew, split_ref
from crewgate.text import words

NEGATIONS = frozenset({"not", "no", "don", "dont", "never", "without", "nor"})
STAYING = frozenset({"stays", "stay", "remains", "remain", "parked", "idle", "alone", "put"})
EVERYTHING = frozenset({"everything", "everyone", "everybody"})
QUANTIFIERS = frozenset({"all", "every", "both", "entire", "whole", "any"})
COLLECTIVES = ("robot", "unit", "asset", "crew", "fleet", "vehicle", "machine", "motion",
               "drone", "rover")


@dataclass(frozen=True, slots=True)
class Cues:
    """A request read once: its words, their stems, and the robots it names or excludes."""

    tokens: tuple[str, ...]
    stems: frozenset[str]
    stemmed: str  # " stem stem ... " for phrase search
    robots: frozenset[str]  # named and not excluded
    excluded: frozenset[str]  # "do not send the rover", "the ground robot stays"
    universal: bool  # "stop everything", "all robots", "both robots"

    @classmethod
    def read(cls, crew: Crew, request: str) -> Cues:
        toks = words(request)
        stemmed = {t: stem(t) for t in set(toks)}  # each distinct word stemmed once
        stems = list(map(stemmed.__getitem__, toks))
        phrases: dict[str, list[tuple[tuple[str, ...], str]]] = defaultdict(list)
        for robot, spec in crew.robots.items():
            for phrase in (robot, spec.kind, *spec.aliases):
                target = words(phrase)
                if target:
                    phrases[target[0]].append((target, robot))
        named: set[str] = set()
        excluded: set[str] = set()
        for i, tok in enumerate(toks):
            for target, robot in phrases.get(tok, ()):
                if robot in excluded or toks[i:i + len(target)] != target:
                    continue  # once excluded, a robot stays excluded
                before = set(toks[max(0, i - 4):i])
                after = toks[i + len(target):i + len(target) + 3]
                denied = after[:1] in (("is",), ("are",), ("isn",)) and "not" in after[1:2]
                if before & NEGATIONS or set(after) & STAYING or denied:
                    excluded.add(robot)
                else:
                    named.add(robot)
        universal = bool(set(toks) & EVERYTHING) or any(
            a in QUANTIFIERS and b.startswith(COLLECTIVES) for a, b in pairwise(toks)) or any(
            a in QUANTIFIERS and c.startswith(COLLECTIVES)
            for a, _, c in zip(toks, toks[1:], toks[2:], strict=False))
        return cls(toks, frozenset(stems), f" {' '.join(stems)} ", frozenset(named - excluded),
                   frozenset(excluded), universal)

    def says(self, phrases: list[str]) -> bool:
        """Whether any phrase occurs (stemmed: "lands" says "land")."""
        for phrase in phrases:
            stems = [stem(w) for w in words(phrase)]
            if len(stems) == 1 and stems[0] in self.stems:
                return True
            if len(stems) > 1 and f" {' '.join(stems)} " in self.stemmed:
                return True
        return False


def mentioned(crew: Crew, ref: str, cues: Cues) -> bool:
    """The request names this step's skill, or one of the skill's aliases."""
    robot, name = split_ref(ref)
    skill = crew.skill(robot, name)
    return cues.says([name.replace("_", " "), *(skill.aliases if skill else [])])


def unasked_robots(crew: Crew, refs: list[str], cues: Cues) -> list[str]:
    """Robots a template would move although the request names neither them nor any of their
    steps in it."""
    if cues.universal:
        return []
    robots = dict.fromkeys(split_ref(r)[0] for r in refs)
    return [robot for robot in robots if robot not in cues.robots and not any(
        mentioned(crew, r, cues) for r in refs if split_ref(r)[0] == robot)]


def missing_robots(refs: list[str], cues: Cues) -> list[str]:
    """Robots the request names (and does not exclude) that the template leaves idle."""
    moving = {split_ref(r)[0] for r in refs}
    return sorted(cues.robots - moving)


def names_workflow(name: str, cues: Cues) -> bool:
    """The request uses every word of the workflow's name ("abort", "search ... only")."""
    return all(stem(w) in cues.stems for w in words(name) if w not in ("and", "or"))
