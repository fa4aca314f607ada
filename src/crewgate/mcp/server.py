"""``crewgate mcp``: an MCP server that makes any MCP client (Claude Desktop, an IDE agent, a
script on the official SDK) the Mission Planner of one crew, while crewgate keeps sole
actuation authority.

Every tool goes through the :class:`~crewgate.service.MissionDesk`: the agent can read the crew
(the context a planner gets under ``ro``), check a plan (nothing moves), submit a mission (the
gate's feedback comes back on a refusal; attempts are counted; a workflow that needs approval
waits for an operator, whom the agent cannot replace), follow, cancel, read robot state, and
engage the e-stop. No tool sends a command to a robot: only the desk's missions do, through the
gate, per-dispatch authorization and the journal.

The tools' input schemas come from the crew spec: a plan argument is the plan JSON Schema the
planner's prompt is rendered with (:func:`crewgate.render.plan_json_schema`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

from crewgate.errors import CrewgateError
from crewgate.journal import Journal
from crewgate.jsonsafe import encode_nonfinite
from crewgate.service import MissionDesk

LOOPBACK = "127.0.0.1"
MISSION = {"type": "string", "description": "The mission id submit_mission returned."}
WAIT = {"type": "number", "minimum": 0, "maximum": 600,
        "description": "Seconds to wait for the mission to end before answering (default 30)."}
REQUEST = {"type": "string", "minLength": 1, "maxLength": 4000,
           "description": "What the person asked, in their words: the gate holds the plan to it."}

Handler = Callable[[dict[str, Any]], dict[str, Any] | str]


class CrewServer:
    """The MCP surface of one desk: tools, resources and a prompt."""

    def __init__(self, desk: MissionDesk) -> None:
        self.desk = desk
        crew = desk.crew
        plan = dict(desk.plan_schema)
        plan["description"] = (f"A plan for crew {crew.name}: one workflow and its steps, as "
                               "describe_crew lays out.")
        self.tools: dict[str, tuple[types.Tool, Handler]] = {}
        self._tool("describe_crew", "What the crew's robots can do and the workflow contracts "
                   "every plan must follow: the context a Mission Planner gets (condition ro). "
                   "Read it before writing a plan.", {}, lambda _: desk.context)
        self._tool("check_plan", "Check a plan against the request and the world as it is now. "
                   "Nothing moves. Returns accepted, the codes, and each problem's step, code "
                   "and detail.", {"request": REQUEST, "plan": plan}, self._check,
                   required=["request", "plan"], read_only=True)
        self._tool("submit_mission", "Submit a mission: your plan for the request (or leave out "
                   "plan to have the server's planner write one). The gate checks it; a refused "
                   "plan comes back with feedback and nothing moves: fix it and submit again "
                   "with the mission id (the attempts are counted: a plan and one replan). An "
                   "accepted plan runs through per-step authorization, or waits as "
                   "awaiting_approval where its workflow needs an operator's approval (you "
                   "cannot give it).", {"request": REQUEST, "plan": plan, "mission": MISSION,
                                         "wait_s": WAIT}, self._submit, destructive=True)
        self._tool("mission_status", "Where a mission stands: its status, attempts, the gate's "
                   "feedback, what was dispatched, what was refused and why.",
                   {"mission": MISSION, "wait_s": WAIT}, self._status, required=["mission"],
                   read_only=True)
        self._tool("cancel_mission", "Withdraw a mission that waits for approval, or stop a "
                   "running one before its next step (the running step ends, the safe fallback "
                   "runs).", {"mission": MISSION}, lambda a: desk.cancel(str(a["mission"])),
                   required=["mission"])
        self._tool("robot_state", "Each robot's live state, the runtime bindings (e.g. a "
                   "victim fix) and whether the e-stop is engaged.", {},
                   lambda _: desk.robot_state(), read_only=True)
        self._tool("estop", "Engage the emergency stop: the running mission sends nothing more "
                   "and every robot runs its own safe stop; no mission moves until it is "
                   "released (release: true).",
                   {"release": {"type": "boolean", "description": "Release it instead."}},
                   lambda a: desk.estop(release=bool(a.get("release", False))),
                   destructive=True)

    def _tool(self, name: str, description: str, properties: dict[str, Any], handler: Handler,
              *, required: list[str] | None = None, read_only: bool = False,
              destructive: bool = False) -> None:
        schema = {"type": "object", "properties": properties, "additionalProperties": False,
                  "required": required or []}
        hints = types.ToolAnnotations(readOnlyHint=read_only, destructiveHint=destructive,
                                      openWorldHint=False)
        self.tools[name] = (types.Tool(name=name, description=description, inputSchema=schema,
                                       annotations=hints), handler)

    # -- tools ------------------------------------------------------------------------------------

    def _check(self, args: dict[str, Any]) -> dict[str, Any]:
        return self.desk.check(args["plan"], str(args["request"]))

    def _submit(self, args: dict[str, Any]) -> dict[str, Any]:
        request = args.get("request")
        return self.desk.submit(None if request is None else str(request), args.get("plan"),
                                args.get("mission"), float(args.get("wait_s", 30.0)))

    def _status(self, args: dict[str, Any]) -> dict[str, Any]:
        return self.desk.wait(str(args["mission"]), float(args.get("wait_s", 0.0)))

    async def list_tools(self, ctx: ServerRequestContext[Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool for tool, _ in self.tools.values()])

    async def call_tool(self, ctx: ServerRequestContext[Any],
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        found = self.tools.get(params.name)
        if found is None:
            return _error(f"no tool {params.name!r}; the tools are {', '.join(self.tools)}")
        args = dict(params.arguments or {})
        schema = found[0].input_schema
        unknown = sorted(set(args) - set(schema.get("properties", {})))
        if unknown:
            return _error(f"{params.name} takes no argument {', '.join(unknown)}")
        missing = [a for a in schema.get("required", []) if a not in args]
        if missing:
            return _error(f"{params.name} needs {', '.join(missing)}")
        try:  # the desk blocks (a mission runs): off the event loop
            out = await anyio.to_thread.run_sync(found[1], args)
        except CrewgateError as exc:
            return _error(str(exc))
        except (TypeError, ValueError) as exc:
            return _error(f"{params.name}: bad arguments ({exc})")
        if isinstance(out, str):
            return types.CallToolResult(content=[types.TextContent(type="text", text=out)])
        data = encode_nonfinite(out)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(data, indent=1))],
            structuredContent=data)

    # -- resources and the prompt -----------------------------------------------------------------

    async def list_resources(self, ctx: ServerRequestContext[Any],
                             params: types.PaginatedRequestParams | None
                             ) -> types.ListResourcesResult:
        name = self.desk.crew.name
        return types.ListResourcesResult(resources=[
            types.Resource(uri=f"crewgate://crews/{name}", name=f"crew {name}",
                           description="The crew spec (robots, skills, workflows), as JSON.",
                           mimeType="application/json"),
            types.Resource(uri="crewgate://missions", name="recent missions",
                           description="The journal's latest missions and their status.",
                           mimeType="application/json")])

    async def list_templates(self, ctx: ServerRequestContext[Any],
                             params: types.PaginatedRequestParams | None
                             ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resourceTemplates=[types.ResourceTemplate(
            uriTemplate="crewgate://missions/{mission}", name="mission trace",
            description="Every journaled event of one mission.", mimeType="application/json")])

    async def read_resource(self, ctx: ServerRequestContext[Any],
                            params: types.ReadResourceRequestParams
                            ) -> types.ReadResourceResult:
        uri = str(params.uri)
        text = await anyio.to_thread.run_sync(self._resource, uri)
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mimeType="application/json", text=text)])

    def _resource(self, uri: str) -> str:
        journal: Journal = self.desk.journal
        crew = self.desk.crew
        if uri == f"crewgate://crews/{crew.name}":
            return json.dumps(crew.model_dump(mode="json", exclude_none=True), indent=1)
        if uri == "crewgate://missions":
            return json.dumps([m.to_json() for m in journal.missions(20)], indent=1)
        prefix = "crewgate://missions/"
        if uri.startswith(prefix):
            mission = journal.resolve(uri[len(prefix):])
            return json.dumps({"mission": journal.mission(mission).to_json(),
                               "events": [e.to_json() for e in journal.events(mission)]},
                              indent=1)
        raise CrewgateError(f"no resource {uri!r}")

    async def list_prompts(self, ctx: ServerRequestContext[Any],
                           params: types.PaginatedRequestParams | None
                           ) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[types.Prompt(
            name="plan_mission", description=f"Plan a mission for crew {self.desk.crew.name}: "
            "the crew's context and contracts, the request, and how to submit.",
            arguments=[types.PromptArgument(name="request", description="What the person "
                                            "asked.", required=True)])])

    async def get_prompt(self, ctx: ServerRequestContext[Any],
                         params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != "plan_mission":
            raise CrewgateError(f"no prompt {params.name!r}; the prompt is plan_mission")
        request = (params.arguments or {}).get("request", "")
        text = (f"{self.desk.context}\n\n## The request\n{request}\n\nWrite the plan, check it "
                "with check_plan, then submit it with submit_mission (request and plan). If it "
                "is refused, fix exactly what the feedback names and submit again with the "
                "mission id. Never add what the request does not ask for.")
        return types.GetPromptResult(description="Plan a mission", messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text",
                                                                       text=text))])

    # -- running ----------------------------------------------------------------------------------

    def server(self) -> Server[Any]:
        return Server(f"crewgate-{self.desk.crew.name}",
                      instructions="You are the Mission Planner of a robot crew. Read "
                      "describe_crew, check your plan, submit it; crewgate alone moves robots.",
                      on_list_tools=self.list_tools, on_call_tool=self.call_tool,
                      on_list_resources=self.list_resources,
                      on_list_resource_templates=self.list_templates,
                      on_read_resource=self.read_resource, on_list_prompts=self.list_prompts,
                      on_get_prompt=self.get_prompt)

    def run_stdio(self) -> None:
        server = self.server()

        async def main() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        anyio.run(main)


    def run_http(self, port: int, *, ready: Callable[[int], None] | None = None) -> None:
        """Serve over streamable HTTP at ``http://127.0.0.1:PORT/mcp`` (loopback only: the
        server has no authentication of its own; DNS-rebinding protection on). Port 0 picks a
        free one; ``ready`` is told the port once it listens."""
        import uvicorn

        from crewgate.service.server import listen

        app = self.server().streamable_http_app(host=LOOPBACK)
        sock = listen(LOOPBACK, port)
        if ready is not None:
            ready(sock.getsockname()[1])
        config = uvicorn.Config(app, log_level="warning", lifespan="on")
        uvicorn.Server(config).run(sockets=[sock])


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)],
                                isError=True)
