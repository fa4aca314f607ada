"""``crewgate mcp`` with the official SDK's own client over stdio, against the server process:
the tools and their schemas, a plan that runs, plans refused with feedback while nothing moves,
a second attempt that succeeds, the attempt budget, approval that the agent cannot give, the
e-stop, resources and the prompt. The exchange of docs/mcp.md is the one recorded here."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

mcp = pytest.importorskip("mcp", reason="the mcp SDK is not installed: pip install "
                          '"crewgate[mcp]"')

from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from crewgate.journal import Journal  # noqa: E402
from crewgate.render import plan_json_schema  # noqa: E402
from crewgate.spec import load_crew  # noqa: E402
from tests.cli.support import ROOT, crewgate  # noqa: E402
from tests.conftest import SAD, SAD_PLAN, SAD_ZONE  # noqa: E402

DOC = ROOT / "docs" / "mcp.md"
TOOLS = ["describe_crew", "check_plan", "submit_mission", "mission_status", "cancel_mission",
         "robot_state", "estop"]
ZONE = SAD_ZONE
WALK = "Have the humanoid walk over to the charging dock."


def walk(robot: str, place: str) -> dict[str, Any]:
    return {"workflow": "navigation_only", "steps": [
        {"robot": robot, "skill": "navigate_to_location", "args": {"location": place}}]}


def carry(place: str, thing: str = "bottle") -> dict[str, Any]:
    return {"workflow": "carry", "steps": [
        {"robot": "g1", "skill": "grab_from_table", "args": {"object": thing}},
        {"robot": "g1", "skill": "place_on_table", "args": {}},
        {"robot": "go2", "skill": "navigate_to_location", "args": {"location": place}}]}


class Agent:
    """The SDK's client session, with every call and answer kept (the transcript)."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session
        self.transcript: list[dict[str, Any]] = []

    async def call(self, tool: str, **args: Any) -> dict[str, Any]:
        result = await self.session.call_tool(tool, args)
        text = result.content[0].text  # type: ignore[union-attr]
        answer: dict[str, Any] = (result.structured_content if result.structured_content
                                  is not None else {"text": text})
        if result.is_error:
            answer = {"error": text}
        self.transcript.append({"call": tool, "arguments": args, "answer": answer})
        return answer


@asynccontextmanager
async def served(crew: str | Path, journal: Path) -> AsyncIterator[Agent]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "crewgate", "mcp", str(crew), "--journal",
                                      str(journal)], cwd=str(ROOT))
    with (journal.parent / "server.stderr").open("w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            yield Agent(session)


def run(crew: str | Path, journal: Path, scenario: Callable[[Agent], Awaitable[None]]) -> None:
    async def main() -> None:
        async with served(crew, journal) as agent:
            await scenario(agent)

    anyio.run(main)


# -- the surface ----------------------------------------------------------------------------------


def test_the_tools_and_their_schemas_come_from_the_crew(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def scenario(agent: Agent) -> None:
        tools = (await agent.session.list_tools()).tools
        seen["tools"] = {t.name: t for t in tools}
        seen["resources"] = [str(r.uri) for r in (await agent.session.list_resources()).resources]
        prompt = await agent.session.get_prompt("plan_mission", {"request": "bring the bottle"})
        seen["prompt"] = prompt.messages[0].content.text  # type: ignore[union-attr]
        seen["context"] = (await agent.call("describe_crew"))["text"]

    run("g1_go2", tmp_path / "j.sqlite3", scenario)
    tools = seen["tools"]
    assert list(tools) == TOOLS
    plan = dict(tools["check_plan"].input_schema["properties"]["plan"])
    plan.pop("description")
    assert plan == json.loads(json.dumps(plan_json_schema(load_crew("g1_go2"))))
    assert tools["check_plan"].input_schema["required"] == ["request", "plan"]
    assert sorted(tools["submit_mission"].input_schema["properties"]) == [
        "mission", "plan", "request", "wait_s"]
    assert tools["estop"].annotations.destructive_hint is True
    assert tools["check_plan"].annotations.read_only_hint is True
    assert seen["resources"] == ["crewgate://crews/g1_go2", "crewgate://missions"]
    assert "## The request is the brief" in seen["context"]
    assert seen["prompt"].startswith(seen["context"])
    assert "## The request\nbring the bottle" in seen["prompt"]


# -- missions -------------------------------------------------------------------------------------


def test_a_valid_plan_runs_to_completion_on_the_simulator(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def scenario(agent: Agent) -> None:
        seen["check"] = await agent.call("check_plan", request=SAD, plan=SAD_PLAN)
        seen["run"] = await agent.call("submit_mission", request=SAD, plan=SAD_PLAN)
        seen["state"] = await agent.call("robot_state")
        seen["missions"] = json.loads((await agent.session.read_resource(
            "crewgate://missions")).contents[0].text)  # type: ignore[union-attr]

    run("sar", tmp_path / "j.sqlite3", scenario)
    assert seen["check"] == {"accepted": True, "codes": [], "feedback": []}
    done = seen["run"]
    assert (done["status"], done["attempts"], done["codes"]) == ("completed", 1, [])
    assert [(d["step"], d["succeeded"]) for d in done["dispatched"]] == [
        ("iris.takeoff", True), ("iris.search_target", True), ("tb3.navigate_to", True)]
    victim = seen["state"]["bindings"]["victim"]["value"]
    assert abs(seen["state"]["robots"]["tb3"]["pose"][0] - victim[0]) < 1.0
    assert [(m["mission_id"], m["status"]) for m in seen["missions"]] == [
        (done["mission"], "completed")]


def test_refused_plans_come_back_with_feedback_and_nothing_moves(tmp_path: Path) -> None:
    """A swapped robot, then a substituted place (and the same swap): refused with the gate's
    facts; the budget (a plan and one replan) spent, a third attempt is not taken; the refusal
    is journaled."""
    seen: dict[str, Any] = {}

    async def scenario(agent: Agent) -> None:
        seen["swap"] = await agent.call("submit_mission", request=WALK,
                                        plan=walk("go2", "charging"))
        mission = seen["swap"]["mission"]
        seen["subst"] = await agent.call("submit_mission", mission=mission,
                                         plan=walk("go2", "room_a"))
        seen["third"] = await agent.call("submit_mission", mission=mission,
                                         plan=walk("go2", "charging"))
        seen["state"] = await agent.call("robot_state")

    journal = tmp_path / "j.sqlite3"
    run("g1_go2", journal, scenario)
    swap = seen["swap"]
    assert (swap["status"], swap["attempts"], swap["attempts_left"]) == ("refused", 1, 1)
    assert swap["feedback"] == [{"index": 0, "code": "substituted_robot", "detail": (
        "the request gives 'charging dock' to g1; g1 has no skill that moves it to a place, "
        "and go2 may not take its place")}]
    subst = seen["subst"]
    assert (subst["status"], subst["attempts"], subst["attempts_left"]) == ("refused", 2, 0)
    assert subst["feedback"] == [
        {"index": 0, "code": "substituted_value", "detail": "go2.navigate_to_location: location "
         "'room_a' is not what the request states"},
        {"index": 0, "code": "substituted_robot", "detail": "the request asks g1 to 'walk'; g1 "
         "has no such skill, and go2 may not take its place"}]
    assert subst["dispatched"] == []
    assert seen["third"] == {"error": f"mission {swap['mission']} has used its 2 attempts; "
                             "nothing moved. Start a new mission if the request still stands"}
    assert seen["state"]["robots"]["go2"]["location"] == "start"
    record = Journal(journal).mission(swap["mission"])
    assert (record.status, list(record.codes)) == ("refused", ["substituted_value",
                                                               "substituted_robot"])


def test_a_second_attempt_after_the_feedback_succeeds(tmp_path: Path) -> None:
    """The exchange docs/mcp.md shows, recorded."""
    agents: list[Agent] = []

    async def scenario(agent: Agent) -> None:
        agents.append(agent)
        first = await agent.call("submit_mission", request="Send the dog to room_b.",
                                 plan=walk("go2", "room_a"))
        await agent.call("submit_mission", mission=first["mission"],
                         plan=walk("go2", "room_b"))
        await agent.call("robot_state")

    run("g1_go2", tmp_path / "j.sqlite3", scenario)
    transcript = agents[0].transcript
    assert [t["answer"].get("status") for t in transcript[:2]] == ["refused", "completed"]
    assert transcript[2]["answer"]["robots"]["go2"]["location"] == "room_b"
    recorded = _normal(json.dumps(transcript[:2], indent=1))
    assert recorded in _normal(DOC.read_text(encoding="utf-8")), recorded


def test_the_agent_cannot_approve_what_needs_an_operator(tmp_path: Path) -> None:
    crew = tmp_path / "g1_go2_approval.yaml"
    text = (ROOT / "src" / "crewgate" / "crews" / "g1_go2.yaml").read_text(encoding="utf-8")
    anchor = "  carry:\n"
    crew.write_text(text.replace(anchor, anchor + "    approval: true\n", 1), encoding="utf-8")
    journal = tmp_path / "j.sqlite3"
    seen: dict[str, Any] = {}

    async def scenario(agent: Agent) -> None:
        asked = seen["asked"] = await agent.call("submit_mission", wait_s=0,
                                                 request="Carry the bottle to table_b.",
                                                 plan=carry("table_b"))
        denied = await agent.call("submit_mission", wait_s=0, request="Carry the block to "
                                  "room_a.", plan=carry("room_a", "block"))
        seen["no_tool"] = await agent.call("approve_mission", mission=asked["mission"])
        seen["still"] = await agent.call("mission_status", mission=asked["mission"], wait_s=0.5)
        seen["state_before"] = await agent.call("robot_state")
        await anyio.to_thread.run_sync(
            lambda: crewgate("approve", denied["mission"], "--deny", journal=journal))
        seen["denied"] = await agent.call("mission_status", mission=denied["mission"], wait_s=5)
        approved = await anyio.to_thread.run_sync(
            lambda: crewgate("approve", asked["mission"], journal=journal))
        seen["approve_rc"] = approved.rc
        seen["done"] = await agent.call("mission_status", mission=asked["mission"], wait_s=30)

    run(crew, journal, scenario)
    asked = seen["asked"]
    assert asked["status"] == "awaiting_approval"
    assert asked["reason"].startswith("workflow 'carry' needs an operator's approval")
    assert seen["no_tool"]["error"].startswith("no tool 'approve_mission'")
    assert seen["still"]["status"] == "awaiting_approval"
    assert seen["state_before"]["robots"]["go2"]["location"] == "start"
    assert seen["approve_rc"] == 0
    assert seen["done"]["status"] == "completed"
    assert [d["step"] for d in seen["done"]["dispatched"]] == [
        "g1.grab_from_table", "g1.place_on_table", "go2.navigate_to_location"]
    assert seen["denied"]["status"] == "denied"
    assert seen["denied"]["reason"].endswith(": nothing moved")
    approvals = Journal(journal).approvals()
    assert [(a.mission_id, a.decision) for a in approvals] == [
        (seen["denied"]["mission"], "denied"), (asked["mission"], "approved")]
    assert all((a.decided_by or "").startswith("operator") for a in approvals)


def test_the_estop_lands_the_drone_and_holds_every_later_mission(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def scenario(agent: Agent) -> None:
        await agent.call("submit_mission", request=SAD, plan=SAD_PLAN)  # leaves iris airborne
        seen["airborne"] = (await agent.call("robot_state"))["robots"]["iris"]["airborne"]
        seen["estop"] = await agent.call("estop")
        seen["after"] = await agent.call("robot_state")
        seen["held"] = await agent.call("submit_mission", request="Drive the rover to x 1, "
                                        "y 1.", plan={"workflow": "dispatch_only", "steps": [
                                            {"robot": "tb3", "skill": "navigate_to",
                                             "args": {"x": 1, "y": 1}}]})
        seen["release"] = await agent.call("estop", release=True)

    run("sar", tmp_path / "j.sqlite3", scenario)
    assert seen["airborne"] is True
    assert seen["estop"] == {"estop": "e-stop engaged by the MCP agent",
                             "safe_stop": ["iris.land", "tb3.stop"]}
    assert seen["after"]["robots"]["iris"]["airborne"] is False
    held = seen["held"]
    assert (held["status"], held["dispatched"]) == ("halted", [])
    assert held["reason"] == ("stopped before planning: e-stop engaged by the MCP agent; "
                              "nothing was planned or sent")
    assert seen["release"] == {"estop": None}


def _normal(text: str) -> str:
    """Mission ids vary from run to run."""
    return re.sub(r"m[0-9a-f]{12}", "MISSION", text)


def test_a_request_alone_is_planned_by_the_servers_planner(tmp_path: Path) -> None:
    """No plan: the server's planner (exemplar) writes it, the gate checks it, it runs; the
    mission's trace is a resource."""
    seen: dict[str, Any] = {}

    async def scenario(agent: Agent) -> None:
        done = seen["done"] = await agent.call("submit_mission",
                                               request="Have the dog take the red cube to "
                                               "room_b.")
        trace = await agent.session.read_resource(f"crewgate://missions/{done['mission']}")
        seen["trace"] = json.loads(trace.contents[0].text)  # type: ignore[union-attr]

    run("g1_go2", tmp_path / "j.sqlite3", scenario)
    done = seen["done"]
    assert (done["status"], done["attempts"]) == ("completed", 1)
    assert [d["step"] for d in done["dispatched"]] == [
        "g1.grab_from_table", "g1.place_on_table", "go2.navigate_to_location"]
    assert seen["trace"]["mission"]["status"] == "completed"
    kinds = [e["kind"] for e in seen["trace"]["events"]]
    assert kinds[:3] == ["mission_started", "plan_proposed", "verdict"]
    assert kinds[-1] == "mission_ended"


def test_a_mission_waiting_for_approval_can_be_withdrawn(tmp_path: Path) -> None:
    crew = tmp_path / "g1_go2_approval.yaml"
    text = (ROOT / "src" / "crewgate" / "crews" / "g1_go2.yaml").read_text(encoding="utf-8")
    crew.write_text(text.replace("  carry:\n", "  carry:\n    approval: true\n", 1),
                    encoding="utf-8")
    seen: dict[str, Any] = {}

    async def scenario(agent: Agent) -> None:
        asked = await agent.call("submit_mission", wait_s=0, request="Carry the bottle to "
                                 "table_b.", plan=carry("table_b"))
        seen["cancel"] = await agent.call("cancel_mission", mission=asked["mission"])
        seen["again"] = await agent.call("cancel_mission", mission=asked["mission"])

    journal = tmp_path / "j.sqlite3"
    run(crew, journal, scenario)
    assert (seen["cancel"]["status"], seen["cancel"]["reason"]) == (
        "cancelled", "withdrawn by the MCP agent before approval")
    assert Journal(journal).approvals(waiting=True) == []  # the operator is not asked any more
    assert seen["again"]["error"].endswith("has already ended (cancelled)")


def test_streamable_http_on_loopback(tmp_path: Path) -> None:
    """``--http 0``: the same tools over streamable HTTP at 127.0.0.1, with the SDK's HTTP
    client; a refused plan comes back with the gate's feedback."""
    import subprocess

    from mcp.client.streamable_http import streamable_http_client

    stderr = tmp_path / "server.stderr"
    proc = subprocess.Popen(
        [sys.executable, "-m", "crewgate", "mcp", "g1_go2", "--http", "0", "--journal",
         str(tmp_path / "j.sqlite3")], cwd=ROOT, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=stderr.open("w"))
    try:
        url = _announced(proc, stderr)
        seen: dict[str, Any] = {}

        async def main() -> None:
            async with streamable_http_client(url) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                seen["tools"] = [t.name for t in (await session.list_tools()).tools]
                agent = Agent(session)
                seen["swap"] = await agent.call("check_plan", request=WALK,
                                                plan=walk("go2", "charging"))

        anyio.run(main)
    finally:
        proc.terminate()
        proc.wait(10)
    assert url.startswith("http://127.0.0.1:")
    assert url.endswith("/mcp")
    assert seen["tools"] == TOOLS
    assert (seen["swap"]["accepted"], seen["swap"]["codes"]) == (False, ["substituted_robot"])


def _announced(proc: Any, stderr: Path) -> str:
    """The URL the server prints on stderr once it listens."""
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(r"http://127\.0\.0\.1:\d+/mcp", stderr.read_text(encoding="utf-8"))
        if found:
            return found.group(0)
        if proc.poll() is not None:
            raise AssertionError(stderr.read_text(encoding="utf-8"))
        time.sleep(0.1)
    raise AssertionError("the server never said where it listens")


def test_hostile_arguments_get_a_verdict_or_a_clear_error(tmp_path: Path) -> None:
    """A request past the bound every reader keeps, an empty one, a plan nested 100 deep (the
    gate reads 16; past ~200 the SDK itself never answers), a NaN, markup: each answered, nothing
    moved."""
    seen: dict[str, Any] = {}
    deep: dict[str, Any] = {}
    inner = deep
    for _ in range(100):
        inner["a"] = {}
        inner = inner["a"]

    async def scenario(agent: Agent) -> None:
        seen["long"] = await agent.call("submit_mission", request="x" * 5000,
                                        plan=walk("go2", "room_b"))
        seen["empty"] = await agent.call("check_plan", request=" ", plan=walk("go2", "room_b"))
        seen["deep"] = await agent.call("submit_mission", request="Send the dog to room_b.",
                                        plan={"workflow": "navigation_only", "steps": [deep]})
        seen["nan"] = await agent.call("check_plan", request="Send the dog to room_b.",
                                       plan='{"workflow": "navigation_only", "steps": [{"robot": '
                                       '"go2", "skill": "navigate_to_location", "args": '
                                       '{"location": NaN}}]}')
        seen["markup"] = await agent.call("check_plan", request="Send the dog to [red]room_b[/]",
                                          plan=walk("go2", "[bold]room_b[/]"))
        seen["state"] = await agent.call("robot_state")

    run("g1_go2", tmp_path / "j.sqlite3", scenario)
    assert seen["long"] == {"error": "the request is 5,000 characters long; crewgate reads "
                            "requests of at most 4,000 (say it in fewer words)"}
    assert seen["empty"] == {"error": "the request is empty; say what the crew should do"}
    assert (seen["deep"]["status"], [f["code"] for f in seen["deep"]["feedback"]]) == (
        "refused", ["malformed_plan"])
    assert seen["nan"]["codes"] == ["unknown_location"]
    assert seen["markup"]["accepted"] is False
    assert "unknown_location" in seen["markup"]["codes"]
    assert seen["state"]["robots"]["go2"]["location"] == "start"
