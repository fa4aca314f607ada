"""Pure-pursuit path following for the simulator's differential-drive (unicycle) robots.

This module owns how a simulated ground robot drives along a waypoint path: it tracks its progress
along the polyline, aims at a point ``lookahead`` metres further on, turns in place when the
heading error is large, and otherwise drives the pure-pursuit arc with speed reduced by the
heading error, within ``max_speed`` and ``max_turn_rate``. Each step integrates the unicycle
model exactly (constant v and omega over dt). Pure Python, deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]

TURN_IN_PLACE = math.radians(60.0)
"""Heading error above which the robot stops and turns in place."""


@dataclass
class UnicycleState:
    """Pose of a unicycle robot: position in metres, heading ``yaw`` in radians."""

    x: float
    y: float
    yaw: float


def wrap_angle(a: float) -> float:
    """``a`` wrapped to [-pi, pi)."""
    return (a + math.pi) % (2.0 * math.pi) - math.pi


class PurePursuit:
    """Follows ``path`` (at least one waypoint); ``step`` until it returns True."""

    def __init__(self, path: list[Point], max_speed: float, max_turn_rate: float,
                 lookahead: float = 0.4, tolerance: float = 0.5) -> None:
        if not path:
            raise ValueError("path needs at least one waypoint")
        if not (max_speed > 0.0 and max_turn_rate > 0.0 and lookahead > 0.0 and tolerance > 0.0):
            raise ValueError("max_speed, max_turn_rate, lookahead and tolerance must be > 0")
        self.path = [(float(x), float(y)) for x, y in path]
        self.max_speed = float(max_speed)
        self.max_turn_rate = float(max_turn_rate)
        self.lookahead = float(lookahead)
        self.tolerance = float(tolerance)
        self.distance_travelled = 0.0
        self.arrived = False
        self._seg = 0  # index of the path segment the robot is currently tracking

    def _progress(self, x: float, y: float) -> tuple[int, float]:
        """Closest point on the path at or after the current segment: (segment, parameter t)."""
        best = (self._seg, 0.0)
        best_d = math.inf
        for k in range(self._seg, len(self.path) - 1):
            (ax, ay), (bx, by) = self.path[k], self.path[k + 1]
            dx, dy = bx - ax, by - ay
            l2 = dx * dx + dy * dy
            t = 0.0 if l2 == 0.0 else min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / l2))
            d = math.hypot(ax + t * dx - x, ay + t * dy - y)
            if d < best_d - 1e-12:
                best, best_d = (k, t), d
            elif d > best_d + 2.0 * self.lookahead:
                break  # moving away from the robot: later segments are not its progress point
        return best

    def target(self, state: UnicycleState) -> Point:
        """The lookahead point the controller steers toward from ``state``."""
        if len(self.path) == 1:
            return self.path[0]
        k, t = self._progress(state.x, state.y)
        self._seg = k
        remaining = self.lookahead
        while k < len(self.path) - 1:
            (ax, ay), (bx, by) = self.path[k], self.path[k + 1]
            seg_len = math.hypot(bx - ax, by - ay)
            left = seg_len * (1.0 - t)
            if left >= remaining and seg_len > 0.0:
                u = t + remaining / seg_len
                return ax + u * (bx - ax), ay + u * (by - ay)
            remaining -= left
            k, t = k + 1, 0.0
        return self.path[-1]

    def step(self, state: UnicycleState, dt: float) -> bool:
        """Advance ``state`` in place by ``dt`` seconds; True once within tolerance of the goal."""
        gx, gy = self.path[-1]
        if self.arrived or math.hypot(gx - state.x, gy - state.y) <= self.tolerance:
            self.arrived = True
            return True
        tx, ty = self.target(state)
        dist = max(math.hypot(tx - state.x, ty - state.y), 1e-9)
        alpha = wrap_angle(math.atan2(ty - state.y, tx - state.x) - state.yaw)
        if abs(alpha) > TURN_IN_PLACE:
            v = 0.0
            omega = math.copysign(min(self.max_turn_rate, abs(alpha) / dt), alpha)
        else:
            # Speed falls linearly to 0 at the turn-in-place threshold; the turn rate is the
            # pure-pursuit arc's, or a heading-proportional rate (full rate at the threshold)
            # when that turns harder, so large errors close quickly instead of bulging outwards.
            v = self.max_speed * (1.0 - abs(alpha) / TURN_IN_PLACE)
            omega = math.copysign(max(abs(v * 2.0 * math.sin(alpha) / dist),
                                      self.max_turn_rate * abs(alpha) / TURN_IN_PLACE), alpha)
            if abs(omega) > self.max_turn_rate:  # keep the curvature, slow down along it
                v *= self.max_turn_rate / abs(omega)
                omega = math.copysign(self.max_turn_rate, omega)
        self._integrate(state, v, omega, dt)
        self.distance_travelled += v * dt
        if math.hypot(gx - state.x, gy - state.y) <= self.tolerance:
            self.arrived = True
        return self.arrived

    @staticmethod
    def _integrate(state: UnicycleState, v: float, omega: float, dt: float) -> None:
        yaw = state.yaw
        if abs(omega) < 1e-9:
            state.x += v * dt * math.cos(yaw)
            state.y += v * dt * math.sin(yaw)
        else:
            new_yaw = yaw + omega * dt
            state.x += v / omega * (math.sin(new_yaw) - math.sin(yaw))
            state.y -= v / omega * (math.cos(new_yaw) - math.cos(yaw))
            yaw = new_yaw
        state.yaw = wrap_angle(yaw)
