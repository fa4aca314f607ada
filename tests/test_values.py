"""crewgate.values.quick_init: the quick ``__init__`` of a frozen value class takes exactly the
parameters the dataclass's own would, builds an equal value, and leaves it frozen."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from crewgate.codes import Code, Problem
from crewgate.gate.verdict import PlanVerdict, StepVerdict
from crewgate.spec.intent import Held
from crewgate.text.request import RequestFacts
from crewgate.values import quick_init

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
