"""The operator service's HTTP API and web console: a thin ASGI layer (FastAPI) over one
:class:`~crewgate.service.desk.MissionDesk`.

Nothing a client sends moves a robot except through the desk, and so through the gate. Every
request body is bounded and parsed here (a hostile body is a 4xx naming what is wrong, never a
500); every answer is JSON with non-finite numbers written as strings. Every call needs a
bearer token (:mod:`crewgate.service.auth`); a missing token is 401, a role without the right
403, both journaled in the access log with every call that changes something.

The event stream (``GET /api/events``, server-sent events) reads the journal: each event's id is
its place in the journal, so a client that reconnects with ``Last-Event-ID`` (or ``?after=``)
resumes exactly after the last event it saw.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from crewgate.errors import CrewgateError, NotFoundError, UserError
from crewgate.journal import Event, Journal
from crewgate.jsonsafe import encode_nonfinite, loads
from crewgate.limits import MAX_REQUEST_CHARS, check_request
from crewgate.service.auth import Role, Tokens, User
from crewgate.service.desk import Forbidden, MissionDesk, SubmitError

MAX_BODY = 256 * 1024  # a request and a plan of the crew's max_steps fit many times over
MAX_JSON_DEPTH = 32
STREAM_POLL_S = 0.2
STREAM_PAGE = 200
KEEPALIVE_S = 15.0


class ApiError(Exception):
    def __init__(self, status: int, code: str, detail: str) -> None:
        self.status, self.code, self.detail = status, code, detail
        super().__init__(detail)


# -- bodies (documented in the OpenAPI schema; parsed by hand, see _body) ----------------------


class SubmitBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    request: str = Field(max_length=MAX_REQUEST_CHARS, description="What the person asked.")
    plan: dict[str, Any] | None = Field(
        None, description="The client's own plan (the crew's plan schema); without it the "
        "server's planner writes one.")
    planner: str | None = Field(None, description="The server's planner to use (GET /api/crew "
                                "lists them); default: the server's default planner.")
    condition: Literal["ro"] = Field("ro", description="The experimental condition: the "
                                     "service runs only `ro` (the gate enforced, one replan).")
    wait_for_robots: bool = Field(True, description="Wait in line when the plan's robots are "
                                  "leased to other missions (false: refuse at once with "
                                  "code robots_busy).")
    wait_s: float = Field(0.0, ge=0, le=60, description="Wait up to this long for the mission "
                          "to need someone or end before answering.")


class ResubmitBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    plan: dict[str, Any] = Field(description="The next plan for a refused mission.")
    wait_s: float = Field(0.0, ge=0, le=60)


class CheckBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    request: str = Field(max_length=MAX_REQUEST_CHARS)
    plan: dict[str, Any]


class StopBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    robot: str | None = Field(None, max_length=64, description="One robot (default: the crew).")


def _doc(model: type[BaseModel]) -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {
        "application/json": {"schema": model.model_json_schema()}}}}


# -- the app ---------------------------------------------------------------------------------


def create_app(desk: MissionDesk, tokens: Tokens, *, version: str = "") -> FastAPI:
    """The service's ASGI app over ``desk``, for the users in ``tokens``."""
    journal: Journal = desk.journal
    crew = desk.crew
    app = FastAPI(title=f"crewgate service: {crew.name}", version=version or "0",
                  description="Submit requests and plans, approve, watch and stop the crew "
                  f"{crew.name}. Every plan goes through the gate; see docs/service.md.",
                  docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    feed = _Feed(journal)

    def who(request: Request, role: Role) -> User:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            _deny(journal, request, None, 401, "unauthorized",
                  "a bearer token is required: Authorization: Bearer TOKEN")
        user = tokens.who(token.strip())
        if user is None:
            _deny(journal, request, None, 401, "unauthorized", "the token is not known here")
        assert user is not None
        if not user.may(role):
            _deny(journal, request, user, 403, "forbidden",
                  f"{user.name} is a {user.role}; this needs the {role} role")
        return user

    def acted(request: Request, user: User, status: int, detail: str) -> None:
        journal.record_access(user.name, user.role, request.method, request.url.path, status,
                              detail)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return _error(exc.status, exc.code, exc.detail)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        # a bug must not look like the client's fault, nor leak a trace: say what, log where
        return _error(500, "internal", f"{type(exc).__name__} while serving {request.url.path}; "
                      "the service's log has the details")

    app.add_middleware(_BodyLimit, limit=MAX_BODY)

    # -- reading --------------------------------------------------------------------------------

    @app.get("/api/me", summary="Who the token belongs to")
    def me(request: Request) -> Response:
        user = who(request, "viewer")
        return _json({"user": user.name, "role": user.role})

    @app.get("/api/crew", summary="The crew: robots, workflows, map, planner context")
    def crew_info(request: Request) -> Response:
        who(request, "viewer")
        return _json(_crew_json(desk))

    @app.get("/api/robots", summary="The robots' live state, trails and e-stops")
    def robots(request: Request) -> Response:
        who(request, "viewer")
        return _json(desk.live.snapshot())

    @app.get("/api/missions", summary="Missions: those this service holds, then the journal's")
    def missions(request: Request, limit: int = 50) -> Response:
        who(request, "viewer")
        limit = max(1, min(limit, 500))
        held = desk.missions()
        seen = {m["mission"] for m in held}
        history = [{"mission": r.mission_id, "status": r.status or "open", "request": r.request,
                    "codes": list(r.codes), "submitted_wall": r.started_wall,
                    "submitted_by": r.meta.get("submitted_by"), "held": False}
                   for r in journal.missions(limit) if r.mission_id not in seen]
        listed = [{**m, "held": True} for m in held]
        return _json((listed + history)[:limit])

    @app.get("/api/missions/{mission}", summary="One mission: plan, verdicts, dispatches")
    def mission(request: Request, mission: str) -> Response:
        who(request, "viewer")
        if desk.holds(mission):
            return _json(desk.detail(mission))
        try:
            record = journal.mission(mission)
        except NotFoundError as exc:
            raise ApiError(404, "not_found", str(exc)) from exc
        return _json({"mission": record.mission_id, "status": record.status or "open",
                      "request": record.request, "codes": list(record.codes),
                      "submitted_wall": record.started_wall, "held": False,
                      "verdicts": [e.data for e in journal.events(mission)
                                   if e.kind == "verdict"]})

    @app.get("/api/missions/{mission}/events", summary="One mission's journal events")
    def mission_events(request: Request, mission: str) -> Response:
        who(request, "viewer")
        return _json([_event_json(e) for e in journal.events(mission)])

    @app.post("/api/check", summary="The gate's verdict on a plan; nothing moves",
              openapi_extra=_doc(CheckBody))
    async def check(request: Request) -> Response:
        who(request, "viewer")
        body = _body(await request.body(), CheckBody)
        return _json(await run_in_threadpool(desk.check, body.plan, body.request))

    @app.get("/api/events", summary="Server-sent events from the journal (resumable)")
    async def events(request: Request, after: int | None = None) -> Response:
        who(request, "viewer")
        resume = request.headers.get("last-event-id")
        start = after if after is not None else _int(resume, "Last-Event-ID")
        if start is None:
            start = await run_in_threadpool(journal.last_event_id)
        return StreamingResponse(feed.stream(request, start), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache",
                                          "X-Accel-Buffering": "no"})

    @app.get("/api/access", summary="The access log (admin)")
    def access(request: Request, limit: int = 50) -> Response:
        who(request, "admin")
        return _json(journal.access(max(1, min(limit, 500))))

    # -- acting -----------------------------------------------------------------------------------

    @app.post("/api/missions", status_code=202, summary="Submit a request (and maybe a plan)",
              openapi_extra=_doc(SubmitBody))
    async def submit(request: Request) -> Response:
        user = who(request, "operator")
        body = _body(await request.body(), SubmitBody)
        try:
            check_request(body.request)  # its bounds first: they hold whoever plans
        except UserError as exc:
            raise ApiError(422, "invalid", str(exc)) from exc
        if body.planner is not None and body.plan is None and (
                desk.planner is None or body.planner != desk.planner.name):
            have = desk.planner.name if desk.planner is not None else "none"
            raise ApiError(422, "invalid", f"planner {body.planner!r} is not run by this "
                           f"service (it runs: {have}); or submit your own plan")
        if body.plan is None and desk.planner is None:
            raise ApiError(422, "invalid", "this server has no planner: submit a plan")
        answer = await _desk(lambda: desk.submit(body.request, body.plan, wait_s=body.wait_s,
                                                 by=user.name,
                                                 wait_for_robots=body.wait_for_robots))
        acted(request, user, 202, f"submitted {answer['mission']}")
        return _json(answer, 202)

    @app.post("/api/missions/{mission}/plans", summary="The next plan for a refused mission",
              openapi_extra=_doc(ResubmitBody))
    async def resubmit(request: Request, mission: str) -> Response:
        user = who(request, "operator")
        body = _body(await request.body(), ResubmitBody)
        answer = await _desk(lambda: desk.submit(None, body.plan, mission=mission,
                                                 wait_s=body.wait_s, by=user.name))
        acted(request, user, 200, f"resubmitted {mission}")
        return _json(answer)

    def decision(approve: bool) -> Callable[[Request, str], Awaitable[Response]]:
        async def decide(request: Request, mission: str) -> Response:
            user = who(request, "operator")
            try:
                answer = await _desk(lambda: desk.decide(mission, approve, by=user.name))
            except ApiError as exc:
                acted(request, user, exc.status, exc.detail)
                raise
            acted(request, user, 200, f"{'approved' if approve else 'rejected'} {mission}")
            return _json(answer)
        return decide

    app.post("/api/missions/{mission}/approve", summary="Approve a mission that waits")(
        decision(True))
    app.post("/api/missions/{mission}/reject", summary="Reject a mission that waits")(
        decision(False))

    @app.post("/api/missions/{mission}/cancel", summary="Withdraw or stop a mission")
    async def cancel(request: Request, mission: str) -> Response:
        user = who(request, "operator")
        answer = await _desk(lambda: desk.cancel(mission, by=user.name))
        acted(request, user, 200, f"cancelled {mission}")
        return _json(answer)

    def stop(release: bool) -> Callable[[Request], Awaitable[Response]]:
        role: Role = "admin" if release else "viewer"  # anyone may stop; only an admin resumes

        async def handle(request: Request) -> Response:
            user = who(request, role)
            body = _body(await request.body() or b"{}", StopBody)
            answer = await _desk(lambda: desk.estop(release=release, robot=body.robot,
                                                    by=user.name))
            acted(request, user, 200, f"e-stop {'released' if release else 'engaged'}"
                  f"{' for ' + body.robot if body.robot else ''}")
            return _json(answer)
        return handle

    app.post("/api/estop", summary="Engage the e-stop (the crew, or one robot)",
             openapi_extra=_doc(StopBody))(stop(False))
    app.post("/api/estop/release", summary="Release the e-stop (admin)",
             openapi_extra=_doc(StopBody))(stop(True))

    # -- the console ---------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def console() -> Response:
        return HTMLResponse(_asset("index.html"), headers=_CONSOLE_HEADERS)

    @app.get("/console/{name}", include_in_schema=False)
    def asset(name: str) -> Response:
        kinds = {"console.js": "text/javascript", "console.css": "text/css"}
        if name not in kinds:
            raise ApiError(404, "not_found", f"no console file {name!r}")
        return Response(_asset(name), media_type=kinds[name], headers=_CONSOLE_HEADERS)

    return app


# -- helpers ------------------------------------------------------------------------------------

# the console runs only its own script and style, and talks only to this origin
_CONSOLE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache"}


def _asset(name: str) -> str:
    return (resources.files("crewgate.service") / "console" / name).read_text(encoding="utf-8")


def _json(data: Any, status: int = 200) -> Response:
    text = json.dumps(encode_nonfinite(data), allow_nan=False, default=str)
    return Response(text, status_code=status, media_type="application/json")


def _error(status: int, code: str, detail: str) -> Response:
    return _json({"error": {"code": code, "detail": detail}}, status)


def _deny(journal: Journal, request: Request, user: User | None, status: int, code: str,
          detail: str) -> None:
    journal.record_access(user.name if user else None, user.role if user else None,
                          request.method, request.url.path, status, detail)
    raise ApiError(status, code, detail)


async def _desk(call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A desk call in a worker thread, its errors as the API's."""
    try:
        return await run_in_threadpool(call)
    except Forbidden as exc:
        raise ApiError(403, "forbidden", str(exc)) from exc
    except SubmitError as exc:
        text = str(exc)
        status = 404 if text.startswith("no mission") else 409
        raise ApiError(status, "not_found" if status == 404 else "conflict", text) from exc
    except UserError as exc:
        raise ApiError(422, "invalid", str(exc)) from exc
    except CrewgateError as exc:
        raise ApiError(409, "conflict", str(exc)) from exc


def _body(raw: bytes, model: type[BaseModel]) -> Any:
    """A JSON body, bounded in nesting, as ``model``; a 4xx naming the problem otherwise."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, "bad_request", f"the body is not UTF-8 ({exc.reason} at byte "
                       f"{exc.start})") from exc
    depth = _depth(text)
    if depth > MAX_JSON_DEPTH:
        raise ApiError(400, "bad_request", f"the body nests {depth} levels deep; at most "
                       f"{MAX_JSON_DEPTH} are read")
    try:
        data = loads(text)
    except ValueError as exc:
        raise ApiError(400, "bad_request", f"the body is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ApiError(422, "invalid", f"the body must be a JSON object, not "
                       f"{type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}"
                             for e in exc.errors()[:5])
        raise ApiError(422, "invalid", problems) from exc


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings, in one pass."""
    deepest = depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _int(value: str | None, what: str) -> int | None:
    if value is None:
        return None
    if not value.isdigit() or len(value) > 18:
        raise ApiError(400, "bad_request", f"{what} must be an event id (digits), not "
                       f"{value[:40]!r}")
    return int(value)


def _event_json(event: Event) -> dict[str, Any]:
    return {"id": event.id, **event.to_json()}


def _crew_json(desk: MissionDesk) -> dict[str, Any]:
    crew = desk.crew
    area = crew.area
    sim = desk.live.sim
    return {
        "name": crew.name, "title": crew.title, "description": crew.description,
        "planners": [desk.planner.name] if desk.planner is not None else [],
        "approval": desk.approval,
        "robots": {name: {"kind": getattr(r, "kind", ""), "skills": list(r.skills)}
                   for name, r in crew.robots.items()},
        "workflows": {name: {"description": w.description, "approval": w.approval,
                             "steps": [str(s) for s in w.steps]}
                      for name, w in crew.workflows.items()},
        "map": {
            "operational": area.operational.model_dump(mode="json"),
            "keep_out": [z.model_dump(mode="json") for z in area.keep_out],
            "locations": {n: list(loc.pose[:2]) for n, loc in crew.locations.items()},
            "obstacles": [b.model_dump(mode="json") for b in sim.sim.obstacles] if sim else [],
        },
        "backend": desk.live.adapter.describe(),
        "speed": desk.live.speed,
        "context": desk.context,
    }


class _Feed:
    """The journal as an event stream. A journal listener keeps the newest id, so that idle
    clients do not query the journal; each client reads its next page from the journal itself,
    so it resumes exactly where it left off."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.newest = journal.last_event_id()
        journal.subscribe(self._heard)

    def _heard(self, event: Event) -> None:
        self.newest = max(self.newest, event.id)

    async def stream(self, request: Request, after: int) -> AsyncIterator[str]:
        last, quiet = after, 0.0
        yield "retry: 1000\n\n"
        while not await request.is_disconnected():
            page: list[Event] = []
            if self.newest > last:
                page = await run_in_threadpool(self.journal.events_after, last, STREAM_PAGE)
            for event in page:
                last = event.id
                data = json.dumps(encode_nonfinite(_event_json(event)), allow_nan=False,
                                  default=str)
                yield f"id: {event.id}\nevent: {event.kind}\ndata: {data}\n\n"
            if page:
                quiet = 0.0
                continue
            await asyncio.sleep(STREAM_POLL_S)
            quiet += STREAM_POLL_S
            if quiet >= KEEPALIVE_S:
                quiet = 0.0
                yield ": keep-alive\n\n"


class _BodyLimit:
    """Refuse a body over ``limit`` bytes with 413, whether it says its length or streams."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _send_error(send, 413, f"the body is over {self.limit} bytes")
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise ApiError(413, "too_large", f"the body is over {self.limit} bytes")
            return message

        await self.app(scope, bounded, send)


async def _send_error(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"error": {"code": "too_large", "detail": detail}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["MAX_BODY", "create_app"]
