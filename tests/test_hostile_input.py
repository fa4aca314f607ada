"""Every input is hostile until parsed: any plan text or JSON value gets a verdict with codes,
never an exception; over-limit input is refused naming the bound; data printed by the CLI is
never read as markup; files are read within their bounds."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from crewgate.api import check_plan, run_mission
from crewgate.errors import UserError
from crewgate.jsonsafe import loads
from crewgate.limits import MAX_PLAN_CHARS, MAX_PLAN_STEPS, MAX_REQUEST_CHARS
from crewgate.planners import ScriptedPlanner
from crewgate.spec import Crew
from crewgate.testing.hostile import HOSTILE_PLANS, REQ
from tests.cli.support import assert_clean_failure, crewgate


@pytest.mark.parametrize("name", HOSTILE_PLANS)
def test_any_plan_text_gets_a_verdict(sar: Crew, name: str) -> None:
    raw, codes = HOSTILE_PLANS[name]
    verdict = check_plan(sar, raw, REQ)
    assert not verdict.accepted
    found = [p.code.value for p in verdict.problems] or [c for s in verdict.steps
                                                         for c in s.codes]
    assert found[:len(codes)] == codes, verdict.to_json()
    json.dumps(verdict.to_json(), allow_nan=False)  # what the CLI prints and the journal keeps
    assert all(len(p.detail) < 2_000 for p in verdict.all_problems)


def test_a_plan_longer_than_the_crew_allows_is_refused_unread(sar: Crew) -> None:
    step = {"robot": "iris", "skill": "land", "args": {}}
    verdict = check_plan(sar, {"workflow": "abort", "steps": [step] * (sar.max_steps + 1)},
                         "Land the drone.")
    assert [p.code.value for p in verdict.problems] == ["plan_too_long"]
    assert verdict.steps == ()
    huge = check_plan(sar, {"workflow": "abort", "steps": [step] * (MAX_PLAN_STEPS + 1)},
                      "Land the drone.")
    assert [p.code.value for p in huge.problems] == ["malformed_plan"]


def test_an_integer_too_long_for_the_interpreter_is_named_not_its_setting(sar: Crew) -> None:
    """Python's own error named `sys.set_int_max_str_digits()`: no fix for the planner."""
    raw = ('{"workflow": "dispatch_only", "steps": [{"robot": "tb3", "skill": "navigate_to", '
           '"args": {"goal": [' + "9" * 5000 + ', 3]}}]}')
    verdict = check_plan(sar, raw, REQ)
    assert [(p.code.value, p.detail) for p in verdict.problems] == [
        ("malformed_plan", "the JSON holds a value crewgate does not read: an integer of 5,000 "
         "digits is too long to read (a number crewgate reads has a few digits)")]
    with pytest.raises(ValueError, match=r"^an integer of 5,000 digits is too long to read"):
        loads("[" + "9" * 5000 + "]")


def test_a_yaml_integer_too_long_for_the_interpreter_is_a_clean_error(
        tmp_path: Path, journal_path: Path) -> None:
    """It raised the interpreter's ValueError: `crewgate validate` printed a traceback."""
    text = resources.files("crewgate.crews").joinpath("sar.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "big.yaml"
    spec.write_text(text.replace("duration_s: 4", "duration_s: " + "9" * 5000, 1),
                    encoding="utf-8")
    run = crewgate("validate", spec, journal=journal_path)
    assert_clean_failure(run)
    line = text.splitlines().index("        duration_s: 4") + 1
    assert f"line {line}, column 21: not valid YAML: an integer of 5,000 characters is too long " \
        "to read (write a finite number of a few digits)" in run.stderr


@pytest.mark.parametrize(("request_text", "message"), [
    ("", "the request is empty; say what the crew should do"),
    ("   \n", "the request is empty; say what the crew should do"),
    ("x" * (MAX_REQUEST_CHARS + 1), f"the request is {MAX_REQUEST_CHARS + 1:,} characters long; "
     f"crewgate reads requests of at most {MAX_REQUEST_CHARS:,} (say it in fewer words)"),
    # it shows "... Don't go." to whoever reviews it and reads "og t'noD": the rover drove
    ("Drive the rover to x 2, y 3 \u202e.og t'noD", "the request contains a direction control "
     "(U+202E RIGHT-TO-LEFT OVERRIDE), which shows text in another order than it is read; give "
     "it as plain text"),
    ("\u2067Drive the rover to x 2, y 3\u2069", "the request contains a direction control "
     "(U+2067 RIGHT-TO-LEFT ISOLATE), which shows text in another order than it is read; give "
     "it as plain text"),
])
def test_a_request_outside_the_bounds_is_a_user_error(sar: Crew, request_text: str,
                                                      message: str) -> None:
    """A mission does not start on it, and a check does not judge it (it judged the plan on
    the request a mission refuses: a check's verdict disagreed with the run)."""
    with pytest.raises(UserError) as caught:
        run_mission(sar, request_text, ScriptedPlanner(["{}"]), journal=":memory:")
    assert str(caught.value) == message
    with pytest.raises(UserError) as checked:
        check_plan(sar, GO_23_PLAN, request_text)
    assert str(checked.value) == message


GO_23_PLAN = {"workflow": "dispatch_only",
              "steps": [{"robot": "tb3", "skill": "navigate_to", "args": {"goal": [2, 3]}}]}


@pytest.mark.parametrize("command", ["check", "plan"])
def test_a_request_with_a_direction_control_is_refused_by_check_and_plan(
        journal_path: Path, tmp_path: Path, command: str) -> None:
    """`crewgate check` accepted the plan, and `crewgate plan` asked the planner, on a request
    `crewgate run` refuses."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(GO_23_PLAN), encoding="utf-8")
    request_text = "Drive the rover to x 2, y 3 \u202e.og t'noD"
    args = (["check", "sar", "--plan", plan, "--request", request_text] if command == "check"
            else ["plan", "sar", request_text, "--planner", f"scripted:{plan}"])
    run = crewgate(*args, journal=journal_path)
    assert_clean_failure(run)
    assert run.stderr.strip() == (
        "error: the request contains a direction control (U+202E RIGHT-TO-LEFT OVERRIDE), which "
        "shows text in another order than it is read; give it as plain text")


# -- through the CLI -----------------------------------------------------------------------------

MARKUP_PLAN = ('{"workflow": "dispatch_only[/]", "steps": [{"robot": "tb3", "skill": '
               '"navigate_to", "args": {"x": "[bold red]3", "y": -2.0}}]}')
MARKUP_REQUEST = "Drive the rover to position x 3.0, y -2.0. [/] [link=file:///etc]x[/link]"


def test_markup_in_plans_and_requests_is_printed_as_written(journal_path: Path,
                                                             tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(MARKUP_PLAN, encoding="utf-8")
    checked = crewgate("check", "sar", "--plan", plan, "--request", MARKUP_REQUEST,
                       journal=journal_path)
    assert checked.rc == 1, str(checked)
    assert "dispatch_only[/]" in checked.stdout
    ran = crewgate("run", "sar", MARKUP_REQUEST, "--plan", plan, journal=journal_path)
    assert ran.rc == 1, str(ran)
    assert "Traceback" not in ran.stderr + ran.stdout
    assert "[link=file:///etc]x[/link]" in ran.stdout
    traced = crewgate("trace", journal=journal_path)
    assert traced.rc == 0, str(traced)
    assert "[link=file:///etc]x[/link]" in traced.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["run", "sar", ""], "error: the request is empty; say what the crew should do"),
    (["run", "sar", "x", "--fault", "fix_offset:1.2.3,4"],
     "error: fault 'fix_offset:1.2.3,4': '1.2.3' is not a number; write fix_offset:X,Y with two "
     "numbers, e.g. fix_offset:4.5,5"),
    (["check", "sar", "--plan", "/dev/zero", "--request", "x"],
     f"error: plan file '/dev/zero' is longer than {MAX_PLAN_CHARS:,} characters; crewgate does "
     "not read it"),
])
def test_bad_input_on_the_command_line_is_a_clean_error(journal_path: Path, args: list[str],
                                                        message: str) -> None:
    run = crewgate(*args, journal=journal_path)
    assert_clean_failure(run)
    assert run.stderr.strip() == message
