"""What a request says about robots and actions, for the offline planner: which robots and
skills it names (by name, kind, alias), which robots it says to leave out, whether it
addresses the whole crew, and whether it names a workflow. Who is named, ruled out or
addressed is the gate's own reading of the request (the crew's intent rule), so the planner
never leaves in a robot the gate rules out.

Bounds: a request is read in time linear in its length: its words once (stemmed once per
distinct word), and the intent rule's reading (crewgate.text.intent).
"""

from __future__ import annotations

from dataclasses import dataclass

from crewgate.planners.exemplar.embedding import stem
from crewgate.spec import Crew, split_ref
from crewgate.text import words


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
        # who is named and who is ruled out, as the gate's request rule reads them (one
        # reading: a robot the planner leaves in is one the gate leaves in)
        brief = crew.intent.brief(request)
        # (a robot ruled out only somewhere, "do not send the dog to the charger", is ruled out
        # for planning unless the request also asks for it)
        excluded = set(brief.excluded) | (set(brief.excluded_with) - set(brief.named))
        if brief.only:
            excluded |= set(crew.robots) - brief.only
        named = set(brief.named) | brief.only
        universal = brief.universal
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
