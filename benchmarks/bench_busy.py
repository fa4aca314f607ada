"""Benchmark: ``crewgate run`` with the offline planner on a machine whose cores are all busy.

What is measured: the wall time of the real console command ``crewgate run sar REQUEST --json
--journal FILE`` (the Makefile's request) planned by the ``exemplar`` planner (MiniLM), against
the same command given the plan (``--plan examples/sar_search_and_dispatch.json``), while one
busy process per core spins in pure Python (what a shared build machine or a robot's busy
computer looks like). The runs alternate (plan, exemplar, plan, ...), so that noise falls on
both alike; the same pair is also timed with the cores idle, for reference.

Why: numpy's OpenBLAS threads busy-wait for work; with every core taken they spin against the
load and the encoder's few small matrix products took seconds (issue 11: 16.4 s against 1.2 s
with ``--plan``). crewgate caps the encoder's BLAS threads itself (``threadpoolctl``), so the
command's environment here has no ``OPENBLAS_NUM_THREADS`` or ``OMP_NUM_THREADS``: the cap
measured is the product's, not the benchmark's.

Target (issue 11): with every core busy, the exemplar's run <= 3x the run with ``--plan``.

Run: ``.venv/bin/python benchmarks/bench_busy.py [--quick] [--json PATH]``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchlib import (
    SAR_PLAN_FILE,
    SAR_REQUEST,
    Report,
    console_script,
    fmt,
    parse_args,
    print_header,
    table,
)

TARGET_RATIO = 3.0
SPIN = "while True:\n    pass\n"
THREAD_KNOBS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


@contextmanager
def busy_cores(count: int) -> Iterator[None]:
    """``count`` processes spinning in pure Python for the duration; always stopped."""
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(count)]
    try:
        time.sleep(0.5)  # let them take their cores
        yield
    finally:
        for p in spinners:
            p.kill()
        for p in spinners:
            p.wait()


def run_once(cmd: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one command, which must complete its mission."""
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:3])} exited {done.returncode}:\n{done.stderr}")
    status = json.loads(done.stdout).get("status")
    if status != "completed":
        raise SystemExit(f"{' '.join(cmd[:3])}: mission ended {status!r}")
    return wall


def pair(script: Path, tmp: Path, env: dict[str, str], repeat: int, label: str
         ) -> dict[str, list[float]]:
    """Alternating runs of the command with --plan and with the exemplar planner."""
    times: dict[str, list[float]] = {"plan": [], "exemplar": []}
    base = [str(script), "run", "sar", SAR_REQUEST, "--json"]
    for i in range(repeat):
        for kind in ("plan", "exemplar"):
            journal = str(tmp / f"{label}-{kind}-{i}.db")
            extra = ["--plan", str(SAR_PLAN_FILE)] if kind == "plan" else []
            times[kind].append(run_once([*base, *extra, "--journal", journal], env))
            print(f"  {label} {kind} run {i + 1}/{repeat}: {times[kind][-1]:.2f} s", flush=True)
    return times


def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "", profile=False)
    repeat = 2 if args.quick else 5
    script = console_script()
    cores = os.cpu_count() or 1
    print_header("bench_busy: crewgate run, exemplar planner vs --plan, every core busy",
                 f"{repeat} alternating runs of each, with {cores} spinning processes and idle.")
    env = {k: v for k, v in os.environ.items() if k not in THREAD_KNOBS}
    report = Report("busy")
    rows = []
    ratios: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="crewgate-bench-") as name:
        tmp = Path(name)
        pair(script, tmp, env, 1, "warm-up")  # the embedding cache and the OS's file cache
        results = {"idle": pair(script, tmp, env, repeat, "idle")}
        with busy_cores(cores):
            results["busy"] = pair(script, tmp, env, repeat, "busy")
    for label, times in results.items():
        plan, exemplar = (statistics.median(times[k]) for k in ("plan", "exemplar"))
        ratios[label] = exemplar / plan
        rows.append([label, fmt(plan * 1e3, 0), fmt(exemplar * 1e3, 0), f"{ratios[label]:.2f}x",
                     fmt(max(times["exemplar"]) * 1e3, 0)])
        report.figure(f"crewgate run --plan, cores {label}, median", plan * 1e3, "ms")
        report.figure(f"crewgate run exemplar, cores {label}, median", exemplar * 1e3, "ms")
    print(table(["cores", "--plan ms", "exemplar ms", "exemplar / --plan", "exemplar max ms"],
                rows))
    report.figure("exemplar / --plan, cores idle", ratios["idle"], "x")
    report.target("crewgate run exemplar / --plan, every core busy", ratios["busy"], "x", "<=",
                  TARGET_RATIO)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
