"""The built-in simulator: a simulated clock, the bodies of a crew in one world, perception and
fault injection. Deterministic for a seed; no external service.

It owns the truth (where robots and objects really are) and writes what robots report into the
shared :class:`~crewgate.world.World` after every step.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection
from typing import Any

from crewgate.commands import Command, Progress, Status
from crewgate.errors import AdapterError, NotFoundError, UserError
from crewgate.sim.bodies import MODELS, Body
from crewgate.sim.bodies.base import Action, FailingAction, HangingAction
from crewgate.sim.faults import Faults
from crewgate.sim.outcome import measure
from crewgate.sim.section import SimSection, SimWorld
from crewgate.spec import Box, Crew
from crewgate.world import BindingValue, World

TRACE_PERIOD_S = 0.25


class Simulator:
    def __init__(self, crew: Crew, world: str | None = None, *, seed: int = 0,
                 faults: Faults | None = None) -> None:
        section = crew.section(SimSection)
        if section is None:
            raise UserError(f"crew {crew.name!r} has no sim section; add one to run it on the "
                            "built-in simulator (see docs/simulator.md)")
        self.crew = crew
        self.spec = section
        self.world_name = world or self.spec.default_world
        if self.world_name not in self.spec.worlds:
            raise NotFoundError("world", self.world_name, self.spec.worlds,
                                f"worlds of crew {crew.name}")
        self.setting: SimWorld = self.spec.worlds[self.world_name]
        self.dt = self.spec.dt_s
        self.t = 0.0
        # simulated seconds per wall-clock second where a node runs this world in real time
        # (set by the node); what waits on another process's reports scales its patience by it
        self.speed = 1.0
        self.rng = random.Random(seed)
        self.seed = seed
        self.faults = faults or Faults()
        self.world = World(crew, clock=lambda: self.t)
        self.obstacles: list[Box] = list(self.setting.obstacles)
        self.targets = dict(self.setting.targets)
        # the world's own map: what the bodies move (grab, load, hand over) is what the gate reads
        self.objects: dict[str, str] = self.world.objects
        self.objects.update(self.setting.objects)
        self.requester = self.setting.requester
        self.bodies: dict[str, Body] = {}
        for name, body_spec in self.spec.robots.items():
            model = MODELS.get(body_spec.model)
            if model is None:
                raise NotFoundError("simulator model", body_spec.model, MODELS,
                                    f"sim.robots.{name}.model")
            self.bodies[name] = model(self, name, body_spec, crew.robots[name])
        self.running: dict[int, tuple[Command, Action]] = {}
        self.finished: dict[int, Progress] = {}
        self.dropped: list[tuple[str, str]] = []
        self.trajectories: dict[str, list[list[float]]] = {n: [] for n in self.bodies}
        self._next_trace = 0.0
        for name in self.faults.down:
            self.bodies[name].go_down()
        self._publish()

    # -- setup helpers used by bodies ----------------------------------------------------------

    def spawn_pose(self, robot: str) -> tuple[float, ...]:
        spawn = self.setting.spawn.get(robot, self.spec.robots[robot].spawn)
        if isinstance(spawn, str):
            return tuple(self.crew.locations[spawn].pose[:2])
        return tuple(spawn)

    def spawn_location(self, robot: str) -> str | None:
        spawn = self.setting.spawn.get(robot, self.spec.robots[robot].spawn)
        return spawn if isinstance(spawn, str) else None

    # -- commands -----------------------------------------------------------------------------

    def trigger_drop_outs(self, skill: str, robots: Collection[str] | None = None) -> list[str]:
        """``robot_unavailable:ROBOT@SKILL``: a step of ``skill`` is starting, so ROBOT drops
        out (only the given ``robots``: a ROS 2 node simulates one). The robots that dropped."""
        dropped = []
        for robot, trigger in self.faults.drop_on:
            if trigger == skill and (robot, trigger) not in self.dropped and \
                    (robots is None or robot in robots):
                self.dropped.append((robot, trigger))
                self.cancel_actions_of(robot)
                self.bodies[robot].go_down()
                dropped.append(robot)
        return dropped

    def start(self, command: Command) -> None:
        self.trigger_drop_outs(command.skill)
        body = self.bodies.get(command.robot)
        if body is None:
            raise AdapterError(f"no robot {command.robot!r} in the simulation")
        if body.down:
            raise AdapterError(f"{command.robot} does not respond")
        skill = self.crew.skill(command.robot, command.skill)
        if skill is None:
            raise AdapterError(f"{command.robot} has no skill {command.skill!r}")
        action_name = self.spec.robots[command.robot].actions.get(command.skill, command.skill)
        if not body.has_action(action_name):
            action_name = "timed"
        action: Action
        if command.ref in self.faults.hanging:
            action = HangingAction(body, command)
        else:
            try:
                action = body.action(action_name, command, skill)
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                # unchecked arguments reach the robot only with enforcement off: it rejects them
                raise AdapterError(f"{command.ref} rejected its arguments "
                                   f"{dict(command.args)!r}: {type(exc).__name__}: {exc}") from exc
            if command.ref in self.faults.failing:
                action = FailingAction(action, skill.duration_s / 2)
        self.running[command.token] = (command, action)

    def poll(self, command: Command) -> Progress:
        if command.token in self.finished:
            return self.finished[command.token]
        if command.token in self.running:
            return Progress(Status.RUNNING)
        return Progress(Status.FAILED, "unknown command")

    def cancel(self, command: Command, why: str = "cancelled") -> None:
        entry = self.running.pop(command.token, None)
        if entry is not None:
            entry[1].cancel()
            self.finished[command.token] = Progress(Status.FAILED, why)

    def cancel_actions_of(self, robot: str, except_token: int | None = None,
                          why: str = "cancelled") -> None:
        for token, (command, _) in list(self.running.items()):
            if command.robot == robot and token != except_token:
                self.cancel(command, why)

    # -- time ---------------------------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        steps = max(1, round(seconds / self.dt))
        for _ in range(steps):
            self.step()

    def step(self) -> None:
        dt = self.dt
        self.t += dt
        for token, (command, action) in list(self.running.items()):
            if self.bodies[command.robot].down:
                del self.running[token]
                action.cancel()
                self.finished[token] = Progress(Status.FAILED, f"{command.robot} stopped "
                                                "responding")
                continue
            try:
                progress = action.step(dt)
            except (KeyError, TypeError, ValueError, IndexError, ArithmeticError) as exc:
                progress = Progress(Status.FAILED, f"{command.ref} failed on its arguments: "
                                    f"{type(exc).__name__}: {exc}")
            if progress.status is not Status.RUNNING:
                del self.running[token]
                self.finished[token] = progress
        for body in self.bodies.values():
            if not body.down:
                body.physics(dt)
        self._publish()

    def _publish(self) -> None:
        for body in self.bodies.values():
            if not body.down:
                body.publish()
        if self.t + 1e-9 >= self._next_trace:
            self._next_trace = self.t + TRACE_PERIOD_S
            for name, body in self.bodies.items():
                pose = body.pose()
                if pose is not None:
                    trail = self.trajectories[name]
                    point = [round(self.t, 3), *(round(v, 3) for v in pose)]
                    if not trail or trail[-1][1:] != point[1:]:
                        trail.append(point)

    # -- perception ---------------------------------------------------------------------------

    def perceive(self, sensor: Any, produces: list[str]) -> tuple[str, BindingValue] | None:
        """Detect a target under the sensor's footprint and publish its fix (with faults)."""
        if self.faults.missed_detection or sensor.z < 0.5:
            return None
        radius = float(sensor.params["sensor_radius"])
        for name in produces:
            target = self.targets.get(name)
            if target is None or math.dist((sensor.x, sensor.y), target) > radius:
                continue
            if self.rng.random() > float(sensor.params["detect_probability"]):
                continue
            noise = float(sensor.params["fix_noise_m"])
            value: tuple[float, ...] = (target[0] + self.rng.gauss(0, noise),
                                        target[1] + self.rng.gauss(0, noise))
            stamp = self.t
            if self.faults.nan_fix:
                value = (math.nan, math.nan)
            if self.faults.fix_offset is not None:
                value = self.faults.fix_offset
            if self.faults.stale_fix:
                rule = self.crew.bindings[name]
                stamp = self.t - (rule.max_age_s or 60.0) - 60.0
            fix = BindingValue(value, stamp, float(sensor.params["confidence"]), sensor.name)
            self.world.publish(name, fix)
            return name, fix
        return None

    def outcome(self) -> dict[str, Any]:
        return measure(self)
