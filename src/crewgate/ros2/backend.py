"""ROS 2 as a backend (extra ``crewgate[ros2]``): the crew's robots are ROS 2 nodes in their own
processes (real robots, or ``crewgate node CREW ROBOT`` for each). The plugin owns the crew
spec's ``ros2`` section; rclpy is imported only when a backend is opened."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import Field

from crewgate.adapters.backend import Backend, BackendOptions
from crewgate.adapters.base import Adapter
from crewgate.ros2.section import Ros2Section
from crewgate.spec import Crew


class Ros2Options(BackendOptions):
    namespace: str | None = Field(None, description="Topic namespace (default: the crew's "
                                  "ros2.namespace, or crewgate).")
    wait_for: float = Field(10.0, ge=0, allow_inf_nan=False, description="Seconds to wait for "
                            "every robot to be heard on the graph before planning.")


class Ros2Backend(Backend):
    """The crew's robots as ROS 2 nodes in their own processes (real ones, or `crewgate node
    CREW ROBOT` for each), on wall-clock time; extra crewgate[ros2]."""

    name: ClassVar[str] = "ros2"
    hints: ClassVar[Mapping[str, str]] = {
        "world": "the simulated robots' world is given to each `crewgate node`",
        "faults": "give faults to each `crewgate node`", "seed": "give it to each `crewgate node`"}
    section = Ros2Section
    Options = Ros2Options

    def open(self, crew: Crew, options: BackendOptions) -> Adapter:
        assert isinstance(options, Ros2Options)
        from crewgate.ros2.adapter import Ros2Adapter

        return Ros2Adapter(crew, namespace=options.namespace)

    def wait_s(self, options: BackendOptions) -> float:
        assert isinstance(options, Ros2Options)
        return options.wait_for
