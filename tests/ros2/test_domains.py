"""The ROS 2 tests' domains: the xdist workers never share one, and none leaves the range whose
ports stay below Linux's ephemeral ports (or takes the low domains people run robots on)."""

from __future__ import annotations

import pytest

pytest.importorskip("rclpy", reason="the ROS 2 tests need rclpy: `make extras` (or pip install "
                    '"crewgate[ros2-test]")')

from tests.ros2.support import _domains


def test_two_workers_walk_disjoint_halves_of_30_to_101() -> None:
    first, second = _domains("gw0", 2, 0.0), _domains("gw1", 2, 0.0)
    assert first == list(range(30, 66))
    assert second == list(range(66, 102))


def test_a_walk_starts_where_it_is_told_and_visits_its_slice_once() -> None:
    walk = _domains("gw1", 2, 0.5)
    assert walk[:2] == [84, 85]
    assert walk[-1] == 83
    assert sorted(walk) == list(range(66, 102))


def test_without_xdist_one_walk_covers_the_whole_range() -> None:
    assert sorted(_domains("master", 1, 0.3)) == list(range(30, 102))
