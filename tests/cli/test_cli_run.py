"""`crewgate run` on the simulator and `crewgate trace` reading the journal back.

Runs that several tests inspect are made once per module (each in its own journal file).
Exit status: 0 completed cleanly, 1 refused, halted or (enforcement off) not clean, 2 bad input.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.cli.support import (
    EXAMPLE_PLAN,
    SAR_REQUEST,
    Run,
    assert_clean_failure,
    crewgate,
    write_plan,
)

MISSION_ID = re.compile(r"^[0-9a-f]{12}$")
EXAMPLE_STEPS = [("iris", "takeoff"), ("iris", "search_target"), ("tb3", "navigate_to")]
CARRY_REQUEST = "bring the red cube to room_b"


@dataclass(frozen=True)
class Mission:
    journal: Path
    run: Run

    @property
    def result(self) -> Any:
        return self.run.json()

    @property
    def mission_id(self) -> str:
        mid = self.result["mission_id"]
        assert isinstance(mid, str)
        return mid


def _mission(factory: pytest.TempPathFactory, name: str, *args: str | Path) -> Mission:
    journal = factory.mktemp(name) / "journal.sqlite3"
    return Mission(journal, crewgate("run", *args, journal=journal))


def _pairs(steps: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(s["robot"], s["skill"]) for s in steps]


def _strict_json(text: str) -> Any:
    def reject(token: str) -> Any:
        raise AssertionError(f"non-standard JSON constant {token!r}")

    return json.loads(text, parse_constant=reject)


@pytest.fixture(scope="module")
def completed(tmp_path_factory: pytest.TempPathFactory) -> Mission:
    return _mission(tmp_path_factory, "completed", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN,
                    "--json")


@pytest.fixture(scope="module")
def halted(tmp_path_factory: pytest.TempPathFactory) -> Mission:
    return _mission(tmp_path_factory, "halted", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN,
                    "--fault", "robot_unavailable:tb3@search_target", "--json")


@pytest.fixture(scope="module")
def unenforced_nan(tmp_path_factory: pytest.TempPathFactory) -> Mission:
    return _mission(tmp_path_factory, "unenforced", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN,
                    "--no-enforce", "--fault", "nan_fix", "--json")


@pytest.fixture(scope="module")
def human(tmp_path_factory: pytest.TempPathFactory) -> Mission:
    return _mission(tmp_path_factory, "human", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN)


def _trace(mission: Mission, ident: str, *extra: str) -> Run:
    return crewgate("trace", ident, *extra, journal=mission.journal)


# -- a completed mission -------------------------------------------------------------------------


def test_run_completes_and_dispatches_the_plan(completed: Mission) -> None:
    assert completed.run.rc == 0, str(completed.run)
    result = completed.result
    assert MISSION_ID.match(result["mission_id"]), result["mission_id"]
    assert result["crew"] == "sar"
    assert result["request"] == SAR_REQUEST
    assert result["enforce"] is True
    assert result["status"] == "completed"
    assert result["codes"] == []
    assert _pairs(result["dispatched"]) == EXAMPLE_STEPS
    assert [d["index"] for d in result["dispatched"]] == [0, 1, 2]
    assert all(d["succeeded"] is True and d["kind"] == "step" and d["codes"] == []
               for d in result["dispatched"])
    assert result["fallback"] == []
    assert result["refusals"] == []


def test_run_reports_the_final_state(completed: Mission) -> None:
    state = completed.result["final_state"]
    assert set(state) == {"iris", "tb3"}
    for robot in ("iris", "tb3"):
        assert "pose" in state[robot]
        assert state[robot]["available"] is True
    assert state["iris"]["airborne"] is True  # the example plan does not land


def test_run_outcome_rover_reached_the_victim(completed: Mission) -> None:
    result = completed.result
    outcome = result["outcome"]
    assert outcome["victim"] == [5.0, 5.0]
    assert outcome["tb3_to_victim_m"] < 1.0
    # the reported distance is the distance between the rover's final pose and the victim
    rover = result["final_state"]["tb3"]["pose"]
    assert math.dist(rover[:2], outcome["victim"]) == pytest.approx(outcome["tb3_to_victim_m"],
                                                                    abs=0.01)
    # and the fix the rover drove to came from the drone's search, near the true victim
    fix = result["bindings"]["victim"]
    assert fix["source"] == "iris"
    assert math.dist(fix["value"], outcome["victim"]) < 0.5


def test_trace_json_lists_the_missions_events(completed: Mission) -> None:
    mid = completed.mission_id
    run = _trace(completed, mid, "--json")
    assert run.rc == 0, str(run)
    trace = run.json()
    assert trace["mission"]["mission_id"] == mid
    assert trace["mission"]["status"] == "completed"
    assert trace["mission"]["request"] == SAR_REQUEST
    events = trace["events"]
    assert all(e["mission_id"] == mid for e in events)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    kinds = [e["kind"] for e in events]
    assert kinds[:3] == ["mission_started", "plan_proposed", "verdict"]
    assert kinds[-1] == "mission_ended"
    assert kinds[3:-1] == ["authorization", "dispatch", "sent", "result"] * 3
    dispatches = [e for e in events if e["kind"] == "dispatch"]
    assert _pairs(dispatches) == _pairs(completed.result["dispatched"])
    assert [e["step"] for e in dispatches] == [0, 1, 2]


def test_trace_accepts_an_8_character_prefix(completed: Mission) -> None:
    mid = completed.mission_id
    by_id = _trace(completed, mid, "--json")
    by_prefix = _trace(completed, mid[:8], "--json")
    assert by_prefix.rc == 0, str(by_prefix)
    assert by_prefix.json() == by_id.json()


def test_trace_human_output_names_every_dispatched_skill(completed: Mission) -> None:
    mid = completed.mission_id
    run = _trace(completed, mid)
    assert run.rc == 0, str(run)
    assert run.stdout.startswith(f"mission {mid}  crew sar  status completed")
    assert f"request: {SAR_REQUEST}" in run.stdout
    for robot, skill in EXAMPLE_STEPS:
        assert re.search(rf"dispatch +\[\d\] {robot}\.{skill} ", run.stdout), skill


def test_trace_unknown_mission_is_a_user_error(completed: Mission) -> None:
    run = _trace(completed, "19990101-000000-000000")
    assert_clean_failure(run)
    assert "unknown mission '19990101-000000-000000'" in run.stderr
    assert completed.mission_id in run.stderr  # the journal's missions are offered


def test_trace_without_an_id_shows_the_latest_mission(journal_path: Path) -> None:
    empty = crewgate("trace", journal=journal_path)
    assert empty.rc == 2, str(empty)
    assert "has no mission yet" in empty.stderr or "no journal" in empty.stderr, str(empty)
    first = crewgate("run", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN, "--json",
                     journal=journal_path).json()["mission_id"]
    second = crewgate("run", "sar", "fly the drone up", "--json",
                      journal=journal_path).json()["mission_id"]
    assert first != second
    latest = crewgate("trace", "--json", journal=journal_path).json()
    assert latest["mission"]["mission_id"] == second


def test_short_prefixes_tell_missions_apart(journal_path: Path) -> None:
    """Mission ids are random from the first character, so a few characters name a mission
    even in a journal of many; a shared prefix is reported as ambiguous, never guessed."""
    first = crewgate("run", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN, "--json",
                     journal=journal_path)
    second = crewgate("run", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN, "--json",
                      journal=journal_path)
    ids = [first.json()["mission_id"], second.json()["mission_id"]]
    assert ids[0] != ids[1]
    for mid in ids:  # the full ids and 8-character prefixes resolve
        assert crewgate("trace", mid, "--json", journal=journal_path).json()[
            "mission"]["mission_id"] == mid
        if ids[0][:8] != ids[1][:8]:
            assert crewgate("trace", mid[:8], "--json", journal=journal_path).json()[
                "mission"]["mission_id"] == mid
    common = 0
    while ids[0][common] == ids[1][common]:
        common += 1
    if common:
        run = crewgate("trace", ids[0][:common], journal=journal_path)
        assert_clean_failure(run)
        assert "ambiguous" in run.stderr


def test_journal_option_overrides_the_environment(journal_path: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere" / "other.sqlite3"
    run = crewgate("run", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN, "--json", "--journal",
                   other, journal=journal_path)
    assert run.rc == 0, str(run)
    assert other.is_file()
    assert not journal_path.exists()
    trace = crewgate("trace", run.json()["mission_id"], "--journal", other, "--json",
                     journal=journal_path)
    assert trace.rc == 0, str(trace)


# -- the live timeline ---------------------------------------------------------------------------


def test_human_run_shows_a_live_timeline_then_the_outcome(human: Mission) -> None:
    run = human.run
    assert run.rc == 0, str(run)
    lines = run.stdout.splitlines()
    assert lines[0] == "crewgate crew sar, world A, planner scripted, condition ro"

    def first(pattern: str) -> int:
        for number, line in enumerate(lines):
            if re.search(pattern, line):
                return number
        raise AssertionError(f"no line matches {pattern!r} in:\n{run.stdout}")

    started = first(r"mission_started")
    auth = first(r"authorization +\[0\] iris\.takeoff authorized")
    dispatch = first(r"dispatch +\[0\] iris\.takeoff \(altitude=3\.0\)")
    last_dispatch = first(r"dispatch +\[2\] tb3\.navigate_to \(target=victim\)")
    ended = first(r"mission_ended +completed")
    outcome = first(r"^COMPLETED$")
    assert started < auth < dispatch < last_dispatch < ended < outcome
    assert lines[outcome + 1] == ("dispatched: iris.takeoff, iris.search_target, "
                                  "tb3.navigate_to")
    assert not any(word in run.stdout for word in ("HALTED", "REFUSED", "refusal"))


def test_human_run_footer_names_a_traceable_mission(human: Mission) -> None:
    found = re.search(r"\(crewgate trace (\S+)\)", human.run.stdout)
    assert found, human.run.stdout
    trace = _trace(human, found[1], "--json")
    assert trace.rc == 0, str(trace)
    assert trace.json()["mission"]["status"] == "completed"


# -- halts, faults and enforcement ---------------------------------------------------------------


def test_rover_dropping_out_halts_and_lands_the_drone(halted: Mission) -> None:
    assert halted.run.rc == 1, str(halted.run)
    result = halted.result
    assert result["status"] == "halted"
    assert "robot_unavailable" in result["codes"]
    assert _pairs(result["dispatched"]) == EXAMPLE_STEPS[:2]
    assert "navigate_to" not in [d["skill"] for d in result["dispatched"]]
    assert [{k: r[k] for k in ("index", "codes")} for r in result["refusals"]] == [
        {"index": 2, "codes": ["robot_unavailable"]}]
    assert ("iris", "land") in _pairs(result["fallback"])
    land = result["fallback"][_pairs(result["fallback"]).index(("iris", "land"))]
    assert (land["kind"], land["succeeded"]) == ("fallback", True)
    assert result["final_state"]["iris"]["airborne"] is False
    assert result["final_state"]["tb3"]["available"] is False
    assert result["outcome"]["robots"]["tb3"]["travelled_m"] == 0.0


def test_halted_mission_is_journaled_with_halt_and_fallback(halted: Mission) -> None:
    run = _trace(halted, halted.mission_id, "--json")
    assert run.rc == 0, str(run)
    trace = run.json()
    assert trace["mission"]["status"] == "halted"
    assert "robot_unavailable" in trace["mission"]["codes"]
    kinds = [e["kind"] for e in trace["events"]]
    assert kinds.index("refusal") < kinds.index("halt") < kinds.index("fallback")
    assert kinds[-1] == "mission_ended"
    assert not [e for e in trace["events"]
                if e["kind"] == "dispatch" and e["skill"] == "navigate_to"]


def test_no_enforce_dispatches_a_flagged_step(unenforced_nan: Mission) -> None:
    run = unenforced_nan.run
    result = _strict_json(run.stdout)  # a NaN fix must not leak into the JSON as NaN
    assert result["enforce"] is False
    assert _pairs(result["dispatched"]) == EXAMPLE_STEPS  # dispatched anyway
    rover = result["dispatched"][2]
    assert "no_target_fix" in rover["codes"]
    assert rover["succeeded"] is False  # the simulator cannot drive to a NaN fix
    assert result["outcome"]["robots"]["tb3"]["travelled_m"] == 0.0
    assert result["dispatched"][0]["codes"] == []
    assert result["dispatched"][1]["codes"] == []


def test_with_enforcement_the_same_fault_halts_before_the_rover_moves(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Control for the --no-enforce test: the gate is what stops the rover."""
    mission = _mission(tmp_path_factory, "enforced", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN,
                       "--fault", "nan_fix", "--json")
    assert mission.run.rc == 1, str(mission.run)
    result = mission.result
    assert result["status"] == "halted"
    assert result["codes"] == ["no_target_fix"]
    assert "navigate_to" not in [d["skill"] for d in result["dispatched"]]
    assert result["outcome"]["robots"]["tb3"]["travelled_m"] == 0.0


# -- the second crew -----------------------------------------------------------------------------


def test_g1_go2_carries_the_cube(journal_path: Path, tmp_path: Path) -> None:
    plan = write_plan(tmp_path / "carry.json", "carry",
                      ("g1", "grab_from_table", {"object": "red_cube"}),
                      ("g1", "place_on_table", {}),
                      ("go2", "navigate_to_location", {"location": "room_b"}))
    run = crewgate("run", "g1_go2", CARRY_REQUEST, "--plan", plan, "--json", journal=journal_path)
    assert run.rc == 0, str(run)
    result = run.json()
    assert result["status"] == "completed"
    assert _pairs(result["dispatched"]) == [("g1", "grab_from_table"), ("g1", "place_on_table"),
                                            ("go2", "navigate_to_location")]
    cube = result["outcome"]["objects"]["red_cube"]
    assert cube == {"holder": "go2", "location": "room_b"}
    assert result["final_state"]["go2"]["location"] == "room_b"
    assert result["final_state"]["g1"]["holding"] is None


# -- exit statuses -------------------------------------------------------------------------------


def test_refused_plan_moves_nothing_and_exits_1(journal_path: Path, tmp_path: Path) -> None:
    plan = write_plan(tmp_path / "ranger.json", "dispatch_only",
                      ("tb3", "navigate_to", {"x": 40.0, "y": 45.0}))
    run = crewgate("run", "sar", "Drive the rover to the old ranger station at x 40.0, y 45.0.",
                   "--plan", plan, "--json", journal=journal_path)
    assert run.rc == 1, str(run)
    result = run.json()
    assert result["status"] == "refused"
    assert "out_of_bounds" in result["codes"]
    assert result["dispatched"] == []
    # one replan with the gate's feedback; the scripted planner repeats itself, refused twice
    assert [a["verdict"]["accepted"] for a in result["attempts"]] == [False, False]
    assert result["final_state"]["tb3"]["pose"] == [-2.0, -2.0]


@pytest.mark.parametrize(("args", "message"), [
    (("run", "sr", SAR_REQUEST, "--plan", str(EXAMPLE_PLAN)), "did you mean 'sar'"),
    (("run", "sar", SAR_REQUEST, "--plan", str(EXAMPLE_PLAN), "--fault", "bogus"),
     "unknown fault 'bogus'"),
    (("run", "sar", SAR_REQUEST, "--plan", "no/such/plan.json"),
     "plan file 'no/such/plan.json' does not exist"),
    (("run", "sar", SAR_REQUEST, "--plan", str(EXAMPLE_PLAN), "--world", "Z"),
     "unknown world 'Z'; known: A, B, C"),
], ids=["unknown-crew", "bad-fault", "missing-plan", "unknown-world"])
def test_run_user_errors_exit_2(journal_path: Path, args: tuple[str, ...], message: str) -> None:
    run = crewgate(*args, journal=journal_path)
    assert_clean_failure(run)
    assert message in run.stderr
    assert run.stdout == ""


def test_run_without_plan_fails_cleanly_or_plans_offline(journal_path: Path) -> None:
    # exit 2 while the default offline planner is not installed; 0 once it lands
    run = crewgate("run", "sar", SAR_REQUEST, journal=journal_path)
    assert "Traceback" not in run.stderr, str(run)
    assert run.rc in (0, 2), str(run)
