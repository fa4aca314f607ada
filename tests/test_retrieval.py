"""Generated crews (valid by construction, their example plans accepted) and retrieval: a crew
that fits its context budget is shown whole; a large one is shown the focus of each request,
which the planner plans from, the journal records, and the gate still checks against the whole
crew."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crewgate.api import check_plan, gate_for, run_mission
from crewgate.conditions import Knowledge
from crewgate.journal import Journal
from crewgate.plan import parse_plan
from crewgate.planners import ScriptedPlanner
from crewgate.render import plan_json_schema, render_context
from crewgate.render.retrieval import focus
from crewgate.spec import Crew, load_crew
from crewgate.spec.loader import parse_crew
from crewgate.testing.generate import generate_crew
from crewgate.world import World


@pytest.fixture(scope="module")
def large() -> tuple[Crew, list[tuple[str, dict[str, Any], str]]]:
    made = generate_crew(100, 10_000, 40, locations=200)
    crew = parse_crew(made.yaml(), "<generated>")
    return crew, [(e.request, e.plan, e.workflow) for e in made.examples]


def test_a_generated_crew_is_valid_and_its_example_plans_are_accepted() -> None:
    made = generate_crew(10, 100, 12, seed=3)
    crew = parse_crew(made.yaml(), "<generated>")
    assert (len(crew.robots), sum(len(r.skills) for r in crew.robots.values()),
            len(crew.workflows)) == (10, 110, 12)  # each robot also has move_to
    gate = gate_for(crew)
    world = World(crew, clock=lambda: 0.0)
    verdicts = [gate.validate(parse_plan(e.plan), e.request, world) for e in made.examples]
    assert [v.codes for v in verdicts] == [[]] * 12
    assert generate_crew(10, 100, 12, seed=3).yaml() == made.yaml()  # deterministic


def test_generator_bounds_are_errors() -> None:
    with pytest.raises(ValueError, match="skills must be between 3 and 100000, not 2"):
        generate_crew(3, 2, 1)


@pytest.mark.parametrize("name", ["sar", "g1_go2"])
def test_packaged_crews_are_shown_whole(name: str) -> None:
    crew = load_crew(name)
    shown = focus(crew, "anything at all")
    assert (shown.whole, shown.crew) == (True, crew)
    assert shown.to_json() == {"whole": True, "budget_tokens": 12_000}


def test_a_large_crew_is_shown_the_focus_of_the_request(
        large: tuple[Crew, list[tuple[str, dict[str, Any], str]]]) -> None:
    crew, examples = large
    whole = len(render_context(crew, Knowledge.CONTRACTS))
    hits = 0
    for request, _, workflow in examples:
        shown = focus(crew, request)
        context = render_context(shown.crew, Knowledge.CONTRACTS)
        schema = json.dumps(plan_json_schema(shown.crew, Knowledge.CONTRACTS))
        assert shown.whole is False
        assert len(context) + len(schema) < 60_000 < whole
        hits += workflow in shown.workflows
        assert set(shown.robots) <= set(crew.robots)
    assert hits == len(examples)
    first = focus(crew, examples[0][0]).to_json()
    assert first["workflows"][0] == examples[0][2]
    assert first["robots"][0] == "r1"
    assert first["locations"][:1] == [examples[0][1]["steps"][0]["args"]["location"]]


def test_the_gate_checks_against_the_whole_crew_and_the_journal_says_what_was_shown(
        large: tuple[Crew, list[tuple[str, dict[str, Any], str]]]) -> None:
    crew, examples = large
    request, plan, workflow = examples[0]
    # another robot's workflow, sent where the request sends r1: outside the focus, and refused
    steps = plan["steps"]
    assert isinstance(steps, list)
    swapped = {"workflow": examples[1][2], "steps": [
        {**steps[0], "robot": "r2"}, examples[1][1]["steps"][1]]}
    journal = Journal(":memory:")
    done = run_mission(crew, request, ScriptedPlanner([plan]), journal=journal)
    refused = run_mission(crew, request, ScriptedPlanner([swapped]), journal=journal)
    assert done.status == "completed"
    assert (refused.status, refused.codes) == ("refused", ["dropped_request",
                                                           "substituted_robot"])
    proposed = [e for e in journal.events(done.mission_id) if e.kind == "plan_proposed"]
    shown = proposed[0].data["shown"]
    assert (shown["whole"], shown["workflows"][0]) == (False, workflow)


def test_spec_generate_writes_a_crew_that_validates(tmp_path: Path) -> None:
    from tests.cli.support import assert_clean_failure, crewgate

    crew, examples = tmp_path / "gen.yaml", tmp_path / "gen.jsonl"
    made = crewgate("spec", "generate", "--robots", "4", "--skills", "40", "--workflows", "6",
                    "-o", crew, "--examples", examples, journal=tmp_path / "j.sqlite3")
    assert made.rc == 0, made
    assert made.stdout.strip() == (f"wrote {crew}: 4 robots, 40 skills, 6 workflows, 20 "
                                   f"locations; examples in {examples}")
    checked = crewgate("validate", crew, journal=tmp_path / "j.sqlite3")
    assert checked.rc == 0, checked
    assert "4 robots, 44 skills, 20 locations, 0 bindings, 6 workflows" in checked.stdout
    lines = [json.loads(line) for line in examples.read_text().splitlines()]
    assert [line["workflow"] for line in lines] == list(load_crew(crew).workflows)
    bad = crewgate("spec", "generate", "--robots", "0", "-o", crew,
                   journal=tmp_path / "j.sqlite3")
    assert_clean_failure(bad)
    assert "robots must be between 1 and 1000, not 0" in bad.stderr


def test_refusals_stay_short_however_large_the_crew(
        large: tuple[Crew, list[tuple[str, dict[str, Any], str]]]) -> None:
    """100 skills per robot, 200 locations: a refused step names the nearest few, never the
    whole library; a hallucinated plan of 200 steps gets bounded feedback."""
    crew, examples = large
    request, _, workflow = examples[0]
    invented = {"workflow": workflow, "steps": [
        {"robot": "r1", "skill": f"inspect_valve_{i}x", "args": {}} for i in range(60)]}
    verdict = check_plan(crew, invented, request)
    first = next(p for s in verdict.steps for p in s.problems if p.code.value == "unknown_skill")
    assert first.detail == ("r1 has no skill 'inspect_valve_0x' (did you mean "
                            "'inspect_valve_1'?) (its skills: inspect_valve_1, paint_valve_8, "
                            "inspect_panel_33, inspect_crate_97, sample_valve_7 and 96 more)")
    feedback = json.dumps(verdict.feedback())
    assert len(feedback) < 30_000  # 60 steps; listing the library in each was ~100,000 more
    nowhere = {"workflow": workflow, "steps": [
        {"robot": "r1", "skill": "move_to", "args": {"location": "bay_99x"}}]}
    where = check_plan(crew, nowhere, request).feedback()
    assert [f["detail"] for f in where if f["code"] == "unknown_location"] == [
        "r1.move_to: location 'bay_99x' is not a known location (known: bay_9, bay_19, bay_8, "
        "bay_7, bay_6 and 195 more)"]


def test_with_minilm_retrieval_also_ranks_by_meaning(
        large: tuple[Crew, list[tuple[str, dict[str, Any], str]]]) -> None:
    """MiniLM (installed by `make install`) adds the request's similarity to each workflow's
    description and examples to the lexical ranking; the example requests still find their
    workflows, and the journal says how the focus was ranked."""
    from crewgate.planners.exemplar.embedding import semantic_similarity

    assert semantic_similarity() is not None, "MiniLM is part of `make install`"
    crew, examples = large
    hits = 0
    for request, _, workflow in examples:
        shown = focus(crew, request, semantic_similarity)
        hits += shown.workflows[0] == workflow
        assert shown.to_json()["ranking"] == "bm25+embeddings"
    assert hits == len(examples)
    assert focus(crew, examples[0][0]).to_json()["ranking"] == "bm25"
    journal = Journal(":memory:")
    done = run_mission(crew, examples[0][0], ScriptedPlanner([examples[0][1]]), journal=journal)
    proposed = [e for e in journal.events(done.mission_id) if e.kind == "plan_proposed"]
    assert proposed[0].data["shown"]["ranking"] == "bm25+embeddings"
