"""The command line over ROS 2, as a user runs it: ``crewgate node`` for each simulated robot,
then ``crewgate run ... --backend ros2`` (the installed console script, in its own process)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("rclpy", reason="the ROS 2 tests need rclpy: `make extras` (or pip install "
                    '"crewgate[ros2-test]")')

from tests.cli.support import SAR_REQUEST, assert_clean_failure, write_plan
from tests.cli.support import crewgate as in_process
from tests.cli.support import crewgate_process as crewgate
from tests.ros2.support import Ros


@pytest.mark.slow
def test_run_over_ros2_with_the_offline_planner(ros: Ros, tmp_path: Path) -> None:
    ros.spawn("sar", "iris", speed=20)
    ros.spawn("sar", "tb3", speed=20)
    run = crewgate("run", "sar", SAR_REQUEST, "--backend", "ros2", "--namespace", ros.namespace,
                   journal=tmp_path / "j.sqlite3")
    assert run.rc == 0, str(run)
    assert f"ROS 2 namespace /{ros.namespace}" in run.stdout
    for ref in ("iris.takeoff", "iris.search_target", "tb3.navigate_to"):
        assert ref in run.stdout, str(run)
    assert "completed" in run.stdout
    trace = crewgate("trace", "--json", journal=tmp_path / "j.sqlite3")
    assert trace.rc == 0, str(trace)
    assert '"backend": "ros2"' in trace.stdout


def test_run_over_ros2_with_no_robot_up_moves_nothing(ros: Ros, tmp_path: Path) -> None:
    run = crewgate("run", "sar", SAR_REQUEST, "--backend", "ros2", "--namespace", ros.namespace,
                   "--wait-for", "1", journal=tmp_path / "j.sqlite3")
    assert run.rc == 1, str(run)
    assert "not heard: iris, tb3" in run.stdout
    assert "crewgate node sar ROBOT" in run.stdout
    assert "robot_unavailable" in run.stdout
    assert "refused" in run.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--backend", "ros3"], "error: unknown backend 'ros3' (did you mean 'ros2'?); or install a "
     "plugin that registers it in the crewgate.backends entry-point group"),
    (["--backend", "ros2", "--world", "B"], "error: backend ros2 takes no option 'world' (the "
     "simulated robots' world is given to each `crewgate node`); it takes: namespace, "
     "wait_for"),
])
def test_bad_backend_options_are_clean_errors(tmp_path: Path, args: list[str],
                                              message: str) -> None:
    run = crewgate("run", "sar", SAR_REQUEST, *args, journal=tmp_path / "j.sqlite3")
    assert_clean_failure(run)
    assert run.stderr.strip() == message


def test_the_node_command_is_registered(tmp_path: Path) -> None:
    help_ = crewgate("node", "--help", journal=tmp_path / "j.sqlite3")
    assert help_.rc == 0, str(help_)
    assert "ROBOT" in help_.stdout
    bad = crewgate("node", "sar", "nosuch", journal=tmp_path / "j.sqlite3")
    assert_clean_failure(bad)
    assert "unknown robot 'nosuch'" in bad.stderr


def test_estop_command_lands_the_drone_and_release_lets_it_fly(ros: Ros, tmp_path: Path) -> None:
    ros.spawn("sar", "iris", speed=20)
    client = ros.client
    client.watch("iris")
    client.connect("iris")
    assert client.run("iris", "takeoff", timeout=10.0).status == "succeeded"
    journal = tmp_path / "j.sqlite3"
    engaged = crewgate("estop", "sar", "--namespace", ros.namespace, "--wait", "15",
                       journal=journal)
    assert engaged.rc == 0, str(engaged)
    # the robot node holds it, and says so by republishing it: the command heard it taken
    assert f"e-stop engaged on /{ros.namespace}/estop" in engaged.stdout
    assert engaged.stdout.endswith("; held by crewgate_iris)\n"), str(engaged)
    assert client.wait(lambda: client.latest("iris").get("airborne") is False, 10.0)
    assert client.run("iris", "takeoff").status == "rejected"
    released = crewgate("estop", "sar", "--release", "--namespace", ros.namespace, "--wait",
                        "15", journal=journal)
    assert released.rc == 0, str(released)
    assert client.run("iris", "takeoff", timeout=10.0).status == "succeeded"


def test_status_says_the_estop_is_engaged_and_names_it_for_each_robot(ros: Ros, tmp_path: Path
                                                                      ) -> None:
    ros.spawn("sar", "iris", speed=20)
    ros.spawn("sar", "tb3", speed=20)
    journal = tmp_path / "j.sqlite3"
    engaged = in_process("estop", "sar", "--namespace", ros.namespace, "--wait", "15",
                         journal=journal)
    assert engaged.rc == 0, str(engaged)
    held = in_process("status", "sar", "--backend", "ros2", "--namespace", ros.namespace,
                      "--json", journal=journal)
    assert held.rc == 1, str(held)
    estop = f"e-stop received on /{ros.namespace}/estop"
    data = held.json()
    assert data["estop"] == estop
    assert {r: (v["available"], v["why"]) for r, v in data["robots"].items()} == {
        r: (False, f"robot {r!r} is held by the e-stop ({estop})") for r in ("iris", "tb3")}
    text = in_process("status", "sar", "--backend", "ros2", "--namespace", ros.namespace,
                      journal=journal)
    assert text.rc == 1, str(text)
    assert f"\ne-stop ENGAGED: {estop}\n" in text.stdout, str(text)
    # a mission begun meanwhile halts before its planner is asked, naming the e-stop
    land = write_plan(tmp_path / "land.json", "abort", ("iris", "land", {}))
    run = in_process("run", "sar", "Land the drone.", "--plan", land, "--backend", "ros2",
                     "--namespace", ros.namespace, journal=journal)
    assert run.rc == 1, str(run)
    assert (f"stopped before planning: {estop}; nothing was planned or sent"
            in " ".join(run.stdout.split())), str(run)
    assert "dispatched: nothing moved" in run.stdout, str(run)
    released = in_process("estop", "sar", "--release", "--namespace", ros.namespace,
                          "--wait", "15", journal=journal)
    assert released.rc == 0, str(released)
    # it exits once the nodes it heard hold the release (those discovery had not brought in
    # half a second hear it from the others): a status read at once says so
    assert re.search(r"; held by (crewgate_iris, crewgate_tb3|crewgate_iris|crewgate_tb3)\)\n$",
                     released.stdout), str(released)
    free = in_process("status", "sar", "--backend", "ros2", "--namespace", ros.namespace,
                      "--json", journal=journal)
    assert free.rc == 0, str(free)
    assert free.json()["estop"] is None
    assert [v["why"] for v in free.json()["robots"].values()] == [None, None]


def test_estop_with_nobody_listening_says_so(ros: Ros, tmp_path: Path) -> None:
    run = crewgate("estop", "sar", "--namespace", ros.namespace, "--wait", "0.5",
                   journal=tmp_path / "j.sqlite3")
    assert run.rc == 1, str(run)
    assert run.stdout == (f"e-stop engaged on /{ros.namespace}/estop, but no reader matched "
                          "within 0.5 s: check ROS_DOMAIN_ID and the namespace (or a longer "
                          "--wait)\n")


def test_estop_names_a_holder_that_does_not_take_the_release(ros: Ros, tmp_path: Path) -> None:
    """A latched writer that holds the e-stop and never republishes (a panel's button, here the
    test's client) still holds it engaged after a release: the command says so, exit 1."""
    ros.spawn("sar", "tb3", speed=20)
    client = ros.client
    client.estop(True)
    run = in_process("estop", "sar", "--release", "--namespace", ros.namespace, "--wait", "2",
                     journal=tmp_path / "j.sqlite3")
    assert run.rc == 1, str(run)
    line = " ".join(run.stdout.split())
    assert line.startswith(f"e-stop released on /{ros.namespace}/estop ("), str(run)
    assert line.endswith(f"), but not every holder took it within 2 s: {client.node.get_name()} "
                         "still holds it engaged (a longer --wait, or check that node)"), str(run)


@pytest.mark.parametrize("wait", ["0", "-1", "nan", "inf", "61"])
def test_estop_refuses_a_wait_that_is_not_seconds_up_to_a_minute(wait: str, tmp_path: Path
                                                                   ) -> None:
    run = in_process("estop", "sar", "--wait", wait, journal=tmp_path / "j.sqlite3")
    assert_clean_failure(run)
    assert run.stderr.startswith(f"error: --wait must be seconds above 0 and at most 60, not "
                                 f"{float(wait)!r} (how long to wait for the readers and "
                                 "holders"), str(run)


@pytest.mark.slow  # a late robot's e-stop held by others: waits of seconds (the basic case,
# a node started after the e-stop, runs in `make test`: tests/ros2/test_node.py)
def test_a_robot_started_after_the_estop_command_left_hears_it_from_a_robot_holding_it(
        ros: Ros, tmp_path: Path) -> None:
    """`crewgate estop` exits once published: its latched value goes with it. Every node (and
    orchestrator) that holds the e-stop republishes it, so a robot started later is stopped
    too, and released with the others."""
    ros.spawn("sar", "iris", speed=20)
    client = ros.client
    client.watch("iris")
    client.connect("iris")
    journal = tmp_path / "j.sqlite3"
    engaged = crewgate("estop", "sar", "--namespace", ros.namespace, "--wait", "15",
                       journal=journal)
    assert engaged.rc == 0, str(engaged)
    assert client.run("iris", "takeoff").status == "rejected"  # iris holds it
    # the e-stop's own writer is gone: only iris holds it (tb3 listens long enough for discovery
    # to match iris's writer on a loaded machine)
    ros.spawn("sar", "tb3", "--estop-listen", "5", speed=20)
    client.watch("tb3")
    client.connect("tb3")
    fb = client.run("tb3", "stop")
    assert fb.status == "rejected", fb
    assert "e-stop" in fb.message
    released = crewgate("estop", "sar", "--release", "--namespace", ros.namespace, "--wait",
                        "15", journal=journal)
    assert released.rc == 0, str(released)
    assert client.run("tb3", "stop", timeout=10.0).status == "succeeded"
    assert client.run("iris", "takeoff", timeout=10.0).status == "succeeded"
