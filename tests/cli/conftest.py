"""Fixtures for the command-line tests: every test gets its own journal file."""

from __future__ import annotations

import pytest

from tests.cli.support import CREWGATE


@pytest.fixture(scope="session", autouse=True)
def _console_script_installed() -> None:
    if not CREWGATE.is_file():
        pytest.fail(f"the crewgate console script is not installed next to the interpreter "
                    f"({CREWGATE}); run `pip install -e .`")
