"""A quadcopter: vertical takeoff and landing, velocity-limited flight, lawnmower search with a
downward sensor footprint that detects targets and publishes their fix as a runtime binding."""

from __future__ import annotations

import math
from typing import ClassVar

from crewgate.commands import RUNNING, Command, Progress, Status
from crewgate.sim.bodies.base import Action, Body, done, failed
from crewgate.sim.coverage import lawnmower
from crewgate.spec import Skill
from crewgate.world import BindingValue


class Quadcopter(Body):
    model = "quadcopter"
    params_defaults: ClassVar[dict[str, float | str]] = {
                       "max_speed": 2.0, "climb_rate": 1.0, "sensor_radius": 1.5,
                       "fix_noise_m": 0.15, "detect_probability": 1.0, "battery_per_s": 0.001,
                       "confidence": 0.9}

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        x, y, *rest = self.sim.spawn_pose(self.name)
        self.x, self.y, self.z = x, y, (rest[0] if rest else 0.0)
        self.battery = float(self.sim.world.get(self.name, "battery") or 1.0)

    @property
    def airborne(self) -> bool:
        return self.z > 0.05

    def pose(self) -> tuple[float, ...]:
        return (self.x, self.y, self.z)

    def physics(self, dt: float) -> None:
        if self.airborne:
            self.battery = max(0.0, self.battery - float(self.params["battery_per_s"]) * dt)

    def publish(self) -> None:
        self.sim.world.update(self.name, pose=[self.x, self.y, self.z], airborne=self.airborne,
                              battery=self.battery)

    def fly_towards(self, tx: float, ty: float, tz: float, dt: float) -> bool:
        """Move at most one step towards (tx, ty, tz); True when there."""
        dx, dy, dz = tx - self.x, ty - self.y, tz - self.z
        h = math.hypot(dx, dy)
        step_h = float(self.params["max_speed"]) * dt
        step_v = float(self.params["climb_rate"]) * dt
        if h <= step_h:
            self.x, self.y = tx, ty
        else:
            self.x += dx / h * step_h
            self.y += dy / h * step_h
        self.z = tz if abs(dz) <= step_v else self.z + math.copysign(step_v, dz)
        return self.x == tx and self.y == ty and self.z == tz

    # -- actions ------------------------------------------------------------------------------

    def act_takeoff(self, command: Command, skill: Skill) -> Action:
        return _Vertical(self, command, float(command.args.get("altitude", 3.0)))

    def act_land(self, command: Command, skill: Skill) -> Action:
        return _Vertical(self, command, 0.0)

    def act_sweep(self, command: Command, skill: Skill) -> Action:
        zone = command.args["zone"]
        altitude = float(command.args.get("altitude", self.z if self.airborne else 3.0))
        return _Sweep(self, command, (zone[0], zone[1], zone[2], zone[3]), altitude,
                      skill.produces)

    def act_report(self, command: Command, skill: Skill) -> Action:
        fixes = {name: self.sim.world.bindings.get(name) for name in self.sim.crew.bindings}
        found = {n: list(v.value) if v and v.value else None for n, v in fixes.items()}
        return _Instant(self, command, Progress(Status.SUCCEEDED, "", found))


class _Instant(Action):
    def __init__(self, body: Body, command: Command, progress: Progress) -> None:
        super().__init__(body, command)
        self.progress = progress

    def advance(self, dt: float) -> Progress:
        return self.progress


class _Vertical(Action):
    def __init__(self, body: Quadcopter, command: Command, altitude: float) -> None:
        super().__init__(body, command)
        self.drone = body
        self.altitude = altitude

    def advance(self, dt: float) -> Progress:
        d = self.drone
        if self.altitude > 0 and d.battery <= 0:
            return failed("battery empty")
        if d.fly_towards(d.x, d.y, self.altitude, dt):
            return done(altitude=round(d.z, 3))
        return RUNNING


class _Sweep(Action):
    """Fly to the zone, then a lawnmower pattern; stop at the first detection."""

    def __init__(self, body: Quadcopter, command: Command,
                 zone: tuple[float, float, float, float], altitude: float,
                 produces: list[str]) -> None:
        super().__init__(body, command)
        self.drone = body
        self.altitude = altitude
        swath = 2 * float(body.params["sensor_radius"]) * 0.9
        self.waypoints = lawnmower(*zone, swath=swath, start=(body.x, body.y))
        self.next = 0
        self.produces = produces

    def advance(self, dt: float) -> Progress:
        d = self.drone
        if not d.airborne:
            return failed("not airborne")
        if d.battery <= 0:
            return failed("battery empty")
        wx, wy = self.waypoints[self.next]
        if d.fly_towards(wx, wy, self.altitude, dt):
            self.next += 1
        found = self.drone.sim.perceive(d, self.produces)
        if found is not None:
            name, fix = found
            return done(detected=True, binding=name, fix=list(fix.value or ()),
                        swept_waypoints=self.next)
        if self.next >= len(self.waypoints):
            return done(detected=False, swept_waypoints=self.next)
        return RUNNING


__all__ = ["BindingValue", "Quadcopter"]
