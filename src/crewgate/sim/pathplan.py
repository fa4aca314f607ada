"""2-D grid path planning for the simulator's ground robots.

This module owns the ground robot's geometric planner: an occupancy grid of the operational area
(obstacles inflated by the robot radius, plus a band of that width inside the outer bounds) and
its connected components, 8-connected A* over it (octile heuristic, no corner cutting), and
line-of-sight shortcutting of the cell path into a few straight segments. A cell is free only if
its whole square keeps ``inflation`` clearance, so the segment between two neighbouring free cells
is itself collision-free. Pure Python, deterministic.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from typing import Protocol

Point = tuple[float, float]
_Rect = tuple[float, float, float, float]  # x0, x1, y0, y1
_EPS = 1e-9
_DIAG = math.sqrt(2.0)


class BoxLike(Protocol):
    """An axis-aligned rectangle: ``x`` and ``y`` are (low, high) ranges in metres."""

    @property
    def x(self) -> tuple[float, float]: ...

    @property
    def y(self) -> tuple[float, float]: ...


def _rect(b: BoxLike) -> _Rect:
    return float(b.x[0]), float(b.x[1]), float(b.y[0]), float(b.y[1])


def _point_rect_dist(px: float, py: float, r: _Rect) -> float:
    return math.hypot(max(r[0] - px, 0.0, px - r[1]), max(r[2] - py, 0.0, py - r[3]))


def _point_seg_dist(px: float, py: float, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    l2 = dx * dx + dy * dy
    t = 0.0 if l2 == 0.0 else min(1.0, max(0.0, ((px - a[0]) * dx + (py - a[1]) * dy) / l2))
    return math.hypot(a[0] + t * dx - px, a[1] + t * dy - py)


def _seg_rect_dist(a: Point, b: Point, r: _Rect) -> float:
    """Exact distance between segment a-b and a closed rectangle (0 if they meet)."""
    t0, t1 = 0.0, 1.0  # Liang-Barsky clipping of the segment against the rectangle
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - r[0]), (dx, r[1] - a[0]), (-dy, a[1] - r[2]), (dy, r[3] - a[1])):
        if p == 0.0:
            t0 = t0 if q >= 0.0 else 2.0
        elif p < 0.0:
            t0 = max(t0, q / p)
        else:
            t1 = min(t1, q / p)
    if t0 <= t1:
        return 0.0
    corners = ((r[0], r[2]), (r[0], r[3]), (r[1], r[2]), (r[1], r[3]))
    return min(_point_rect_dist(*a, r), _point_rect_dist(*b, r),
               *(_point_seg_dist(cx, cy, a, b) for cx, cy in corners))


class GridPlanner:
    """A* planner on an occupancy grid of ``bounds`` (cells of ``resolution`` m), built once."""

    def __init__(self, bounds: BoxLike, obstacles: Sequence[BoxLike], resolution: float = 0.1,
                 inflation: float = 0.2) -> None:
        self.resolution, self.inflation = float(resolution), float(inflation)
        self.bounds, self.obstacles = _rect(bounds), [_rect(o) for o in obstacles]
        x0, x1, y0, y1 = self.bounds
        if not (resolution > 0.0 and inflation >= 0.0 and x0 < x1 and y0 < y1):
            raise ValueError("need resolution > 0, inflation >= 0 and bounds with low < high")
        res, infl = self.resolution, self.inflation
        self.nx = max(1, math.ceil((x1 - x0) / res - _EPS))
        self.ny = max(1, math.ceil((y1 - y0) / res - _EPS))
        self._w = w = self.nx + 2  # one always-blocked cell of padding on every side
        grid = bytearray(b"\x01") * (w * (self.ny + 2))
        lo = math.ceil(infl / res - _EPS)  # cells whose square lies `infl` inside the bounds
        ihi, jhi = (math.floor((span - infl) / res + _EPS) - 1 for span in (x1 - x0, y1 - y0))
        for j in range(lo, jhi + 1):
            grid[(j + 1) * w + 1 + lo:(j + 1) * w + 2 + ihi] = bytes(max(ihi - lo + 1, 0))
        h, limit = res / 2.0, max(infl - _EPS, 0.0)  # blocked: closer than `infl` (or touching)
        for ox0, ox1, oy0, oy1 in self.obstacles:
            for j in range(*self._span(oy0 - infl, oy1 + infl, y0, self.ny)):
                cy = y0 + (j + 0.5) * res
                dy = max(oy0 - (cy + h), 0.0, (cy - h) - oy1)
                for i in range(*self._span(ox0 - infl, ox1 + infl, x0, self.nx)):
                    cx = x0 + (i + 0.5) * res
                    if math.hypot(max(ox0 - (cx + h), 0.0, (cx - h) - ox1), dy) <= limit:
                        grid[(j + 1) * w + i + 1] = 1
        self._grid = grid
        # Connected components of free space (4-connectivity is 8-connectivity without corner
        # cutting), so that an unreachable goal is rejected without a full search.
        self._comp = comp = [0] * len(grid)
        for idx in range(len(grid)):
            if not grid[idx] and not comp[idx]:
                comp[idx], stack = idx + 1, [idx]
                while stack:
                    n = stack.pop()
                    for m in (n + 1, n - 1, n + w, n - w):
                        if not grid[m] and not comp[m]:
                            comp[m] = idx + 1
                            stack.append(m)

    def _span(self, lo: float, hi: float, origin: float, n: int) -> tuple[int, int]:
        """Cell index range (start, stop) that may overlap [lo, hi], with a cell of margin."""
        a = math.floor((lo - origin) / self.resolution) - 1
        return max(a, 0), min(math.floor((hi - origin) / self.resolution) + 2, n)

    def _center(self, idx: int) -> Point:
        i, j = idx % self._w - 1, idx // self._w - 1
        return (self.bounds[0] + (i + 0.5) * self.resolution,
                self.bounds[2] + (j + 0.5) * self.resolution)

    def is_free(self, p: Point) -> bool:
        """Whether the robot centre may be at ``p`` (clear of inflated obstacles and bounds)."""
        return self._clear(p, p, self.inflation)

    def segment_free(self, a: Point, b: Point) -> bool:
        """Whether the straight segment a-b stays clear of the inflated obstacles and bounds."""
        return self._clear(a, b, self.inflation)

    def _clear(self, a: Point, b: Point, margin: float) -> bool:
        x0, x1, y0, y1 = self.bounds
        m = margin - _EPS
        for px, py in (a, b):  # the shrunk bounds are convex: checking the endpoints suffices
            if not (x0 + m <= px <= x1 - m and y0 + m <= py <= y1 - m):
                return False
        bx0, bx1 = min(a[0], b[0]) - margin, max(a[0], b[0]) + margin
        by0, by1 = min(a[1], b[1]) - margin, max(a[1], b[1]) + margin
        return not any(
            r[0] <= bx1 and r[1] >= bx0 and r[2] <= by1 and r[3] >= by0
            and _seg_rect_dist(a, b, r) <= max(m, 0.0) for r in self.obstacles)

    def _nearest_free(self, p: Point, ok: Callable[[int], bool]) -> int | None:
        """The free cell nearest to ``p`` (by centre distance) that satisfies ``ok``."""
        res, w, grid = self.resolution, self._w, self._grid
        ci = min(max(math.floor((p[0] - self.bounds[0]) / res), 0), self.nx - 1)
        cj = min(max(math.floor((p[1] - self.bounds[2]) / res), 0), self.ny - 1)
        best, best_d = None, math.inf
        for r in range(max(self.nx, self.ny)):  # square rings of growing radius around p's cell
            if (r - 1) * res > best_d:
                break
            for j in range(max(cj - r, 0), min(cj + r, self.ny - 1) + 1):
                for i in range(ci - r, ci + r + 1) if abs(j - cj) == r else (ci - r, ci + r):
                    idx = (j + 1) * w + i + 1
                    if not 0 <= i < self.nx or grid[idx]:
                        continue
                    d = math.dist(self._center(idx), p)
                    if d < best_d and ok(idx):
                        best, best_d = idx, d
        return best

    def plan(self, start: Point, goal: Point) -> list[Point] | None:
        """Waypoints (metres) from ``start`` to ``goal`` inclusive, or None if unreachable.

        A goal outside the bounds or inside an obstacle gives None. A start (or goal) in a blocked
        cell, e.g. a robot spawned touching an obstacle, is joined to the nearest free cell in
        line of sight of it (any nearest free cell if the start is inside an obstacle): only that
        first (or last) segment may then cross the inflation band; all others are free.
        """
        x0, x1, y0, y1 = self.bounds
        if not (x0 <= goal[0] <= x1 and y0 <= goal[1] <= y1):
            return None
        if any(_point_rect_dist(*goal, r) == 0.0 for r in self.obstacles):
            return None
        stuck = any(_point_rect_dist(*start, r) == 0.0 for r in self.obstacles)
        s = self._nearest_free(start, lambda c: stuck or self._clear(self._center(c), start, 0.0))
        g = self._nearest_free(goal, lambda c: self._clear(self._center(c), goal, 0.0))
        if s is None or g is None or self._comp[s] != self._comp[g]:
            return None
        cells = self._astar(s, g)
        return None if cells is None else self._shortcut([start, *map(self._center, cells), goal])

    def _astar(self, s: int, g: int) -> list[int] | None:
        grid, w = self._grid, self._w
        gx, gy = g % w, g // w
        cost, parent, closed = [math.inf] * len(grid), [-1] * len(grid), bytearray(len(grid))
        # (offset, side cell a, side cell b, step cost); straight moves check the cell itself.
        moves = [(d, 0, 0, 1.0) for d in (1, -1, w, -w)] + [
            (a + b, a, b, _DIAG) for a in (1, -1) for b in (w, -w)]
        cost[s] = 0.0
        heap: list[tuple[float, float, int]] = [(0.0, 0.0, s)]
        push, pop = heapq.heappush, heapq.heappop
        while heap:
            n = pop(heap)[2]
            if closed[n]:
                continue
            if n == g:
                path = [n]
                while n != s:
                    n = parent[n]
                    path.append(n)
                return path[::-1]
            closed[n] = 1
            for d, a, b, step in moves:
                m, c = n + d, cost[n] + step
                if grid[m] or closed[m] or grid[n + a] or grid[n + b] or c >= cost[m]:
                    continue
                cost[m], parent[m] = c, n
                dx, dy = abs(m % w - gx), abs(m // w - gy)
                hh = dx + dy + (_DIAG - 2.0) * min(dx, dy)  # octile distance
                push(heap, (c + hh, hh, m))  # ties: nearer the goal first
        return None

    def _shortcut(self, pts: list[Point]) -> list[Point]:
        """Greedy line-of-sight simplification; neighbouring grid points are always kept."""
        pts = [p for i, p in enumerate(pts) if i == 0 or p != pts[i - 1]]
        out, i = [pts[0]], 0
        while i < len(pts) - 1:
            j = i + 1
            while j + 1 < len(pts) and self.segment_free(pts[i], pts[j + 1]):
                j += 1
            out.append(pts[j])
            i = j
        return out
