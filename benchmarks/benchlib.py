"""Shared helpers for the crewgate benchmarks: timing, statistics, tables, verdicts, JSON output.

Not a benchmark itself. Every ``bench_*.py`` script imports it (the script's own directory is
first on ``sys.path`` when it is run as ``python benchmarks/bench_x.py``).

Statistics are computed on per-repetition samples in nanoseconds from ``time.perf_counter_ns``:
median, p90 (nearest-rank: the smallest sample with at least 90 % of samples at or below it) and
min. A benchmark records its figures and its targets in a :class:`Report`, prints tables and one
verdict line per target, and, with ``--json PATH``, writes everything as JSON for ``run_all.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import json
import math
import os
import platform
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

REPO = Path(__file__).resolve().parent.parent
# the exit status of a benchmark that cannot run here (an extra not installed): not a failure
EXIT_SKIPPED = 77
"""The repository root (the parent of ``benchmarks/``)."""

SAR_REQUEST = (
    "A hiker is missing in the search zone x from -5.5 to 5.5, y from -5.5 to 5.5. Fly the drone "
    "over the zone and send the ground rover to the victim once located."
)
"""The Makefile's demo request, matching ``examples/sar_search_and_dispatch.json``."""

SAR_PLAN_FILE = REPO / "examples" / "sar_search_and_dispatch.json"

G1_CARRY_REQUEST = "bring the red cube to room_b"
"""The study suite's scenario ``nom_carry_1``."""

G1_CARRY_PLAN: dict[str, object] = {
    "workflow": "carry",
    "steps": [
        {"robot": "g1", "skill": "grab_from_table", "args": {"object": "red_cube"}},
        {"robot": "g1", "skill": "place_on_table", "args": {"object": "red_cube"}},
        {"robot": "go2", "skill": "navigate_to_location", "args": {"location": "room_b"}},
    ],
}


@dataclass(frozen=True, slots=True)
class Stats:
    """Summary of timing samples, all in nanoseconds."""

    n: int
    median_ns: float
    p90_ns: float
    min_ns: float
    max_ns: float

    @classmethod
    def of(cls, samples_ns: Sequence[int | float]) -> Stats:
        if not samples_ns:
            raise ValueError("no samples")
        ordered = sorted(samples_ns)
        rank = max(1, math.ceil(0.9 * len(ordered)))  # nearest-rank percentile
        return cls(
            n=len(ordered),
            median_ns=float(statistics.median(ordered)),
            p90_ns=float(ordered[rank - 1]),
            min_ns=float(ordered[0]),
            max_ns=float(ordered[-1]),
        )


UNIT_NS: dict[str, float] = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def fmt(value: float, digits: int = 1) -> str:
    return f"{value:,.{digits}f}"


def in_unit(ns: float, unit: str) -> float:
    return ns / UNIT_NS[unit]


def time_calls(fn: Callable[[], object], *, warmup: int, repeat: int) -> list[int]:
    """Call ``fn`` ``warmup`` times untimed, then ``repeat`` times, timing each call alone."""
    for _ in range(warmup):
        fn()
    clock = time.perf_counter_ns
    samples: list[int] = []
    append = samples.append
    for _ in range(repeat):
        t0 = clock()
        fn()
        append(clock() - t0)
    return samples


def timer_overhead_ns(repeat: int = 20_000) -> float:
    """Median cost of two back-to-back ``perf_counter_ns`` calls (included in every sample)."""
    clock = time.perf_counter_ns
    samples = []
    for _ in range(repeat):
        t0 = clock()
        samples.append(clock() - t0)
    return float(statistics.median(samples))


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table: first column left-aligned, the others right-aligned."""
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells: Sequence[str]) -> str:
        parts = [c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])
                 for i, c in enumerate(cells)]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


Op = Literal["<=", ">="]


@dataclass(slots=True)
class Figure:
    """One measured number (for the summary of ``run_all.py``)."""

    name: str
    value: float
    unit: str


@dataclass(slots=True)
class Target:
    """One target of the issue and whether the measurement meets it."""

    label: str
    value: float
    unit: str
    op: Op
    target: float
    ok: bool

    def line(self) -> str:
        verdict = "OK" if self.ok else "MISSED"
        # ratios near 1 need two decimals to say anything (1.17 x against 1.20 x)
        return (f"{self.label} {fmt(self.value, 2 if abs(self.value) < 10 else 1)} {self.unit} "
                f"(target {self.op} {fmt(self.target, 0 if self.target == int(self.target) else 2)}"
                f" {self.unit}): {verdict}")


@dataclass(slots=True)
class Report:
    """What a benchmark measured; printed as verdict lines and written as JSON."""

    bench: str
    figures: list[Figure] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)

    def figure(self, name: str, value: float, unit: str) -> None:
        self.figures.append(Figure(name, value, unit))

    def target(self, label: str, value: float, unit: str, op: Op, target: float) -> None:
        ok = value <= target if op == "<=" else value >= target
        self.targets.append(Target(label, value, unit, op, target, ok))

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.targets)

    def finish(self, json_path: Path | None) -> int:
        """Print the verdicts, write the JSON if asked; the exit status (1: a target missed)."""
        print()
        print("Verdicts:")
        for t in self.targets:
            print(t.line())
        if json_path is not None:
            data = {"bench": self.bench, "environment": environment(),
                    "figures": [asdict(f) for f in self.figures],
                    "targets": [asdict(t) for t in self.targets]}
            json_path.write_text(json.dumps(data, indent=2), encoding="utf-8")
        return 0 if self.ok else 1


def environment() -> dict[str, str]:
    return {
        "date": datetime.date.today().isoformat(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpus": str(os.cpu_count()),
    }


def print_header(title: str, what: str) -> None:
    env = environment()
    print(f"== {title} ==")
    print(what)
    print(f"{env['date']}  Python {env['python']} ({env['implementation']})  "
          f"{env['platform']}  cpus={env['cpus']}")
    print()


def parse_args(description: str, *, profile: bool = True) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--json", type=Path, default=None, metavar="PATH",
                        help="also write the figures and targets as JSON to PATH")
    parser.add_argument("--quick", action="store_true",
                        help="fewer repetitions (a smoke test; the figures are noisier)")
    if profile:
        parser.add_argument("--profile", action="store_true",
                            help="after measuring, print a cProfile of the measured operations")
    return parser.parse_args()


def profile_calls(label: str, fn: Callable[[], object], calls: int, top: int = 15) -> None:
    """Run ``fn`` ``calls`` times under cProfile and print the top functions by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        fn()
    profiler.disable()
    print()
    print(f"-- cProfile: {label}, {calls} calls, top {top} by tottime --")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)


def console_script() -> Path:
    """The ``crewgate`` console script of this interpreter's venv (what a user runs)."""
    script = Path(sys.executable).parent / "crewgate"
    if not script.exists():
        raise SystemExit(f"console script {script} not found: install crewgate in this venv")
    return script
