"""What ``crewgate estop`` makes of the graph it sees: when it may stop, and whom it waits for.

Pure snapshots (no ROS): discovery brings each endpoint, and the name of its node, in its own
time, and every order it can bring them in must leave a holder waited for, never unnamed."""

from __future__ import annotations

from crewgate.ros2.estop import UNNAMED, Graph

TOPIC = "/crewgate/estop"
IRIS_W, TB3_W, PANEL_W = b"iris", b"tb3", b"panel"


def test_a_reader_whose_node_is_not_yet_named_keeps_the_graph_unknown() -> None:
    # the robot node's reader has matched, but neither its name nor its writer has come: it
    # may be one of ours, a holder, so the command may not stop on "taken by nobody to wait for"
    early = Graph(readers=1, reader_nodes=(UNNAMED,), holders={})
    assert early.offer(TOPIC, True, {}).taken is True  # (as far as it can tell)
    assert early.whole is False
    named = Graph(readers=1, reader_nodes=("crewgate_iris",), holders={})
    assert named.whole is True
    assert named.offer(TOPIC, True, {}).holders == (("crewgate_iris", None),)
    assert named.offer(TOPIC, True, {}).taken is False


def test_a_writer_whose_node_is_not_yet_named_keeps_the_graph_unknown() -> None:
    graph = Graph(readers=1, reader_nodes=("crewgate_iris",), holders={IRIS_W: UNNAMED})
    assert graph.whole is False


def test_a_reader_not_yet_matched_keeps_the_graph_unknown() -> None:
    graph = Graph(readers=1, reader_nodes=("crewgate_iris", "crewgate_tb3"), holders={})
    assert graph.whole is False


def test_every_holder_heard_holding_the_value_is_taken_and_named() -> None:
    graph = Graph(readers=4, reader_nodes=("crewgate_iris", "crewgate_iris", "crewgate_tb3",
                                           "rviz"),
                  holders={TB3_W: "crewgate_tb3", IRIS_W: "crewgate_iris"})
    assert graph.whole is True
    offer = graph.offer(TOPIC, True, {IRIS_W: True, TB3_W: True})
    assert offer.holders == (("crewgate_iris", True), ("crewgate_tb3", True))
    assert (offer.taken, offer.dissent) == (True, ())


def test_a_holder_still_holding_the_old_value_or_not_heard_is_dissent() -> None:
    graph = Graph(readers=2, reader_nodes=("crewgate_iris", "panel"),
                  holders={IRIS_W: "crewgate_iris", PANEL_W: "panel"})
    offer = graph.offer(TOPIC, False, {IRIS_W: False, PANEL_W: True})
    assert offer.taken is False
    assert offer.dissent == (("panel", True),)
    assert graph.offer(TOPIC, False, {IRIS_W: False}).dissent == (("panel", None),)


def test_another_estop_command_reading_the_topic_is_not_waited_for() -> None:
    graph = Graph(readers=1, reader_nodes=("crewgate_estop_4242",), holders={})
    assert graph.offer(TOPIC, True, {}).holders == ()
    assert graph.offer(TOPIC, True, {}).taken is True


def test_no_reader_matched_is_not_taken() -> None:
    assert Graph(readers=0, reader_nodes=(), holders={}).offer(TOPIC, True, {}).taken is False
