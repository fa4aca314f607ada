"""What the hosted chat-API backends (``openai``, ``anthropic``) share: their options, the
constructor's checks (a model, a positive timeout, a token limit of at least 1, the base URL
from the argument, the vendor's variable or its public API, the key from the named variable),
the SDK client without retries (retrying is the caller's decision: the evaluation retries a
``TransientPlannerError``), the token usage read from an answer, what a request is sent as (the
key of the evaluation's response cache), how many calls an evaluation makes at once by default,
and the translation of the SDK's exceptions (both SDKs have the same exception classes, from the
same generator) into ``PlannerError``s that say what to do.
"""

from __future__ import annotations

import os
from abc import abstractmethod
from types import ModuleType
from typing import Any, ClassVar, TypedDict

from pydantic import Field

from crewgate.errors import PlannerError, UserError
from crewgate.planners.base import Planner, PlanningRequest
from crewgate.planners.llm.common import resolve_api_key, translate_sdk_error, usage_of
from crewgate.planners.options import PlannerOptions


class HostedOptions(PlannerOptions):
    """The options every hosted chat-API backend takes (each adds its own defaults)."""

    model: str = Field(min_length=1, description="The model name the server knows.")
    base_url: str | None = Field(None, description="The API's URL (default: the backend's).")
    api_key_env: str | None = Field(None, description="The environment variable that holds "
                                    "the API key (a server on this machine needs none).")
    timeout: float = Field(60.0, gt=0, description="Seconds to wait for the answer.")
    free_form: bool = Field(False, description="Plain text instead of structured output "
                            "(the study's unconstrained JSON).")
    max_tokens: int | None = Field(None, ge=1, description="The longest answer in tokens "
                                   "(default: the server's).")


def key_env_field(default: str) -> Any:
    """The ``api_key_env`` field of a backend whose key is in ``default`` unless told."""
    return Field(default, description="The environment variable that holds the API key (a "
                 "server on this machine needs none).")


class HostedSettings(TypedDict, total=False):
    """The keyword arguments of a hosted backend's constructor, besides the model."""

    base_url: str | None
    api_key: str | None
    api_key_env: str | None
    timeout_s: float
    free_form: bool
    max_tokens: int | None
    max_retries: int


def hosted_settings(options: HostedOptions) -> HostedSettings:
    """The constructor's keyword arguments from the shared options."""
    return {"base_url": options.base_url, "api_key_env": options.api_key_env,
            "timeout_s": options.timeout, "free_form": options.free_form,
            "max_tokens": options.max_tokens}


class HostedPlanner(Planner):
    """A Mission Planner on a hosted chat API, through its vendor's SDK.

    ``base_url`` defaults to the vendor's variable (``$OPENAI_BASE_URL``, ...) or its public
    API. The key is read from ``api_key_env`` (default: the vendor's variable); a server on this
    machine (127.0.0.1, ::1, localhost) gets a placeholder when the variable is unset, any other
    server needs it. A missing key or model is a ``UserError`` before anything is sent.
    """

    vendor: ClassVar[str]  # "OpenAI", in messages
    default_jobs: ClassVar[int] = 8  # calls an evaluation makes at once unless told (--jobs)
    sdk: ClassVar[ModuleType]  # the SDK module, whose exception classes are translated
    base_url_env: ClassVar[str]
    default_base_url: ClassVar[str]
    default_key_env: ClassVar[str]
    default_max_tokens: ClassVar[int | None] = None  # a limit the API requires
    usage_fields: ClassVar[tuple[str, ...]]  # the token counts the API reports

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 api_key_env: str | None = None, timeout_s: float = 60.0,
                 free_form: bool = False, max_tokens: int | None = None,
                 max_retries: int = 0) -> None:
        if not model or not model.strip():
            raise UserError(f"the {self.name} planner needs a model: pass --model NAME "
                            "(the model name the server knows)")
        if not timeout_s > 0:
            raise UserError(f"the timeout must be a positive number of seconds, got {timeout_s}")
        max_tokens = self.default_max_tokens if max_tokens is None else max_tokens
        if max_tokens is not None and max_tokens < 1:
            raise UserError(f"max_tokens must be at least 1, got {max_tokens}")
        self.model = model.strip()
        self.base_url = (base_url or os.environ.get(self.base_url_env)
                         or self.default_base_url).rstrip("/")
        self.api_key_env = api_key_env or self.default_key_env
        self.timeout_s = float(timeout_s)
        self.free_form = free_form
        self.max_tokens = max_tokens
        key = api_key or resolve_api_key(self.api_key_env, self.base_url)
        self.client = self._connect(key, max_retries)

    @abstractmethod
    def _connect(self, api_key: str, max_retries: int) -> Any:
        """The SDK's client for ``self.base_url`` with ``self.timeout_s`` (an explicit key: the
        client then reads no credential variables or profiles)."""

    @abstractmethod
    def api_params(self, request: PlanningRequest) -> dict[str, Any]:
        """The API parameters ``request`` is sent with: the model, the sampling settings, the
        exact messages and the plan schema (as a tool or a response format)."""

    def request_identity(self, request: PlanningRequest) -> dict[str, Any]:
        """Everything that decides the answer to ``request``: the backend, the server and the
        API parameters (the evaluation's response cache keys on it, with the sample index)."""
        return {"planner": self.name, "base_url": self.base_url,
                "params": self.api_params(request)}

    def usage(self, response: object) -> dict[str, int | None]:
        """The token counts of an answer, as the API names them."""
        return usage_of(response, self.usage_fields)

    def close(self) -> None:
        """Close the client's connections (the planner cannot be used afterwards)."""
        self.client.close()

    def _translate(self, exc: Exception) -> PlannerError:
        return translate_sdk_error(self.sdk, exc, vendor=self.vendor, base_url=self.base_url,
                                   timeout_s=self.timeout_s, model=self.model,
                                   api_key_env=self.api_key_env)
