"""Benchmark: the operator service under load, on loopback only.

What is measured: ``crewgate serve sar`` runs as its own process (the simulator paced at 20x).
With asyncio and httpx, 50 concurrent clients hit it for a fixed time:

* 40 readers poll the robots' live state (``GET /api/robots``) 4 times a second, as consoles do;
* 10 readers hold the event stream (``GET /api/events``), each from the first event;
* missions are submitted one after another (a drone search, then a rover drive, ...).

Those 50 clients run in a process of their own. This process is the prober: it posts the
README's search-and-dispatch plan to ``POST /api/check`` every 20 ms and times each answer
(``time.perf_counter`` around the request, on a kept-alive connection).

Afterwards every stream reader must hold exactly the journal's events (ids 1..N, none lost, none
twice: compared with a fresh read of the stream from 0), and no answer may be a 5xx.

Targets (issue 13): plan-check p95 <= 20 ms under that load; events lost 0; 5xx answers 0.
The clients run on the same 2 cores as the server, so the latency includes the machine being
shared: a figure for this machine, not for the service alone.

Run: ``.venv/bin/python benchmarks/bench_service.py [--quick] [--json PATH]``.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import (
    EXIT_SKIPPED,
    REPO,
    SAR_PLAN_FILE,
    SAR_REQUEST,
    Report,
    parse_args,
    print_header,
    table,
)

READERS, STREAMS = 40, 10
SEARCH = ("Fly the drone over x from -3 to 3, y from -3 to 3 and check for people, then come "
          "back down. Keep the rover parked.")
SEARCH_PLAN = {"workflow": "search_only", "steps": [
    {"robot": "iris", "skill": "takeoff", "args": {}},
    {"robot": "iris", "skill": "search_target",
     "args": {"x_min": -3, "x_max": 3, "y_min": -3, "y_max": 3}},
    {"robot": "iris", "skill": "land", "args": {}}]}
DRIVE = "Move the ground robot to x 2.5, y -4."
DRIVE_PLAN = {"workflow": "dispatch_only", "steps": [
    {"robot": "tb3", "skill": "navigate_to", "args": {"x": 2.5, "y": -4}}]}


def start_server(journal: Path) -> tuple[subprocess.Popen[str], str, str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "crewgate", "serve", "sar", "--port", "0", "--speed", "20",
         "--journal", str(journal), "--planner", "scripted", "-o", f"plan={SAR_PLAN_FILE}"],
        cwd=REPO, stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    for _ in range(5):
        line = server.stderr.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+/)#token=(\S+)", line)
        if found:
            return server, found.group(1), found.group(2)
    server.kill()
    raise SystemExit(f"crewgate serve did not print its URL: {line!r}")


async def load(base: str, token: str, seconds: float) -> dict[str, Any]:
    import httpx

    headers = {"Authorization": f"Bearer {token}"}
    statuses: list[int] = []
    streams: list[list[int]] = [[] for _ in range(STREAMS)]
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=READERS + STREAMS + 8)
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30,
                                 limits=limits) as client:

        async def reader() -> None:
            while not stop.is_set():
                answer = await client.get("api/robots")
                statuses.append(answer.status_code)
                await asyncio.sleep(0.25)

        async def stream(into: list[int]) -> None:
            async with client.stream("GET", "api/events?after=0") as answer:
                statuses.append(answer.status_code)
                async for line in answer.aiter_lines():
                    if line.startswith("id: "):
                        into.append(int(line[4:]))
                    if stop.is_set():
                        break

        async def missions() -> int:
            count = 0
            while not stop.is_set():
                request, plan = (SEARCH, SEARCH_PLAN) if count % 2 == 0 else (DRIVE, DRIVE_PLAN)
                answer = await client.post("api/missions", json={"request": request,
                                                                 "plan": plan})
                statuses.append(answer.status_code)
                mission = answer.json()["mission"]
                while not stop.is_set():
                    state = (await client.get(f"api/missions/{mission}")).json()["status"]
                    if state in ("completed", "halted", "refused", "crashed", "cancelled"):
                        count += 1
                        break
                    await asyncio.sleep(0.2)
            return count

        tasks = [asyncio.create_task(reader()) for _ in range(READERS)]
        tasks += [asyncio.create_task(stream(s)) for s in streams]
        runner = asyncio.create_task(missions())
        await asyncio.sleep(seconds)
        stop.set()
        done = await runner
        await asyncio.sleep(1.0)  # the streams catch up with the last events
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # the journal's events, read afresh from the stream once the load is over (until it
        # has been quiet for 2 s: the stream's keep-alives come only every 15 s)
        everything: list[int] = []
        async with client.stream("GET", "api/events?after=0") as answer:
            lines = answer.aiter_lines()
            while True:
                try:
                    line = await asyncio.wait_for(anext(lines), 2.0)
                except (TimeoutError, StopAsyncIteration):
                    break
                if line.startswith("id: "):
                    everything.append(int(line[4:]))
    return {"statuses": statuses, "streams": streams, "everything": everything,
            "missions": done}


def clients(base: str, token: str, seconds: float, out: Any) -> None:
    """The 50 clients, in a process of their own (their event loop is busy: a latency timed
    there would be the client's)."""
    out.put(asyncio.run(load(base, token, seconds)))


def probe(base: str, token: str, seconds: float) -> tuple[list[float], list[int]]:
    """Plan checks back to back on one kept-alive connection: latency (ms) and statuses."""
    import httpx

    body = {"request": SAR_REQUEST, "plan": json.loads(SAR_PLAN_FILE.read_text())}
    latencies: list[float] = []
    statuses: list[int] = []
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"},
                      timeout=30) as client:
        client.post("api/check", json=body)  # the connection, opened before timing
        while time.monotonic() < deadline:
            t0 = time.perf_counter()
            answer = client.post("api/check", json=body)
            latencies.append((time.perf_counter() - t0) * 1000)
            statuses.append(answer.status_code)
            time.sleep(0.02)  # a person's or an agent's pace, not a flood
    return latencies, statuses


def main() -> int:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "", profile=False)
    try:
        import httpx  # noqa: F401
        import uvicorn  # noqa: F401
    except ModuleNotFoundError as exc:
        print(f"skipped: {exc.name} is not installed (pip install 'crewgate[serve]')")
        return EXIT_SKIPPED
    seconds = 10.0 if args.quick else 30.0
    print_header("bench_service: crewgate serve sar under 50 concurrent clients (loopback)",
                 f"{READERS} state readers at 4 Hz, {STREAMS} event streams, one plan-check "
                 f"prober, missions back to back; {seconds:g} s.")
    with tempfile.TemporaryDirectory() as tmp:
        server, base, token = start_server(Path(tmp) / "journal.sqlite3")
        try:
            results: Any = multiprocessing.get_context("spawn").Queue()
            load_process = multiprocessing.get_context("spawn").Process(
                target=clients, args=(base, token, seconds, results))
            load_process.start()
            time.sleep(1.0)  # the clients connect first
            latencies, probed = probe(base, token, seconds - 1.0)
            got = results.get(timeout=seconds + 120)
            load_process.join(30)
        finally:
            server.terminate()
            server.wait(60)
    lat = sorted(latencies)
    p50 = statistics.median(lat)
    p95 = lat[max(0, round(0.95 * len(lat)) - 1)]
    everything = got["everything"]
    complete = list(range(1, len(everything) + 1)) == everything
    lost = sum(len(set(everything[: len(s)]) - set(s)) for s in got["streams"])
    twice = sum(len(s) - len(set(s)) for s in got["streams"])
    prefix_ok = all(s == everything[: len(s)] for s in got["streams"])
    errors = sum(1 for s in [*got["statuses"], *probed] if s >= 500)
    print(table(["figure", "value"], [
        ["plan checks", str(len(lat))], ["check p50 (ms)", f"{p50:.1f}"],
        ["check p95 (ms)", f"{p95:.1f}"], ["check max (ms)", f"{lat[-1]:.1f}"],
        ["state reads + other calls", str(len(got["statuses"]))],
        ["missions completed", str(got["missions"])],
        ["journal events", str(len(everything))],
        ["events per stream (min..max)", f"{min(map(len, got['streams']))}.."
                                         f"{max(map(len, got['streams']))}"],
        ["streams in journal order", str(prefix_ok and complete)],
        ["events lost / twice", f"{lost} / {twice}"], ["5xx answers", str(errors)]]))
    report = Report("service")
    report.figure("service plan checks", float(len(lat)), "checks")
    report.figure("service missions", float(got["missions"]), "missions")
    report.target("service check p95", p95, "ms", "<=", 20.0)
    report.target("service events lost or twice", float(lost + twice + (0 if prefix_ok and
                                                                         complete else 1)),
                  "events", "<=", 0.0)
    report.target("service 5xx answers", float(errors), "answers", "<=", 0.0)
    return report.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
