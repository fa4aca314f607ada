"""One source, by construction: every rule of the crew spec is one object that renders itself for
the planner and is checked by the gate. This walks every rule class (every subclass of
``crewgate.spec.base.Rule``, every registered parameter kind included) and proves, for each:

- it is rendered through its own ``describe``: replace it, and the planner's context changes;
- it is checked through its own ``check``: the gate calls it on a plan that breaks the rule,
  and the verdict carries exactly the code the rule declares;
- nothing is left out: a new rule class without an example here fails the test.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from crewgate.codes import Code
from crewgate.conditions import Knowledge
from crewgate.gate import Gate, PlanVerdict
from crewgate.gate.gate import GATE_CODES
from crewgate.plan import parse_plan
from crewgate.render import render_context
from crewgate.spec import Crew, load_crew
from crewgate.spec.base import Rule
from crewgate.spec.params import PARAM_KINDS, ParamKind
from crewgate.world import World
from tests.conftest import sim_world

CREW = Path(__file__).parent / "data" / "crews" / "every_rule.yaml"
GO_DOCK = {"robot": "bot", "skill": "go", "args": {"place": "dock"}}


def say(**args: Any) -> dict[str, Any]:
    return {"robot": "bot", "skill": "say", "args": {"text": "hi", **args}}


@dataclass(frozen=True)
class Example:
    """A plan that breaks the rule, and the codes of each step (then of the plan) it earns."""

    request: str
    steps: list[dict[str, Any]]
    codes: list[list[str]]
    workflow: str = "errand"
    plan_codes: list[str] = field(default_factory=list)
    world: Callable[[World], None] | None = None


def _not_ready(world: World) -> None:
    world.update("bot", ready=False)


EXAMPLES: dict[str, Example] = {
    "Areas": Example("drive to x 3, y 3", [
        {"robot": "bot", "skill": "goto_point", "args": {"x": 3, "y": 3}}],
        [["out_of_bounds"]], workflow="survey"),
    "Binding": Example("go to the dock and follow the target", [
        GO_DOCK, {"robot": "bot", "skill": "follow", "args": {"who": "target"}}],
        [[], ["no_target_fix"]]),
    "Skill": Example("go to the dock", [
        {"robot": "bot", "skill": "go", "args": {"place": "dock", "speed": 2}}],
        [["unexpected_argument"]]),
    "Condition": Example("go to the dock", [GO_DOCK], [["precondition_failed"]],
                         world=_not_ready),
    "ArgRule": Example("go to the dock", [
        {"robot": "bot", "skill": "go", "args": {"place": "pad"}}], [["substituted_value"]]),
    "StepRule": Example("go to the dock and say hi", [GO_DOCK, say(), say(), say()],
                        [[], [], [], ["cardinality"]]),
    "OrderRule": Example("say hi at the dock", [say(), GO_DOCK], [["order_violation"], []]),
    "Workflow": Example("go to the dock, then drive to x 1, y 1", [
        GO_DOCK, {"robot": "bot", "skill": "goto_point", "args": {"x": 1, "y": 1}}],
        [[], ["bad_assignment"]]),
    "Intent": Example("go to the dock", [GO_DOCK, say()], [[], ["unrequested_step"]]),
    "NumberParam": Example("go to the dock and say hi", [GO_DOCK, say(speed=5)],
                           [[], ["out_of_range"]]),
    "IntegerParam": Example("go to the dock and say hi", [GO_DOCK, say(repeat=2.5)],
                            [[], ["bad_argument"]]),
    "BooleanParam": Example("go to the dock and say hi", [GO_DOCK, say(loud="yes")],
                            [[], ["bad_argument"]]),
    "StringParam": Example("go to the dock and say hi", [GO_DOCK, say(text="x" * 30)],
                           [[], ["bad_argument"]]),
    "EnumParam": Example("go to the dock and say hi", [GO_DOCK, say(volume="medium")],
                         [[], ["bad_argument"]]),
    "LocationParam": Example("go to the garage", [
        {"robot": "bot", "skill": "go", "args": {"place": "garage"}}], [["unknown_location"]]),
    "ObjectParam": Example("go to the dock and fetch the ball", [
        GO_DOCK, {"robot": "bot", "skill": "fetch", "args": {"item": "ball"}}],
        [[], ["unknown_object"]]),
    "BindingParam": Example("go to the dock and follow the victim", [
        GO_DOCK, {"robot": "bot", "skill": "follow", "args": {"who": "victim"}}],
        [[], ["bad_argument"]]),
    "PointParam": Example("drive to x 3", [
        {"robot": "bot", "skill": "goto_point", "args": {"x": 3}}],
        [["missing_arg"]], workflow="survey"),
    "ZoneParam": Example("go to the dock and sweep x 5 to 1, y 0 to 2", [
        GO_DOCK, {"robot": "bot", "skill": "sweep", "args": {"zone": [5, 1, 0, 2]}}],
        [[], ["bad_argument"]]),
}


def rule_classes() -> list[type[Rule]]:
    """Every concrete rule class: the registered parameter kinds, and every other subclass of
    Rule that is not a parameter kind."""
    def walk(cls: type[Rule]) -> Iterator[type[Rule]]:
        for sub in cls.__subclasses__():
            yield sub
            yield from walk(sub)

    def public(cls: type) -> bool:  # not a stale class (a slots dataclass replaces its own)
        return getattr(sys.modules[cls.__module__], cls.__name__, None) is cls

    others = [c for c in walk(Rule) if not issubclass(c, ParamKind) and public(c)]
    return [*dict.fromkeys(others), *PARAM_KINDS.values()]


@pytest.fixture(scope="module")
def crew() -> Crew:
    return load_crew(CREW)


def verdict(crew: Crew, example: Example) -> PlanVerdict:
    world = sim_world(crew)
    if example.world is not None:
        example.world(world)
    plan = parse_plan({"workflow": example.workflow, "steps": example.steps})
    return Gate(crew).validate(plan, example.request, world)


def test_every_rule_class_has_an_example() -> None:
    assert sorted(c.__name__ for c in rule_classes()) == sorted(EXAMPLES)


def test_every_code_belongs_to_a_rule_or_to_the_gate() -> None:
    owned = set(GATE_CODES).union(*(c.codes for c in rule_classes()))
    assert sorted(c.value for c in set(Code) - owned) == []
    assert sorted(c.value for c in owned - set(Code)) == []


@pytest.mark.parametrize("rule", rule_classes(), ids=lambda c: c.__name__)
def test_the_rule_is_rendered_by_its_own_describe(
    crew: Crew, rule: type[Rule], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = render_context(crew, Knowledge.CONTRACTS)
    marker = f"<{rule.__name__} describes itself>"
    monkeypatch.setattr(rule, "describe", lambda self, *args, **kwargs: marker)
    after = render_context(crew, Knowledge.CONTRACTS)
    assert marker not in before
    assert marker in after


@pytest.mark.parametrize("rule", rule_classes(), ids=lambda c: c.__name__)
def test_the_rule_is_checked_by_its_own_check(
    crew: Crew, rule: type[Rule], monkeypatch: pytest.MonkeyPatch
) -> None:
    example = EXAMPLES[rule.__name__]
    calls: list[type] = []
    original = rule.check  # type: ignore[attr-defined]

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(type(self))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(rule, "check", spy)
    v = verdict(crew, example)
    assert [s.codes for s in v.steps] == example.codes, v.to_json()
    assert [p.code.value for p in v.problems] == example.plan_codes
    assert rule in calls
    broken = {c for step in example.codes for c in step}
    assert broken <= {c.value for c in rule.codes}, (broken, rule.codes)


def test_the_examples_are_accepted_once_repaired(crew: Crew) -> None:
    """The crew itself is sound: a plan that follows every rule is accepted."""
    ok = Example("go to the dock, fetch the crate and say hi", [
        GO_DOCK, {"robot": "bot", "skill": "fetch", "args": {"item": "box"}},
        say(volume="high", loud=True, repeat=2, speed=0.5)], [[], [], []])
    v = verdict(crew, ok)
    assert v.accepted, v.to_json()
