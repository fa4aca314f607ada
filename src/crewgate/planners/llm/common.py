"""What every language-model backend shares: the conversation of a planning request, the
tool-friendly plan schema, reading token usage from an answer, the key for a server, and the
wording of planner errors (a failure that may pass if asked again later is a
``TransientPlannerError``, with the wait the server asked for).

Nothing here talks to a network; the backends own their clients and translate the clients'
exceptions with these helpers.
"""

from __future__ import annotations

import email.utils
import ipaddress
import json
import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from crewgate.errors import PlannerError, UserError
from crewgate.plan import ParseFailure
from crewgate.planners.base import PlanningRequest, feedback_text
from crewgate.render.plan_schema import without_document_keys

LOCAL_PLACEHOLDER_KEY = "crewgate-local"  # sent to loopback servers, which ignore keys
NO_OUTPUT = "(no output)"  # stands in for an empty previous answer in a replan conversation
PLAN_TOOL = "submit_plan"
PLAN_TOOL_DESCRIPTION = ("Submit the mission plan: the workflow and the steps, in dispatch order. "
                         "A deterministic Robot Orchestrator checks the plan before any robot "
                         "moves.")

Role = Literal["user", "assistant"]


@dataclass(frozen=True, slots=True)
class Turn:
    """One conversation turn after the system prompt."""

    role: Role
    text: str


def is_loopback(url: str | None) -> bool:
    """True when ``url`` names this machine (127.0.0.0/8, ::1 or localhost)."""
    if not url:
        return False
    try:
        host = urlsplit(url if "//" in url else f"//{url}").hostname
    except ValueError:
        return False
    if host is None:
        return False
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def resolve_api_key(api_key_env: str, base_url: str, *, flag_hint: str = "--api-key-env NAME",
                    environ: Mapping[str, str] | None = None) -> str:
    """The API key from ``api_key_env``; a placeholder for a loopback server when it is unset.

    Raises ``UserError`` naming the variable when the key is missing for a remote server, so a
    misconfiguration fails before anything is sent.
    """
    env = os.environ if environ is None else environ
    key = env.get(api_key_env, "").strip()
    if key:
        return key
    if is_loopback(base_url):
        return LOCAL_PLACEHOLDER_KEY
    raise UserError(f"set {api_key_env} (or {flag_hint}) to the API key for {base_url}; "
                    "a local server (127.0.0.1, localhost) needs no key")


def conversation(request: PlanningRequest) -> list[Turn]:
    """The turns after the system prompt (which is ``request.context``): the request, and on a
    replan the previous answer and the gate's feedback."""
    turns = [Turn("user", request.request)]
    if request.feedback or request.previous_output:
        turns.append(Turn("assistant", request.previous_output.strip() or NO_OUTPUT))
        turns.append(Turn("user", feedback_text(request.feedback)))
    return turns


def tool_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The plan schema as a tool's input schema (without the document-level keys)."""
    return without_document_keys(schema)


def server_message(body: object, fallback: str = "") -> str:
    """The human-readable message of an API error body (OpenAI and Anthropic shapes)."""
    if isinstance(body, Mapping):
        inner = body.get("error")
        if isinstance(inner, Mapping) and inner.get("message"):
            return str(inner["message"])
        if isinstance(inner, str) and inner:
            return inner
        for key in ("message", "detail"):
            if body.get(key):
                return str(body[key])
        return json.dumps(body, default=str)[:500]
    if isinstance(body, str | bytes) and body:
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        return text.strip()[:500]
    return fallback


def usage_of(response: object, fields: Sequence[str]) -> dict[str, int | None]:
    """The token counts ``fields`` of an answer's ``usage`` (an SDK object or a mapping), None
    where the server did not report them."""
    usage = (response.get("usage") if isinstance(response, Mapping)
             else getattr(response, "usage", None))
    if isinstance(usage, Mapping):
        return {name: usage.get(name) for name in fields}
    return {name: getattr(usage, name, None) for name in fields}


def cause_text(exc: BaseException) -> str:
    """The root cause of a client exception, for messages ("Connection refused", ...)."""
    seen: set[int] = set()
    inner: BaseException | None = exc
    text = str(exc)
    while inner is not None and id(inner) not in seen:
        seen.add(id(inner))
        if str(inner):
            text = str(inner)
        inner = inner.__cause__ or inner.__context__
    return text


# -- planner errors: one wording for every backend ---------------------------------------------

TRANSIENT_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
MAX_RETRY_AFTER_S = 3600.0  # a Retry-After beyond an hour is read as an hour (a bound, not a wait)


class TransientPlannerError(PlannerError):
    """No answer this time, but one may come if asked again later: a timeout, a lost
    connection, HTTP 408, 409, 429 or 5xx. ``retry_after`` is the wait in seconds the server
    asked for (``Retry-After`` / ``retry-after-ms``), None when it did not say. Whoever calls
    the planner decides whether to ask again (the evaluation does, ``crewgate run`` does not)."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def retry_after_s(headers: Mapping[str, str] | None, *, now: float | None = None
                  ) -> float | None:
    """The wait a server asked for: ``retry-after-ms`` (milliseconds), else ``Retry-After`` in
    seconds or as an HTTP date. None when absent or unreadable (a negative, non-finite or
    malformed value is not a wait); at most ``MAX_RETRY_AFTER_S``."""
    if not headers:
        return None
    lower = {str(k).lower(): str(v) for k, v in headers.items()}
    value: float | None = None
    if "retry-after-ms" in lower:
        value = _number(lower["retry-after-ms"])
        value = None if value is None else value / 1000.0
    if value is None and "retry-after" in lower:
        text = lower["retry-after"].strip()
        value = _number(text)
        if value is None:
            try:
                when = email.utils.parsedate_to_datetime(text)
            except (TypeError, ValueError, IndexError):
                return None
            if when.tzinfo is None:
                return None
            value = max(0.0, when.timestamp() - (time.time() if now is None else now))
    if value is None:
        return None
    return min(value, MAX_RETRY_AFTER_S)


def _number(text: str) -> float | None:
    if len(text) > 32:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None



def timeout_error(base_url: str, timeout_s: float, model: str) -> PlannerError:
    return TransientPlannerError(f"timed out after {timeout_s:g} s waiting for {base_url} "
                                 f"(model {model!r}); raise --timeout or check that the server "
                                 "is not overloaded")


def connection_error(base_url: str, exc: BaseException) -> PlannerError:
    return TransientPlannerError(f"cannot reach {base_url}: {cause_text(exc)}")


def status_error(base_url: str, status: int, message: str, *, api_key_env: str,
                 model: str, retry_after: float | None = None) -> PlannerError:
    """An HTTP error answer: the status, the server's message, and the likely fix (transient
    for 408, 409, 429 and 5xx, with the wait the server asked for)."""
    text = f"{base_url} answered HTTP {status}: {message or '(no message)'}"
    if status in (401, 403):
        text += f"; check the API key in {api_key_env} (or --api-key-env NAME)"
    elif status == 404:
        text += f"; check the base URL and that model {model!r} is served there"
    elif status == 429:
        text += "; rate limited or out of quota, try again later"
    if status in TRANSIENT_STATUS or status >= 500:
        return TransientPlannerError(text, retry_after=retry_after)
    return PlannerError(text)


def invalid_answer_error(base_url: str, exc: BaseException) -> PlannerError:
    return PlannerError(f"{base_url} sent an answer that is not a valid API response: {exc}")


def translate_sdk_error(sdk: Any, exc: Exception, *, vendor: str, base_url: str,
                        timeout_s: float, model: str, api_key_env: str) -> PlannerError:
    """An exception of the openai or anthropic SDK (same exception classes, by the same
    generator) as a PlannerError that says what to do."""
    if isinstance(exc, sdk.APITimeoutError):
        return timeout_error(base_url, timeout_s, model)
    if isinstance(exc, sdk.APIConnectionError):
        return connection_error(base_url, exc)
    if isinstance(exc, sdk.APIStatusError):
        headers = getattr(getattr(exc, "response", None), "headers", None)
        return status_error(base_url, exc.status_code, server_message(exc.body, exc.message),
                            api_key_env=api_key_env, model=model,
                            retry_after=retry_after_s(headers))
    if isinstance(exc, ValueError | sdk.APIResponseValidationError):
        return invalid_answer_error(base_url, exc)
    return PlannerError(f"the {vendor} client failed for {base_url}: {exc}")


def truncated(raw: str, limit: str) -> ParseFailure:
    """A cut-off answer is no plan, even when what arrived happens to parse."""
    return ParseFailure((f"the answer was cut off ({limit}); it is not a complete plan",), raw)
