"""Only the dispatcher reaches a robot: checked statically (no other module calls an adapter's
hooks; no module but the simulator adapter and the robot-side nodes builds a simulated world)
and at run time (every hook call of missions of every outcome comes from the dispatcher)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import crewgate
from crewgate.adapters.sim import SimAdapter
from crewgate.api import run_mission
from crewgate.commands import Command, Progress
from crewgate.journal import Journal
from crewgate.planners import ScriptedPlanner
from crewgate.sim.faults import parse_faults
from crewgate.spec import Crew
from tests.conftest import SAD, SAD_PLAN

SRC = Path(crewgate.__file__).parent
HOOKS = ("start", "poll", "cancel", "wait")
DISPATCHER = "crewgate.orchestrator.dispatch"


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, ast.parse(path.read_text(encoding="utf-8"))


def _receiver(node: ast.expr) -> str:
    """The last name of a call's receiver: ``self.adapter.start`` -> ``adapter``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


# adapters that stand between the dispatcher and a backend pass each hook on, and only from
# the same hook (the operator service's per-mission view of its one backend)
DELEGATIONS = ["crewgate.service.live MissionView.cancel -> adapter.cancel",
               "crewgate.service.live MissionView.poll -> adapter.poll",
               "crewgate.service.live MissionView.start -> adapter.start",
               "crewgate.service.live MissionView.wait -> adapter.wait"]


def _hook_calls() -> Iterator[tuple[str, int, str, str, str]]:
    """(module, line, enclosing class.function, receiver, hook) of every call of an
    adapter's hook."""
    for module, tree in _modules():
        for cls in [None, *[n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]]:
            scope = tree if cls is None else cls
            for fn in ast.walk(scope):
                if not isinstance(fn, ast.FunctionDef):
                    continue
                owner = f"{cls.name}.{fn.name}" if cls is not None and fn in cls.body else ""
                if cls is None and any(fn in c.body for c in ast.walk(tree)
                                       if isinstance(c, ast.ClassDef)):
                    continue  # a method: seen with its class
                for node in ast.walk(fn):
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                            and node.func.attr in HOOKS \
                            and "adapter" in _receiver(node.func.value).lower():
                        yield module, node.lineno, owner or fn.name, \
                            _receiver(node.func.value), node.func.attr


def test_no_module_but_the_dispatcher_calls_an_adapters_hooks() -> None:
    calls = sorted(set(_hook_calls()))
    delegated = sorted({f"{m} {owner} -> {recv}.{hook}" for m, _, owner, recv, hook in calls
                        if m != DISPATCHER and owner.rsplit(".", 1)[-1] == hook})
    assert delegated == DELEGATIONS
    others = [f"{m}:{line} {recv}.{hook}" for m, line, owner, recv, hook in calls
              if m != DISPATCHER and owner.rsplit(".", 1)[-1] != hook]
    assert others == []
    assert sorted({hook for m, *_, hook in calls if m == DISPATCHER}) == sorted(HOOKS)


def test_only_the_sim_adapter_and_robot_nodes_build_a_simulated_world() -> None:
    importers = sorted(
        module for module, tree in _modules() for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
        and node.module.startswith(("crewgate.sim.simulator", "crewgate.sim.bodies"))
        and not module.startswith("crewgate.sim."))
    assert sorted(set(importers)) == ["crewgate.adapters.sim", "crewgate.onboard.mirror",
                                      "crewgate.onboard.node", "crewgate.onboard.ros",
                                      "crewgate.onboard.server"]


def test_the_dispatcher_redeems_before_it_starts() -> None:
    tree = next(t for m, t in _modules() if m == DISPATCHER)
    run = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "send")
    lines = {n.func.attr: n.lineno for n in ast.walk(run)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr in ("redeem", "start")}
    assert sorted(lines) == ["redeem", "start"]
    assert lines["redeem"] < lines["start"]


# -- at run time ----------------------------------------------------------------------------------


class WitnessAdapter(SimAdapter):
    """The simulator, recording the module each hook is called from; it can e-stop."""

    def __init__(self, crew: Crew, faults: list[str], estop_after_polls: int | None) -> None:
        super().__init__(crew, faults=parse_faults(faults, crew))
        self.callers: set[str] = set()
        self.polls = 0
        self.estop_after = estop_after_polls

    def _witness(self) -> None:
        self.callers.add(sys._getframe(2).f_globals["__name__"])

    def start(self, command: Command) -> None:
        self._witness()
        super().start(command)

    def poll(self, command: Command) -> Progress:
        self._witness()
        self.polls += 1
        return super().poll(command)

    def cancel(self, command: Command) -> None:
        self._witness()
        super().cancel(command)

    def wait(self, seconds: float) -> None:
        self._witness()
        super().wait(seconds)

    def abort_reason(self) -> str | None:
        stopped = self.estop_after is not None and self.polls >= self.estop_after
        return "e-stop pressed" if stopped else None


CASES: dict[str, dict[str, Any]] = {
    "completed": {"faults": [], "condition": "ro", "status": "completed"},
    "halted, fallback": {"faults": ["robot_unavailable:tb3@search_target"], "condition": "ro",
                         "status": "halted"},
    "timed out, cancelled": {"faults": ["adapter_timeout:iris.search_target"],
                             "condition": "ro", "status": "halted"},
    "enforcement off": {"faults": ["nan_fix"], "condition": "ro-prompt", "status": "completed"},
    "e-stop": {"faults": [], "condition": "ro", "status": "halted", "estop": 40},
}


@pytest.mark.parametrize("case", CASES)
def test_every_hook_call_of_a_mission_comes_from_the_dispatcher(sar: Crew, case: str) -> None:
    spec = CASES[case]
    adapter = WitnessAdapter(sar, spec["faults"], spec.get("estop"))
    result = run_mission(sar, SAD, ScriptedPlanner([SAD_PLAN]), condition=spec["condition"],
                         journal=Journal(":memory:"), adapter=adapter)
    assert result.status == spec["status"], result.reason
    assert adapter.callers == {DISPATCHER}
