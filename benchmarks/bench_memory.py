"""Benchmark: peak memory (max RSS) of the real ``crewgate run`` console command.

What is measured: the maximum resident set size of a child process running

    crewgate run sar REQUEST --plan examples/sar_search_and_dispatch.json --json --journal FILE

(the installed console script ``Path(sys.executable).parent / "crewgate"``, the Makefile's demo
request, a fresh SQLite journal file in a temporary directory each run), and for reference:

* ``python -c pass``: a bare interpreter;
* ``python -c "import crewgate.cli.app"``: importing the CLI (typer, rich, crewgate);
* ``crewgate --version``: the console script with every command module imported, no mission.

How: ``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` is the largest max RSS among *all* the
children a process has waited for, so each command is run (with ``subprocess.run``) from its own
fresh probe interpreter, whose only child it is; the probe prints that child's ``ru_maxrss``
(kB on Linux) and wall time. Each command runs 5 times (2 with ``--quick``); the table gives
median and max. The mission's JSON output is parsed and must say ``completed``.
MB here is 10^6 bytes (ru_maxrss kB x 1024 / 10^6); MiB is also shown.

Target (issue): the ``crewgate run`` mission peaks at <= 150 MB (max over the runs).

Run: ``.venv/bin/python benchmarks/bench_memory.py [--quick] [--json PATH]``.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchlib import (
    REPO,
    SAR_PLAN_FILE,
    SAR_REQUEST,
    Report,
    console_script,
    fmt,
    parse_args,
    print_header,
    table,
)

TARGET_MB = 150.0

PROBE = """\
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - t0
print(json.dumps({"rc": proc.returncode, "wall_s": wall, "stdout": proc.stdout,
                  "stderr": proc.stderr[-2000:],
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


@dataclass(frozen=True, slots=True)
class Run:
    maxrss_kb: int
    wall_s: float
    rc: int
    stdout: str
    stderr: str


def probe(argv: list[str]) -> Run:
    """Run ``argv`` as the only child of a fresh interpreter; its max RSS and wall time."""
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                         check=True, cwd=REPO)
    data: dict[str, Any] = json.loads(out.stdout)
    return Run(int(data["maxrss_kb"]), float(data["wall_s"]), int(data["rc"]),
               str(data["stdout"]), str(data["stderr"]))


def mb(kb: float) -> float:
    return kb * 1024 / 1e6


def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "", profile=False)
    repeat = 2 if args.quick else 5
    script = console_script()
    print_header("bench_memory: max RSS of the crewgate console command",
                 f"{repeat} runs per command, each the only child of a fresh probe interpreter "
                 "(getrusage(RUSAGE_CHILDREN).ru_maxrss).")
    report = Report("memory")
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory(prefix="crewgate-bench-") as tmp:
        mission = [str(script), "run", "sar", SAR_REQUEST, "--json", "--journal"]
        commands: list[tuple[str, str, list[str] | None]] = [
            ("python -c pass", "bare_python", [sys.executable, "-c", "pass"]),
            ("python -c 'import crewgate.cli.app'", "import_cli",
             [sys.executable, "-c", "import crewgate.cli.app"]),
            ("crewgate --version", "cli_version", [str(script), "--version"]),
            ("crewgate run sar ... --plan FILE --json", "run_sar", None),
            ("crewgate run sar ... --json (exemplar planner)", "run_sar_exemplar", None),
        ]
        for label, slug, argv in commands:
            runs: list[Run] = []
            for i in range(repeat):
                journal = str(Path(tmp) / f"journal-{slug}-{i}.db")
                if slug == "run_sar":
                    cmd = [*mission[:4], "--plan", str(SAR_PLAN_FILE), *mission[4:], journal]
                else:
                    cmd = argv or [*mission, journal]
                run = probe(cmd)
                if run.rc != 0:
                    raise SystemExit(f"{label} exited {run.rc}:\n{run.stderr}")
                if argv is None:
                    status = json.loads(run.stdout).get("status")
                    if status != "completed":
                        raise SystemExit(f"{label}: mission ended {status!r}")
                runs.append(run)
            rss = [r.maxrss_kb for r in runs]
            med_kb, max_kb = statistics.median(rss), max(rss)
            wall_ms = statistics.median(r.wall_s for r in runs) * 1e3
            rows.append([label, str(len(runs)), f"{med_kb:,.0f}", f"{max_kb:,}",
                         fmt(mb(med_kb)), fmt(mb(max_kb)), fmt(max_kb / 1024),
                         fmt(wall_ms, 0)])
            report.figure(f"max RSS {slug}", mb(max_kb), "MB")
            report.figure(f"wall {slug} median", wall_ms, "ms")
            if argv is None:
                report.target(f"{label.split(' ...')[0]} {slug} max RSS", mb(max_kb), "MB", "<=",
                              TARGET_MB)
    print(table(["command", "runs", "median kB", "max kB", "median MB", "max MB", "max MiB",
                 "wall median ms"], rows))
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
