"""Shared fixtures: packaged crews, the third test crew, gates, simulated worlds, a mission runner
that journals to memory."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from crewgate.adapters.sim import SimAdapter
from crewgate.api import run_mission
from crewgate.gate import Gate
from crewgate.journal import Journal
from crewgate.orchestrator import MissionResult
from crewgate.planners import ScriptedPlanner
from crewgate.sim.faults import parse_faults
from crewgate.spec import Crew, load_crew
from crewgate.world import World

DATA = Path(__file__).parent / "data"
WAREHOUSE = DATA / "crews" / "warehouse.yaml"


@pytest.fixture(scope="session")
def sar() -> Crew:
    return load_crew("sar")


@pytest.fixture(scope="session")
def g1_go2() -> Crew:
    return load_crew("g1_go2")


@pytest.fixture(scope="session")
def warehouse() -> Crew:
    return load_crew(WAREHOUSE)


@pytest.fixture(scope="session")
def sar_gate(sar: Crew) -> Gate:
    return Gate(sar)


@pytest.fixture(scope="session")
def g1_gate(g1_go2: Crew) -> Gate:
    return Gate(g1_go2)


def sim_world(crew: Crew, faults: Sequence[str] = (), world: str | None = None) -> World:
    """The initial world of the simulator, with faults applied."""
    return SimAdapter(crew, world, faults=parse_faults(faults, crew)).world


Runner = Callable[..., MissionResult]


@pytest.fixture
def journal_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's journal file (also exported as CREWGATE_JOURNAL for in-process code)."""
    path = tmp_path / "journal" / "journal.sqlite3"
    monkeypatch.setenv("CREWGATE_JOURNAL", str(path))
    return path


@pytest.fixture
def journal() -> Journal:
    return Journal(":memory:")


@pytest.fixture
def run(journal: Journal) -> Runner:
    """run(crew, request, *plans, faults=(), condition="ro", world=None, seed=0)."""

    def _run(crew: Crew, request: str, *plans: str | dict[str, Any],
             faults: Sequence[str] = (), condition: str = "ro", world: str | None = None,
             seed: int = 0) -> MissionResult:
        return run_mission(crew, request, ScriptedPlanner(list(plans)), faults=faults,
                           condition=condition, world=world, seed=seed, journal=journal)

    return _run


def plan(workflow: str, *steps: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    """plan("carry", ("g1", "grab_from_table", {}), ...) -> a plan mapping."""
    return {"workflow": workflow,
            "steps": [{"robot": r, "skill": s, "args": a} for r, s, a in steps]}


# The README's search-and-dispatch mission: the request and its reference plan.
SAD = ("A hiker is missing in the search zone x from -5.5 to 5.5, y from -5.5 to 5.5. Fly the "
       "drone over the zone and send the ground rover to the victim once located.")
SAD_ZONE = {"x_min": -5.5, "x_max": 5.5, "y_min": -5.5, "y_max": 5.5}
SAD_PLAN = plan("search_and_dispatch", ("iris", "takeoff", {}),
                ("iris", "search_target", SAD_ZONE), ("tb3", "navigate_to", {"target": "victim"}))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Test files are spread over the workers whole (what `--dist loadfile` did: a file's module
    fixtures, such as a model load, are built once), except that every ROS 2 test goes to one
    worker: processes of two ROS 2 tests at once, beside the other worker's load, made the
    nodes' timing flaky on 2 cores (`make test` runs `--dist loadgroup`)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            path = item.path.as_posix()
            group = "ros2" if "/tests/ros2/" in path else path
            item.add_marker(pytest.mark.xdist_group(group))


# Fast DDS's own cleaner of the shared memory that processes killed with SIGKILL leave in
# /dev/shm (the crash tests kill nodes on purpose): it removes only the files no live process
# holds (docs/ros2.md). It ships with the ros2 extra; it needs psutil (the ros2-test extra).
FASTDDS_TOOL = Path(sys.prefix) / "tools" / "fastdds" / "fastdds.py"


def pytest_sessionfinish(session: pytest.Session) -> None:
    if FASTDDS_TOOL.exists() and importlib.util.find_spec("psutil") is not None:
        subprocess.run([sys.executable, str(FASTDDS_TOOL), "shm", "clean"], check=False,
                       capture_output=True, timeout=60)
