"""The refusals of names a plan gets wrong: a workflow, robot or skill the crew does not have,
each with the nearest names it does have (bounded however large the crew: crewgate.suggest).
A planner repeats its mistakes and finding near names is slow, so the last details are kept."""

from __future__ import annotations

from crewgate.codes import Code, Findings
from crewgate.plan import Step
from crewgate.spec import Crew, Skill
from crewgate.suggest import names_of

KEPT = 1024  # details kept per crew; all dropped when full


class Unknown:
    """The crew's names as a plan's refusals cite them."""

    def __init__(self, crew: Crew) -> None:
        self.crew = crew
        self._details: dict[tuple[str, str, bool], str] = {}

    def workflow(self, name: str | None, f: Findings) -> None:
        known = list(self.crew.workflows)
        if name is None:
            f.add(Code.UNKNOWN_WORKFLOW, f"the plan names no workflow; use one of {known}")
        else:
            index = names_of(tuple(known))
            f.add(Code.UNKNOWN_WORKFLOW, f"workflow {name!r} is not a contract of crew "
                  f"{self.crew.name!r}{index.did_you_mean(name)} (known: "
                  f"{index.listing(name)})")

    def skill(self, step: Step, visible_only: bool, f: Findings) -> Skill | None:
        """The step's robot exists and has the skill (visible to planners, with
        ``visible_only``), or the refusal that says which names it could have meant."""
        robot = self.crew.robots.get(step.robot)
        if robot is None:
            f.add(Code.UNKNOWN_ROBOT, self._detail(step.robot, "", False))
            return None
        skill = robot.skills.get(step.skill)
        if skill is None or (visible_only and not skill.visible):
            f.add(Code.UNKNOWN_SKILL, self._detail(step.robot, step.skill, True))
            return None
        return skill

    def _detail(self, robot: str, skill: str, has_robot: bool) -> str:
        key = (robot, skill, has_robot)
        found = self._details.get(key)
        if found is None:
            if not has_robot:
                found = (f"robot {robot!r} is not in crew {self.crew.name!r}"
                         f"{names_of(tuple(self.crew.robots)).did_you_mean(robot)}")
            else:
                index = names_of(tuple(n for n, s in self.crew.robots[robot].skills.items()
                                       if s.visible))
                found = (f"{robot} has no skill {skill!r}{index.did_you_mean(skill)} "
                         f"(its skills: {index.listing(skill)})")
            if len(self._details) >= KEPT:
                self._details.clear()
            self._details[key] = found
        return found
