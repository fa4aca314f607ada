"""crewgate.values: the quick ``__init__`` of a frozen value class takes exactly the parameters
the dataclass's own would, builds an equal value, and leaves it frozen; the named tuples built
through ``tuple_of`` have every field."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Any

import pytest

from crewgate.adapters.sim import SimAdapter
from crewgate.codes import Code, Problem
from crewgate.gate import Gate
from crewgate.gate.verdict import PlanVerdict, StepVerdict
from crewgate.plan import Plan, parse_plan
from crewgate.spec import load_crew
from crewgate.spec.intent import Held
from crewgate.text.intent import Reading
from crewgate.text.request import RequestFacts
from crewgate.text.tokens import head_of
from crewgate.values import quick_init

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

QUICK = (Problem, StepVerdict, PlanVerdict, Held, RequestFacts)


def _plain(cls: type) -> type:
    """The same fields as a frozen dataclass with the generated ``__init__``."""
    return dataclasses.make_dataclass(
        cls.__name__, [(f.name, f.type, f) if f.default is not dataclasses.MISSING
                       else (f.name, f.type) for f in dataclasses.fields(cls)],
        frozen=True, slots=True)


@pytest.mark.parametrize("cls", QUICK, ids=lambda c: c.__name__)
def test_the_quick_init_takes_the_dataclass_parameters(cls: type) -> None:
    assert vars(cls)["__init__"].__qualname__ == f"{cls.__qualname__}.__init__"
    assert list(inspect.signature(cls).parameters.values()) == [
        p.replace(annotation=inspect.Parameter.empty)
        for p in inspect.signature(_plain(cls)).parameters.values()]


def test_a_quick_value_is_the_value_and_stays_frozen() -> None:
    step = StepVerdict(2, "tb3", "stop")
    assert (step.index, step.robot, step.skill, step.problems, step.deferred, step.skip) == (
        2, "tb3", "stop", (), (), False)
    problem = Problem(Code.CARDINALITY, "twice", index=1)
    assert problem == Problem(Code.CARDINALITY, "twice", 1)
    assert hash(problem) == hash(Problem(Code.CARDINALITY, "twice", 1))
    assert repr(problem) == "Problem(code=<Code.CARDINALITY: 'cardinality'>, detail='twice', " \
                            "index=1)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.detail = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'detail'"):
        Problem(Code.CARDINALITY)  # type: ignore[call-arg]


def test_quick_init_refuses_a_class_it_cannot_build() -> None:
    @dataclasses.dataclass(slots=True)
    class Loose:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError, match="Loose: quick_init is for frozen, slotted dataclasses"):
        quick_init(Loose)
    with pytest.raises(TypeError, match="Checked: quick_init takes no __post_init__"):
        quick_init(Checked)


def _whole(value: tuple[object, ...]) -> None:
    """A named tuple built through ``tuple_of`` has every field: the class builds the same."""
    cls: Any = type(value)
    assert len(value) == len(cls._fields)
    assert cls(*value) == value


def test_named_tuples_built_through_tuple_of_have_every_field() -> None:
    """Every call site of ``tuple_of`` hands over every field (it checks no arity): the values
    the gate keeps after validating a plan, and the reader's mentions and tokens."""
    crew = load_crew("sar")
    gate = Gate(crew)
    plan = parse_plan((EXAMPLES / "sar_search_and_dispatch.json").read_text(encoding="utf-8"))
    assert isinstance(plan, Plan)
    request = ("Search the zone x from -5.5 to 5.5, y from -5.5 to 5.5 with the drone, "
               "then send the rover to the victim; do not send anything else.")
    world = SimAdapter(crew, None).world
    gate.validate(plan, request, world)
    [settled] = gate.settled_plans._kept.values()
    _whole(settled)
    assert len(settled.steps) == len(plan.steps)
    for step in settled.steps:
        _whole(step)
        assert step.planned is not None
        _whole(step.planned)
    mentions = [m for table in (gate.intent.robots, gate.intent.skills)
                for m in Reading(request).mentions(table)]
    assert [(m.phrase, m.negated) for m in mentions] == [
        ("drone", None), ("rover", None), ("search", None), ("send", None),
        ("send", "do not send")]
    for mention in mentions:
        _whole(mention)
    tokens = head_of(", y from the", {(",",), (",", "y"), (",", "y", "from")})
    assert tokens == [(",", 0, 1, False), ("y", 2, 3, True), ("from", 4, 8, True),
                      ("the", 9, 12, True)]  # the sequence, and the token after it
    for token in tokens:
        _whole(token)
