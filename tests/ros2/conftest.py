"""The ``ros`` fixture: a domain, a namespace, node processes and a client for one test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.ros2.support import Ros


@pytest.fixture
def ros(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Ros]:
    from tests.ros2.support import NETWORK, Ros  # rclpy: only by tests that did not skip

    world = Ros(tmp_path)
    for name, value in NETWORK.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("ROS_DOMAIN_ID", str(world.domain))
    try:
        yield world
    finally:
        world.close()
