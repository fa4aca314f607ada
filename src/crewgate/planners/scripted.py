"""The scripted planner: returns queued outputs in order (the test double, and ``--plan FILE``).

Each queued item is raw text (parsed tolerantly, so malformed text gives ``malformed_plan``) or an
already-structured mapping. When the queue runs dry the last output is repeated, as the study's
replans did for a planner that does not change its mind.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewgate.errors import InputFileError, PlannerError, UserError
from crewgate.plan import parse_plan
from crewgate.planners.base import PlannerOutput, PlanningRequest
from crewgate.spec import Crew

if TYPE_CHECKING:
    from crewgate.planners.registry import PlannerOptions


class ScriptedPlanner:
    name = "scripted"

    def __init__(self, outputs: Iterable[str | Mapping[str, Any]], *, repeat_last: bool = True):
        self._outputs = list(outputs)
        self._next = 0
        self.repeat_last = repeat_last
        self.requests: list[PlanningRequest] = []  # what it was asked, for tests

    @classmethod
    def from_options(cls, crew: Crew, options: PlannerOptions) -> ScriptedPlanner:
        """``--plan FILE``: the file's content is the planner's output, raw text or JSON."""
        if options.plan_file is None:
            raise UserError("the scripted planner needs --plan FILE "
                            "(a JSON plan or raw model text)")
        return cls([read_plan_file(options.plan_file)])

    def plan(self, request: PlanningRequest) -> PlannerOutput:
        self.requests.append(request)
        start = time.perf_counter()
        if self._next < len(self._outputs):
            item = self._outputs[self._next]
            self._next += 1
        elif self.repeat_last and self._outputs:
            item = self._outputs[-1]
        else:
            raise PlannerError("the scripted planner has no more outputs")
        raw = item if isinstance(item, str) else json.dumps(item)
        plan = parse_plan(item)
        return PlannerOutput(raw=raw, plan=plan, planning_s=time.perf_counter() - start)


def read_plan_file(path: Path) -> str:
    """The text of a plan file ('-' reads standard input)."""
    if str(path) == "-":
        import sys

        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputFileError(f"plan file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(f"cannot read plan file {str(path)!r}: {exc}") from exc
