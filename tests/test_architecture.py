"""Conventions as tests: the arrows between packages point one way, only the dispatcher redeems
an authorization, and the core loads without the optional extras. (That only the dispatcher
reaches an adapter is tests/test_actuation_paths.py; that every rule is rendered and checked by
one object is tests/test_rules.py.)"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import crewgate

SRC = Path(crewgate.__file__).parent
ABOVE_THE_GATE = {"crewgate.orchestrator", "crewgate.cli", "crewgate.eval", "crewgate.api",
                  "crewgate.service", "crewgate.mcp"}

# The lowest layers may import nothing of crewgate's but these (and themselves).
ONLY: dict[str, set[str]] = {
    "values": set(),
    "codes": {"crewgate.values"},
    "errors": set(),
    "jsonsafe": set(),
    "yamlsafe": set(),
    "suggest": set(),
    "lease": set(),
    "limits": {"crewgate.errors"},
    "text": {"crewgate.codes", "crewgate.errors", "crewgate.values"},
    "spec": {"crewgate.text", "crewgate.codes", "crewgate.errors", "crewgate.jsonsafe",
             "crewgate.yamlsafe", "crewgate.limits", "crewgate.suggest", "crewgate.values"},
    "plugins": {"crewgate.errors"},
    "world": {"crewgate.spec"},
    "commands": {"crewgate.world"},
    "suites": {"crewgate.spec", "crewgate.codes", "crewgate.errors", "crewgate.limits",
               "crewgate.yamlsafe"},
}
# Higher layers may not import these.
FORBIDDEN: dict[str, set[str]] = {
    "render": {"crewgate.gate", "crewgate.planners", "crewgate.adapters", "crewgate.sim",
               "crewgate.ros2", "crewgate.onboard", *ABOVE_THE_GATE},
    "gate": {"crewgate.render", "crewgate.planners", "crewgate.adapters", "crewgate.sim",
             "crewgate.ros2", "crewgate.onboard", *ABOVE_THE_GATE},
    "adapters": {"crewgate.gate", "crewgate.planners", "crewgate.ros2", "crewgate.onboard",
                 *ABOVE_THE_GATE},
    "planners": {"crewgate.gate", "crewgate.adapters", "crewgate.sim", "crewgate.ros2",
                 "crewgate.onboard", *ABOVE_THE_GATE},
    # the simulator is the robots' side: it obeys commands, never judges, plans or sends them
    "sim": {"crewgate.gate", "crewgate.planners", "crewgate.adapters", "crewgate.ros2",
            "crewgate.onboard", "crewgate.render", *ABOVE_THE_GATE},
    # the orchestrator's side of ROS 2 is an adapter: it never judges or plans
    "ros2": {"crewgate.gate", "crewgate.planners", "crewgate.render", "crewgate.onboard",
             "crewgate.sim", *ABOVE_THE_GATE},
    # the robots' side of ROS 2: a node obeys what it receives
    "onboard": {"crewgate.gate", "crewgate.planners", "crewgate.render", "crewgate.adapters",
                *ABOVE_THE_GATE},
    "orchestrator": {"crewgate.cli", "crewgate.eval", "crewgate.sim", "crewgate.ros2",
                     "crewgate.onboard", "crewgate.service", "crewgate.mcp"},
    # the mission desk runs missions through the api on any backend it is handed
    "service": {"crewgate.cli", "crewgate.eval", "crewgate.mcp", "crewgate.sim",
                "crewgate.ros2", "crewgate.onboard"},
    # an agent's tools reach the robots only through the desk
    "mcp": {"crewgate.cli", "crewgate.eval", "crewgate.sim", "crewgate.ros2", "crewgate.onboard",
            "crewgate.gate", "crewgate.orchestrator", "crewgate.adapters", "crewgate.api"},
}


def _imports(layer: str) -> Iterator[tuple[str, str]]:
    """(file, imported module) for every crewgate import of a package or module."""
    paths = sorted((SRC / layer).rglob("*.py")) if (SRC / layer).is_dir() else [
        SRC / f"{layer}.py"]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                if name.split(".")[0] == "crewgate":
                    yield str(path.relative_to(SRC)), name


def _within(name: str, prefixes: set[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_the_lowest_layers_import_only_what_is_below_them() -> None:
    bad = [f"{path} imports {name}" for layer, allowed in ONLY.items()
           for path, name in _imports(layer)
           if not _within(name, {f"crewgate.{layer}", *allowed})]
    assert bad == []


def test_higher_layers_never_import_what_is_above_or_beside_them() -> None:
    bad = [f"{path} imports {name}" for layer, forbidden in FORBIDDEN.items()
           for path, name in _imports(layer) if _within(name, forbidden)]
    assert bad == []


def test_every_package_has_its_rule() -> None:
    """A new package must say where it sits."""
    packages = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    placed = set(ONLY) | set(FORBIDDEN) | {"cli", "eval", "crews", "testing"}
    assert sorted(packages - placed) == []


def test_only_the_dispatcher_redeems_authorizations() -> None:
    users = sorted(str(path.relative_to(SRC)) for path in SRC.rglob("*.py")
                   if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                          and n.func.attr == "redeem"
                          for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))))
    assert users == ["orchestrator/dispatch.py"]


def test_the_core_imports_without_rclpy() -> None:
    """ROS 2 is an extra: with rclpy unimportable, the library, the CLI, the protocol and the
    crew spec (whose ros2 section the ROS 2 backend owns) load."""
    code = ("import sys; sys.modules['rclpy'] = None; "
            "import crewgate.api, crewgate.cli.app, crewgate.ros2.protocol, crewgate.eval.runner; "
            "from crewgate.spec import load_crew; load_crew('sar'); "
            "assert 'rclpy' not in [m for m in sys.modules if sys.modules[m] is not None]")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr


def test_the_cli_starts_without_loading_the_crew_spec() -> None:
    """`crewgate --version` and `--help` stay fast: registering every command loads neither the
    spec (pydantic) nor a planner; each command imports what it needs when it runs."""
    code = ("import sys\n"
            "from crewgate.cli import (app, check, estop, evaluate, inspect, node, plan, plugins,"
            " recover, run, status, trace)\n"
            "loaded = sorted(m for m in ('pydantic', 'crewgate.spec', 'crewgate.planners', "
            "'crewgate.gate', 'numpy') if m in sys.modules)\n"
            "assert loaded == [], loaded")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
