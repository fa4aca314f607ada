"""What a plan's steps leave behind, as whole-plan validation predicts it: each step's declared
effects written into a copy of the state, and the objects a step picks up or puts down moved
as the simulator moves them (:meth:`Crew.object_moves`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from crewgate.spec import Crew, Skill
from crewgate.spec.expressions import OBJECTS


class Prediction:
    """The crew's effects, compiled once: per skill, the robots its effects write that have
    object-typed state fields (only those move objects), with those fields."""

    def __init__(self, crew: Crew) -> None:
        self.crew = crew
        objects = {name: tuple(f for f, spec in robot.state.items() if spec.type == "object")
                   for name, robot in crew.robots.items()}
        # an effect that writes a robot's availability is read by every later step
        self._available = any(key.rpartition(".")[2] == "available" for robot in
                              crew.robots.values() for skill in robot.skills.values()
                              for key in skill.effects)
        self._moves = {id(skill): tuple((r, objects[r]) for r in sorted(
            {key.rpartition(".")[0] or owner for key in skill.effects}) if objects.get(r))
            for owner, robot in crew.robots.items() for skill in robot.skills.values()}

    def until(self, skills: Sequence[Skill | None]) -> int:
        """How many of a plan's first steps (the crew's skill of each, or None) need their
        effects predicted: those before the last step that reads the predicted state (one with
        preconditions; any step, when some effect writes availability, which every step
        reads); 0 when none of those has effects."""
        readers = range(len(skills)) if self._available else [
            i for i, s in enumerate(skills) if s is not None and s.preconditions]
        last = readers[-1] if readers else 0
        return last if any(s is not None and s.effects for s in skills[:last]) else 0

    def after(self, skill: Skill, robot: str, typed: Mapping[str, Any],
              state: dict[str, dict[str, Any]]) -> None:
        """``state`` becomes the state after the step succeeds, with where the objects it
        picks up or puts down are then."""
        objects = state.get(OBJECTS)
        moves = self._moves[id(skill)] if objects is not None else ()
        before = [(r, [(name, state[r].get(name)) for name in fields])
                  for r, fields in moves if r in state]
        skill.predict(robot, typed, state)
        if objects is None:
            return
        for r, was_fields in before:
            for name, was in was_fields:
                objects.update(self.crew.object_moves(r, name, was, state[r].get(name),
                                                      state[r], objects))
