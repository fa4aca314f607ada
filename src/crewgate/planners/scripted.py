"""The scripted planner: returns queued outputs in order (the test double, and ``--plan FILE``).

Each queued item is raw text (parsed tolerantly, so malformed text gives ``malformed_plan``) or an
already-structured mapping. When the queue runs dry the last output is repeated, as the study's
replans did for a planner that does not change its mind.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Self

from pydantic import Field

from crewgate.errors import PlannerError
from crewgate.limits import MAX_PLAN_CHARS, read_text
from crewgate.plan import parse_plan
from crewgate.planners.base import Planner, PlanningRequest, Proposal
from crewgate.planners.options import PlannerOptions
from crewgate.spec import Crew


class ScriptedOptions(PlannerOptions):
    plan: Path = Field(description="The planner's output: a file with a JSON plan or raw model "
                       "text ('-' reads standard input).")


class ScriptedPlanner(Planner):
    """Queued outputs in order, the last one repeated: the test double, and a plan file as the
    planner's output."""

    name = "scripted"
    Options = ScriptedOptions

    def __init__(self, outputs: Iterable[str | Mapping[str, Any]], *, repeat_last: bool = True):
        self._outputs = list(outputs)
        self._next = 0
        self.repeat_last = repeat_last
        self.requests: list[PlanningRequest] = []  # what it was asked, for tests

    @classmethod
    def from_options(cls, crew: Crew, options: ScriptedOptions) -> Self:
        """The plan file's content is the planner's output, raw text or JSON."""
        return cls([read_plan_file(options.plan)])

    def _propose(self, request: PlanningRequest) -> Proposal:
        self.requests.append(request)
        if self._next < len(self._outputs):
            item = self._outputs[self._next]
            self._next += 1
        elif self.repeat_last and self._outputs:
            item = self._outputs[-1]
        else:
            raise PlannerError("the scripted planner has no more outputs")
        raw = item if isinstance(item, str) else json.dumps(item)
        return Proposal(raw, parse_plan(item))


def read_plan_file(path: Path) -> str:
    """The text of a plan file ('-' reads standard input), bounded like any planner output."""
    return read_text(path, "plan file", MAX_PLAN_CHARS)
