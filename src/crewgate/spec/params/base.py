"""What every parameter kind is: one object that reads a plan's value (the gate), tests whether
the request states it (request containment), describes itself (the planner's prompt), gives its
JSON Schema (structured output), fills itself from a request (the offline planner) and names
the crew entries it refers to (the loader's cross-references).

The framework part lives here: :meth:`ParamKind.check` handles an absent value before a kind's
:meth:`ParamKind.read_value` sees it; :meth:`ParamKind.describe` composes the prompt line
around a kind's :meth:`ParamKind.type_text`. A kind registers itself with :func:`register_kind`;
``Param`` (the type of ``Skill.params``) is the union of every registered kind, discriminated by
``type``, so a new kind is one module and nothing else changes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import Field, GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from crewgate.codes import Code, Findings
from crewgate.spec.base import Rule, Sentinel, SpecModel, SpecPath
from crewgate.spec.places import Areas
from crewgate.text.request import RequestFacts
from crewgate.text.vocabulary import Vocabulary

if TYPE_CHECKING:
    from crewgate.spec.crew import Crew

JsonSchema = dict[str, Any]
# The kind of request value a parameter takes, as the offline planner weighs them.
Slot = Literal["point", "zone", "location", "object"]
Offer = Literal["known", "unknown"]  # a request states a crew value / one the crew does not know


MISSING: Any = Sentinel("MISSING")  # the plan does not give the parameter
INVALID: Any = Sentinel("INVALID")  # the plan gives it, and the value is refused


@dataclass(frozen=True, slots=True)
class CrewContext:
    """What parameter kinds need to know of their crew: the areas, and the names (with aliases)
    of its locations and objects. Built once per crew (``Crew.context``)."""

    areas: Areas
    locations: Vocabulary
    objects: Vocabulary

    @classmethod
    def of(cls, crew: Crew) -> CrewContext:
        return cls(crew.area, Vocabulary.build("location", crew.locations),
                   Vocabulary.build("object", crew.objects))


@dataclass(frozen=True, slots=True)
class FillRequest:
    """A request as the offline planner fills parameters from it."""

    facts: RequestFacts
    ctx: CrewContext
    actions: frozenset[str] = frozenset()  # words that end no object phrase ("wave", "stop")
    # places and objects the request rules out or takes back ("room_a, no wait, room_b"):
    # never filled in, where the request names another
    ruled_out: frozenset[str] = frozenset()
    # things the request names as alternatives ("the cube or the bottle"): the first named is
    # filled in (of several things named otherwise, the planner chooses none)
    alternatives: tuple[frozenset[str], ...] = ()


class ParamKind(SpecModel, Rule, ABC):
    """A typed skill parameter. Subclasses declare ``type: Literal[...]`` and their own fields,
    and implement the hooks; the framework methods are not overridden."""

    type: str
    description: str = Field("", description="What the parameter means, shown to the planner.")
    required: bool | None = Field(
        None,
        description="Whether a plan must give it. Default: required unless it has a default or "
        "belongs to a one_of group of its skill.",
    )
    from_request: bool = Field(
        False,
        description="Request containment in every workflow: a value the plan gives must be one the "
        "request states (by name, alias or number); a value the request states cannot be "
        "replaced or left out.",
    )

    codes: ClassVar[frozenset[Code]] = frozenset({Code.BAD_ARGUMENT, Code.SUBSTITUTED_VALUE})
    # What this kind is, for the offline planner's scoring (None: not weighed) ...
    slot: ClassVar[Slot | None] = None
    # ... whether a request can state its values (containment applies) ...
    stated: ClassVar[bool] = True
    # ... whether a workflow's numeric `range` rule applies to it ...
    numeric: ClassVar[bool] = False
    # ... and whether its value names a runtime binding, resolved and checked at dispatch.
    runtime: ClassVar[bool] = False

    # -- framework -------------------------------------------------------------------------------

    @property
    def default_value(self) -> Any:
        """The declared default, or None (for kinds that have no default field)."""
        return self.__dict__.get("default")

    def plan_fields(self, name: str) -> tuple[str, ...]:
        """The plan argument names that carry this parameter (one, unless flattened)."""
        return (name,)

    def as_args(self, name: str, value: Any) -> dict[str, Any]:
        """The plan arguments that carry a typed value (the inverse of reading them)."""
        return {name: value}

    def check(self, name: str, args: Mapping[str, Any], ctx: CrewContext, f: Findings,
             where: str) -> Any:
        """The typed value from plan ``args``: MISSING when absent, INVALID when refused (with
        the reason added to ``f``). A value may be typed and still carry a finding
        (``out_of_bounds``): later checks can use it."""
        raw = args.get(name)
        if raw is None:
            return MISSING
        return self.read_value(name, raw, ctx, f, where)

    def describe(self, name: str, required: bool) -> str:
        """The parameter as the planner is told it: ``name?: type, default ..., (meaning)``."""
        fields = self.plan_fields(name)
        label = ", ".join(fields) if len(fields) > 1 else name
        text = f"{label}{'' if required else '?'}: {self.type_text()}"
        if self.default_value is not None:
            text += f", default {_literal(self.default_value)}"
        if self.from_request:
            text += ", exactly as the request states it"
        if self.description:
            text += f" ({self.description})"
        return text

    # -- hooks: the gate -------------------------------------------------------------------------

    @abstractmethod
    def read_value(self, name: str, raw: Any, ctx: CrewContext, f: Findings, where: str) -> Any:
        """A present plan value as its typed value, or INVALID with a finding."""

    def check_stated(self, name: str, value: Any, facts: RequestFacts, ctx: CrewContext,
                     f: Findings, where: str) -> None:
        """Request containment of a typed value the plan gave (``from_request`` here, or in a
        workflow's argument rule): a value the request does not state is a substitution."""
        if self.stated and not self.contains(value, facts, ctx):
            f.add(Code.SUBSTITUTED_VALUE, f"{where}: {name} {self.show(value)} is not what the "
                  "request states")

    def contains(self, value: Any, facts: RequestFacts, ctx: CrewContext) -> bool:
        """Whether the request states this typed value (request containment)."""
        return True

    def show(self, value: Any) -> str:
        """A typed value as verdict details write it."""
        return repr(value)

    # -- hooks: the planner's prompt and structured output ----------------------------------------

    @abstractmethod
    def type_text(self) -> str:
        """What values the parameter takes, for the prompt: "number in [0.5, 10] m"."""

    @abstractmethod
    def json_schemas(self, name: str, ctx: CrewContext) -> dict[str, JsonSchema]:
        """The JSON Schema of each plan argument carrying the parameter."""

    # -- hooks: the offline planner ------------------------------------------------------------

    def fill(self, name: str, request: FillRequest, *, required: bool) -> Any:
        """The value the request states for this parameter, or None. Never invents one."""
        return None

    def offer(self, request: FillRequest) -> Offer | None:
        """Whether the request states a value of this kind, known to the crew or not."""
        return None

    def fillable(self, facts: RequestFacts) -> bool:
        """Whether the request could fill it (choosing a skill's one_of group)."""
        return True

    # -- hooks: the crew's cross-references --------------------------------------------------------

    def problems(self, crew: Crew, path: SpecPath) -> Iterator[tuple[SpecPath, str]]:
        """What is wrong with the parameter in its crew: references to entries that do not
        exist (a kind's ``references``), a containment rule on values no request states."""
        if self.from_request and not self.stated:
            yield (*path, "from_request"), (f"a {self.type} parameter is never stated in a "
                                            "request; remove from_request")
        yield from self.references(crew, path)

    def references(self, crew: Crew, path: SpecPath) -> Iterator[tuple[SpecPath, str]]:
        """References to crew entries that do not exist."""
        return iter(())

    def accepts_binding(self, name: str) -> bool:
        """Whether the parameter refers to runtime binding ``name`` (a `bind` rule needs it)."""
        return False


def _literal(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def number_text(value: float | None) -> str:
    """A bound as details write it (None: unbounded below)."""
    return "-inf" if value is None else f"{value:g}"


# -- the registry ---------------------------------------------------------------------------------

PARAM_KINDS: dict[str, type[ParamKind]] = {}
_rebuilders: list[Callable[[], None]] = []
K = TypeVar("K", bound=type[ParamKind])


def register_kind(kind: K) -> K:
    """Add a parameter kind (a class decorator). The spec models are rebuilt, so a kind
    registered after they were built is accepted from then on."""
    model: type[ParamKind] = kind
    tag = model.model_fields["type"].annotation
    values: tuple[object, ...] = getattr(tag, "__args__", ())
    if len(values) != 1 or not isinstance(values[0], str):
        raise TypeError(f"{kind.__name__}.type must be Literal['name'], got {tag!r}")
    PARAM_KINDS[values[0]] = kind
    for rebuild in _rebuilders:
        rebuild()
    return kind


def unregister_kind(tag: str) -> None:
    """Remove a registered kind (a plugin unloaded, a test's own kind); the models are rebuilt."""
    del PARAM_KINDS[tag]
    for rebuild in _rebuilders:
        rebuild()


def on_new_kind(rebuild: Callable[[], None]) -> None:
    """Called by the models that hold parameters, so that a new kind reaches them."""
    _rebuilders.append(rebuild)


class _ParamUnion:
    """The pydantic type of a parameter: the union of the registered kinds, tagged by type."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        choices: dict[Any, CoreSchema] = {
            tag: handler.generate_schema(kind) for tag, kind in PARAM_KINDS.items()}
        return core_schema.tagged_union_schema(choices, discriminator="type")


Param = Annotated[ParamKind, _ParamUnion]
