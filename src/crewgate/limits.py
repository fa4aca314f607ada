"""The bounds within which crewgate reads hostile input, stated once.

Every input is hostile until parsed: a request from a network client, a plan from a model, a
file named on the command line. Each is read within these bounds; what exceeds them is refused
with a verdict code (a plan) or a clear error naming the bound (a request, a file), never read
further. The gate's own per-crew bound on plan length is the crew spec's ``max_steps``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from crewgate.errors import InputFileError, UserError

MAX_REQUEST_CHARS = 4_000  # a request is a paragraph, not a document
MAX_PLAN_CHARS = 200_000  # raw planner output read for a plan (a 1,000-step plan fits)
MAX_PLAN_STEPS = 1_000  # steps the parser reads at all; crews bound plans lower (max_steps)
MAX_JSON_DEPTH = 16  # nesting of a plan's JSON (a step's arguments are at depth 4)
MAX_ARGS = 64  # arguments of one step
MAX_NAME_CHARS = 64  # a robot, skill, workflow or argument name (the spec's own bound)
MAX_JSON_STARTS = 256  # candidate '{' tried when searching raw text for the plan object
MAX_SPEC_CHARS = 2_000_000  # a crew spec file
MAX_RECORDS_CHARS = 200_000_000  # a file of recorded planner outputs (replay) or traces


# characters that make a text show in another order than the one it is read in (Unicode's
# bidirectional embeddings, overrides and isolates): "Drive to x 2, y 3 \u202e.og t'noD" shows
# "... Don't go." to the person who reviews it, and reads "og t'noD"
DIRECTION_CONTROLS = {
    "\u202a": "LEFT-TO-RIGHT EMBEDDING", "\u202b": "RIGHT-TO-LEFT EMBEDDING",
    "\u202c": "POP DIRECTIONAL FORMATTING", "\u202d": "LEFT-TO-RIGHT OVERRIDE",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE", "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2067": "RIGHT-TO-LEFT ISOLATE", "\u2068": "FIRST STRONG ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE"}


def check_request(request: object) -> str:
    """The request, if it is one crewgate reads; a UserError naming the bound otherwise."""
    if not isinstance(request, str):
        raise UserError(f"a request is text, got {type(request).__name__}")
    if not request.strip():
        raise UserError("the request is empty; say what the crew should do")
    if len(request) > MAX_REQUEST_CHARS:
        raise UserError(f"the request is {len(request):,} characters long; crewgate reads "
                        f"requests of at most {MAX_REQUEST_CHARS:,} (say it in fewer words)")
    if "\x00" in request:
        raise UserError("the request contains a NUL character; give it as plain text")
    if controls := DIRECTION_CONTROLS.keys() & set(request):
        first = min(controls, key=request.index)
        raise UserError(f"the request contains a direction control (U+{ord(first):04X} "
                        f"{DIRECTION_CONTROLS[first]}), which shows text in another order than "
                        "it is read; give it as plain text")
    return request


BOM = "\ufeff"  # a byte order mark some editors write first (a JSON reader refuses it)


def read_text(path: Path, what: str, limit: int) -> str:
    """The text of a file ('-': standard input) named by the user, read to at most ``limit``
    characters: a larger one (``/dev/zero``) is refused without being read to its end; a byte
    order mark before it is left out."""
    try:
        if str(path) == "-":
            text = sys.stdin.read(limit + 1)
        else:
            with path.open(encoding="utf-8") as handle:
                text = handle.read(limit + 1)
    except FileNotFoundError:
        raise InputFileError(f"{what} {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(f"cannot read {what} {str(path)!r}: {exc}") from exc
    if len(text) > limit:
        raise InputFileError(f"{what} {str(path)!r} is longer than {limit:,} characters; "
                             "crewgate does not read it")
    return text.removeprefix(BOM)
