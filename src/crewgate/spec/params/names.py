"""Parameter kinds ``location`` and ``object``: a crew name or alias, resolved to its canonical
name, optionally restricted to some of the crew's entries."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from crewgate.codes import Code, Findings
from crewgate.jsonsafe import quoted
from crewgate.spec.base import Name, SpecPath
from crewgate.spec.params.base import (
    INVALID,
    CrewContext,
    FillRequest,
    JsonSchema,
    Offer,
    ParamKind,
    Slot,
    register_kind,
)
from crewgate.suggest import names_of
from crewgate.text.phrases import DEST, OBJECT, SOURCE, candidates, quote
from crewgate.text.request import RequestFacts
from crewgate.text.vocabulary import Vocabulary

if TYPE_CHECKING:
    from crewgate.spec.crew import Crew


class _NamedParam(ParamKind):
    noun: ClassVar[str]  # "location", "object"
    unknown: ClassVar[Code]

    among: list[Name] | None
    default: str | None

    @abstractmethod
    def vocabulary(self, ctx: CrewContext) -> Vocabulary:
        """The crew's names of this kind."""

    @abstractmethod
    def entries(self, crew: Crew) -> dict[str, Any]:
        """The crew's entries of this kind, by name."""

    def read_value(self, name: str, raw: Any, ctx: CrewContext, f: Findings, where: str) -> Any:
        vocab = self.vocabulary(ctx)
        canonical = vocab.resolve(raw) if isinstance(raw, str) else None
        if canonical is None:
            shown = names_of(tuple(vocab.phrases)).listing(raw if isinstance(raw, str) else "")
            f.add(self.unknown, f"{where}: {name} {quoted(raw)} is not a known {self.noun} "
                  f"(known: {shown})")
            return INVALID
        if self.among is not None and canonical not in self.among:
            f.add(Code.BAD_ARGUMENT, f"{where}: {name} {canonical!r} is not accepted here "
                  f"(accepted: {', '.join(self.among)})")
            return INVALID
        return canonical

    def contains(self, value: Any, facts: RequestFacts, ctx: CrewContext) -> bool:
        return self.vocabulary(ctx).stated_in(facts, value)

    def type_text(self) -> str:
        article = "an" if self.noun[0] in "aeiou" else "a"
        among = f" among {', '.join(self.among)}" if self.among else ""
        return f"{article} {self.noun} name{among}"

    def json_schemas(self, name: str, ctx: CrewContext) -> dict[str, JsonSchema]:
        names = self.among or list(self.vocabulary(ctx).phrases)
        return {name: {"type": "string", "enum": list(names)}}

    def references(self, crew: Crew, path: SpecPath) -> Iterator[tuple[SpecPath, str]]:
        from crewgate.errors import did_you_mean

        known = self.entries(crew)
        for i, entry in enumerate(self.among or []):
            if entry not in known:
                yield (*path, "among", i), (f"unknown {self.noun} {entry!r}"
                                            f"{did_you_mean(entry, known)}")
        if self.default is not None and self.default not in known:
            yield (*path, "default"), (f"unknown {self.noun} {self.default!r}"
                                       f"{did_you_mean(self.default, known)}")


@register_kind
class LocationParam(_NamedParam):
    codes: ClassVar[frozenset[Code]] = ParamKind.codes | {Code.UNKNOWN_LOCATION}
    noun: ClassVar[str] = "location"
    unknown: ClassVar[Code] = Code.UNKNOWN_LOCATION
    slot: ClassVar[Slot | None] = "location"

    type: Literal["location"] = Field(description="A crew location, by name or alias.")
    among: list[Name] | None = Field(
        None, description="Restrict to these crew locations (default: every crew location)."
    )
    default: str | None = Field(None, description="Location used when the plan leaves it out.")

    def vocabulary(self, ctx: CrewContext) -> Vocabulary:
        return ctx.locations

    def entries(self, crew: Crew) -> dict[str, Any]:
        return dict(crew.locations)

    def fill(self, name: str, request: FillRequest, *, required: bool) -> Any:
        """A required location is where the request goes (its destination); an optional one
        is only where it comes from, when that is a crew location."""
        places = request.ctx.locations
        if not required:
            return quote(SOURCE, request.facts.text, places, known_only=True)
        named = _kept(places.named_in(request.facts), request.ruled_out)
        target = quote(DEST, request.facts.text, places)
        if len(named) == 1:
            return named[0]
        if named:
            return target if target in named else named[-1]
        return target  # a place the crew does not know stays unknown: the gate refuses it

    def offer(self, request: FillRequest) -> Offer | None:
        if request.ctx.locations.named_in(request.facts):
            return "known"
        return "unknown" if any(True for _ in candidates(DEST, request.facts.text)) else None


@register_kind
class ObjectParam(_NamedParam):
    codes: ClassVar[frozenset[Code]] = ParamKind.codes | {Code.UNKNOWN_OBJECT}
    noun: ClassVar[str] = "object"
    unknown: ClassVar[Code] = Code.UNKNOWN_OBJECT
    slot: ClassVar[Slot | None] = "object"

    type: Literal["object"] = Field(description="A crew object, by name or alias.")
    among: list[Name] | None = Field(
        None, description="Restrict to these crew objects (default: every crew object)."
    )
    default: str | None = Field(None, description="Object used when the plan leaves it out.")

    def vocabulary(self, ctx: CrewContext) -> Vocabulary:
        return ctx.objects

    def entries(self, crew: Crew) -> dict[str, Any]:
        return dict(crew.objects)

    def fill(self, name: str, request: FillRequest, *, required: bool) -> Any:
        named = _kept(request.ctx.objects.named_in(request.facts), request.ruled_out)
        if len(named) == 1:
            return named[0]
        if named:  # several: the planner does not choose, but among alternatives
            either = any(group.issuperset(named) for group in request.alternatives)
            return named[0] if either else None
        return quote(OBJECT, request.facts.text, request.ctx.objects,
                     not_ending_in=request.actions)

    def offer(self, request: FillRequest) -> Offer | None:
        if request.ctx.objects.named_in(request.facts):
            return "known"
        found = quote(OBJECT, request.facts.text, request.ctx.objects,
                      not_ending_in=request.actions)
        return "unknown" if found is not None else None


def _kept(named: list[str], ruled_out: frozenset[str]) -> list[str]:
    """The names the request states, but those it rules out, unless it rules out all of them
    (then the gate says why the one filled in is refused)."""
    kept = [n for n in named if n not in ruled_out]
    return kept or named
