"""The one error tree of crewgate, and whose fault each error is.

    CrewgateError
     ├── UserError ............ the caller's input is wrong; the message names the value and the fix
     │    ├── SpecError ....... a crew spec does not validate (file, line, field)
     │    ├── NotFoundError ... an unknown crew, world, planner, mission ... ("did you mean ...?")
     │    └── InputFileError .. a file that is missing, unreadable or of the wrong kind
     ├── PlannerError ......... the planner could not produce output (network, timeout, model);
     │                          the orchestrator turns it into a refused mission: nothing moves
     ├── AdapterError ......... a robot backend failed to accept or run a command
     └── GateViolation ........ an authorization was forged, reused or bypassed: a bug in the
                                caller, never a verdict (verdicts are values, not exceptions)

Third-party errors are translated once, at the boundary where they enter, with ``raise ... from``.
Refusing a plan is *not* an error: the gate returns verdicts as values.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class CrewgateError(Exception):
    """Base of every error crewgate raises on purpose."""


class UserError(CrewgateError):
    """The caller gave a bad value; the message says which and how to fix it."""


class SpecError(UserError):
    """A crew spec (or a file of the same care, ``what``: a scenario suite) failed to load or
    validate.

    ``problems`` holds one line per problem, each with file, line and field where known.
    """

    def __init__(self, source: str, problems: list[str], what: str = "crew spec") -> None:
        self.source = source
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"invalid {what} {source}:\n{lines}")


class NotFoundError(UserError):
    """A named thing does not exist; suggests the closest known names."""

    def __init__(self, kind: str, name: str, known: Iterable[str], hint: str = "") -> None:
        known_list = sorted(known)
        self.kind, self.name, self.known = kind, name, known_list
        message = f"unknown {kind} {name!r}"
        close = difflib.get_close_matches(name, known_list, n=3, cutoff=0.5)
        if close:
            message += f" (did you mean {' or '.join(repr(c) for c in close)}?)"
        elif known_list:
            message += f"; known: {', '.join(known_list)}"
        if hint:
            message += f"; {hint}"
        super().__init__(message)


class InputFileError(UserError):
    """A file given by the user is missing, unreadable or not what was expected."""


class PlannerError(CrewgateError):
    """The planner failed to produce an answer. Recorded and turned into a refused mission."""


class AdapterError(CrewgateError):
    """A robot backend failed to accept, run or report a command."""


class GateViolation(CrewgateError):
    """An authorization was used twice, forged, or a dispatch bypassed the gate. Always a bug."""


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A short suggestion suffix for messages: " (did you mean 'x'?)" or an empty string."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
