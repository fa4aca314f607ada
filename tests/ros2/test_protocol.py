"""The protocol's names and encodings (pure Python: no rclpy needed)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from crewgate.ros2.protocol import Topics, decode_cancel, decode_state, encode_cancel, loads
from crewgate.spec import load_crew

WIRED = Path(__file__).parent.parent / "data" / "crews" / "wired.yaml"


def test_topics_default_to_the_namespace() -> None:
    topics = Topics.of(load_crew("sar"))
    assert topics.namespace == "crewgate"
    assert topics.state("tb3") == "/crewgate/tb3/state"
    assert topics.binding("victim") == "/crewgate/bindings/victim"
    assert topics.confidence("victim") == "/crewgate/bindings/victim/confidence"
    assert topics.estop() == "/crewgate/estop"
    assert Topics.of(load_crew("sar"), "other").estop() == "/other/estop"
    assert topics.heartbeat() == "/crewgate/orchestrator/heartbeat"
    assert Topics.of(load_crew("sar"), "other").heartbeat() == "/other/orchestrator/heartbeat"


def test_topics_take_the_names_the_crews_ros2_section_gives() -> None:
    topics = Topics.of(load_crew(WIRED))
    assert topics.namespace == "wired_test"
    assert topics.state("rover") == "/wired/rover/bridge_state"
    assert topics.binding("beacon") == "/wired/beacon"
    assert topics.confidence("beacon") == "/wired_test/bindings/beacon/confidence"
    assert topics.request("rover") == "/wired_test/rover/skill/request"


def test_cancel_round_trips_and_non_finite_numbers_survive() -> None:
    assert decode_cancel(encode_cancel("abc")) == "abc"
    assert math.isnan(loads('{"x": "nan"}')["x"])


@pytest.mark.parametrize(("text", "why"), [
    ('{"robot": "tb3", "fields": {"x": NaN}}',
     "NaN is not a number crewgate reads (non-finite numbers are errors)"),
    ('{"robot": "tb3", "fields": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "the JSON nests too deep to be read"),
    ('{"robot": "tb3", "fields": {"x": ' + "[" * 40 + "]" * 40 + "}}",
     "the JSON nests deeper than 32 levels"),
])
def test_a_hostile_message_is_a_value_error_a_node_ignores(text: str, why: str) -> None:
    # what any publisher on the domain sends: never an exception that stops a node's callbacks
    with pytest.raises(ValueError, match=f"^{re.escape(why)}$"):
        decode_state(text)


def test_an_unknown_interface_type_names_it_and_the_fix() -> None:
    from crewgate.errors import UserError
    from crewgate.ros2.runtime import interface

    with pytest.raises(UserError, match=r"cannot load ROS 2 interface 'nosuch_msgs/msg/X': .*"
                       r'pip install "crewgate\[ros2\]".*fix the type name'):
        interface("nosuch_msgs/msg/X")


def test_the_heartbeat_topic_is_the_crews_when_it_names_one(tmp_path: Path) -> None:
    from importlib.resources import files

    crew = tmp_path / "sar.yaml"
    crew.write_text(files("crewgate.crews").joinpath("sar.yaml").read_text()
                    + "\nros2:\n  heartbeat_topic: /fleet/heartbeat\n")
    assert Topics.of(load_crew(crew)).heartbeat() == "/fleet/heartbeat"
    assert Topics.of(load_crew(WIRED)).heartbeat() == "/wired_test/orchestrator/heartbeat"
