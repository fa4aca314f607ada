"""Conventions as tests: nothing but the dispatcher reaches an adapter; every rule in a spec is
both rendered for the planner and checked by the gate."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import crewgate

SRC = Path(crewgate.__file__).parent
HOOKS = {"_start", "_poll", "_cancel", "_wait"}
DISPATCHER = SRC / "orchestrator" / "dispatch.py"


def _calls(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            found.append((node.func.attr, node.lineno))
    return found


def test_only_the_dispatcher_calls_adapter_hooks() -> None:
    offenders = [
        f"{path.relative_to(SRC)}:{line} calls {name}"
        for path in SRC.rglob("*.py") if path != DISPATCHER
        for name, line in _calls(path) if name in HOOKS
    ]
    assert offenders == []
    assert {name for name, _ in _calls(DISPATCHER)} >= {"_start", "_poll", "_cancel", "_wait"}


def test_only_the_dispatcher_redeems_authorizations() -> None:
    users = sorted(str(path.relative_to(SRC)) for path in SRC.rglob("*.py")
                   if any(name == "redeem" for name, _ in _calls(path)))
    assert users == ["orchestrator/dispatch.py"]


def test_the_dispatcher_redeems_before_it_starts() -> None:
    tree = ast.parse(DISPATCHER.read_text(encoding="utf-8"))
    run = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "run")
    order = [n.func.attr for n in ast.walk(run)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr in ("redeem", "_start")]
    lines = {n.func.attr: n.lineno for n in ast.walk(run)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr in ("redeem", "_start")}
    assert set(order) == {"redeem", "_start"}
    assert lines["redeem"] < lines["_start"]


def test_simulator_internals_are_reached_only_through_the_sim_adapter() -> None:
    users = sorted(str(path.relative_to(SRC)) for path in SRC.rglob("*.py")
                   if "sim" not in path.relative_to(SRC).parts[:1]
                   and "Simulator(" in path.read_text(encoding="utf-8"))
    assert users == ["adapters/sim.py"]


def test_layers_point_one_way() -> None:
    """spec <- text <- render/gate <- orchestrator <- cli/eval; the spec and the gate import
    neither the orchestrator nor the CLI; adapters and planners never import the orchestrator
    (planners may read the scenario suites, which are data)."""
    rules = {
        "text": {"crewgate.gate", "crewgate.render", "crewgate.orchestrator", "crewgate.cli",
                 "crewgate.planners", "crewgate.adapters", "crewgate.sim", "crewgate.eval"},
        "spec": {"crewgate.gate", "crewgate.render", "crewgate.orchestrator", "crewgate.cli",
                 "crewgate.planners", "crewgate.adapters", "crewgate.sim", "crewgate.eval"},
        "gate": {"crewgate.orchestrator", "crewgate.cli", "crewgate.planners",
                 "crewgate.adapters", "crewgate.sim", "crewgate.eval", "crewgate.render"},
        "render": {"crewgate.gate", "crewgate.orchestrator", "crewgate.cli", "crewgate.sim"},
        "adapters": {"crewgate.orchestrator", "crewgate.cli", "crewgate.planners"},
        "planners": {"crewgate.orchestrator", "crewgate.cli", "crewgate.adapters",
                     "crewgate.sim", "crewgate.gate", "crewgate.eval.runner"},
        "sim": {"crewgate.orchestrator", "crewgate.cli", "crewgate.planners", "crewgate.gate"},
        # the ROS 2 backend is an adapter (and simulated robots): it never judges or plans
        "ros2": {"crewgate.orchestrator", "crewgate.cli", "crewgate.planners", "crewgate.gate",
                 "crewgate.eval", "crewgate.render"},
    }
    for core in ("text", "spec", "gate", "render", "planners", "sim", "adapters"):
        rules[core] = rules.get(core, set()) | {"crewgate.ros2"}
    bad = []
    for package, forbidden in rules.items():
        for path in (SRC / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                for name in names:
                    if any(name == f or name.startswith(f + ".") for f in forbidden):
                        bad.append(f"{path.relative_to(SRC)} imports {name}")
    assert bad == []


def test_the_core_imports_without_rclpy() -> None:
    """ROS 2 is an extra: with rclpy unimportable, the library, the CLI and the protocol load."""
    code = ("import sys; sys.modules['rclpy'] = None; "
            "import crewgate.api, crewgate.cli.app, crewgate.ros2.protocol, crewgate.eval.runner; "
            "assert 'rclpy' not in [m for m in sys.modules if sys.modules[m] is not None]")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
