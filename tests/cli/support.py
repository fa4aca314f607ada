"""Run ``crewgate`` commands as a user does, isolated from the user's state: in this process
(``crewgate``: the entry point's own ``main`` with its arguments, streams, environment and exit
status; fast, one model load for the whole suite) or as the installed console script in a
subprocess (``crewgate_process``: for the few tests that prove the script itself, and for
commands that need a process of their own, such as ROS 2).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]
# the installed console script, as a user runs it
CREWGATE = Path(sys.executable).parent / "crewgate"
EXAMPLE_PLAN = ROOT / "examples" / "sar_search_and_dispatch.json"
WAREHOUSE = ROOT / "tests" / "data" / "crews" / "warehouse.yaml"

SAR_REQUEST = (
    "A hiker is missing in the search zone x from -5.5 to 5.5, y from -5.5 to 5.5. Fly the drone "
    "over the zone and send the ground rover to the victim once located."
)

# Environment variables that would make rich emit colour codes or change layout in a pipe.
_SCRUB = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR_FORCE", "NO_COLOR",
          "CREWGATE_JOURNAL", "XDG_STATE_HOME", "COLUMNS", "LINES")


@dataclass(frozen=True)
class Run:
    args: tuple[str, ...]
    rc: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        """stdout as JSON (the whole of it: --json must print nothing else)."""
        try:
            return json.loads(self.stdout)
        except json.JSONDecodeError as exc:
            raise AssertionError(f"stdout of {self} is not JSON: {exc}") from exc

    def __str__(self) -> str:
        return (f"crewgate {' '.join(self.args)} -> rc {self.rc}\n--- stdout\n"
                f"{self.stdout[-3000:]}\n--- stderr\n{self.stderr[-3000:]}")


def _environment(journal: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _SCRUB}
    env.update(CREWGATE_JOURNAL=str(journal), XDG_STATE_HOME=str(journal.parent / "state"),
               COLUMNS="200", PYTHONIOENCODING="utf-8")
    return env


def crewgate(*args: str | Path, journal: Path, stdin: str | None = None) -> Run:
    """Run ``crewgate ARGS`` in this process with ``CREWGATE_JOURNAL=journal`` (required: never
    the user's): ``crewgate.cli.app.main`` with ``sys.argv``, the standard streams and the
    environment set as the console script would have them. An exception that escapes ``main``
    is printed as a traceback on stderr with exit status 1, as Python would."""
    from crewgate.cli.app import main

    argv = tuple(str(a) for a in args)
    out, err = io.StringIO(), io.StringIO()
    rc = 0
    with mock.patch.dict(os.environ, _environment(journal), clear=True), \
            mock.patch.object(sys, "argv", ["crewgate", *argv]), \
            mock.patch.object(sys, "stdin", io.StringIO(stdin or "")), \
            redirect_stdout(out), redirect_stderr(err):
        try:
            main()
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:  # what the interpreter would print, and its status
            traceback.print_exc(file=err)
            rc = 1
    return Run(argv, rc, out.getvalue(), err.getvalue())


def crewgate_process(*args: str | Path, journal: Path, stdin: str | None = None) -> Run:
    """Run the installed console script in a subprocess, with ``CREWGATE_JOURNAL=journal``."""
    argv = tuple(str(a) for a in args)
    proc = subprocess.run([str(CREWGATE), *argv], capture_output=True, text=True,
                          env=_environment(journal), cwd=ROOT, input=stdin, timeout=120,
                          check=False, encoding="utf-8")
    return Run(argv, proc.returncode, proc.stdout, proc.stderr)


def assert_clean_failure(run: Run, rc: int = 2) -> None:
    """A user error: the expected exit status, one message on stderr, no traceback."""
    assert run.rc == rc, str(run)
    assert "Traceback" not in run.stderr, str(run)
    assert "Traceback" not in run.stdout, str(run)
    assert run.stderr.startswith("error:"), str(run)


def write_plan(path: Path, workflow: str, *steps: tuple[str, str, dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"workflow": workflow, "steps": [
        {"robot": r, "skill": s, "args": a} for r, s, a in steps]}), encoding="utf-8")
    return path
