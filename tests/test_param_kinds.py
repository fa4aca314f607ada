"""Parameter kinds are one object each: a new kind is one class, and every surface (the loader,
the gate, the planner's prompt, the plan's JSON Schema, the offline planner's slot filling, the
field reference) takes it without another change. And what the JSON Schema allows of a kind is
what the gate accepts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import jsonschema
import pytest
import yaml

from crewgate.codes import Code, Findings
from crewgate.conditions import Knowledge
from crewgate.gate import Gate
from crewgate.plan import parse_plan
from crewgate.planners.exemplar.slots import fill_args
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew, load_crew, parse_crew
from crewgate.spec.params import (
    INVALID,
    PARAM_KINDS,
    CrewContext,
    FillRequest,
    JsonSchema,
    ParamKind,
    register_kind,
    unregister_kind,
)
from crewgate.spec.reference import render_reference
from crewgate.text import RequestFacts
from tests.conftest import sim_world

EVERY_RULE = Path(__file__).parent / "data" / "crews" / "every_rule.yaml"
COLOURS = ("red", "green", "blue")


class ColourParam(ParamKind):
    """A toy kind, defined here and nowhere else: a colour the request must state."""

    type: Literal["colour"]
    bright: bool = False

    def read_value(self, name: str, raw: Any, ctx: CrewContext, f: Findings, where: str) -> Any:
        if raw in COLOURS:
            return raw
        f.add(Code.BAD_ARGUMENT, f"{where}: {name} {raw!r} is not a colour")
        return INVALID

    def contains(self, value: Any, facts: RequestFacts, ctx: CrewContext) -> bool:
        return facts.states_words(str(value))

    def type_text(self) -> str:
        return "a colour: " + ", ".join(COLOURS) + (" (bright)" if self.bright else "")

    def json_schemas(self, name: str, ctx: CrewContext) -> dict[str, JsonSchema]:
        return {name: {"type": "string", "enum": list(COLOURS)}}

    def fill(self, name: str, request: FillRequest, *, required: bool) -> Any:
        stated = [c for c in COLOURS if request.facts.states_words(c)]
        return stated[0] if len(stated) == 1 else None


@pytest.fixture
def colour() -> Iterator[type[ColourParam]]:
    register_kind(ColourParam)
    try:
        yield ColourParam
    finally:
        unregister_kind("colour")


def _painter() -> Crew:
    data: dict[str, Any] = yaml.safe_load(EVERY_RULE.read_text(encoding="utf-8"))
    data["name"] = "painter"
    data["robots"]["bot"]["skills"]["paint"] = {
        "description": "Paint the rover.", "duration_s": 1, "timeout_s": 5,
        "params": {"shade": {"type": "colour", "bright": True, "from_request": True}}}
    data["workflows"]["errand"]["steps"]["bot.paint"] = {"count": "0..1"}
    return parse_crew(yaml.safe_dump(data), "<painter>")


def test_a_kind_defined_in_a_test_reaches_every_surface(colour: type[ColourParam]) -> None:
    crew = _painter()
    shade = crew.robots["bot"].skills["paint"].params["shade"]
    assert isinstance(shade, colour)
    # the planner's prompt, from the kind's own text
    assert ("bot.paint(shade: a colour: red, green, blue (bright), exactly as the request "
            "states it)") in render_context(crew, Knowledge.REGISTRY)
    # the plan's JSON Schema
    schema = plan_json_schema(crew, Knowledge.REGISTRY)
    paint = next(s for s in schema["properties"]["steps"]["items"]["anyOf"]
                 if s["properties"]["skill"]["const"] == "paint")
    assert paint["properties"]["args"]["properties"] == {
        "shade": {"type": "string", "enum": ["red", "green", "blue"]}}
    # the gate: typing, and request containment through the kind's own `contains`
    gate, world = Gate(crew), sim_world(crew)

    def codes(request: str, shade: str) -> list[list[str]]:
        plan = parse_plan({"workflow": "errand", "steps": [
            {"robot": "bot", "skill": "go", "args": {"place": "dock"}},
            {"robot": "bot", "skill": "paint", "args": {"shade": shade}}]})
        return [s.codes for s in gate.validate(plan, request, world).steps]

    assert codes("go to the dock and paint it green", "green") == [[], []]
    assert codes("go to the dock and paint it green", "red") == [[], ["substituted_value"]]
    assert codes("go to the dock and paint it green", "mauve") == [[], ["bad_argument"]]
    # the offline planner's slot filling
    facts = RequestFacts.read("go to the dock and paint it blue")
    args = fill_args(crew, crew.workflows["errand"], "bot.paint",
                     FillRequest(facts, crew.context))
    assert args == {"shade": "blue"}
    # the field reference
    assert "### Parameter `type: colour`" in render_reference()


def test_an_unregistered_kind_is_a_spec_error_naming_the_known_ones() -> None:
    from crewgate.errors import SpecError

    with pytest.raises(SpecError) as caught:
        _painter()
    text = str(caught.value)
    assert "robots.bot.skills.paint.params.shade" in text
    assert "'colour'" in text
    assert "colour" not in PARAM_KINDS


# -- what the schema allows is what the gate accepts ------------------------------------------

# (skill, arguments) the schema and the gate both accept / both refuse, for every kind
VALID: list[tuple[str, dict[str, Any]]] = [
    ("say", {"text": "hi", "volume": "high", "loud": True, "repeat": 3, "speed": 2}),
    ("go", {"place": "pad"}),
    ("fetch", {"item": "crate"}),
    ("follow", {"who": "target"}),
    ("goto_point", {"x": -10, "y": 10}),
    ("sweep", {"zone": [-1, 1, -1, 1]}),
]
INVALID_ARGS: list[tuple[str, dict[str, Any]]] = [
    ("say", {"text": "x" * 21}),
    ("say", {"text": "hi", "volume": "medium"}),
    ("say", {"text": "hi", "loud": "yes"}),
    ("say", {"text": "hi", "repeat": 4}),
    ("say", {"text": "hi", "repeat": 1.5}),
    ("say", {"text": "hi", "speed": -1}),
    ("say", {"text": "hi", "speed": "fast"}),
    ("go", {"place": "garage"}),
    ("fetch", {"item": "ball"}),
    ("follow", {"who": "victim"}),
    ("goto_point", {"x": 11, "y": 0}),
    ("goto_point", {"x": 1}),
    ("sweep", {"zone": [-1, 1, -1]}),
    ("say", {"text": "hi", "pitch": 3}),
]


def _schema_accepts(crew: Crew, skill: str, args: dict[str, Any]) -> bool:
    step = {"robot": "bot", "skill": skill, "args": args}
    schema = plan_json_schema(crew, Knowledge.REGISTRY)
    return jsonschema.Draft202012Validator(schema).is_valid(
        {"workflow": "errand", "steps": [step]})


def _gate_accepts(crew: Crew, skill: str, args: dict[str, Any]) -> bool:
    """Typing alone: the skill's own check of its arguments (no contract, no request)."""
    f = Findings(0)
    checked = crew.robots["bot"].skills[skill].check(args, crew.context, f, f"bot.{skill}")
    return checked is not None and not f


@pytest.mark.parametrize(("skill", "args"), VALID, ids=[s for s, _ in VALID])
def test_valid_arguments_pass_schema_and_gate(skill: str, args: dict[str, Any]) -> None:
    crew = load_crew(EVERY_RULE)
    assert (_schema_accepts(crew, skill, args), _gate_accepts(crew, skill, args)) == (True, True)


@pytest.mark.parametrize(("skill", "args"), INVALID_ARGS,
                         ids=[f"{s}-{'-'.join(a)}" for s, a in INVALID_ARGS])
def test_invalid_arguments_fail_schema_and_gate(skill: str, args: dict[str, Any]) -> None:
    crew = load_crew(EVERY_RULE)
    assert (_schema_accepts(crew, skill, args),
            _gate_accepts(crew, skill, args)) == (False, False)


def test_every_registered_kind_is_exercised_here() -> None:
    crew = load_crew(EVERY_RULE)
    used = {type(p).__name__ for s in crew.robots["bot"].skills.values()
            for p in s.params.values()}
    assert sorted(used) == sorted(k.__name__ for k in PARAM_KINDS.values())


def test_kinds_declare_the_codes_they_give() -> None:
    assert {k.__name__: sorted(c.value for c in k.codes) for k in PARAM_KINDS.values()} == {
        "BindingParam": ["bad_argument"],
        "BooleanParam": ["bad_argument"],
        "StringParam": ["bad_argument", "substituted_value"],
        "EnumParam": ["bad_argument", "substituted_value"],
        "PointParam": ["bad_argument", "missing_arg", "substituted_value"],
        "ZoneParam": ["bad_argument", "missing_arg", "substituted_value"],
        "LocationParam": ["bad_argument", "substituted_value", "unknown_location"],
        "ObjectParam": ["bad_argument", "substituted_value", "unknown_object"],
        "NumberParam": ["bad_argument", "out_of_range", "substituted_value"],
        "IntegerParam": ["bad_argument", "out_of_range", "substituted_value"],
    }
