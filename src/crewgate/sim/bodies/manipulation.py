"""A humanoid at a table (grab, load onto another robot's payload bin, hand over, wave) and a
quadruped that walks between named locations carrying its payload.

Objects live in ``Simulator.objects``: each is held by a location name, a robot name, or
``"requester"`` (the person at the table).
"""

from __future__ import annotations

import math
from typing import ClassVar

from crewgate.commands import RUNNING, Command, Progress
from crewgate.sim.bodies.base import Action, Body, TimedAction, done, failed
from crewgate.spec import Skill

REQUESTER = "requester"


class Humanoid(Body):
    model = "humanoid"
    params_defaults: ClassVar[dict[str, float | str]] = {"bin_robot": "go2", "load_spot": "start"}

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        spawn = self.sim.spec.robots[self.name].spawn
        self.at = self.sim.spawn_location(self.name) or (spawn if isinstance(spawn, str) else None)
        self.busy = False

    @property
    def holding(self) -> str | None:
        held = [o for o, h in self.sim.objects.items() if h == self.name]
        return held[0] if held else None

    def pose(self) -> tuple[float, ...] | None:
        loc = self.sim.crew.locations.get(self.at or "")
        return (loc.pose[0], loc.pose[1]) if loc else None

    def publish(self) -> None:
        pose = self.pose()
        self.sim.world.update(self.name, at=self.at, holding=self.holding, busy=self.busy,
                              pose=list(pose) if pose else None)

    def _object_on_table(self, wanted: str | None) -> str | None:
        here = [o for o, h in self.sim.objects.items() if h == self.at]
        if wanted is not None:
            return wanted if wanted in here else None
        return here[0] if here else None

    def act_grab(self, command: Command, skill: Skill) -> Action:
        def finish() -> Progress:
            if self.holding is not None:
                return failed(f"hands full: holding {self.holding}")
            wanted = command.args.get("object")
            obj = self._object_on_table(wanted)
            if obj is None:
                return failed(f"no {wanted or 'object'} on {self.at}")
            self.sim.objects[obj] = self.name
            return done(object=obj)

        return TimedAction(self, command, skill.duration_s, finish)

    def act_load(self, command: Command, skill: Skill) -> Action:
        target = str(self.params["bin_robot"])
        spot = str(self.params["load_spot"])

        # the world, not the local body: in a ROS 2 deployment the other robot lives in another
        # process and only its reported state is known here, so the humanoid waits a while for
        # the quadruped to be heard at its spot before it gives up (as a real one would): a few
        # of its liveness timeouts of wall-clock time, however fast the simulation runs
        partner = self.sim.crew.robots.get(target)
        grace = 3 * partner.liveness_timeout_s * self.sim.speed if partner is not None else 0.0

        def finish() -> Progress:
            held = self.holding
            if held is None:
                return failed("nothing in hand to load")
            there = target in self.sim.bodies and self.sim.world.get(target, "available")
            at_spot = there and self.sim.world.get(target, "location") == spot
            if not at_spot and action.elapsed < skill.duration_s + grace:
                return RUNNING
            if not there:
                return failed(f"{target} is not there to load")
            if not at_spot:
                return failed(f"{target} is not at its loading spot {spot}")
            if any(h == target for h in self.sim.objects.values()):
                return failed(f"{target}'s payload bin is full")
            self.sim.objects[held] = target
            return done(object=held, loaded_onto=target)

        action = TimedAction(self, command, skill.duration_s, finish)
        return action

    def act_hand_over(self, command: Command, skill: Skill) -> Action:
        def finish() -> Progress:
            if self.sim.requester is None or self.sim.requester != self.at:
                return failed(f"nobody to hand over to at {self.at}")
            wanted = command.args.get("object")
            obj = self.holding
            if obj is not None and wanted is not None and obj != wanted:
                return failed(f"holding {obj}, not {wanted}")
            if obj is None:
                obj = self._object_on_table(wanted)
            if obj is None:
                return failed(f"no {wanted or 'object'} on {self.at}")
            self.sim.objects[obj] = REQUESTER
            return done(object=obj, to=REQUESTER)

        return TimedAction(self, command, skill.duration_s, finish)

    def act_stop(self, command: Command, skill: Skill) -> Action:
        self.sim.cancel_actions_of(self.name, except_token=command.token)
        self.busy = False
        return TimedAction(self, command, 0.0, lambda: done())


class Quadruped(Body):
    model = "quadruped"
    params_defaults: ClassVar[dict[str, float | str]] = {"max_speed": 0.6}

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        x, y, *_ = self.sim.spawn_pose(self.name)
        self.x, self.y = x, y
        self.location = self.sim.spawn_location(self.name)
        self.moving = False
        self.travelled = 0.0

    def pose(self) -> tuple[float, ...]:
        return (self.x, self.y)

    def publish(self) -> None:
        payload = [o for o, h in self.sim.objects.items() if h == self.name]
        self.sim.world.update(self.name, pose=[self.x, self.y], location=self.location,
                              moving=self.moving, payload=payload[0] if payload else None)

    def act_goto_location(self, command: Command, skill: Skill) -> Action:
        return _Walk(self, command, str(command.args["location"]))

    def act_stop(self, command: Command, skill: Skill) -> Action:
        self.sim.cancel_actions_of(self.name, except_token=command.token)
        self.moving = False
        return TimedAction(self, command, 0.0, lambda: done())


class _Walk(Action):
    def __init__(self, body: Quadruped, command: Command, location: str) -> None:
        super().__init__(body, command)
        self.dog = body
        self.target = location
        loc = body.sim.crew.locations.get(location)
        self.goal = (loc.pose[0], loc.pose[1]) if loc else None
        if self.goal is not None:
            body.moving, body.location = True, None

    def advance(self, dt: float) -> Progress:
        if self.goal is None:
            return failed(f"unknown location {self.target!r}")
        d = self.dog
        dx, dy = self.goal[0] - d.x, self.goal[1] - d.y
        dist = math.hypot(dx, dy)
        step = float(d.params["max_speed"]) * dt
        if dist <= step:
            d.travelled += dist
            d.x, d.y = self.goal
            d.moving, d.location = False, self.target
            return done(location=self.target)
        d.x += dx / dist * step
        d.y += dy / dist * step
        d.travelled += step
        return RUNNING

    def cancel(self) -> None:
        self.dog.moving = False


class Generic(Body):
    """Every skill takes its nominal duration and applies its declared effects."""

    model = "generic"
