"""Parameter kind ``binding``: the name of a runtime binding (the victim fix), whose value the
gate resolves and checks at the moment of dispatch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from crewgate.codes import Code, Findings
from crewgate.jsonsafe import quoted
from crewgate.spec.base import Name, SpecPath
from crewgate.spec.params.base import (
    INVALID,
    CrewContext,
    JsonSchema,
    ParamKind,
    register_kind,
)
from crewgate.text.request import RequestFacts

if TYPE_CHECKING:
    from crewgate.spec.crew import Crew


@register_kind
class BindingParam(ParamKind):
    codes: ClassVar[frozenset[Code]] = frozenset({Code.BAD_ARGUMENT})
    stated: ClassVar[bool] = False  # a reference to a value of the run, never the request's
    runtime: ClassVar[bool] = True

    type: Literal["binding"] = Field(
        description="A reference to a runtime binding, resolved and checked at dispatch.")
    bindings: list[Name] = Field(
        min_length=1, description="Runtime bindings this parameter may refer to, by name."
    )

    def read_value(self, name: str, raw: Any, ctx: CrewContext, f: Findings, where: str) -> Any:
        if isinstance(raw, str) and raw in self.bindings:
            return raw
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} {quoted(raw)} is not a runtime binding it "
              f"accepts (accepted: {', '.join(self.bindings)})")
        return INVALID

    def type_text(self) -> str:
        return "the name of a runtime binding: " + " or ".join(repr(b) for b in self.bindings)

    def json_schemas(self, name: str, ctx: CrewContext) -> dict[str, JsonSchema]:
        return {name: {"type": "string", "enum": list(self.bindings)}}

    def fillable(self, facts: RequestFacts) -> bool:
        return False  # a request never states a runtime value; a contract's `bind` gives it

    def references(self, crew: Crew, path: SpecPath) -> Iterator[tuple[SpecPath, str]]:
        from crewgate.errors import did_you_mean

        for i, binding in enumerate(self.bindings):
            if binding not in crew.bindings:
                yield (*path, "bindings", i), (f"unknown binding {binding!r}"
                                               f"{did_you_mean(binding, crew.bindings)}")

    def accepts_binding(self, name: str) -> bool:
        return name in self.bindings
