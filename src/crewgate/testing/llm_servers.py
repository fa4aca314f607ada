"""Fake OpenAI-compatible and Anthropic servers: real HTTP on 127.0.0.1, scripted answers.

Each fake is a ``ThreadingHTTPServer`` in a daemon thread, bound to 127.0.0.1 on an ephemeral
port. It answers from a queue of ``Reply`` specs, one per accepted request, and records every
request it receives (``.requests``), so tests can check what a planner sent::

    with FakeOpenAIServer([Reply(content='{"workflow": "abort", "steps": []}')]) as server:
        planner = OpenAIPlanner("any-model", base_url=server.base_url)
        ...
        assert server.requests[0].body["model"] == "any-model"

Answers follow each protocol's JSON closely enough for the official ``openai`` and ``anthropic``
clients to parse them: a ``chat.completion`` object (choices, message, usage) and a ``message``
object (content blocks, stop_reason, usage); errors use each protocol's error body. Requests a
real server would reject before generating (wrong path, a missing field, an unsupported
``response_format``, a wrong API key) are answered with an error and consume no scripted reply.

For load and failure tests a fake also takes ``latency_s`` (every answer waits that long; the
server answers requests concurrently, as a real one does), ``inject`` (:class:`Injection`: HTTP
429 with ``Retry-After``, or a 5xx, on chosen requests) and ``respond`` (a function that answers a
request from what it asks, once the scripted queue is empty)::

    FakeOpenAIServer(respond=lambda req: Reply(answer=PLANS[req.json["messages"][-1]["content"]]),
                     latency_s=0.5, inject=[Injection(429, every=5, retry_after="1")])
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Self, cast

__all__ = ["FakeAnthropicServer", "FakeLLMServer", "FakeOpenAIServer", "Injection", "Received",
           "Reply", "by_request", "unused_local_port"]

HOST = "127.0.0.1"


@dataclass(frozen=True, slots=True)
class Reply:
    """One scripted answer of a fake server.

    - ``content``: the assistant's text (OpenAI ``message.content``, an Anthropic text block).
    - ``answer``: a JSON object delivered the way the request asked for it: as the text for
      OpenAI, as a ``tool_use`` block when an Anthropic request offered tools, else as text.
    - ``tool_input``: a tool call whose input is this object (Anthropic ``tool_use`` block,
      OpenAI ``tool_calls`` entry), named after the tool the request forced or offered.
    - ``refusal``: the model declines (OpenAI ``message.refusal``, Anthropic
      ``stop_reason: "refusal"``).
    - ``status`` / ``error``: with a status of 400 or more, answer with the protocol's error body
      carrying ``error`` as its message.
    - ``delay_s``: sleep this long before answering (to trigger client timeouts).
    - ``raw_body``: send these bytes verbatim as the body (with ``status``).
    - ``input_tokens`` / ``output_tokens``: the usage reported.
    - ``headers``: extra response headers.
    """

    content: str | None = None
    status: int = 200
    error: str | None = None
    delay_s: float = 0.0
    raw_body: bytes | None = None
    tool_input: Mapping[str, Any] | None = None
    answer: Mapping[str, Any] | None = None
    refusal: str | None = None
    input_tokens: int = 12
    output_tokens: int = 8
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Injection:
    """A failure a fake server injects, by the number of the model request (1, 2, ... in order
    of arrival; requests rejected before generating are not counted).

    The request numbered ``n`` fails when ``n % every == 0`` and, with ``first``, ``n <= first``:
    ``Injection(503, first=2)`` fails the first two requests, ``Injection(429, every=4,
    retry_after="2")`` every fourth one with ``Retry-After: 2``. The answer is the protocol's
    error body with ``status``; it consumes no scripted reply.
    """

    status: int
    every: int = 1
    first: int | None = None
    retry_after: str | None = None  # the Retry-After header, sent as given
    message: str = ""

    def __post_init__(self) -> None:
        if self.status < 400 or self.every < 1 or (self.first is not None and self.first < 0):
            raise ValueError(f"an injection needs a status >= 400, every >= 1 and first >= 0, "
                             f"got {self!r}")

    def hits(self, n: int) -> bool:
        return n % self.every == 0 and (self.first is None or n <= self.first)


Responder = Callable[["Received"], "Reply | None"]


@dataclass(frozen=True, slots=True)
class Received:
    """One request a fake server received. ``headers`` has lower-case names; ``body`` is the
    decoded JSON body (``None`` when it was empty or not JSON); ``raw`` is the body as sent."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Any
    raw: bytes = b""

    @property
    def json(self) -> dict[str, Any]:
        """The body as a JSON object (an empty dict when it was not one)."""
        return self.body if isinstance(self.body, dict) else {}


@dataclass(frozen=True, slots=True)
class _Answer:
    status: int
    body: bytes
    delay_s: float = 0.0
    headers: Mapping[str, str] = field(default_factory=dict)


class FakeLLMServer:
    """The common machinery: the HTTP server, the reply queue and the request log.

    Use a subclass (``FakeOpenAIServer``, ``FakeAnthropicServer``). The server starts in the
    constructor and stops with ``close()`` or at the end of a ``with`` block. When the queue is
    empty, ``respond`` answers (a function of the request; None passes), then ``default``
    (or, without one, an HTTP 500 saying no reply is left). ``latency_s`` delays every answer;
    ``inject`` fails chosen requests (:class:`Injection`).
    """

    kind: ClassVar[str] = "fake"

    def __init__(self, replies: Iterable[Reply] = (), *, default: Reply | None = None,
                 api_key: str | None = None, respond: Responder | None = None,
                 latency_s: float = 0.0, inject: Iterable[Injection] = ()) -> None:
        if not latency_s >= 0:
            raise ValueError(f"latency_s must be >= 0 seconds, got {latency_s}")
        self._replies: deque[Reply] = deque(replies)
        self.default = default
        self.respond = respond
        self.latency_s = latency_s
        self.inject = tuple(inject)
        self.injected: list[int] = []  # the numbers of the requests that got an injected failure
        self.api_key = api_key  # when set, requests must carry it (else HTTP 401)
        self._received: list[Received] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._connections: set[socket.socket] = set()
        self._counter = 0
        self._httpd = _Server((HOST, 0), _Handler, self)
        self.port: int = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={
            "poll_interval": 0.05}, name=f"{type(self).__name__}:{self.port}", daemon=True)
        self._thread.start()

    # -- public API --------------------------------------------------------------------------

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://{HOST}:{self.port}"

    @property
    def base_url(self) -> str:
        """The base URL a client is configured with."""
        return self.origin

    @property
    def requests(self) -> list[Received]:
        """Every request received so far, in order (a copy)."""
        with self._lock:
            return list(self._received)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """The JSON bodies of the requests received so far."""
        return [r.json for r in self.requests]

    @property
    def pending(self) -> int:
        """How many scripted replies are still queued."""
        with self._lock:
            return len(self._replies)

    def push(self, *replies: Reply) -> None:
        """Queue more replies."""
        with self._lock:
            self._replies.extend(replies)

    def close(self) -> None:
        """Stop serving, wake delayed replies and drop open connections. Idempotent."""
        if self._closing.is_set():
            return
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- protocol hooks (subclasses) ---------------------------------------------------------

    def _validate(self, req: Received) -> _Answer | None:
        """An error answer for a request a real server would reject, else ``None``."""
        return None

    def _success(self, req: Received, reply: Reply, serial: int) -> dict[str, Any]:
        raise NotImplementedError

    def _error_body(self, status: int, message: str, *, param: str | None = None
                    ) -> dict[str, Any]:
        raise NotImplementedError

    def _authorized(self, req: Received) -> bool:
        if self.api_key is None:
            return True
        bearer = req.headers.get("authorization", "")
        return bearer == f"Bearer {self.api_key}" or req.headers.get("x-api-key") == self.api_key

    # -- internals ---------------------------------------------------------------------------

    def _error(self, status: int, message: str, *, param: str | None = None,
               delay_s: float = 0.0, headers: Mapping[str, str] | None = None) -> _Answer:
        body = json.dumps(self._error_body(status, message, param=param)).encode()
        return _Answer(status, body, delay_s, headers or {})

    def _respond(self, req: Received) -> _Answer:
        with self._lock:
            self._received.append(req)
        if not self._authorized(req):
            return self._error(401, "invalid API key")
        rejected = self._validate(req)
        if rejected is not None:
            return rejected
        with self._lock:
            self._counter += 1
            serial = self._counter
            fault = next((f for f in self.inject if f.hits(serial)), None)
            if fault is not None:
                self.injected.append(serial)
            # an injected failure consumes no scripted reply
            reply = self._replies.popleft() if self._replies and fault is None else None
        if fault is not None:
            headers = {"Retry-After": fault.retry_after} if fault.retry_after is not None else {}
            return self._error(fault.status, fault.message or f"injected HTTP {fault.status}",
                               delay_s=self.latency_s, headers=headers)
        if reply is None and self.respond is not None:
            reply = self.respond(req)
        if reply is None:
            reply = self.default
        if reply is None:
            return self._error(500, f"{type(self).__name__}: no scripted reply left")
        headers = dict(reply.headers)
        delay = reply.delay_s + self.latency_s
        if reply.raw_body is not None:
            return _Answer(reply.status, reply.raw_body, delay, headers)
        if reply.status >= 400:
            return self._error(reply.status, reply.error or f"scripted HTTP {reply.status}",
                               delay_s=delay, headers=headers)
        body = json.dumps(self._success(req, reply, serial)).encode()
        return _Answer(reply.status, body, delay, headers)

    def _sleep(self, seconds: float) -> bool:
        """Sleep, unless the server closes first; True when the answer should still be sent."""
        if seconds > 0:
            self._closing.wait(seconds)
        return not self._closing.is_set()

    def _track(self, conn: socket.socket, alive: bool) -> None:
        with self._lock:
            if alive:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)


class FakeOpenAIServer(FakeLLMServer):
    """An OpenAI-compatible chat completions server (``POST /v1/chat/completions``).

    ``supports_json_schema=False`` / ``supports_json_object=False`` make it reject a
    ``response_format`` of that type with an HTTP 400, as servers without structured output do
    (``json_schema_status=500`` rejects ``json_schema`` the way llama-cpp-python's server does).
    A ``json_object`` format carrying a ``schema`` (the llama.cpp servers' grammar extension) is
    rejected like an unknown argument unless ``accepts_json_object_schema=True``.
    ``GET /v1/models`` lists ``model``.
    """

    kind = "openai"

    def __init__(self, replies: Iterable[Reply] = (), *, default: Reply | None = None,
                 api_key: str | None = None, supports_json_schema: bool = True,
                 supports_json_object: bool = True, model: str = "fake-model",
                 accepts_json_object_schema: bool = False, json_schema_status: int = 400,
                 respond: Responder | None = None, latency_s: float = 0.0,
                 inject: Iterable[Injection] = ()) -> None:
        self.supports_json_schema = supports_json_schema
        self.supports_json_object = supports_json_object
        self.accepts_json_object_schema = accepts_json_object_schema
        self.json_schema_status = json_schema_status
        self.model = model
        super().__init__(replies, default=default, api_key=api_key, respond=respond,
                         latency_s=latency_s, inject=inject)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"{self.origin}/v1"

    def _validate(self, req: Received) -> _Answer | None:
        if req.method == "GET" and req.path == "/v1/models":
            listing = {"object": "list", "data": [
                {"id": self.model, "object": "model", "created": 0, "owned_by": "crewgate"}]}
            return _Answer(200, json.dumps(listing).encode())
        if req.method != "POST" or req.path != "/v1/chat/completions":
            return self._error(404, f"no route {req.method} {req.path}")
        body = req.body
        if not isinstance(body, dict):
            return self._error(400, "the request body is not a JSON object")
        for name in ("model", "messages"):
            if name not in body:
                return self._error(400, f"missing required parameter: '{name}'", param=name)
        if not isinstance(body["messages"], list) or not body["messages"]:
            return self._error(400, "'messages' must be a non-empty array", param="messages")
        fmt = body.get("response_format") or {}
        kind = fmt.get("type")
        if kind == "json_schema" and not self.supports_json_schema:
            return self._error(self.json_schema_status, f"response_format type '{kind}' is not "
                               "supported by this server", param="response_format")
        if kind == "json_object" and not self.supports_json_object:
            return self._error(400, f"response_format type '{kind}' is not supported by this "
                               "server", param="response_format")
        if kind == "json_object" and "schema" in fmt and not self.accepts_json_object_schema:
            return self._error(400, "Additional properties are not allowed ('schema' was "
                               "unexpected)", param="response_format")
        return None

    def _error_body(self, status: int, message: str, *, param: str | None = None
                    ) -> dict[str, Any]:
        kinds = {400: "invalid_request_error", 401: "invalid_request_error",
                 403: "permission_denied", 404: "invalid_request_error",
                 429: "rate_limit_exceeded"}
        return {"error": {"message": message, "type": kinds.get(status, "server_error"),
                          "param": param, "code": None}}

    def _success(self, req: Received, reply: Reply, serial: int) -> dict[str, Any]:
        text = reply.content
        if text is None and reply.answer is not None:
            text = json.dumps(reply.answer)
        message: dict[str, Any] = {"role": "assistant", "content": text,
                                   "refusal": reply.refusal}
        finish = "stop"
        if reply.tool_input is not None:
            message["tool_calls"] = [{
                "id": f"call_fake_{serial}", "type": "function",
                "function": {"name": _openai_tool_name(req.json),
                             "arguments": json.dumps(reply.tool_input)}}]
            finish = "tool_calls"
        elif text is None and reply.refusal is None:
            message["content"] = ""
        return {
            "id": f"chatcmpl-fake-{serial}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": str(req.json.get("model", self.model)),
            "choices": [{"index": 0, "message": message, "finish_reason": finish,
                         "logprobs": None}],
            "usage": {"prompt_tokens": reply.input_tokens,
                      "completion_tokens": reply.output_tokens,
                      "total_tokens": reply.input_tokens + reply.output_tokens},
        }


class FakeAnthropicServer(FakeLLMServer):
    """An Anthropic Messages API server (``POST /v1/messages``); ``base_url`` has no ``/v1``."""

    kind = "anthropic"

    def _validate(self, req: Received) -> _Answer | None:
        if req.method != "POST" or req.path != "/v1/messages":
            return self._error(404, f"no route {req.method} {req.path}")
        body = req.body
        if not isinstance(body, dict):
            return self._error(400, "the request body is not a JSON object")
        for name in ("model", "max_tokens", "messages"):
            if name not in body:
                return self._error(400, f"{name}: Field required")
        if not isinstance(body["messages"], list) or not body["messages"]:
            return self._error(400, "messages: at least one message is required")
        choice = body.get("tool_choice")
        if isinstance(choice, dict) and choice.get("type") == "tool":
            names = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
            if choice.get("name") not in names:
                return self._error(400, f"tool_choice: no tool named {choice.get('name')!r}")
        return None

    def _error_body(self, status: int, message: str, *, param: str | None = None
                    ) -> dict[str, Any]:
        kinds = {400: "invalid_request_error", 401: "authentication_error",
                 403: "permission_error", 404: "not_found_error", 413: "request_too_large",
                 429: "rate_limit_error", 529: "overloaded_error"}
        return {"type": "error", "error": {"type": kinds.get(status, "api_error"),
                                           "message": message}}

    def _success(self, req: Received, reply: Reply, serial: int) -> dict[str, Any]:
        tools = [t for t in req.json.get("tools") or [] if isinstance(t, dict)]
        tool_input = reply.tool_input
        text = reply.content if reply.content is not None else reply.refusal
        if reply.answer is not None:
            if tools and tool_input is None:
                tool_input = reply.answer
            elif text is None:
                text = json.dumps(reply.answer)
        blocks: list[dict[str, Any]] = []
        if text is not None:
            blocks.append({"type": "text", "text": text})
        if tool_input is not None:
            blocks.append({"type": "tool_use", "id": f"toolu_fake_{serial}",
                           "name": _anthropic_tool_name(req.json), "input": dict(tool_input)})
        stop = "refusal" if reply.refusal is not None else (
            "tool_use" if tool_input is not None else "end_turn")
        return {
            "id": f"msg_fake_{serial}",
            "type": "message",
            "role": "assistant",
            "model": str(req.json.get("model", "fake-model")),
            "content": blocks,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
        }


def by_request(answers: Mapping[str, Mapping[str, Any]], *,
               otherwise: Mapping[str, Any] | None = None, input_tokens: int = 12,
               output_tokens: int = 8) -> Responder:
    """A ``respond`` function that answers each request with the JSON object given for its
    text (the conversation's first user turn, the request itself, on a replan too); a request
    not in ``answers`` gets ``otherwise``, or no answer (the server's ``default``)."""

    def respond(req: Received) -> Reply | None:
        messages = req.json.get("messages")
        first = next((m for m in messages if isinstance(m, dict) and m.get("role") == "user"),
                     None) if isinstance(messages, list) else None
        text = first.get("content") if first else None
        if isinstance(text, list):  # content blocks
            text = "".join(str(b.get("text", "")) for b in text if isinstance(b, dict))
        answer = answers.get(text, otherwise) if isinstance(text, str) else otherwise
        if answer is None:
            return None
        return Reply(answer=answer, input_tokens=input_tokens, output_tokens=output_tokens)

    return respond


def unused_local_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (bound, then released): a base URL on it
    is an unreachable server."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
    return port


def _openai_tool_name(body: Mapping[str, Any]) -> str:
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        name = (choice.get("function") or {}).get("name")
        if isinstance(name, str):
            return name
    for tool in body.get("tools") or []:
        name = (tool.get("function") or {}).get("name") if isinstance(tool, dict) else None
        if isinstance(name, str):
            return name
    return "submit_plan"


def _anthropic_tool_name(body: Mapping[str, Any]) -> str:
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and isinstance(choice.get("name"), str):
        return str(choice["name"])
    for tool in body.get("tools") or []:
        if isinstance(tool, dict) and isinstance(tool.get("name"), str):
            return str(tool["name"])
    return "submit_plan"


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler],
                 fake: FakeLLMServer) -> None:
        self.fake = fake
        super().__init__(address, handler)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 30  # idle keep-alive connections end after this long

    @property
    def _fake(self) -> FakeLLMServer:
        return cast(_Server, self.server).fake

    def setup(self) -> None:
        super().setup()
        self._fake._track(self.connection, True)

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()
        self._fake._track(self.connection, False)

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length > 0 else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except (ValueError, UnicodeDecodeError):
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        req = Received(self.command, self.path.split("?", 1)[0], headers, body, raw)
        answer = self._fake._respond(req)
        if not self._fake._sleep(answer.delay_s):
            self.close_connection = True
            return
        try:
            self.send_response(answer.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer.body)))
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(answer.body)
            self.wfile.flush()
        except OSError:  # the client gave up (timeout) and closed the connection
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the per-request log lines."""
