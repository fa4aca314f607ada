"""Parameter kinds ``boolean``, ``string`` and ``enum``: a switch, free text, one of a few words."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from crewgate.codes import Code, Findings
from crewgate.jsonsafe import quoted
from crewgate.spec.params.base import (
    INVALID,
    CrewContext,
    FillRequest,
    JsonSchema,
    ParamKind,
    register_kind,
)
from crewgate.text.request import RequestFacts


@register_kind
class BooleanParam(ParamKind):
    codes: ClassVar[frozenset[Code]] = frozenset({Code.BAD_ARGUMENT})
    stated: ClassVar[bool] = False  # a switch is not a value a request states

    type: Literal["boolean"] = Field(description="true or false.")
    default: bool | None = Field(None, description="Value used when the plan leaves it out.")

    def read_value(self, name: str, raw: Any, ctx: CrewContext, f: Findings, where: str) -> Any:
        if isinstance(raw, bool):
            return raw
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be true or false, got {quoted(raw)}")
        return INVALID

    def type_text(self) -> str:
        return "true or false"

    def json_schemas(self, name: str, ctx: CrewContext) -> dict[str, JsonSchema]:
        return {name: {"type": "boolean"}}


def _read_text(name: str, raw: Any, f: Findings, where: str) -> str | None:
    if isinstance(raw, str):
        return raw
    f.add(Code.BAD_ARGUMENT, f"{where}: {name} must be a string, got {quoted(raw)}")
    return None


@register_kind
class StringParam(ParamKind):
    type: Literal["string"] = Field(description="Free text (e.g. a message to speak).")
    max_length: int = Field(200, ge=1, le=10_000, description="Longest accepted value.")
    default: str | None = Field(None, description="Value used when the plan leaves it out.")

    def read_value(self, name: str, raw: Any, ctx: CrewContext, f: Findings, where: str) -> Any:
        text = _read_text(name, raw, f, where)
        if text is None:
            return INVALID
        if len(text) > self.max_length:
            f.add(Code.BAD_ARGUMENT, f"{where}: {name} is longer than {self.max_length} "
                  "characters")
            return INVALID
        return text

    def contains(self, value: Any, facts: RequestFacts, ctx: CrewContext) -> bool:
        return facts.states_words(str(value))

    def type_text(self) -> str:
        return f"text of at most {self.max_length} characters"

    def json_schemas(self, name: str, ctx: CrewContext) -> dict[str, JsonSchema]:
        return {name: {"type": "string", "maxLength": self.max_length}}


@register_kind
class EnumParam(ParamKind):
    type: Literal["enum"] = Field(description="One of a fixed set of words.")
    values: list[str] = Field(min_length=1, description="The accepted values.")
    default: str | None = Field(None, description="Value used when the plan leaves it out.")

    @model_validator(mode="after")
    def _default_is_a_value(self) -> EnumParam:
        if self.default is not None and self.default not in self.values:
            raise ValueError(f"default {self.default!r} is not one of {self.values}")
        return self

    def read_value(self, name: str, raw: Any, ctx: CrewContext, f: Findings, where: str) -> Any:
        text = _read_text(name, raw, f, where)
        if text is None:
            return INVALID
        if text in self.values:
            return text
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} {quoted(text)} is not one of "
              f"{', '.join(self.values)}")
        return INVALID

    def contains(self, value: Any, facts: RequestFacts, ctx: CrewContext) -> bool:
        return facts.states_words(str(value))

    def type_text(self) -> str:
        return "one of " + ", ".join(self.values)

    def json_schemas(self, name: str, ctx: CrewContext) -> dict[str, JsonSchema]:
        return {name: {"type": "string", "enum": list(self.values)}}

    def fill(self, name: str, request: FillRequest, *, required: bool) -> Any:
        stated = [v for v in self.values if request.facts.states_words(v)]
        return stated[0] if len(stated) == 1 else None
