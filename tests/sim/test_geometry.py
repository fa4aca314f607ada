"""Geometry of the built-in simulator: grid path planning, pure pursuit, lawnmower coverage."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from crewgate.sim.coverage import covered, lawnmower, path_length
from crewgate.sim.pathplan import GridPlanner
from crewgate.sim.pursuit import PurePursuit, UnicycleState

Point = tuple[float, float]


@dataclass(frozen=True)
class Box:
    x: tuple[float, float]
    y: tuple[float, float]


BOUNDS = Box((-6.0, 10.0), (-6.0, 10.0))
WALLS = [Box((0.5, 1.5), (-3.0, 3.0)), Box((2.5, 6.5), (2.5, 3.2))]
INFLATION = 0.2
START, GOAL = (-2.0, -2.0), (5.0, 5.0)


def box_dist(p: Point, b: Box) -> float:
    dx = max(b.x[0] - p[0], 0.0, p[0] - b.x[1])
    dy = max(b.y[0] - p[1], 0.0, p[1] - b.y[1])
    return math.hypot(dx, dy)


def samples(path: list[Point], step: float = 0.005) -> list[Point]:
    pts: list[Point] = [path[0]]
    for a, b in pairwise(path):
        n = max(1, math.ceil(math.dist(a, b) / step))
        pts += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
                for k in range(1, n + 1)]
    return pts


def clearance(p: Point, bounds: Box, obstacles: list[Box]) -> float:
    """Distance from p to the nearest obstacle or to the outer bounds (negative when outside)."""
    edge = min(p[0] - bounds.x[0], bounds.x[1] - p[0], p[1] - bounds.y[0], bounds.y[1] - p[1])
    return min([edge, *(box_dist(p, o) for o in obstacles)])


def assert_collision_free(path: list[Point], bounds: Box, obstacles: list[Box],
                          inflation: float) -> None:
    for p in samples(path):
        assert clearance(p, bounds, obstacles) >= inflation - 1e-6, p


@pytest.fixture(scope="module")
def planner() -> GridPlanner:
    return GridPlanner(BOUNDS, WALLS, resolution=0.1, inflation=INFLATION)


def test_default_plan_is_collision_free_and_short(planner: GridPlanner) -> None:
    path = planner.plan(START, GOAL)
    assert path is not None
    assert path[0] == START
    assert path[-1] == GOAL
    assert_collision_free(path, BOUNDS, WALLS, INFLATION)
    assert all(planner.segment_free(a, b) for a, b in pairwise(path))
    assert len(path) <= 5  # shortcutting leaves only the corners that matter
    assert math.dist(START, GOAL) < path_length(path) < 11.5  # detours, but not by much
    assert planner.plan(START, GOAL) == path  # deterministic (speed: benchmarks/, not here)


def test_goal_walled_off_returns_none() -> None:
    ring = [Box((2.0, 4.0), (2.0, 2.2)), Box((2.0, 4.0), (3.8, 4.0)),
            Box((2.0, 2.2), (2.0, 4.0)), Box((3.8, 4.0), (2.0, 4.0))]
    p = GridPlanner(BOUNDS, ring, resolution=0.1, inflation=INFLATION)
    assert p.plan((0.0, 0.0), (3.0, 3.0)) is None
    assert p.plan((0.0, 0.0), (6.0, 6.0)) is not None


def test_goal_inside_obstacle_or_outside_bounds_returns_none(planner: GridPlanner) -> None:
    assert planner.plan(START, (1.0, 0.0)) is None
    assert planner.plan(START, (11.0, 0.0)) is None
    assert planner.plan(START, (0.0, -6.5)) is None


def test_blocked_start_searches_from_nearest_free_cell(planner: GridPlanner) -> None:
    start = (0.45, 0.0)  # touching the wall's inflation band
    assert not planner.is_free(start)
    path = planner.plan(start, GOAL)
    assert path is not None
    assert path[0] == start
    assert path[-1] == GOAL
    assert planner.is_free(path[1])
    assert math.dist(path[0], path[1]) < 0.25  # the nearest free cell centre, (0.25, -0.05)
    assert_collision_free(path[1:], BOUNDS, WALLS, INFLATION)
    inside = planner.plan((1.0, 0.0), GOAL)  # spawned inside the wall: still gets out
    assert inside is not None
    assert inside[0] == (1.0, 0.0)
    assert_collision_free(inside[1:], BOUNDS, WALLS, INFLATION)


def test_no_corner_cutting_between_diagonal_obstacles() -> None:
    boxes = [Box((0.0, 1.0), (0.0, 1.0)), Box((1.0, 2.0), (1.0, 2.0))]
    p = GridPlanner(Box((-1.0, 3.0), (-1.0, 3.0)), boxes, resolution=0.1, inflation=0.0)
    path = p.plan((0.5, 1.5), (1.5, 0.5))
    assert path is not None
    assert path_length(path) > 2.0  # must go around, not through the touching corners
    for q in samples(path):
        assert all(box_dist(q, b) > 0.0 for b in boxes), q


def test_segment_free(planner: GridPlanner) -> None:
    assert not planner.segment_free((0.0, 0.0), (2.0, 0.0))  # through the wall
    assert not planner.segment_free((0.35, -4.0), (0.35, 4.0))  # grazes within the inflation
    assert planner.segment_free((0.25, -4.0), (0.25, 4.0))
    assert planner.segment_free((-5.0, -5.0), (-5.0, 9.0))
    assert not planner.segment_free((-5.9, -5.0), (-5.0, -5.0))  # too close to the bounds


def simulate(path: list[Point], yaw: float, max_speed: float = 1.0,
             max_turn_rate: float = 1.5, dt: float = 0.05) -> tuple[PurePursuit, list[Point], bool]:
    ctl = PurePursuit(path, max_speed=max_speed, max_turn_rate=max_turn_rate)
    state = UnicycleState(path[0][0], path[0][1], yaw)
    trace = [(state.x, state.y)]
    limit = 3.0 * path_length(path) / max_speed + 10.0
    done, t = False, 0.0
    while not done and t <= limit:
        done = ctl.step(state, dt)
        trace.append((state.x, state.y))
        t += dt
    return ctl, trace, done


@pytest.mark.parametrize("yaw", [0.0, math.pi, -math.pi / 2])
def test_pursuit_reaches_goal_without_hitting_obstacles(planner: GridPlanner, yaw: float) -> None:
    path = planner.plan(START, GOAL)
    assert path is not None
    ctl, trace, done = simulate(path, yaw)
    assert done
    assert math.dist(trace[-1], GOAL) <= ctl.tolerance
    assert_collision_free(trace, BOUNDS, WALLS, 0.15)  # the robot centre keeps clear of walls
    travelled = sum(math.dist(a, b) for a, b in pairwise(trace))
    assert travelled <= ctl.distance_travelled <= travelled * 1.001  # arcs vs their chords
    assert ctl.distance_travelled < path_length(path) + 0.5


def test_pursuit_turns_in_place_and_stops_after_arrival() -> None:
    ctl = PurePursuit([(0.0, 0.0), (3.0, 0.0)], max_speed=1.0, max_turn_rate=1.0)
    state = UnicycleState(0.0, 0.0, math.pi)  # facing away from the path
    assert not ctl.step(state, 0.1)
    assert (state.x, state.y) == (0.0, 0.0)
    assert state.yaw == pytest.approx(-math.pi + 0.1) or state.yaw == pytest.approx(math.pi - 0.1)
    for _ in range(400):
        if ctl.step(state, 0.05):
            break
    assert ctl.arrived
    frozen = (state.x, state.y, state.yaw, ctl.distance_travelled)
    assert ctl.step(state, 0.05)
    assert (state.x, state.y, state.yaw, ctl.distance_travelled) == frozen


def test_lawnmower_covers_11m_zone() -> None:
    swath = 2.7
    pts = lawnmower(0.0, 11.0, -2.0, 9.0, swath)
    ys = sorted({p[1] for p in pts})
    assert ys[0] == pytest.approx(-2.0 + swath / 2)
    assert ys[-1] == pytest.approx(9.0 - swath / 2)
    assert all(b - a <= swath + 1e-9 for a, b in pairwise(ys))
    assert all(a[1] == b[1] for a, b in zip(pts[::2], pts[1::2], strict=True))  # passes along x
    grid = [i * 0.25 for i in range(45)]
    for gx in grid:
        for gy in grid:
            assert covered(pts, swath, gx, gy - 2.0), (gx, gy - 2.0)
    assert not covered(pts, swath, 5.5, 9.0 + 0.1)
    assert path_length(pts) == pytest.approx(len(ys) * 11.0 + (ys[-1] - ys[0]))


def test_lawnmower_start_and_narrow_zone() -> None:
    pts = lawnmower(0.0, 10.0, 0.0, 10.0, 2.0, start=(11.0, 11.0))
    assert pts[0] == (10.0, 9.0)
    pts = lawnmower(0.0, 10.0, 0.0, 10.0, 2.0, start=(-1.0, 0.5))
    assert pts[0] == (0.0, 1.0)
    narrow = lawnmower(0.0, 4.0, 1.0, 2.0, 3.0)
    assert narrow == [(0.0, 1.5), (4.0, 1.5)]
    with pytest.raises(ValueError, match="swath"):
        lawnmower(0.0, 1.0, 0.0, 1.0, 0.0)


PROP_WALLS = [*WALLS, Box((-4.0, -1.0), (5.0, 5.5)), Box((7.0, 7.5), (-5.0, 1.0))]
PROP_PLANNER = GridPlanner(BOUNDS, PROP_WALLS, resolution=0.1, inflation=INFLATION)
coord = st.floats(min_value=-5.8, max_value=9.8, allow_nan=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(sx=coord, sy=coord, gx=coord, gy=coord)
def test_property_planned_paths_are_collision_free(sx: float, sy: float, gx: float,
                                                   gy: float) -> None:
    start, goal = (sx, sy), (gx, gy)
    for p in (start, goal):
        assume(clearance(p, BOUNDS, PROP_WALLS) >= INFLATION)
    path = PROP_PLANNER.plan(start, goal)
    assert path is not None  # the free space of this map is connected
    assert path[0] == start
    assert path[-1] == goal
    assert_collision_free(path, BOUNDS, PROP_WALLS, INFLATION)


@settings(max_examples=12, deadline=None)
@given(sx=coord, sy=coord, gx=coord, gy=coord,
       yaw=st.floats(min_value=-math.pi, max_value=math.pi, allow_nan=False))
def test_property_pursuit_follows_planned_paths_without_collision(sx: float, sy: float, gx: float,
                                                                  gy: float, yaw: float) -> None:
    start, goal = (sx, sy), (gx, gy)
    for p in (start, goal):
        assume(clearance(p, BOUNDS, PROP_WALLS) >= INFLATION)
    path = PROP_PLANNER.plan(start, goal)
    assert path is not None
    ctl, trace, done = simulate(path, yaw)
    assert done
    assert math.dist(trace[-1], goal) <= ctl.tolerance
    for q in trace:  # the centre may cut a corner into the inflation band, never into a wall
        assert clearance(q, BOUNDS, PROP_WALLS) > 0.05, q
