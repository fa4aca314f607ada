"""One source, two compilations: what the planner is told and what the gate checks come from the
same spec objects."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
import yaml

from crewgate.conditions import CONDITIONS, Knowledge
from crewgate.gate import Gate
from crewgate.plan import parse_plan
from crewgate.render import plan_json_schema, render_context
from crewgate.spec import Crew, load_crew, parse_crew
from crewgate.spec.loader import packaged_crews
from crewgate.text.request import words
from tests.conftest import plan, sim_world

CRUSH = "bring the red cube to room_b"
CARRY = plan("carry", ("g1", "grab_from_table", {"object": "red_cube"}),
             ("g1", "place_on_table", {}), ("go2", "navigate_to_location", {"location": "room_b"}))


def _spec(name: str) -> dict[str, Any]:
    from importlib import resources

    text = resources.files("crewgate.crews").joinpath(f"{name}.yaml").read_text("utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def _crew(data: dict[str, Any]) -> Crew:
    return parse_crew(yaml.safe_dump(data), "<test>")


def _edit_order(d: dict[str, Any]) -> None:
    d["robots"]["g1"]["skills"]["wave"]["description"] = "Wave hello."
    d["workflows"]["carry"]["steps"]["g1.wave"] = {"count": "1"}
    d["workflows"]["carry"]["order"].append(
        {"first": "g1.wave", "then": "go2.navigate_to_location",
         "why": "the humanoid waves goodbye before the dog leaves"})


def _edit_keep_out(d: dict[str, Any]) -> None:
    d["area"]["keep_out"] = [{"name": "server_room", "x": [-0.5, 0.5], "y": [-1.5, -0.5]}]
    d["locations"]["room_b"]["pose"] = [0.0, -1.0]


def _edit_precondition(d: dict[str, Any]) -> None:
    d["robots"]["go2"]["state"]["battery"] = {"type": "number", "default": 0.1}
    d["robots"]["go2"]["skills"]["navigate_to_location"]["preconditions"] = ["battery >= 0.3"]


def _edit_cardinality(d: dict[str, Any]) -> None:
    d["workflows"]["carry"]["steps"]["go2.navigate_to_location"]["count"] = "2"


# (name, edit, text that must appear in the context, code the gate must now give)
RULES: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("order rule", _edit_order, "the humanoid waves goodbye before the dog leaves",
     "missing_step"),
    ("cardinality", _edit_cardinality, "go2.navigate_to_location: exactly 2 times",
     "cardinality"),
    ("precondition", _edit_precondition, "Requires: battery >= 0.3", "precondition_failed"),
]


@pytest.mark.parametrize(("name", "edit", "text", "code"), RULES, ids=[r[0] for r in RULES])
def test_a_rule_added_to_the_spec_is_rendered_and_checked(
    name: str, edit: Callable[[dict[str, Any]], None], text: str, code: str
) -> None:
    before = _crew(_spec("g1_go2"))
    data = _spec("g1_go2")
    edit(data)
    after = _crew(data)
    assert text not in render_context(before, Knowledge.CONTRACTS)
    assert text in render_context(after, Knowledge.CONTRACTS)
    assert Gate(before).validate(parse_plan(CARRY), CRUSH, sim_world(before)).accepted
    verdict = Gate(after).validate(parse_plan(CARRY), CRUSH, sim_world(after))
    assert code in verdict.codes, verdict.to_json()


def test_a_keep_out_zone_is_rendered_and_checked() -> None:
    data = _spec("sar")
    data["area"]["keep_out"] = [{"name": "ravine", "x": [2.0, 4.0], "y": [-3.0, -1.0]}]
    crew = _crew(data)
    text = render_context(crew, Knowledge.REGISTRY)
    assert "keep out of ravine: x in [2, 4], y in [-3, -1]" in text
    p = plan("dispatch_only", ("tb3", "navigate_to", {"x": 3.0, "y": -2.0}))
    verdict = Gate(crew).validate(parse_plan(p), "Drive the rover to position x 3.0, y -2.0.",
                                  sim_world(crew))
    assert verdict.codes == ["out_of_bounds"]


def test_an_alias_added_to_the_spec_licenses_requests_and_is_rendered() -> None:
    data = _spec("g1_go2")
    p = plan("navigation_only", ("go2", "navigate_to_location", {"location": "room_b"}))
    request = "walk over to the lab"
    assert not Gate(_crew(data)).validate(parse_plan(p), request, sim_world(_crew(data))).accepted
    data["locations"]["room_b"]["aliases"] = ["lab"]
    crew = _crew(data)
    assert "room_b at (0, -1), also called 'lab'" in render_context(crew, Knowledge.REGISTRY)
    assert Gate(crew).validate(parse_plan(p), request, sim_world(crew)).accepted


@pytest.mark.parametrize("crew_name", packaged_crews())
def test_every_contract_rule_is_rendered(crew_name: str) -> None:
    crew = load_crew(crew_name)
    text = render_context(crew, Knowledge.CONTRACTS)
    for wname, wf in crew.workflows.items():
        assert f"### {wname}:" in text
        for ref, rule in wf.steps.items():
            assert f"- {ref}: {rule.count.describe()}" in text
            for pname, arg in rule.args.items():
                if arg.from_request:
                    assert f"{pname} must be exactly what the request states" in text
                if arg.bind:
                    assert f"{pname} must be the runtime binding {arg.bind!r}" in text
        for order in wf.order:
            assert f"{order.then} only after {order.first} has completed" in text
        if wf.aliases:
            assert f"Asked for as: {', '.join(wf.aliases)}." in text
    for rname, robot in crew.robots.items():
        for sname, skill in robot.skills.items():
            if not skill.visible:
                continue
            for cond in skill.preconditions:
                assert str(cond) in text, (rname, sname, cond)
    for bname, binding in crew.bindings.items():
        assert f"- {bname} (point" in text
        if binding.max_age_s:
            assert f"at most {binding.max_age_s:g} s old" in text


@pytest.mark.parametrize("crew_name", packaged_crews())
def test_llm_only_context_names_no_skill_pair_or_location(crew_name: str) -> None:
    crew = load_crew(crew_name)
    text = render_context(crew, Knowledge.FORMAT)
    tokens = " " + " ".join(words(text)) + " "
    for rname, robot in crew.robots.items():
        for sname in robot.skills:
            assert f" {' '.join(words(sname))} " not in tokens, sname
            assert f"{rname}.{sname}" not in text
    for lname, loc in crew.locations.items():
        for phrase in (lname, *loc.aliases):
            assert f" {' '.join(words(phrase))} " not in tokens, phrase
    assert "Answer with exactly one JSON object" in text


def test_ro_prompt_and_ro_tell_the_planner_the_same() -> None:
    assert CONDITIONS["ro"].knowledge == CONDITIONS["ro-prompt"].knowledge
    crew = load_crew("sar")
    assert render_context(crew, CONDITIONS["ro"].knowledge) == render_context(
        crew, CONDITIONS["ro-prompt"].knowledge)


def test_skill_list_has_the_registry_but_no_contracts() -> None:
    crew = load_crew("g1_go2")
    text = render_context(crew, Knowledge.REGISTRY)
    assert "g1.grab_from_table(" in text
    assert "## Locations" in text
    assert "## Workflow contracts" not in text
    assert "may not depart before" not in text


NOMINAL = [
    ("sar", plan("search_and_dispatch", ("iris", "takeoff", {}),
                 ("iris", "search_target", {"x_min": -5.5, "x_max": 5.5, "y_min": -5.5,
                                            "y_max": 5.5}),
                 ("tb3", "navigate_to", {"target": "victim"}))),
    ("sar", plan("dispatch_only", ("tb3", "navigate_to", {"x": 3.0, "y": -2.0}))),
    ("g1_go2", CARRY),
]


@pytest.mark.parametrize(("crew_name", "p"), NOMINAL)
def test_valid_plans_satisfy_the_plan_schema(crew_name: str, p: dict[str, Any]) -> None:
    schema = plan_json_schema(load_crew(crew_name))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(p, schema)


@pytest.mark.parametrize(
    "bad",
    [
        plan("carry", ("g1", "fly", {})),  # unknown skill
        plan("carry", ("go2", "grab_from_table", {})),  # another robot's skill
        plan("carry", ("go2", "navigate_to_location", {"location": "rooftop"})),  # not a location
        plan("carry", ("go2", "navigate_to_location", {})),  # missing argument
        plan("carry", ("g1", "wave", {"speed": 1})),  # unknown argument
        plan("teleport", ("g1", "wave", {})),  # unknown workflow
        plan("carry", ("g1", "stop", {})),  # hidden skill
    ],
)
def test_invalid_plans_violate_the_plan_schema(bad: dict[str, Any]) -> None:
    schema = plan_json_schema(load_crew("g1_go2"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_schema_bounds_points_by_the_operational_area() -> None:
    schema = plan_json_schema(load_crew("sar"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(plan("dispatch_only", ("tb3", "navigate_to", {"x": 40, "y": 45})),
                            schema)
    jsonschema.validate(plan("dispatch_only", ("tb3", "navigate_to", {"x": 10, "y": -6})),
                        schema)  # the area is closed: its corners are inside
