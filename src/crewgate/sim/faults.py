"""Fault injection for the simulator, by name.

| spec                              | effect                                                    |
|-----------------------------------|-----------------------------------------------------------|
| robot_unavailable:ROBOT           | the robot is down from the start                          |
| robot_unavailable:ROBOT@SKILL     | the robot drops out when a step with that skill starts   |
| nan_fix                           | perception publishes a non-finite fix                     |
| missed_detection                  | perception never detects the target                       |
| stale_fix                         | the fix is published with an old timestamp               |
| fix_offset:X,Y                    | perception publishes a wrong fix at (X, Y)                |
| skill_failure:ROBOT.SKILL         | that skill fails half-way through                         |
| adapter_timeout:ROBOT.SKILL       | that skill never reports back (the orchestrator times out)|
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from crewgate.errors import UserError, did_you_mean
from crewgate.spec import Crew

KINDS = ("robot_unavailable", "nan_fix", "missed_detection", "stale_fix", "fix_offset",
         "skill_failure", "adapter_timeout")

_UNAVAILABLE = re.compile(r"^robot_unavailable:(\w+)(?:@(\w+))?$")
_OFFSET = re.compile(r"^fix_offset:\s*([^,\s]{1,32})\s*,\s*([^,\s]{1,32})$")
_SKILL = re.compile(r"^(skill_failure|adapter_timeout):(\w+)\.(\w+)$")


@dataclass(frozen=True, slots=True)
class Faults:
    """The faults of one simulated mission, parsed and checked against the crew."""

    down: frozenset[str] = frozenset()  # unavailable from the start
    drop_on: tuple[tuple[str, str], ...] = ()  # (robot, skill that triggers the drop-out)
    nan_fix: bool = False
    missed_detection: bool = False
    stale_fix: bool = False
    fix_offset: tuple[float, float] | None = None
    failing: frozenset[str] = frozenset()  # "robot.skill"
    hanging: frozenset[str] = frozenset()  # "robot.skill"
    specs: tuple[str, ...] = field(default=())

    @property
    def any(self) -> bool:
        return bool(self.specs)


def parse_faults(specs: Iterable[str], crew: Crew) -> Faults:
    """Parse ``--fault`` values; a bad one raises UserError naming it and the accepted forms."""
    down: set[str] = set()
    drop_on: list[tuple[str, str]] = []
    failing: set[str] = set()
    hanging: set[str] = set()
    flags = {"nan_fix": False, "missed_detection": False, "stale_fix": False}
    offset: tuple[float, float] | None = None
    kept: list[str] = []
    for raw in specs:
        spec = raw.strip()
        if not spec or spec == "none":
            continue
        kept.append(spec)
        if spec in flags:
            flags[spec] = True
        elif m := _UNAVAILABLE.match(spec):
            robot, skill = m[1], m[2]
            _robot(crew, robot, spec)
            if skill is None:
                down.add(robot)
            else:
                if not any(skill in r.skills for r in crew.robots.values()):
                    raise UserError(f"fault {spec!r}: no robot of crew {crew.name!r} has a skill "
                                    f"{skill!r}")
                drop_on.append((robot, skill))
        elif m := _OFFSET.match(spec):
            offset = (_coordinate(m[1], spec), _coordinate(m[2], spec))
        elif m := _SKILL.match(spec):
            robot, skill = m[2], m[3]
            _robot(crew, robot, spec)
            if skill not in crew.robots[robot].skills:
                raise UserError(f"fault {spec!r}: {robot} has no skill {skill!r}"
                                f"{did_you_mean(skill, crew.robots[robot].skills)}")
            (failing if m[1] == "skill_failure" else hanging).add(f"{robot}.{skill}")
        else:
            raise UserError(
                f"unknown fault {spec!r}{did_you_mean(spec.split(':')[0], KINDS)}; use one of: "
                "robot_unavailable:ROBOT, robot_unavailable:ROBOT@SKILL, nan_fix, "
                "missed_detection, stale_fix, fix_offset:X,Y, skill_failure:ROBOT.SKILL, "
                "adapter_timeout:ROBOT.SKILL")
    return Faults(frozenset(down), tuple(drop_on), flags["nan_fix"], flags["missed_detection"],
                  flags["stale_fix"], offset, frozenset(failing), frozenset(hanging), tuple(kept))


def _coordinate(text: str, spec: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UserError(f"fault {spec!r}: {text!r} is not a number; write fix_offset:X,Y with "
                        "two numbers, e.g. fix_offset:4.5,5") from None
    if not math.isfinite(value):
        raise UserError(f"fault {spec!r}: give finite X,Y (use nan_fix for NaN)")
    return value


def _robot(crew: Crew, robot: str, spec: str) -> None:
    if robot not in crew.robots:
        raise UserError(f"fault {spec!r}: crew {crew.name!r} has no robot {robot!r}"
                        f"{did_you_mean(robot, crew.robots)} (robots: {', '.join(crew.robots)})")

