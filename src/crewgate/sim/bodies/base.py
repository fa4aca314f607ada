"""Simulated bodies and their actions: the framework part every robot model shares.

A body owns a robot's physical state and turns commands into actions; an action advances with
simulated time and ends SUCCEEDED or FAILED. A skill with no dedicated action runs as ``timed``:
it takes its nominal duration and then applies the effects its spec declares.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from crewgate.commands import RUNNING, Command, Progress, Status
from crewgate.sim.section import SimRobot
from crewgate.spec import Robot, Skill
from crewgate.spec.expressions import Ref

if TYPE_CHECKING:
    from crewgate.sim.simulator import Simulator


def done(message: str = "", **result: Any) -> Progress:
    return Progress(Status.SUCCEEDED, message, result)


def failed(message: str) -> Progress:
    return Progress(Status.FAILED, message)


class Action(ABC):
    """One skill running on one body."""

    def __init__(self, body: Body, command: Command) -> None:
        self.body = body
        self.command = command
        self.elapsed = 0.0

    def step(self, dt: float) -> Progress:
        self.elapsed += dt
        return self.advance(dt)

    @abstractmethod
    def advance(self, dt: float) -> Progress:
        """Move the world on by ``dt``; report how the action stands."""

    def cancel(self) -> None:
        """Stop moving (the default: nothing to undo)."""


class TimedAction(Action):
    """Takes ``duration`` seconds, then calls ``finish`` (which may still fail)."""

    def __init__(self, body: Body, command: Command, duration: float,
                 finish: Callable[[], Progress]) -> None:
        super().__init__(body, command)
        self.duration = duration
        self.finish = finish

    def advance(self, dt: float) -> Progress:
        return self.finish() if self.elapsed >= self.duration - 1e-9 else RUNNING


class HangingAction(Action):
    """Never reports back (fault adapter_timeout)."""

    def advance(self, dt: float) -> Progress:
        return RUNNING


class FailingAction(Action):
    """Runs the real action, then fails half-way through the nominal duration (skill_failure)."""

    def __init__(self, inner: Action, fail_after: float) -> None:
        super().__init__(inner.body, inner.command)
        self.inner = inner
        self.fail_after = fail_after

    def advance(self, dt: float) -> Progress:
        if self.elapsed >= self.fail_after:
            self.inner.cancel()
            return failed(f"injected failure of {self.command.ref} after {self.elapsed:.1f} s")
        progress = self.inner.step(dt)
        if progress.status is Status.SUCCEEDED:
            return failed(f"injected failure of {self.command.ref} at completion")
        return progress

    def cancel(self) -> None:
        self.inner.cancel()


class Body:
    """A simulated robot. Subclasses add ``act_<name>`` methods returning actions and a
    ``physics`` step; state they own is written to the world by ``publish``."""

    model = "generic"
    params_defaults: ClassVar[dict[str, float | str]] = {}

    def __init__(self, sim: Simulator, name: str, spec: SimRobot, robot: Robot) -> None:
        self.sim = sim
        self.name = name
        self.spec = spec
        self.robot = robot
        self.down = False
        self.params: dict[str, Any] = {**self.params_defaults, **spec.params}
        unknown = set(spec.params) - set(self.params_defaults)
        if unknown:
            from crewgate.errors import SpecError

            raise SpecError(f"crew {sim.crew.name}", [
                f"sim.robots.{name}.params: model {self.model!r} has no parameter(s) "
                f"{', '.join(sorted(unknown))}; "
                f"it takes {', '.join(self.params_defaults) or 'none'}"
            ])

    # -- actions ------------------------------------------------------------------------------

    def has_action(self, action: str) -> bool:
        return action == "timed" or callable(getattr(self, f"act_{action}", None))

    def action(self, action: str, command: Command, skill: Skill) -> Action:
        if action == "timed":
            return self.timed(command, skill)
        method: Callable[[Command, Skill], Action] = getattr(self, f"act_{action}")
        return method(command, skill)

    def timed(self, command: Command, skill: Skill) -> Action:
        """Nominal duration, then the skill's declared effects."""

        def finish() -> Progress:
            self.apply_effects(command, skill)
            return done()

        return TimedAction(self, command, skill.duration_s, finish)

    def apply_effects(self, command: Command, skill: Skill) -> None:
        world = self.sim.world
        updates: list[tuple[str, str, Any]] = []
        for key, value in skill.effects.items():
            robot, _, field = key.rpartition(".")
            if isinstance(value, Ref):
                if value.robot is None and value.name in skill.params:
                    value = command.args.get(value.name)
                else:
                    value = world.get(value.robot or self.name, value.name)
            updates.append((robot or self.name, field, value))
        for robot, field, value in updates:
            before = world.get(robot, field)
            world.update(robot, **{field: value})
            self._move_objects(robot, field, before, value)

    def _move_objects(self, robot: str, field: str, before: Any, after: Any) -> None:
        """Keep the simulator's objects in step with object-typed state a timed skill changed:
        an object a robot now carries is held by it; one it let go of stays where it is."""
        objects = self.sim.objects
        moves = self.sim.crew.object_moves(robot, field, before, after,
                                           self.sim.world.robots[robot], objects)
        objects.update({o: where for o, where in moves.items()
                        if o in objects and (o == after or objects[o] == robot)})

    def robot_spec(self, robot: str) -> dict[str, Any]:
        return dict(self.sim.crew.robots[robot].state)

    # -- time ---------------------------------------------------------------------------------

    def physics(self, dt: float) -> None:
        """Advance what happens regardless of actions (battery drain ...)."""

    def publish(self) -> None:
        """Write the state this body owns into the world."""

    def pose(self) -> tuple[float, ...] | None:
        return None

    def go_down(self) -> None:
        """The robot drops out: it stops and stops reporting."""
        self.down = True
        self.sim.world.set_available(self.name, False)
