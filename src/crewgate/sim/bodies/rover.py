"""A differential-drive rover: plans a grid path around obstacles, follows it with pure pursuit,
arrives within its tolerance, stops on command."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import ClassVar

from crewgate.commands import RUNNING, Command, Progress
from crewgate.sim.bodies.base import Action, Body, done, failed
from crewgate.sim.pathplan import GridPlanner
from crewgate.sim.pursuit import PurePursuit, UnicycleState
from crewgate.spec import Box, Skill


class DiffDrive(Body):
    model = "diff_drive"
    params_defaults: ClassVar[dict[str, float | str]] = {
                       "max_speed": 0.22, "max_turn_rate": 2.84, "arrival_tolerance": 0.5,
                       "robot_radius": 0.2, "grid_resolution": 0.1, "lookahead": 0.4}

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        x, y, *_rest = self.sim.spawn_pose(self.name)
        self.state = UnicycleState(x, y, 0.0)
        self.moving = False
        self._planner: GridPlanner | None = None
        self.travelled = 0.0

    def planner(self) -> GridPlanner:
        if self._planner is None:
            self._planner = _grid(self.sim.crew.area.operational, tuple(self.sim.obstacles),
                                  float(self.params["grid_resolution"]),
                                  float(self.params["robot_radius"]))
        return self._planner

    def pose(self) -> tuple[float, ...]:
        return (self.state.x, self.state.y)

    def publish(self) -> None:
        self.sim.world.update(self.name, pose=[self.state.x, self.state.y], moving=self.moving)

    def act_navigate(self, command: Command, skill: Skill) -> Action:
        return _Navigate(self, command)

    def act_stop(self, command: Command, skill: Skill) -> Action:
        return _Stop(self, command)


@lru_cache(maxsize=32)
def _grid(bounds: Box, obstacles: tuple[Box, ...], resolution: float, inflation: float
          ) -> GridPlanner:
    """Occupancy grids are immutable once built: share them across missions in one world."""
    return GridPlanner(bounds=bounds, obstacles=obstacles, resolution=resolution,
                       inflation=inflation)


def navigation_goal(command: Command) -> tuple[float, float] | str:
    """The point to drive to: a literal goal, or the binding value the gate resolved."""
    goal = command.args.get("goal")
    if goal is not None:
        return float(goal[0]), float(goal[1])
    target = command.args.get("target")
    if isinstance(target, str):
        bound = command.bindings.get(target)
        if bound is None or not bound.finite or bound.value is None:
            return f"no usable value for binding {target!r}"
        return float(bound.value[0]), float(bound.value[1])
    return f"no destination in {dict(command.args)!r}"


class _Navigate(Action):
    def __init__(self, body: DiffDrive, command: Command) -> None:
        super().__init__(body, command)
        self.rover = body
        self.pursuit: PurePursuit | None = None
        self.error = ""
        goal = navigation_goal(command)
        if isinstance(goal, str):
            self.error = goal
            return
        self.goal = goal
        path = body.planner().plan((body.state.x, body.state.y), goal)
        if path is None:
            self.error = f"no path to ({goal[0]:g}, {goal[1]:g})"
            return
        p = body.params
        self.pursuit = PurePursuit(path, max_speed=float(p["max_speed"]),
                                   max_turn_rate=float(p["max_turn_rate"]),
                                   lookahead=float(p["lookahead"]),
                                   tolerance=float(p["arrival_tolerance"]))
        body.moving = True

    def advance(self, dt: float) -> Progress:
        if self.pursuit is None:
            return failed(self.error)
        before = (self.rover.state.x, self.rover.state.y)
        arrived = self.pursuit.step(self.rover.state, dt)
        self.rover.travelled += math.dist(before, (self.rover.state.x, self.rover.state.y))
        if arrived:
            self.rover.moving = False
            error = math.dist((self.rover.state.x, self.rover.state.y), self.goal)
            return done(arrived=[round(self.rover.state.x, 3), round(self.rover.state.y, 3)],
                        error_m=round(error, 3))
        return RUNNING

    def cancel(self) -> None:
        self.rover.moving = False


class _Stop(Action):
    def __init__(self, body: DiffDrive, command: Command) -> None:
        super().__init__(body, command)
        self.rover = body

    def advance(self, dt: float) -> Progress:
        self.rover.sim.cancel_actions_of(self.rover.name, except_token=self.command.token)
        self.rover.moving = False
        return done()
