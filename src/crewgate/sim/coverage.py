"""Lawnmower (boustrophedon) coverage patterns for the simulator's aerial search.

This module owns the search geometry of a rectangular zone: parallel passes along x spaced at most
``swath`` apart in y (the outer passes ``swath/2`` inside the zone's y edges, each pass spanning the
full x extent), joined end to end, so every point of the zone lies within ``swath/2`` of the
flight polyline. It also provides the polyline length and that coverage predicate. Pure Python,
deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

Point = tuple[float, float]


def lawnmower(x_min: float, x_max: float, y_min: float, y_max: float, swath: float,
              start: Point | None = None) -> list[Point]:
    """Boustrophedon waypoints covering [x_min, x_max] x [y_min, y_max] with passes along x.

    With ``start``, of the four patterns (begin at either x end, sweep up or down) the one whose
    first waypoint is closest to ``start`` is returned; ties keep the earlier of (x_min, y_min),
    (x_max, y_min), (x_min, y_max), (x_max, y_max).
    """
    if not (x_min < x_max and y_min < y_max):
        raise ValueError("zone must have x_min < x_max and y_min < y_max")
    if not swath > 0.0:
        raise ValueError("swath must be > 0")
    height = y_max - y_min
    if height <= swath:
        ys = [(y_min + y_max) / 2.0]
    else:
        n = math.ceil((height - swath) / swath - 1e-9) + 1  # passes, n >= 2
        gap = (height - swath) / (n - 1)
        ys = [y_min + swath / 2.0 + k * gap for k in range(n - 1)] + [y_max - swath / 2.0]
    best: list[Point] = []
    best_d = math.inf
    for ys_order in (ys, ys[::-1]):
        for first_x, other_x in ((x_min, x_max), (x_max, x_min)):
            pts: list[Point] = []
            for k, y in enumerate(ys_order):
                a, b = (first_x, other_x) if k % 2 == 0 else (other_x, first_x)
                pts += [(a, y), (b, y)]
            if start is None:
                return pts
            d = math.hypot(pts[0][0] - start[0], pts[0][1] - start[1])
            if d < best_d:
                best, best_d = pts, d
    return best


def path_length(points: Sequence[Point]) -> float:
    """Total length of the polyline through ``points`` (0 for fewer than two)."""
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(points))


def _point_seg_dist(x: float, y: float, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    l2 = dx * dx + dy * dy
    t = 0.0 if l2 == 0.0 else min(1.0, max(0.0, ((x - a[0]) * dx + (y - a[1]) * dy) / l2))
    return math.hypot(a[0] + t * dx - x, a[1] + t * dy - y)


def covered(points: Sequence[Point], swath: float, x: float, y: float) -> bool:
    """Whether (x, y) lies within ``swath/2`` of the polyline through ``points``."""
    if not points:
        return False
    limit = swath / 2.0 + 1e-9
    if len(points) == 1:
        return math.hypot(points[0][0] - x, points[0][1] - y) <= limit
    return any(_point_seg_dist(x, y, a, b) <= limit for a, b in pairwise(points))
