"""Benchmark: dispatch over ROS 2 on loopback, and detection of a lost robot.

What is measured, against real ``crewgate node`` processes (``sar`` crew, a random
``ROS_DOMAIN_ID`` in 100-200, ``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST``, Fast DDS):

* **dispatch round trip**: authorize ``tb3.stop`` (plan ``abort``, step 0) against the live
  world of a :class:`~crewgate.ros2.adapter.Ros2Adapter`, redeem the authorization, build the
  command, publish the request on ``/NS/tb3/skill/request`` and wait until the rover node's
  ``accepted`` feedback is back in the adapter: ``time.perf_counter_ns`` around the whole. One
  request at a time, after the previous one has ended (``stop`` takes 0.5 simulated s; the node
  runs at 20x). The gate's share is printed too (authorize + redeem only).
* **lost-robot detection**: a rover node is killed with SIGKILL (no goodbye on the graph); the
  time from the kill until the adapter's world shows it unavailable, against its declared
  ``liveness_timeout_s`` (1 s in ``sar``). The adapter checks liveness every 20 ms; the node's
  heartbeat is its 20 Hz state.

Targets (issue): dispatch round trip median <= 5 ms; detection <= liveness timeout + 200 ms
(every repetition, not just the median).

Needs the ros2 extra (``make extras``). Run:
``.venv/bin/python benchmarks/bench_ros2.py [--quick] [--json PATH]``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid

from benchlib import EXIT_SKIPPED, Report, Stats, fmt, in_unit, parse_args, print_header, table

TARGET_ROUND_TRIP_MS = 5.0
DETECTION_MARGIN_MS = 200.0


def _node(robot: str, namespace: str, env: dict[str, str]) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-m", "crewgate.onboard.node", "sar", robot,
                             "--namespace", namespace, "--speed", "20"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if " up on " not in line:
        raise SystemExit(f"crewgate node sar {robot} did not come up: {line!r}")
    return proc


def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "")
    try:
        import rclpy  # noqa: F401
    except ImportError:
        print('bench_ros2: rclpy is not installed (`make extras`, or pip install '
              '"crewgate[ros2]"); skipped')
        return EXIT_SKIPPED
    domain = random.randint(100, 200)
    os.environ.update(ROS_DOMAIN_ID=str(domain), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    namespace = f"bench_{uuid.uuid4().hex[:8]}"
    repeat, kills = (100, 3) if args.quick else (500, 10)
    print_header("bench_ros2: dispatch round trip and lost-robot detection over ROS 2",
                 f"{repeat} round trips, {kills} kills; domain {domain}, namespace /{namespace}")

    from crewgate.commands import Command
    from crewgate.gate import Gate, MissionGate
    from crewgate.plan import Plan, parse_plan
    from crewgate.ros2.adapter import Ros2Adapter
    from crewgate.spec import load_crew

    crew = load_crew("sar")
    gate = Gate(crew)
    plan = parse_plan({"workflow": "abort", "steps": [{"robot": "tb3", "skill": "stop"}]})
    assert isinstance(plan, Plan)
    report = Report("bench_ros2")

    # -- round trip --------------------------------------------------------------------------
    rover = _node("tb3", namespace, env)
    adapter = Ros2Adapter(crew, namespace=namespace)
    try:
        if adapter.connect(["tb3"], 15.0):
            raise SystemExit("the rover node was not heard within 15 s")
        time.sleep(1.0)  # discovery settles (request/feedback endpoints matched both ways)
        total: list[int] = []
        gate_only: list[int] = []
        for i in range(repeat + 20):
            mgate = MissionGate(gate, f"bench{i}", "stop the rover", plan)
            t0 = time.perf_counter_ns()
            auth = mgate.authorize(0, plan.steps[0], adapter.world)
            mgate.redeem(auth)
            t1 = time.perf_counter_ns()
            command = Command(auth.mission_id, 0, "tb3", "stop", auth.args, auth.bindings, 5.0,
                              auth.token)
            adapter.start(command)
            while not adapter.acknowledged(command):
                time.sleep(0.0001)
            t2 = time.perf_counter_ns()
            if not auth.ok:
                raise SystemExit(f"tb3.stop was refused: {auth.verdict.codes}")
            while adapter.poll(command).status.value == "running":  # let it end
                time.sleep(0.002)
            if i >= 20:  # warm-up
                total.append(t2 - t0)
                gate_only.append(t1 - t0)
    finally:
        adapter.close()
        rover.send_signal(signal.SIGTERM)
        rover.wait(10)
    rt, g = Stats.of(total), Stats.of(gate_only)
    def ms(st: Stats) -> list[str]:
        return [f"{fmt(in_unit(v, 'ms'), 3)} ms" for v in (st.median_ns, st.p90_ns, st.min_ns,
                                                          st.max_ns)]

    print(table(["path", "n", "median", "p90", "min", "max"], [
        ["authorize + send + acknowledgement", str(rt.n), *ms(rt)],
        ["of which authorize + redeem", str(g.n), *ms(g)],
    ]))
    report.target("dispatch round trip median", in_unit(rt.median_ns, "ms"), "ms", "<=",
                  TARGET_ROUND_TRIP_MS)
    report.figure("dispatch round trip p90", in_unit(rt.p90_ns, "ms"), "ms")
    report.figure("authorize + redeem median", in_unit(g.median_ns, "us"), "us")

    # -- lost robot --------------------------------------------------------------------------
    timeout_ms = crew.robots["tb3"].liveness_timeout_s * 1000
    delays: list[float] = []
    adapter = Ros2Adapter(crew, namespace=namespace)
    try:
        for _ in range(kills):
            rover = _node("tb3", namespace, env)
            if adapter.connect(["tb3"], 15.0):
                raise SystemExit("the rover node was not heard within 15 s")
            time.sleep(0.3)
            t0 = time.perf_counter_ns()
            rover.kill()
            while adapter.world.get("tb3", "available"):
                time.sleep(0.001)
            delays.append((time.perf_counter_ns() - t0) / 1e6)
            rover.wait(10)
    finally:
        adapter.close()
    print(table(["kill -> unavailable", "n", "median", "max", "declared timeout"], [
        ["SIGKILL of the rover node", str(len(delays)),
         f"{sorted(delays)[len(delays) // 2]:.0f} ms",
         f"{max(delays):.0f} ms", f"{timeout_ms:.0f} ms"]]))
    report.target("lost-robot detection, worst", max(delays), "ms", "<=",
                  timeout_ms + DETECTION_MARGIN_MS)
    report.figure("lost-robot detection beyond the timeout, worst", max(delays) - timeout_ms,
                  "ms")
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
