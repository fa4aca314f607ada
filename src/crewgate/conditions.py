"""The study's four evaluation conditions: what the planner is told and whether the gate enforces.

| condition  | registry in prompt | contracts in prompt | enforcement | replans |
|------------|--------------------|---------------------|-------------|---------|
| llm-only   | no                 | no                  | no          | 0       |
| skill-list | yes                | no                  | no          | 0       |
| ro-prompt  | yes                | yes                 | no          | 0       |
| ro         | yes                | yes                 | yes         | 1       |
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from crewgate.errors import NotFoundError


class Knowledge(IntEnum):
    """How much of the crew spec the planner context carries."""

    FORMAT = 0  # only the output format (and robot names)
    REGISTRY = 1  # + skills, parameters, locations, objects, area, bindings
    CONTRACTS = 2  # + workflow contracts


@dataclass(frozen=True, slots=True)
class Condition:
    name: str
    knowledge: Knowledge
    enforce: bool
    replans: int


CONDITIONS: dict[str, Condition] = {
    c.name: c
    for c in (
        Condition("llm-only", Knowledge.FORMAT, enforce=False, replans=0),
        Condition("skill-list", Knowledge.REGISTRY, enforce=False, replans=0),
        Condition("ro-prompt", Knowledge.CONTRACTS, enforce=False, replans=0),
        Condition("ro", Knowledge.CONTRACTS, enforce=True, replans=1),
    )
}


def condition(name: str) -> Condition:
    try:
        return CONDITIONS[name]
    except KeyError:
        raise NotFoundError("condition", name, CONDITIONS) from None
