"""The library's front door: load a crew, check a plan, run a mission on the simulator.

The CLI and the evaluation harness are thin over these functions.

    >>> from crewgate.api import run_mission
    >>> from crewgate.planners import ScriptedPlanner
    >>> result = run_mission("g1_go2", "go to charging", ScriptedPlanner([{
    ...     "workflow": "navigation_only",
    ...     "steps": [{"robot": "go2", "skill": "navigate_to_location",
    ...                "args": {"location": "charging"}}]}]), journal=":memory:")
    >>> result.status
    'completed'
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from crewgate.adapters.base import Adapter
from crewgate.adapters.sim import SimAdapter
from crewgate.conditions import Condition
from crewgate.conditions import condition as condition_named
from crewgate.gate import Gate, PlanVerdict
from crewgate.journal import Journal
from crewgate.limits import check_request
from crewgate.orchestrator import MissionOptions, MissionResult, Orchestrator
from crewgate.orchestrator.clearance import Clearance
from crewgate.plan import parse_plan
from crewgate.planners.base import Planner
from crewgate.sim.faults import parse_faults
from crewgate.spec import Crew, load_crew
from crewgate.world import World

_GATES: OrderedDict[int, Gate] = OrderedDict()
_MAX_GATES = 32


def gate_for(crew: Crew) -> Gate:
    """A compiled gate per crew object, for the most recent crews (missions come in thousands;
    the bound keeps a long-running process from holding every crew it ever loaded)."""
    gate = _GATES.get(id(crew))
    if gate is None or gate.crew is not crew:
        gate = _GATES[id(crew)] = Gate(crew)
        while len(_GATES) > _MAX_GATES:
            _GATES.popitem(last=False)
    else:
        _GATES.move_to_end(id(crew))
    return gate


def _crew(crew: Crew | str | Path) -> Crew:
    return crew if isinstance(crew, Crew) else load_crew(crew)


_WORLDS: OrderedDict[tuple[int, str | None, int, tuple[str, ...]], tuple[Crew, World]] = (
    OrderedDict())


def initial_world(crew: Crew, world: str | None = None, *, seed: int = 0,
                  faults: Sequence[str] = ()) -> World:
    """The simulator's initial world of a crew (with the faults applied), built once per crew
    object, world, seed and faults for the most recent ones. Shared: validation only reads it
    (it copies the state it predicts on); never run a mission in it."""
    key = (id(crew), world, seed, tuple(faults))
    found = _WORLDS.get(key)
    if found is None or found[0] is not crew:
        built = SimAdapter(crew, world, seed=seed, faults=parse_faults(faults, crew)).world
        found = _WORLDS[key] = (crew, built)
        while len(_WORLDS) > _MAX_GATES:
            _WORLDS.popitem(last=False)
    else:
        _WORLDS.move_to_end(key)
    return found[1]


def check_plan(
    crew: Crew | str | Path, plan: str | dict[str, Any], request: str, *,
    faults: Sequence[str] = (), world: str | None = None, seed: int = 0,
) -> PlanVerdict:
    """The whole-plan verdict against the simulator's initial state (with the faults applied):
    the crew's compiled gate and its initial world are built once and reused. A request a
    mission would not start on (empty, too long, NUL, direction controls) raises the
    :class:`~crewgate.errors.UserError` the mission would: a check agrees with a run."""
    spec = _crew(crew)
    return gate_for(spec).validate(parse_plan(plan), check_request(request),
                                   initial_world(spec, world, seed=seed, faults=faults))


def run_mission(
    crew: Crew | str | Path, request: str, planner: Planner, *,
    world: str | None = None, seed: int = 0, faults: Sequence[str] = (),
    condition: Condition | str = "ro",
    journal: Journal | str | Path | None = None, scenario: str | None = None,
    adapter: Adapter | None = None, mission_id: str | None = None,
    cancel: Callable[[], str | None] | None = None,
    clearance: Clearance | None = None,
) -> MissionResult:
    """Plan, validate, execute and journal one mission: on the built-in simulator unless an
    ``adapter`` is given (e.g. :class:`crewgate.ros2.Ros2Adapter`; the caller closes it).

    ``condition`` sets what the planner is told and whether the gate enforces (``ro``: enforce,
    one replan; ``ro-prompt``: same context, verdicts recorded but not enforced).
    ``mission_id`` journals the mission under that id; ``cancel`` is asked before each step
    why the mission must stop (None: go on): the running step ends, nothing more is sent, and
    the safe fallback runs. ``clearance`` is asked, once the plan is accepted, whether the
    mission may go on (:mod:`crewgate.orchestrator.clearance`).
    """
    spec = _crew(crew)
    cond = condition_named(condition) if isinstance(condition, str) else condition
    backend = adapter or SimAdapter(spec, world, seed=seed, faults=parse_faults(faults, spec))
    own_journal = not isinstance(journal, Journal)
    jr = journal if isinstance(journal, Journal) else Journal(journal)
    try:
        orch = Orchestrator(gate_for(spec), backend, jr, tick_s=backend.tick_s)
        return orch.run(request, planner, MissionOptions(cond, scenario, backend.meta(),
                                                         mission_id, cancel, clearance))
    finally:
        if own_journal:
            jr.close()
