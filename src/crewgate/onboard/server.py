"""The simulated robot behind ``crewgate node``, without ROS: it serves one robot of a full
simulated world over crewgate's protocol (:mod:`crewgate.ros2.protocol`).

Every node builds the same simulated world (crew, world file, seed), but only its own robot acts
in it. The other robots are mirrored from their state topics, the objects from the shared
``world/objects`` map. The node's simulated clock runs in real time (times ``speed``) from the
moment it starts, so a simulated instant maps to a wall-clock time; a binding's age is kept in
seconds (a stale fix stays stale however fast the simulation runs).

:class:`RobotServer` takes text in (requests, cancels, state, objects, e-stop, the
orchestrator's heartbeat) and hands messages out through a
:class:`~crewgate.onboard.convert.Sink`; :mod:`crewgate.onboard.ros` wires both to ROS 2 topics.

A node that starts while an e-stop is engaged must not act before the e-stop reaches it (the
latched value arrives once discovery has matched its publisher): for its first ``listen_s``
seconds (:data:`~crewgate.ros2.protocol.ESTOP_LISTEN_S` by default) a node publishes no state
and holds the plan steps it is sent, then takes them (or rejects them, the e-stop heard);
fallback steps run at once.

The robot protects itself (:mod:`~crewgate.sim.safestop`): an e-stop, and the lost-link
failsafe (:mod:`~crewgate.onboard.watchdog`: the heartbeat of a mission's orchestrator silent for
the robot's ``orchestrator_timeout_s``) cancel what runs and start its own safe stop. After a
lost link, that mission's further plan steps are rejected (its fallback steps still run).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crewgate.commands import Command, Status
from crewgate.errors import AdapterError, NotFoundError
from crewgate.onboard.convert import Sink, command_of, jsonable
from crewgate.onboard.mirror import Mirror
from crewgate.onboard.watchdog import Watchdog
from crewgate.ros2 import protocol
from crewgate.ros2.protocol import ESTOP_LISTEN_S, Feedback, SkillRequest
from crewgate.sim.safestop import SafeStop
from crewgate.sim.simulator import Simulator
from crewgate.world import BindingValue

RUNNING_PERIOD_S = 0.5  # wall seconds between two "running" feedbacks of one request
MAX_STEPS_PER_TICK = 200  # beyond this the node falls behind real time rather than freeze
HISTORY = 256  # final feedbacks kept to answer a repeated request or cancel


@dataclass
class _Job:
    id: str
    command: Command
    next_running: float


class RobotServer:
    """One robot of a simulated world, served over crewgate's protocol. Not thread-safe: call
    every method from one thread (a single-threaded executor)."""

    def __init__(self, sim: Simulator, robot: str, sink: Sink, *, speed: float = 1.0,
                 listen_s: float = ESTOP_LISTEN_S,
                 monotonic: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        if robot not in sim.bodies:
            raise NotFoundError("robot", robot, sim.bodies, f"robots of crew {sim.crew.name}")
        self.sim, self.robot, self.sink, self.speed = sim, robot, sink, speed
        sim.speed = speed
        self.body = sim.bodies[robot]
        self._monotonic, self._wall = monotonic, wall
        self.mirror = Mirror(sim, robot, monotonic, sink.log)
        self.jobs: dict[str, _Job] = {}
        self.done: OrderedDict[str, Feedback] = OrderedDict()
        self.estopped = False
        self.safe = SafeStop(sim, robot, sink.log)  # the robot's own stop, while it runs
        self.watchdog = Watchdog(sim.crew.robots[robot].orchestrator_timeout_s, monotonic)
        self._published: dict[str, BindingValue] = {}
        self.behind_s = 0.0  # real time the node could not keep up with (dropped)
        self.listen_s = listen_s
        self._listen_until = 0.0  # set by start()
        self.held: dict[str, str] = {}  # plan steps sent while listening: id -> request text
        self.start()

    # -- clock --------------------------------------------------------------------------------

    def start(self) -> None:
        """(Re)start the clocks: simulated time ``sim.t`` is now, and the node listens for an
        e-stop for ``listen_s`` from now."""
        self._listen_until = self._monotonic() + self.listen_s if self.listen_s > 0 else 0.0
        self._t0 = self._monotonic() - self.sim.t / self.speed
        self._wall0 = self._wall() - self.sim.t / self.speed
        self._steps = round(self.sim.t / self.sim.dt)
        self.mirror.restart()

    def wall_time(self, sim_t: float) -> float:
        """The wall-clock time (epoch seconds) of a simulated instant."""
        return self._wall0 + sim_t / self.speed

    def stamp_of(self, value: BindingValue) -> float:
        """A binding's stamp on the wall clock: measured ``sim.t - value.stamp`` seconds before
        the current simulated instant (an age in seconds, not scaled by ``speed``)."""
        return self.wall_time(self.sim.t) - (self.sim.t - value.stamp)

    @property
    def down(self) -> bool:
        return self.body.down

    @property
    def listening(self) -> bool:
        """Still in the first ``listen_s`` seconds: a latched e-stop may not have arrived."""
        if self._listen_until and self._monotonic() < self._listen_until:
            return True
        self._listen_until = 0.0
        return False

    # -- inputs -------------------------------------------------------------------------------

    def on_request(self, robot: str, text: str) -> None:
        """A request on ``robot``'s request topic (this robot's, or another's)."""
        try:
            request = SkillRequest.decode(text)
        except (ValueError, KeyError, TypeError) as exc:
            if robot == self.robot:
                self._malformed(text, exc)
            return
        if robot != self.robot:
            self._drop_on(request.skill)
            return
        self.sink.log(f"request {request.id}: {request.skill} (mission {request.mission}, step "
                      f"{request.index}{', fallback' if request.fallback else ''})")
        if request.id in self.jobs:
            self._send(request.id, "accepted")
            return
        if request.id in self.done:
            self.sink.feedback(self.done[request.id])
            return
        if not request.fallback and self.listening and request.id not in self.held:
            if len(self.held) >= HISTORY:
                self._final(request.id, "rejected", f"starting up: listening for an e-stop for "
                            f"{self.listen_s:g} s, with {HISTORY} requests held already")
            else:
                self.held[request.id] = text
                self.sink.log(f"request {request.id} held: listening for an e-stop for "
                              f"{self.listen_s:g} s after start")
            return
        if self.estopped and not request.fallback:
            self._final(request.id, "rejected", "e-stop engaged: no new requests until it is "
                        "released (estop false)")
            return
        if self.watchdog.lost(request.mission) and not request.fallback:
            self._final(request.id, "rejected", f"the orchestrator of mission "
                        f"{request.mission} was lost (lost-link failsafe): its steps are over")
            return
        command = command_of(self.robot, request)
        try:
            self.sim.start(command)
        except AdapterError as exc:
            self._final(request.id, "rejected", str(exc))
            return
        self.jobs[request.id] = _Job(request.id, command, self._monotonic() + RUNNING_PERIOD_S)
        self._send(request.id, "accepted")

    def on_cancel(self, text: str) -> None:
        try:
            rid = protocol.decode_cancel(text)
        except (ValueError, KeyError, TypeError) as exc:
            self.sink.log(f"ignored a malformed cancel {text[:80]!r}: {exc}")
            return
        if self.down:
            return
        if self.held.pop(rid, None) is not None:
            self._final(rid, "cancelled", "cancelled on request")
            return
        job = self.jobs.pop(rid, None)
        if job is not None:
            self.sim.cancel(job.command)
            self._final(rid, "cancelled", "cancelled on request")
        elif rid in self.done:
            self.sink.feedback(self.done[rid])

    def on_state(self, robot: str, text: str) -> None:
        """Another robot's state: mirrored into this node's world."""
        self.mirror.on_state(robot, text)

    def on_objects(self, text: str) -> None:
        """The shared object map: applied, and this robot's state (its payload) sent at once."""
        self.mirror.on_objects(text)
        if not self.down:
            self.body.publish()
            self._state_now()

    def on_estop(self, engaged: bool) -> None:
        """E-stop: cancel what runs and run the robot's safe behaviour; reject new requests
        until released."""
        if engaged == self.estopped:
            return
        self.estopped = engaged
        self.sink.log("e-stop engaged" if engaged else "e-stop released")
        self.sink.estop(engaged)  # held here: heard from here by whoever starts later
        if not engaged or self.down:
            return
        self._cancel_all("e-stop")
        self.safe.start("e-stop", "estop")

    def on_heartbeat(self, text: str) -> None:
        """The orchestrator's heartbeat: arms the lost-link failsafe (a mission), disarms it
        (none)."""
        try:
            mission, _ = protocol.decode_heartbeat(text)
        except (ValueError, KeyError, TypeError) as exc:
            self.sink.log(f"ignored a malformed heartbeat {text[:80]!r}: {exc}")
            return
        change = self.watchdog.beat(mission)
        if change is not None:
            self.sink.log(change)

    def _check_link(self) -> None:
        """The lost-link failsafe: an armed watchdog that expired stops the robot."""
        lost = self.watchdog.expired()
        if lost is None or self.down:
            return
        self.sink.log(f"lost link: no heartbeat from the orchestrator of mission {lost.mission} "
                      f"for {lost.silent_s:.2f} s (orchestrator_timeout_s "
                      f"{self.watchdog.timeout_s:g}); safe stop")
        self._cancel_all("lost link: orchestrator heartbeat lost")
        self.safe.start("lost link", "failsafe")

    def _cancel_all(self, message: str) -> None:
        for rid, job in list(self.jobs.items()):
            del self.jobs[rid]
            self.sim.cancel(job.command)
            self._final(rid, "cancelled", message)

    # -- time ---------------------------------------------------------------------------------

    def tick(self) -> None:
        """Step the simulation up to now and report what changed (the failsafe first; then
        the plan steps held while the node listened for an e-stop)."""
        self._check_link()
        if self.held and not self.listening:
            held, self.held = self.held, {}
            for text in held.values():
                self.on_request(self.robot, text)
        dt = self.sim.dt
        due = int((self._monotonic() - self._t0) * self.speed / dt + 1e-6) - self._steps
        if due > MAX_STEPS_PER_TICK:
            lag = (due - MAX_STEPS_PER_TICK) * dt / self.speed
            self._t0 += lag
            self._wall0 += lag
            self.behind_s += lag
            due = MAX_STEPS_PER_TICK
        if due <= 0:
            return
        alive = self.mirror.alive()
        for _ in range(due):
            self.sim.step()
            self._steps += 1
            self.mirror.apply(alive)
        self._report()

    def state_text(self) -> str | None:
        """This robot's state message (its heartbeat), or None while it is down or listens
        for an e-stop after start: silent (an orchestrator waits to hear it)."""
        if self.down or self.listening:
            return None
        with self.sim.world.lock:
            fields = jsonable(self.sim.world.robots[self.robot])
        return protocol.encode_state(self.robot, self._wall(), fields)

    def _report(self) -> None:
        if self.down:  # dropped out: silent, its actions are gone
            self.jobs.clear()
            self.safe.clear()
            return
        now = self._monotonic()
        finals: list[tuple[str, protocol.Status, str, dict[str, Any]]] = []
        for rid, job in list(self.jobs.items()):
            progress = self.sim.poll(job.command)
            if progress.status is Status.RUNNING:
                if now >= job.next_running:
                    job.next_running = now + RUNNING_PERIOD_S
                    self._send(rid, "running")
                continue
            del self.jobs[rid]
            status: protocol.Status = (
                "succeeded" if progress.status is Status.SUCCEEDED
                else "cancelled" if progress.message == "cancelled" else "failed")
            finals.append((rid, status, progress.message, jsonable(dict(progress.result))))
        self.safe.follow()
        # What a step changed goes out before the step's end: the orchestrator judges the next
        # step on it (the topics are separate, so it also waits for a state after the end).
        objects = self.mirror.objects_changed()
        if objects is not None:
            self.sink.objects(objects)
        for name, value in list(self.sim.world.bindings.items()):
            if value.source == self.robot and self._published.get(name) is not value:
                self._published[name] = value
                self.sink.binding(name, value, self.stamp_of(value))
        if finals:
            self._state_now()
        for final in finals:
            self._final(*final)

    def _state_now(self) -> None:
        text = self.state_text()
        if text is not None:
            self.sink.state(text)

    # -- feedback -----------------------------------------------------------------------------

    def _send(self, rid: str, status: protocol.Status, message: str = "",
              result: dict[str, Any] | None = None) -> Feedback:
        fb = Feedback(rid, status, message, result or {}, self._wall())
        self.sink.feedback(fb)
        return fb

    def _final(self, rid: str, status: protocol.Status, message: str = "",
               result: dict[str, Any] | None = None) -> None:
        self.done[rid] = self._send(rid, status, message, result)
        while len(self.done) > HISTORY:
            self.done.popitem(last=False)

    def _malformed(self, text: str, exc: Exception) -> None:
        try:
            rid = protocol.loads(text).get("id")
        except (ValueError, AttributeError):
            rid = None
        if rid is None:
            self.sink.log(f"ignored a malformed request {text[:80]!r}: {exc}")
        else:
            self._final(str(rid), "rejected", f"malformed request: {type(exc).__name__}: {exc}")

    def _drop_on(self, skill: str) -> None:
        """``robot_unavailable:ROBOT@SKILL``: a step of that skill started on another robot."""
        for robot in self.sim.trigger_drop_outs(skill, (self.robot,)):
            self.sink.log(f"{robot} drops out ({skill} started)")
