"""Bounded freshness: a binding stamped later than now plus its ``max_skew_s`` is refused with
``future_binding`` (a publisher whose clock runs ahead would otherwise stay fresh forever), and
the planner is told the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewgate.codes import Code, Findings
from crewgate.conditions import Knowledge
from crewgate.gate import Gate
from crewgate.plan import parse_plan
from crewgate.render import render_context
from crewgate.spec import Binding, load_crew
from crewgate.world import BindingValue
from tests.conftest import sim_world

EVERY_RULE = Path(__file__).parents[1] / "data" / "crews" / "every_rule.yaml"
NOW = 1000.0


def judge(binding: Binding, stamp: float) -> list[tuple[Code, str]]:
    f = Findings(None)
    crew = load_crew("sar")
    binding.check("victim", BindingValue((1.0, 1.0), stamp, 0.9), NOW, crew.area, f)
    return [(p.code, p.detail) for p in f.items]


def test_the_tolerance_has_a_small_default() -> None:
    assert Binding().max_skew_s == 0.5


@pytest.mark.parametrize("ahead", [0.0, 0.5, -30.0])
def test_a_stamp_within_the_tolerance_is_fresh(ahead: float) -> None:
    assert judge(Binding(max_age_s=60), NOW + ahead) == []


def test_a_stamp_beyond_the_tolerance_is_refused_whatever_its_age() -> None:
    assert judge(Binding(max_age_s=60), NOW + 5) == [
        (Code.FUTURE_BINDING,
         "victim is stamped 5.0 s ahead of the gate's clock (clock skew tolerated: 0.5 s)")]
    assert judge(Binding(), NOW + 3600) == [
        (Code.FUTURE_BINDING,
         "victim is stamped 3600.0 s ahead of the gate's clock (clock skew tolerated: 0.5 s)")]


def test_no_skew_tolerated_refuses_any_stamp_ahead() -> None:
    assert [c for c, _ in judge(Binding(max_skew_s=0), NOW + 0.01)] == [Code.FUTURE_BINDING]


@pytest.mark.parametrize("stamp", [float("nan"), float("inf")])
def test_a_stamp_that_is_no_time_is_refused(stamp: float) -> None:
    assert [c for c, _ in judge(Binding(max_age_s=60), stamp)] == [Code.FUTURE_BINDING]


def test_the_gate_refuses_a_binding_from_the_future() -> None:
    crew = load_crew(EVERY_RULE)
    world = sim_world(crew)
    world.publish("target", BindingValue((1.0, 1.0), world.now() + 5, 0.9, "bot"))
    plan = parse_plan({"workflow": "errand", "steps": [
        {"robot": "bot", "skill": "go", "args": {"place": "dock"}},
        {"robot": "bot", "skill": "follow", "args": {"who": "target"}}]})
    verdict = Gate(crew).validate(plan, "go to the dock and follow the target", world)
    assert [s.codes for s in verdict.steps] == [[], ["future_binding"]]


def test_the_planner_is_told_the_tolerance() -> None:
    text = render_context(load_crew("sar"), Knowledge.CONTRACTS)
    assert ("checked (present, finite, inside the operational area, at most 120 s old, "
            "confidence >= 0.5, stamped at most 0.5 s in the future)") in text
