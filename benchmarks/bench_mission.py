"""Benchmark: a full simulated mission, ``crewgate.api.run_mission``.

What is measured: the wall time of one complete mission on the built-in simulator, planned by the
scripted planner, journaled to ``":memory:"``, with the gate enforcing:

* ``sar`` search-and-dispatch: examples/sar_search_and_dispatch.json for the Makefile's demo
  request (takeoff, lawnmower sweep of the 11 m x 11 m zone x, y in [-5.5, 5.5], rover drive to
  the published victim fix around the walls of world A);
* ``g1_go2`` carry (reference): grab the red cube, load it on go2, go2 walks to room_b.

Each timed repetition builds a fresh planner and calls ``run_mission`` with the crew by name
(packaged crews are cached after the first load, which the warm-up absorbs), so it covers
planning, whole-plan validation, simulator construction, per-step authorization, the simulated
execution and the journal. Wall time is ``time.perf_counter_ns`` around the call; the simulated
time is ``result.execution_s`` (backend time from the first dispatch to the end); the speed-up is
simulated time divided by the median wall time. Every run must end ``completed``.

An informational section repeats the ``sar`` mission with the crew given as the path of its YAML
file instead of its packaged name: ``load_crew`` caches packaged crews but not files, so each such
mission re-reads the spec, and ``crewgate.api.gate_for`` (keyed by ``id(crew)``) keeps one more
compiled gate per call; the table shows the cost and that growth.

Targets (issue, for the sar mission): median wall time <= 1 s (1,000 ms); at least 100x faster than
simulated time.

Run: ``.venv/bin/python benchmarks/bench_mission.py [--quick] [--profile] [--json PATH]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

from benchlib import (
    G1_CARRY_PLAN,
    G1_CARRY_REQUEST,
    SAR_PLAN_FILE,
    SAR_REQUEST,
    Report,
    Stats,
    fmt,
    in_unit,
    parse_args,
    print_header,
    profile_calls,
    table,
)

from crewgate import api
from crewgate.api import run_mission
from crewgate.orchestrator import MissionResult
from crewgate.planners.scripted import ScriptedPlanner, read_plan_file

TARGET_WALL_MS = 1_000.0
TARGET_SPEEDUP = 100.0


@dataclass(slots=True)
class Mission:
    label: str
    slug: str
    run: Callable[[], MissionResult]
    has_target: bool


def sar_mission() -> MissionResult:
    planner = ScriptedPlanner([read_plan_file(SAR_PLAN_FILE)])
    return run_mission("sar", SAR_REQUEST, planner, journal=":memory:")


def g1_mission() -> MissionResult:
    planner = ScriptedPlanner([G1_CARRY_PLAN])
    return run_mission("g1_go2", G1_CARRY_REQUEST, planner, journal=":memory:")


def sar_mission_by_path() -> MissionResult:
    path = str(resources.files("crewgate.crews").joinpath("sar.yaml"))
    planner = ScriptedPlanner([read_plan_file(SAR_PLAN_FILE)])
    return run_mission(path, SAR_REQUEST, planner, journal=":memory:")


def measure(mission: Mission, warmup: int, repeat: int) -> tuple[Stats, float, int]:
    """Wall-time stats, simulated seconds (identical in every run) and steps dispatched."""
    for _ in range(warmup):
        mission.run()
    walls: list[int] = []
    sims: set[float] = set()
    steps = 0
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        result = mission.run()
        walls.append(time.perf_counter_ns() - t0)
        if result.status != "completed":
            raise SystemExit(f"{mission.label}: mission ended {result.status} "
                             f"({', '.join(result.codes)}): {result.reason}")
        sims.add(round(result.execution_s, 6))
        steps = len(result.dispatched)
    if len(sims) != 1:
        raise SystemExit(f"{mission.label}: simulated time varies between runs: {sorted(sims)}")
    return Stats.of(walls), sims.pop(), steps


def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "")
    warmup, repeat = (1, 3) if args.quick else (2, 10)
    print_header("bench_mission: run_mission on the built-in simulator",
                 f"{repeat} timed missions per crew after {warmup} warm-up mission(s); "
                 "journal ':memory:', scripted planner, enforcement on.")
    missions = [
        Mission("sar search_and_dispatch", "sar", sar_mission, True),
        Mission("g1_go2 carry (reference)", "g1_go2", g1_mission, False),
    ]
    report = Report("mission")
    rows: list[list[str]] = []
    for mission in missions:
        stats, sim_s, steps = measure(mission, warmup, repeat)
        wall_ms = in_unit(stats.median_ns, "ms")
        speedup = sim_s / in_unit(stats.median_ns, "s")
        rows.append([mission.label, str(steps), f"{stats.n}",
                     *(fmt(in_unit(v, "ms"), 1) for v in
                       (stats.median_ns, stats.p90_ns, stats.min_ns)),
                     fmt(sim_s, 2), fmt(speedup, 0) + "x"])
        report.figure(f"mission {mission.slug} wall median", wall_ms, "ms")
        report.figure(f"mission {mission.slug} simulated", sim_s, "s")
        report.figure(f"mission {mission.slug} speed-up", speedup, "x")
        if mission.has_target:
            report.target(f"mission {mission.slug} wall median", wall_ms, "ms", "<=",
                          TARGET_WALL_MS)
            report.target(f"mission {mission.slug} speed-up", speedup, "x", ">=", TARGET_SPEEDUP)
    print(table(["mission", "steps", "n", "wall median ms", "wall p90 ms", "wall min ms",
                 "simulated s", "speed-up"], rows))

    print("\nCrew given as a YAML file path (informational): the packaged sar.yaml, by path")
    by_path = Mission("sar, crew by file path", "sar_by_path", sar_mission_by_path, False)
    gates_before = len(api._GATES)
    stats, _, _ = measure(by_path, warmup, repeat)
    grown = len(api._GATES) - gates_before
    print(table(["mission", "n", "wall median ms", "wall p90 ms", "wall min ms",
                 "gates cached (growth)"],
                [[by_path.label, f"{stats.n}",
                  *(fmt(in_unit(v, "ms"), 1) for v in
                    (stats.median_ns, stats.p90_ns, stats.min_ns)),
                  f"{len(api._GATES)} (+{grown} over {warmup + repeat} missions)"]]))
    report.figure("mission sar_by_path wall median", in_unit(stats.median_ns, "ms"), "ms")
    report.figure("mission sar_by_path gates cached growth", float(grown), "gates")
    if args.profile:
        for mission in [*missions, by_path]:
            profile_calls(mission.label, mission.run, 10, top=25)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
