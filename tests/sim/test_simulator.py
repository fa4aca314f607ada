"""The built-in simulator: deterministic for a seed, worlds as in the study, faults by name, and
each skill's declared effects hold in the simulated state when it succeeds (a conformance check
between the spec the gate predicts with and the simulator the robots live in)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from crewgate.adapters.sim import SimAdapter
from crewgate.commands import Command, Progress, Status
from crewgate.errors import UserError
from crewgate.gate import Gate
from crewgate.journal import Journal
from crewgate.orchestrator import MissionOptions, Orchestrator
from crewgate.planners import ScriptedPlanner
from crewgate.sim.faults import parse_faults
from crewgate.sim.section import SimSection
from crewgate.spec import Crew, Ref, load_crew
from tests.conftest import SAD, SAD_PLAN, SAD_ZONE, Runner, plan

ZONE = SAD_ZONE


def test_same_seed_same_mission(sar: Crew, run: Runner) -> None:
    a = run(sar, SAD, SAD_PLAN, seed=7)
    b = run(sar, SAD, SAD_PLAN, seed=7)
    c = run(sar, SAD, SAD_PLAN, seed=8)
    assert a.bindings["victim"]["value"] == b.bindings["victim"]["value"]
    assert a.outcome["trajectories"] == b.outcome["trajectories"]
    assert a.bindings["victim"]["value"] != c.bindings["victim"]["value"]  # sensor noise


@pytest.mark.parametrize(("world", "victim"), [("A", (5, 5)), ("B", (-3, 4))])
def test_worlds_place_the_victim_and_the_rover_reaches_it(
    sar: Crew, run: Runner, world: str, victim: tuple[float, float]
) -> None:
    result = run(sar, SAD, SAD_PLAN, world=world)
    assert result.status == "completed"
    assert result.outcome["victim"] == list(victim)
    assert math.dist(result.bindings["victim"]["value"], victim) < 0.6
    assert result.outcome["tb3_to_victim_m"] < 1.0
    trail = result.outcome["trajectories"]["tb3"]
    assert trail[0][1:] == [-2.0, -2.0]  # spawn


def test_world_c_victim_lies_outside_the_default_square(sar: Crew, run: Runner) -> None:
    result = run(sar, SAD, SAD_PLAN, world="C")
    assert result.status == "halted"
    assert result.codes == ["no_target_fix"]
    wide = "Search x from 2 to 10, y from -6 to 0 from the air and send the rover to the victim."
    found = run(sar, wide, plan("search_and_dispatch", ("iris", "takeoff", {}),
                                ("iris", "search_target", {"x_min": 2, "x_max": 10, "y_min": -6,
                                                           "y_max": 0}),
                                ("tb3", "navigate_to", {"target": "victim"})), world="C")
    assert found.status == "completed", (found.codes, found.reason)
    assert found.outcome["tb3_to_victim_m"] < 1.0


def test_rover_path_avoids_obstacles(sar: Crew, run: Runner) -> None:
    result = run(sar, SAD, SAD_PLAN)
    sim = sar.section(SimSection)
    assert sim is not None
    walls = sim.worlds["A"].obstacles
    for _, x, y in result.outcome["trajectories"]["tb3"]:
        assert not any(w.contains(x, y) for w in walls), (x, y)


def test_drone_sweeps_at_altitude_and_detects_within_sensor_radius(
    sar: Crew, run: Runner
) -> None:
    result = run(sar, SAD, SAD_PLAN)
    fixes = [e for e in result.dispatched if e.skill == "search_target"]
    assert fixes
    assert fixes[0].succeeded
    trail = result.outcome["trajectories"]["iris"]
    cruise = [p for p in trail if p[3] >= 2.9]
    assert len(cruise) > 10  # it flew the pattern at its altitude
    assert max(p[1] for p in cruise) - min(p[1] for p in cruise) > 5.0


@pytest.mark.parametrize(
    ("bad", "message"),
    [("robot_unavailable:tb4", "did you mean 'tb3'"), ("nan_fixes", "did you mean 'nan_fix'"),
     ("skill_failure:iris.fly", "has no skill"), ("fix_offset:a,b", "'a' is not a number"),
     ("robot_unavailable:tb3@teleport", "no robot of crew 'sar' has a skill 'teleport'")],
)
def test_bad_fault_specs_name_the_value_and_the_fix(sar: Crew, bad: str, message: str) -> None:
    with pytest.raises(UserError, match=message.replace("(", r"\(")):
        parse_faults([bad], sar)


def test_unknown_world_suggests_the_known_ones(sar: Crew) -> None:
    with pytest.raises(UserError, match="unknown world 'D'"):
        SimAdapter(sar, "D")


class Recorder(SimAdapter):
    """Snapshots the world when each command starts and when it succeeds."""

    def __init__(self, crew: Crew) -> None:
        super().__init__(crew)
        self.before: dict[int, dict[str, dict[str, Any]]] = {}
        self.after: list[tuple[Command, dict[str, dict[str, Any]]]] = []

    def start(self, command: Command) -> None:
        self.before[command.token] = self.world.copy_state()
        super().start(command)

    def poll(self, command: Command) -> Progress:
        progress = super().poll(command)
        if progress.status is Status.SUCCEEDED and all(c.token != command.token
                                                       for c, _ in self.after):
            self.after.append((command, self.world.copy_state()))
        return progress


CONFORMANCE = [
    ("sar", SAD, SAD_PLAN),
    ("sar", "Take off, scan the search square between -5.5 and 5.5 on both axes, then land.",
     plan("search_only", ("iris", "takeoff", {"altitude": 4}), ("iris", "search_target", ZONE),
          ("iris", "land", {}))),
    ("sar", "Emergency stop: land the drone and halt the rover immediately.",
     plan("abort", ("iris", "land", {}), ("tb3", "stop", {}))),
    ("g1_go2", "bring the red cube to room_b",
     plan("carry", ("g1", "grab_from_table", {"object": "red_cube"}),
          ("g1", "place_on_table", {}), ("go2", "navigate_to_location", {"location": "room_b"}))),
    ("g1_go2", "give me the bottle", plan("handover", ("g1", "grab_from_table",
                                                       {"object": "bottle"}),
                                          ("g1", "hand_over", {}))),
]


@pytest.mark.parametrize(("crew_name", "request_text", "p"), CONFORMANCE)
def test_declared_effects_hold_after_each_simulated_skill(
    crew_name: str, request_text: str, p: dict[str, Any]
) -> None:
    crew = load_crew(crew_name)
    recorder = Recorder(crew)
    orch = Orchestrator(Gate(crew), recorder, Journal(":memory:"), tick_s=recorder.tick_s)
    result = orch.run(request_text, ScriptedPlanner([p]), MissionOptions())
    assert result.status == "completed", (result.codes, result.reason)
    assert len(recorder.after) == len(p["steps"])
    for command, state in recorder.after:
        skill = crew.skill(command.robot, command.skill)
        assert skill is not None
        pre = recorder.before[command.token]
        for key, value in skill.effects.items():
            robot, _, field = key.rpartition(".")
            robot = robot or command.robot
            if isinstance(value, Ref):
                if value.robot is None and value.name in skill.params:
                    if value.name not in command.args:
                        continue  # left to the robot: any value is conformant
                    value = command.args[value.name]
                else:
                    value = pre[value.robot or command.robot][value.name]
            assert state[robot][field] == value, (command.ref, key, state[robot][field], value)
