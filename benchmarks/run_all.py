"""Run every crewgate benchmark, one at a time, and summarize the figures against the targets.

Each benchmark (bench_authorize, bench_validate, bench_intent, bench_request, bench_hostile,
bench_mission, bench_memory, bench_planner, bench_busy, bench_eval, bench_eval_jobs, bench_ros2,
bench_service, bench_scale) runs as its own subprocess with this interpreter, strictly in
sequence (they must not compete for the CPU), with ``--json`` pointing at a temporary file;
its own tables are shown as it runs. The summary lists every target with its measured value,
then every other figure.
Exit status: 0 when every target is met, 1 when a target is missed, 2 when a benchmark failed to
produce its figures.

Not run by the test suite. Run: ``.venv/bin/python benchmarks/run_all.py [--quick]``
(``--quick`` passes ``--quick`` on: fewer repetitions, noisier figures).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import EXIT_SKIPPED

HERE = Path(__file__).resolve().parent
BENCHES = ("bench_authorize", "bench_validate", "bench_intent", "bench_request", "bench_hostile",
           "bench_mission", "bench_memory", "bench_planner", "bench_busy", "bench_eval",
           "bench_eval_jobs", "bench_ros2", "bench_service", "bench_scale")


def run_one(name: str, quick: bool, out: Path) -> tuple[int, float, dict[str, Any] | None]:
    """Run one benchmark; its exit status, wall seconds and JSON report (None if missing)."""
    cmd = [sys.executable, str(HERE / f"{name}.py"), "--json", str(out)]
    if quick:
        cmd.append("--quick")
    print(f"\n>>> {' '.join(Path(c).name if i < 2 else c for i, c in enumerate(cmd))}",
          flush=True)
    t0 = time.perf_counter()
    rc = subprocess.run(cmd, cwd=HERE.parent, check=False).returncode
    wall = time.perf_counter() - t0
    data: dict[str, Any] | None = None
    if out.exists():
        data = json.loads(out.read_text(encoding="utf-8"))
    return rc, wall, data


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(widths[i]) if i in (0, 1) else c.rjust(widths[i])
                         for i, c in enumerate(cells)).rstrip()

    return "\n".join([line(headers), "  ".join("-" * w for w in widths),
                      *(line(r) for r in rows)])


def num(value: float) -> str:
    if abs(value) < 10:
        return f"{value:,.3f}"
    return f"{value:,.2f}" if abs(value) < 1000 else f"{value:,.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions in every bench")
    args = parser.parse_args()

    target_rows: list[list[str]] = []
    figure_rows: list[list[str]] = []
    failed: list[str] = []
    skipped: list[str] = []
    missed = 0
    with tempfile.TemporaryDirectory(prefix="crewgate-bench-") as tmp:
        for name in BENCHES:
            rc, wall, data = run_one(name, args.quick, Path(tmp) / f"{name}.json")
            if rc == EXIT_SKIPPED:  # cannot run here (an extra not installed): said, not failed
                skipped.append(name)
                continue
            if data is None or rc not in (0, 1):
                failed.append(f"{name} (exit {rc}, no figures)" if data is None
                              else f"{name} (exit {rc})")
                continue
            for t in data["targets"]:
                missed += not t["ok"]
                target_rows.append([name, t["label"], num(t["value"]), t["unit"],
                                    f"{t['op']} {num(t['target'])}",
                                    "OK" if t["ok"] else "MISSED"])
            targeted = {t["label"] for t in data["targets"]}
            for f in data["figures"]:
                if f["name"] not in targeted:
                    figure_rows.append([name, f["name"], num(f["value"]), f["unit"]])
            figure_rows.append([name, "(benchmark wall time)", num(wall), "s"])

    print("\n== Summary: targets ==")
    if target_rows:
        print(table(["bench", "figure", "value", "unit", "target", "status"], target_rows))
    print("\n== Summary: other figures (reference, no target) ==")
    if figure_rows:
        print(table(["bench", "figure", "value", "unit"], figure_rows))
    print()
    for name in skipped:
        print(f"SKIPPED: {name} (it printed why)")
    for name in failed:
        print(f"FAILED: {name}")
    total = len(target_rows)
    print(f"{total - missed}/{total} targets met" + (f", {missed} MISSED" if missed else "")
          + (f"; {len(skipped)} skipped" if skipped else "")
          + (f"; {len(failed)} benchmark(s) failed" if failed else ""))
    if failed:
        return 2
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
