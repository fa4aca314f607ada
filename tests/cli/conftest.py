"""Fixtures for the command-line tests: every test gets its own journal file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.support import CREWGATE


@pytest.fixture(scope="session", autouse=True)
def _console_script_installed() -> None:
    if not CREWGATE.is_file():
        pytest.fail(f"the crewgate console script is not installed next to the interpreter "
                    f"({CREWGATE}); run `pip install -e .`")


@pytest.fixture
def journal_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's journal file (also exported as CREWGATE_JOURNAL for in-process code)."""
    path = tmp_path / "journal" / "journal.sqlite3"
    monkeypatch.setenv("CREWGATE_JOURNAL", str(path))
    return path
