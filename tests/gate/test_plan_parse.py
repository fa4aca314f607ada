"""Raw model text is parsed tolerantly; malformed input is data, never an exception."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from crewgate.plan import ParseFailure, Plan, parse_plan

PLAN = {"workflow": "navigation_only",
        "steps": [{"robot": "go2", "skill": "navigate_to_location",
                   "args": {"location": "charging"}}]}


def test_plain_json() -> None:
    parsed = parse_plan(json.dumps(PLAN))
    assert isinstance(parsed, Plan)
    assert parsed.workflow == "navigation_only"
    assert parsed.steps[0].ref == "go2.navigate_to_location"
    assert dict(parsed.steps[0].args) == {"location": "charging"}


def test_code_fence_and_trailing_prose() -> None:
    raw = "Sure! Here is the plan:\n```json\n" + json.dumps(PLAN) + "\n```\nLet me know."
    parsed = parse_plan(raw)
    assert isinstance(parsed, Plan)
    assert parsed.steps[0].robot == "go2"


def test_first_object_wins_and_leading_braces_in_prose_are_skipped() -> None:
    raw = "Use {braces} carefully. " + json.dumps(PLAN) + ' {"workflow": "other", "steps": []}'
    parsed = parse_plan(raw)
    assert isinstance(parsed, Plan)
    assert parsed.workflow == "navigation_only"


def test_study_key_workflow_family_is_accepted() -> None:
    raw = json.dumps({"workflow_family": "abort", "steps": []})
    parsed = parse_plan(raw)
    assert isinstance(parsed, Plan)
    assert parsed.workflow == "abort"
    assert parsed.steps == ()


def test_missing_args_default_to_empty() -> None:
    parsed = parse_plan({"workflow": "abort", "steps": [{"robot": "tb3", "skill": "stop"}]})
    assert isinstance(parsed, Plan)
    assert dict(parsed.steps[0].args) == {}


def test_nan_literal_survives_parsing_for_the_gate_to_judge() -> None:
    raw = '{"workflow": "dispatch_only", "steps": [{"robot": "tb3", "skill": "navigate_to", ' \
          '"args": {"x": NaN, "y": 1}}]}'
    parsed = parse_plan(raw)
    assert isinstance(parsed, Plan)
    assert parsed.steps[0].args["x"] != parsed.steps[0].args["x"]  # NaN


def test_no_json_is_a_structured_failure() -> None:
    parsed = parse_plan("I cannot help with that.")
    assert isinstance(parsed, ParseFailure)
    assert "no JSON object" in parsed.problems[0]


def test_bad_shapes_name_the_step() -> None:
    parsed = parse_plan({"workflow": "abort", "steps": [{"robot": "tb3"}, "land", {"robot": 3,
                                                                                   "skill": "x"}]})
    assert isinstance(parsed, ParseFailure)
    text = " ".join(parsed.problems)
    assert "step 0" in text
    assert "step 1" in text
    assert "step 2" in text


def test_steps_must_be_a_list() -> None:
    parsed = parse_plan({"workflow": "abort", "steps": "land then stop"})
    assert isinstance(parsed, ParseFailure)


@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text: str) -> None:
    assert isinstance(parse_plan(text), Plan | ParseFailure)


@given(st.recursive(st.none() | st.booleans() | st.floats() | st.text(max_size=8),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c,
                                                                         max_size=4),
                    max_leaves=20))
def test_arbitrary_json_values_never_raise(value: object) -> None:
    assert isinstance(parse_plan(json.dumps({"workflow": "x", "steps": value})),
                      Plan | ParseFailure)
