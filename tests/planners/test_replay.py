"""The replay planner: recorded outputs played back by scenario id (evaluation) or by request
text (plan, run), attempts in order, the study's recorded plans included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewgate.api import run_mission
from crewgate.errors import InputFileError, PlannerError, UserError
from crewgate.plan import ParseFailure, Plan
from crewgate.planners.base import PlanningRequest
from crewgate.planners.registry import make_planner
from crewgate.planners.replay import ReplayOptions, ReplayPlanner, read_records
from crewgate.spec import Crew

CORPUS = Path(__file__).parents[1] / "corpus" / "study"
G1_SEED1 = CORPUS / "g1_go2" / "recorded_plans_4arm_seed1.jsonl"


def _ask(planner: ReplayPlanner, crew: Crew, text: str, condition: str = "ro", attempt: int = 1,
         scenario: str | None = None) -> PlanningRequest:
    return PlanningRequest(text, crew, "", {}, condition, attempt, scenario=scenario)


def test_matches_by_scenario_id_condition_and_attempt(g1_go2: Crew) -> None:
    planner = make_planner("replay", g1_go2, {"plans": str(G1_SEED1)})
    assert isinstance(planner, ReplayPlanner)
    first = planner.plan(_ask(planner, g1_go2, "", scenario="fault_nav_invalid_2"))
    second = planner.plan(_ask(planner, g1_go2, "", attempt=2, scenario="fault_nav_invalid_2"))
    assert isinstance(first.plan, Plan)
    assert isinstance(second.plan, Plan)
    assert dict(first.plan.steps[0].args) == {"location": "parking_garage"}
    assert dict(second.plan.steps[0].args) == {"location": "dropoff"}  # the recorded replan


def test_matches_by_request_text_through_the_packaged_suite(g1_go2: Crew) -> None:
    planner = ReplayPlanner.from_options(g1_go2, ReplayOptions(plans=G1_SEED1))
    out = planner.plan(_ask(planner, g1_go2, "  Go to CHARGING ", condition="llm-only"))
    assert isinstance(out.plan, Plan)
    assert out.plan.steps[0].skill == "navigate"  # what gpt-5.4-mini wrote without the registry


def test_a_missing_replan_repeats_the_last_output(g1_go2: Crew) -> None:
    planner = ReplayPlanner.from_options(g1_go2, ReplayOptions(plans=G1_SEED1))
    one = planner.plan(_ask(planner, g1_go2, "go to charging", attempt=1))
    two = planner.plan(_ask(planner, g1_go2, "go to charging", attempt=2))
    assert one.raw == two.raw


def test_unknown_requests_and_conditions_are_planner_errors(g1_go2: Crew) -> None:
    planner = ReplayPlanner.from_options(g1_go2, ReplayOptions(plans=G1_SEED1))
    with pytest.raises(PlannerError, match="no recorded output"):
        planner.plan(_ask(planner, g1_go2, "fly to the moon"))
    with pytest.raises(PlannerError, match="under condition 'nope'"):
        planner.plan(_ask(planner, g1_go2, "go to charging", condition="nope"))


def test_raw_text_outputs_are_parsed_tolerantly(tmp_path: Path, sar: Crew) -> None:
    path = tmp_path / "plans.jsonl"
    records = [
        {"scenario": "s1", "condition": "ro", "attempt": 1, "request": "Rover: go to x 3, y -2.",
         "output": "Here you go:\n```json\n{\"workflow\": \"dispatch_only\", \"steps\": "
                   "[{\"robot\": \"tb3\", \"skill\": \"navigate_to\", \"args\": "
                   "{\"x\": 3, \"y\": -2}}]}\n```", "planning_s": 1.25},
        {"scenario": "s2", "condition": "ro", "attempt": 1, "request": "nonsense",
         "output": "I refuse."},
    ]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    planner = ReplayPlanner(read_records(path), source=str(path))
    out = planner.plan(_ask(planner, sar, "Rover: go to x 3, y -2."))
    assert isinstance(out.plan, Plan)
    assert out.planning_s == 1.25  # the recorded latency, for latency metrics
    assert isinstance(planner.plan(_ask(planner, sar, "nonsense")).plan, ParseFailure)
    result = run_mission(sar, "Rover: go to x 3, y -2.", planner, journal=":memory:")
    assert result.status == "completed"


_LINE = '{"scenario": "a", "condition": "ro", "output": "x"'  # a record, open for one more field
_FIX = ('; each line must be {"scenario": ID, "condition": NAME, "attempt": 1|2, '
        '"output": ...}')


@pytest.mark.parametrize(("line", "why"), [
    (_LINE + ', "planning_s": NaN}',
     "NaN is not a number crewgate reads (non-finite numbers are errors)"),
    (_LINE + ', "planning_s": 1e400}', "1e400 is not a number crewgate reads (non-finite "
     "numbers are errors)"),
    (_LINE + ', "planning_s": "fast"}', "'planning_s' is seconds, not 'fast'"),
    (_LINE + ', "request": ["Land the drone."]}', "'request' is text, not ['Land the drone.']"),
    (_LINE + ', "attempt": true}', "'attempt' is 1 or more, not True"),
    (_LINE + ', "attempt": 0}', "'attempt' is 1 or more, not 0"),
    ('{"scenario": ["a"], "condition": "ro", "output": "x"}',
     "'scenario' and 'condition' are strings"),
    ('{"scenario": "a", "condition": "ro", "output": 5}',
     "'output' is raw text or a plan object, not 5"),
    ('{"scenario": "a", "condition": "ro"}', "no 'output'"),
    ("[1, 2]", "a JSON list, not an object"),
    (_LINE + ', "note": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "the JSON nests too deep to be read"),
])
def test_a_hostile_line_is_an_error_naming_it_and_what_is_wrong(tmp_path: Path, line: str,
                                                                why: str) -> None:
    # crewgate run --planner replay --plans FILE: a clean error, never a traceback
    path = tmp_path / "plans.jsonl"
    path.write_text(_LINE + "}\n" + line + "\n", encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        read_records(path)
    assert str(caught.value) == f"{path}:2: not a replay record ({why}){_FIX}"


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-8"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_file_written_by_another_editor_reads_the_same(tmp_path: Path, encoding: str,
                                                          newline: str) -> None:
    """A byte order mark before the first line made it "not a replay record" (Windows
    editors write one); line ends of either kind read alike."""
    path = tmp_path / "plans.jsonl"
    lines = [json.dumps({"scenario": f"s{i}", "condition": "ro", "attempt": 1,
                         "output": {"workflow": "abort", "steps": []}}) for i in (1, 2)]
    path.write_bytes((newline.join(lines) + newline).encode(encoding))
    assert [(r.scenario, r.condition, r.attempt) for r in read_records(path)] == [
        ("s1", "ro", 1), ("s2", "ro", 1)]


def test_bad_files_name_the_line(tmp_path: Path, sar: Crew) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"scenario": "a", "condition": "ro", "attempt": 1, "output": {}}\n'
                    '{"scenario": "b"}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"bad.jsonl:2"):
        read_records(path)
    with pytest.raises(InputFileError, match="does not exist"):
        read_records(tmp_path / "none.jsonl")
    with pytest.raises(UserError) as caught:
        ReplayPlanner.build(sar, {})
    assert str(caught.value) == ("planner replay needs option 'plans' (Recorded outputs: a JSON "
                                 "Lines file, one record a line (scenario, condition, attempt, "
                                 "output; optionally request, planning_s).)")


def test_study_plans_replay_through_the_whole_mission(g1_go2: Crew) -> None:
    """The study's recorded ro plan for an invalid destination is refused after its recorded
    replan; nothing moves."""
    planner = ReplayPlanner.from_options(g1_go2, ReplayOptions(plans=G1_SEED1))
    result = run_mission(g1_go2, "navigate to the parking garage", planner, journal=":memory:")
    assert result.status == "refused"
    assert len(result.attempts) == 2
    assert result.dispatched == []
    assert "substituted_value" in result.codes
