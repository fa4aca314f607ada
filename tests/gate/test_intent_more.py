"""More of the request held to the plan (issue 10's classes, said in other ways), each found by
probing the gate with paraphrases a user would type: a robot said to be faulty may still be
brought to its safe fallback, a correction spoken between two values with nothing to set it
off, and the rest below. Each is checked with the exact problems (codes and details) of the
plan, and the controls beside it."""

from __future__ import annotations

from typing import Any

import pytest

from crewgate.spec import Crew, load_crew
from tests.conftest import plan
from tests.gate.test_intent import GO_23, LAND, SEARCH_LAND, carry, check, codes, found, walk
from tests.text.test_linear import GROWTH, _repeat, intent_growth

GO_45 = plan("dispatch_only", ("tb3", "navigate_to", {"goal": [4.0, 5.0]}))
LAND_ONLY = plan("abort", LAND)


def _takeoff(altitude: float) -> dict[str, Any]:
    return plan("search_only", ("iris", "takeoff", {"altitude": altitude}),
                ("iris", "search_target", {"x_min": 0, "x_max": 5, "y_min": 0, "y_max": 5}),
                LAND)


# -- a robot said to be faulty keeps its safe fallback ----------------------------------------


@pytest.mark.parametrize("request_", [
    "The drone is broken; land it.",
    "The drone is out of battery, land it now.",
    "The drone is damaged. Land it.",
])
def test_a_faulty_robot_may_still_be_brought_to_its_safe_fallback(sar: Crew,
                                                                  request_: str) -> None:
    """"The drone is broken; land it" refused the landing (the fault ruled the drone out): the
    one step that makes it safe. Its safe fallback, asked, runs."""
    assert found(check(sar, request_, LAND_ONLY)) == []


def test_a_faulty_robots_other_steps_are_still_ruled_out(sar: Crew) -> None:
    v = check(sar, "The drone is broken; search x 0 to 5, y 0 to 5 and land.", SEARCH_LAND)
    assert found(v) == [(i, "excluded_robot", "the request rules out iris: 'drone is broken'")
                        for i in (0, 1)]  # the landing (its safe fallback) is not


def test_a_faulty_robots_fallback_is_still_only_run_when_asked(sar: Crew) -> None:
    assert found(check(sar, "The drone is broken.", LAND_ONLY)) == [
        (0, "unrequested_step", "nothing in the request asks for iris.land: it names neither "
         "iris nor this action, and no value it states goes into it")]


def test_a_robot_busy_rather_than_faulty_is_ruled_out_whole(sar: Crew) -> None:
    """Busy is no fault: the landing is a step of a robot the request rules out."""
    assert found(check(sar, "The drone is busy; land it.", LAND_ONLY)) == [
        (0, "excluded_robot", "the request rules out iris: 'drone is busy'")]


def test_each_faulty_robot_keeps_its_own_fallback(sar: Crew) -> None:
    stop = plan("abort", ("tb3", "stop", {}))
    assert found(check(sar, "The rover is damaged; stop it.", stop)) == []
    assert found(check(sar, "The drone is damaged; stop the rover.", stop)) == []
    assert found(check(sar, "The rover is damaged; land the drone.", LAND_ONLY)) == []


# -- a correction between two values, nothing setting it off --------------------------------


@pytest.mark.parametrize(("request_", "said"), [
    ("Drive the rover to x 2, y 3 no x 4, y 5.", "drive the rover to x 2, y 3 no"),
    ("Drive the rover to x 2, y 3 sorry x 4, y 5.", "drive the rover to x 2, y 3 sorry"),
    ("Drive the rover to x 2, y 3 I mean x 4, y 5.", "drive the rover to x 2, y 3 i mean"),
    ("Drive the rover to x 2, y 3 uh x 4, y 5.", "drive the rover to x 2, y 3 uh"),
    ("Drive the rover to (2, 3) no (4, 5).", "drive the rover to (2, 3) no"),
])
def test_a_correction_between_two_points_replaces_the_first(sar: Crew, request_: str,
                                                            said: str) -> None:
    """Spoken and written down, a correction has no comma ("x 2, y 3 no x 4, y 5"): the rover
    drove to (2, 3), the point taken back (or, "sorry", "I mean", was refused for leaving
    (4, 5) out, not for going to (2, 3))."""
    assert found(check(sar, request_, GO_23)) == [
        (0, "negated_step", f"the request rules out tb3.navigate_to here: {said!r}")]
    assert found(check(sar, request_, GO_45)) == []


def test_a_correction_between_two_quantities_replaces_the_first(sar: Crew) -> None:
    request_ = "Take off to 3 m sorry 4 m, search x 0 to 5, y 0 to 5, then land."
    assert found(check(sar, request_, _takeoff(3.0))) == [
        (0, "substituted_value", "the request states '4 m' for iris.takeoff altitude; the plan "
         "gives 3")]
    assert found(check(sar, request_, _takeoff(4.0))) == []


def test_a_negation_between_two_points_is_still_a_negation(sar: Crew) -> None:
    request_ = "Drive the rover to x 2, y 3 not x 4, y 5."
    assert found(check(sar, request_, GO_23)) == []
    assert found(check(sar, request_, GO_45)) == [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'not x 4, y 5'")]


def test_two_cues_between_two_points_leave_neither_point(sar: Crew) -> None:
    """"no sorry" reads as a correction and as a negation of what follows: neither runs."""
    request_ = "Drive the rover to x 2, y 3 no sorry x 4, y 5."
    assert found(check(sar, request_, GO_23)) == [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'drive the rover to x "
         "2, y 3 no sorry'")]
    assert found(check(sar, request_, GO_45)) == [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'no sorry x 4, y 5'")]


# -- a bound said as a limit, or as a value not to go past -------------------------------------


@pytest.mark.parametrize(("bound", "said"), [
    ("but don't go past 2 m", "don't go past 2 m"),
    ("but do not go beyond 2 m", "do not go beyond 2 m"),
    ("with a ceiling of 2 m", "a ceiling of 2 m"),
    ("capped at 2 m", "capped at 2 m"),
    ("with an altitude limit of 2 m", "limit of 2 m"),
    ("limited to 2 m", "limited to 2 m"),
])
def test_a_limit_said_in_other_words_bounds_the_altitude(sar: Crew, bound: str,
                                                         said: str) -> None:
    """Each took off to 5 m (a ceiling and a cap were read as the search's stated altitude
    only, "don't go past" as nothing)."""
    v = check(sar, f"Take off and search x 0 to 5, y 0 to 5 {bound}, then land.", _takeoff(5.0))
    assert found(v) == [
        (0, "beyond_bound", f"the request bounds iris.takeoff altitude ({said!r}); the plan "
         "gives 5"),
        (1, "beyond_bound", f"the request bounds iris.search_target altitude ({said!r}); the "
         "plan gives 3 (the default)")]


def test_a_floor_bounds_the_altitude_from_below(sar: Crew) -> None:
    v = check(sar, "Take off to 5 m, search x 0 to 5, y 0 to 5 with a floor of 4 m, then land.",
              _takeoff(5.0))
    assert found(v) == [(1, "beyond_bound", "the request bounds iris.search_target altitude ('a "
                         "floor of 4 m'); the plan gives 3 (the default)")]


@pytest.mark.parametrize("request_", [
    "Take off to 5 m, search x 0 to 5, y 0 to 5 but don't go past 6 m, then land.",
    "Take off to 5 m, search x 0 to 5, y 0 to 5 with a ceiling of 6 m, then land.",
])
def test_a_plan_within_the_limit_runs(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, _takeoff(5.0))) == []


@pytest.mark.parametrize("request_", [
    "Drive the rover past x 2, y 3 to x 4, y 5.",
    "Drive the rover beyond x 2, y 3 to x 4, y 5.",
    "Drive the rover past (2, 3) to (4, 5).",
])
def test_past_a_point_is_no_bound(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_45)) == []


# -- "I said no" -------------------------------------------------------------------------------


@pytest.mark.parametrize(("after", "cue"), [("I said no.", "i said no"), ("No again!", "no again"),
                                            ("Just no.", "just no")])
def test_a_no_said_again_takes_the_request_back(sar: Crew, after: str, cue: str) -> None:
    assert found(check(sar, f"Drive the rover to x 2, y 3. {after}", GO_23)) == [
        (None, "retracted_request", f"the request takes back what it asked ({cue!r}): no step "
         "may run")]


# -- the airspace closed, flights grounded ---------------------------------------------------


@pytest.mark.parametrize(("request_", "said"), [
    ("The airspace is closed. Search x 0 to 5, y 0 to 5 and land.", "the airspace is closed"),
    ("Airspace closed; search x 0 to 5, y 0 to 5 and land.", "airspace closed"),
    ("Search x 0 to 5, y 0 to 5 and land; flights are grounded.", "flights are grounded"),
    ("All flights grounded. Search x 0 to 5, y 0 to 5 and land.", "flights grounded"),
])
def test_a_closed_airspace_grounds_the_drone_but_for_its_landing(sar: Crew, request_: str,
                                                                 said: str) -> None:
    """Each flew the search (the airspace named no robot; "no-fly zone" alone was read)."""
    assert found(check(sar, request_, SEARCH_LAND)) == [
        (i, "excluded_robot", f"the request rules out iris: {said!r}") for i in (0, 1)]


def test_air_traffic_halted_grounds_the_drone(sar: Crew) -> None:
    v = check(sar, "Air traffic is halted. Search x 0 to 5, y 0 to 5 and land.", SEARCH_LAND)
    assert found(v) == [(i, "excluded_robot", "the request rules out iris: 'air traffic is "
                         "halted'") for i in (0, 1)]


@pytest.mark.parametrize(("request_", "p"), [
    ("The airspace is closed; land the drone.", LAND_ONLY),
    ("The airspace is closed; drive the rover to x 2, y 3.", GO_23),
    ("The airspace is clear. Search x 0 to 5, y 0 to 5 and land.", SEARCH_LAND),
    ("Search the airspace over x 0 to 5, y 0 to 5 and land.", SEARCH_LAND),
    ("The door closed. Drive the rover to x 2, y 3.", GO_23),
])
def test_what_a_closed_airspace_leaves_runs(sar: Crew, request_: str, p: dict[str, Any]) -> None:
    assert found(check(sar, request_, p)) == []


# -- a search kept away from a point, or outside a zone ------------------------------------


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 5, y 0 to 5 avoiding x 2, y 2, then land.", "avoiding x 2, y 2"),
    ("Search x 0 to 5, y 0 to 5 but stay away from x 2, y 2, then land.",
     "stay away from x 2, y 2"),
    ("Search x 0 to 5, y 0 to 5 but keep clear of (2, 2), then land.", "keep clear of (2, 2)"),
    ("Search outside x 0 to 5, y 0 to 5 and land.", "outside x 0 to 5, y 0 to 5"),
    ("Search everywhere outside x 0 to 5, y 0 to 5 and land.", "outside x 0 to 5, y 0 to 5"),
])
def test_a_search_over_what_is_kept_away_from_is_ruled_out(sar: Crew, request_: str,
                                                          said: str) -> None:
    """Each searched x 0 to 5, y 0 to 5 whole: over the point kept away from (the gate cannot
    tell that a search keeps away from a point in its zone), or the zone it was to stay out of."""
    assert found(check(sar, request_, SEARCH_LAND)) == [
        (1, "negated_step", f"the request rules out iris.search_target here: {said!r}")]


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 5, y 0 to 5 and land; don't fly over the crowd at x 2, y 2.",
     "don't fly over the crowd at x 2, y 2"),
    ("Search x 0 to 5, y 0 to 5 and land; no overflight of x 2, y 2.",
     "no overflight of x 2, y 2"),
])
def test_a_search_over_a_point_not_to_be_flown_over_is_ruled_out(sar: Crew, request_: str,
                                                                  said: str) -> None:
    """Each searched over (2, 2) (only a point the drone went to was ruled out)."""
    assert found(check(sar, request_, SEARCH_LAND)) == [
        (1, "negated_step", f"the request rules out iris.search_target here: {said!r}")]


@pytest.mark.parametrize("request_", [
    "Search x 0 to 5, y 0 to 5 and land; don't fly over x 8, y 8.",  # not in the zone
    "Search x 0 to 5, y 0 to 5 avoiding x 7, y 7, then land.",  # not in the zone
    "Search x 0 to 5, y 0 to 5 and land; x 2, y 2 is flooded.",  # a hazard on the ground
])
def test_a_search_clear_of_what_is_kept_away_from_runs(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, SEARCH_LAND)) == []


@pytest.mark.parametrize("request_", [
    "Search x 0 to 5, y 0 to 5 and land; keep the rover away from x 2, y 2.",
    "Search x 0 to 5, y 0 to 5 and land; the rover must avoid x 2, y 2.",
])
def test_a_point_another_robot_is_kept_away_from_leaves_the_search(sar: Crew,
                                                                   request_: str) -> None:
    """(The rover is kept away; the drone's search over the point is not ruled out.)"""
    assert found(check(sar, request_, SEARCH_LAND)) == []


def test_outside_a_place_says_where_not_where_to_go(g1_go2: Crew) -> None:
    """"Walk the dog outside room_a" walked it into room_a; "wait outside room_a" names where,
    as "beside room_a" does."""
    assert found(check(g1_go2, "Walk the dog outside room_a.", walk("room_a"))) == [
        (0, "negated_step", "the request rules out go2.navigate_to_location here: 'outside "
         "room_a'")]
    assert found(check(g1_go2, "Walk the dog to room_b and wait outside room_a.",
                       walk("room_b"))) == []


# -- a place said from another by a distance --------------------------------------------------

_UNPLACED = ", a place the gate cannot tell; state the point or zone it means, or name one of " \
    "the crew's locations"


@pytest.mark.parametrize(("request_", "said"), [
    ("Drive the rover to 2 m from x 2, y 3.", "2 m from x 2, y 3"),
    ("Drive the rover to 10 feet from x 2, y 3.", "10 feet from x 2, y 3"),
    ("Drive the rover 2 m north of x 2, y 3.", "2 m north of x 2, y 3"),
    ("Drive the rover to a point 2 m east of x 2, y 3.", "2 m east of x 2, y 3"),
    ("Drive the rover 2 m north-east of (2, 3).", "2 m north-east of (2, 3)"),
])
def test_a_point_said_from_another_is_no_place_the_gate_can_tell(sar: Crew, request_: str,
                                                                  said: str) -> None:
    """Each drove the rover to (2, 3) itself ("north of" was refused as an unclear negation)."""
    assert found(check(sar, request_, GO_23)) == [(None, "unclear_place", f"the request says "
                                                   f"{said!r}{_UNPLACED}")]


@pytest.mark.parametrize(("request_", "said"), [
    ("Walk the dog to the spot 2 m from room_b.", "2 m from room_b"),
    ("Walk the dog 2 m north of room_b.", "2 m north of room_b"),
])
def test_a_place_said_from_a_location_is_no_place_the_gate_can_tell(g1_go2: Crew, request_: str,
                                                                    said: str) -> None:
    assert found(check(g1_go2, request_, walk("room_b"))) == [
        (None, "unclear_place", f"the request says {said!r}{_UNPLACED}")]


@pytest.mark.parametrize("request_", [
    "Drive the rover to within 1 m of x 2, y 3.",
    "Drive the rover to x 2, y 3 from 2 m away.",
])
def test_a_distance_that_places_nothing_else_leaves_the_point(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


def test_a_distance_from_a_point_that_is_a_steps_value_is_that_value(sar: Crew) -> None:
    """"Take off to 5 m from x 2, y 3": the altitude, no place; (2, 3) is owed a step."""
    v = check(sar, "Take off to 5 m from x 2, y 3, search x 0 to 5, y 0 to 5 and land.",
              _takeoff(5.0))
    assert found(v) == [(None, "dropped_request", "the request states the point (2, 3); no step "
                         "goes there")]


# -- people sent -------------------------------------------------------------------------------


@pytest.mark.parametrize(("request_", "said"), [
    ("Send the medics to x 2, y 3.", "send the medics to x 2, y 3"),
    ("Send a medic to x 2, y 3.", "send a medic to x 2, y 3"),
    ("Dispatch the paramedics to x 2, y 3.", "dispatch the paramedics to x 2, y 3"),
    ("Get the firefighters to x 2, y 3.", "get the firefighters to x 2, y 3"),
    ("Send someone else to x 2, y 3.", "send someone else to x 2, y 3"),
])
def test_people_sent_somewhere_are_not_the_crew(sar: Crew, request_: str, said: str) -> None:
    """Each drove the rover there (only "tell", "have", "ask", ... the medics left it to them)."""
    assert found(check(sar, request_, GO_23)) == [
        (None, "nothing_asked", f"the request leaves it to someone else ({said!r}) and asks "
         "nothing to move now: no step may run (to have the crew do it, ask it of the crew)")]


@pytest.mark.parametrize("request_", [
    "Send the rover to the medics at x 2, y 3.",
    "Send it to the medics at x 2, y 3.",
    "Send the rover with the medics to x 2, y 3.",
    "Send the rover to x 2, y 3 and get the medics to follow.",
])
def test_a_robot_sent_to_or_with_people_is_sent(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


# -- a "later" said of a report, an "instead" said of a sentence ----------------------------


@pytest.mark.parametrize("request_", [
    "Drive the rover to x 2, y 3 and report back later.",
    "Drive the rover to x 2, y 3 and call me later.",
    "Drive the rover to x 2, y 3, then check in later.",
])
def test_a_report_asked_for_later_leaves_the_drive_now(sar: Crew, request_: str) -> None:
    """Each was refused: the "later" was read as the drive's."""
    assert found(check(sar, request_, GO_23)) == []


@pytest.mark.parametrize("request_", [
    "Drive the rover to x 2, y 3 later.",
    "Drive the rover to x 2, y 3 and do it later.",
    "Drive the rover to x 2, y 3, I want it there later.",
])
def test_a_later_said_of_the_drive_is_still_for_later(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == [
        (None, "nothing_asked", "the request asks for it later ('later') and asks nothing to "
         "move now: no step may run (to have it done now, ask without 'later')")]


def test_a_sentence_said_instead_replaces_the_one_before(sar: Crew) -> None:
    """"Land the drone. Drive the rover to x 2, y 3 instead." owed the landing."""
    request_ = "Land the drone. Drive the rover to x 2, y 3 instead."
    assert found(check(sar, request_, GO_23)) == []
    request_ = "Drive the rover to x 4, y 5. Drive it to x 2, y 3 instead."
    assert found(check(sar, request_, GO_23)) == []
    assert found(check(sar, request_, GO_45)) == [
        (0, "negated_step", "the request rules out tb3.navigate_to here: 'drive the rover to x "
         "4, y 5'")]


def test_a_robot_said_instead_still_replaces_robots_only(sar: Crew) -> None:
    """"... Use the drone instead.": the search stays asked, of the drone."""
    assert found(check(sar, "Search x 0 to 5, y 0 to 5 and land. Use the drone instead.",
                       SEARCH_LAND)) == []
    assert found(check(sar, "Drive the rover to x 2, y 3. Send the drone instead.", GO_23)) == [
        (0, "excluded_robot", "the request rules out tb3: 'drone instead'")]


# -- a correction that gives a direction, a prohibition hedged, part of the way -----------------

_S = "search x 0 to 5, y 0 to 5, then land"


@pytest.mark.parametrize(("said", "ok", "refused"), [
    ("5 m, no, higher", 6.0, (5.0, 4.0)),
    ("5 m, no, lower", 4.0, (5.0, 6.0)),
    ("5 m... actually, a bit higher", 6.0, (5.0, 4.0)),
    ("5 m, no, higher than that", 6.0, (5.0, 4.0)),
])
def test_a_correction_to_a_direction_bounds_the_value_it_corrects(
        sar: Crew, said: str, ok: float, refused: tuple[float, ...]) -> None:
    """"Take off to 5 m, no, higher" took off to 5 m (the correction named nothing, and was
    passed over); it bounds the takeoff alone, past 5 m (the search keeps its altitude)."""
    request_ = f"Take off to {said}, {_S}."
    assert found(check(sar, request_, _takeoff(ok))) == []
    for value in refused:
        assert found(check(sar, request_, _takeoff(value))) == [
            (0, "beyond_bound", f"the request bounds iris.takeoff altitude ({said!r}); the plan "
             f"gives {value:g}")]


@pytest.mark.parametrize("said", ["4 m, no higher", "4 m, no more", "4 m, not higher"])
def test_a_no_said_with_its_comparative_is_no_correction(sar: Crew, said: str) -> None:
    """"Take off to 4 m, no higher": at most 4 m, not above it."""
    assert found(check(sar, f"Take off to {said}, {_S}.", _takeoff(4.0))) == []


@pytest.mark.parametrize("after", ["Or maybe don't.", "Maybe don't.", "Perhaps don't."])
def test_a_hedged_bare_prohibition_takes_the_request_back(sar: Crew, after: str) -> None:
    assert found(check(sar, f"Drive the rover to x 2, y 3. {after}", GO_23)) == [
        (None, "retracted_request", "the request takes back what it asked (\"don't\"): no step "
         "may run")]


def test_a_hedged_prohibition_of_something_else_takes_nothing_back(sar: Crew) -> None:
    assert found(check(sar, "Drive the rover to x 2, y 3, maybe don't rush.", GO_23)) == []


@pytest.mark.parametrize(("request_", "said"), [
    ("Drive the rover toward x 2, y 3 for 1 m.", "toward x 2, y 3 for 1 m"),
    ("Drive the rover 1 m toward x 2, y 3.", "1 m toward x 2, y 3"),
    ("Drive the rover 1 m towards (2, 3).", "1 m towards (2, 3)"),
])
def test_part_of_the_way_toward_a_point_is_no_place_the_gate_can_tell(
        sar: Crew, request_: str, said: str) -> None:
    """Each drove the rover the whole way."""
    assert found(check(sar, request_, GO_23)) == [(None, "unclear_place", f"the request says "
                                                   f"{said!r}{_UNPLACED}")]


def test_toward_a_point_is_to_it(sar: Crew) -> None:
    assert found(check(sar, "Drive the rover towards x 2, y 3.", GO_23)) == []


@pytest.mark.parametrize(("request_", "said"), [
    ("Plan a drive of the rover to x 2, y 3.", "plan a drive"),
    ("Plan the mission: drive the rover to x 2, y 3.", "plan the mission"),
    ("Verify the route: drive the rover to x 2, y 3.", "verify the route"),
])
def test_a_plan_of_an_action_asked_for_is_a_plan_only(sar: Crew, request_: str,
                                                     said: str) -> None:
    """Each drove the rover ("plan a route" was a plan only; "plan a drive" was not)."""
    assert found(check(sar, request_, GO_23)) == [
        (None, "nothing_asked", f"the request asks for a plan only ({said!r}) and asks nothing "
         f"to move now: no step may run (to run it, ask without {said!r})")]


# -- a speed no skill takes ------------------------------------------------------------------

_SPEED = "a speed no skill of the crew takes: no step can keep to it (leave it out, or give " \
    "the skill a speed parameter)"


@pytest.mark.parametrize(("crew_name", "request_", "p", "said"), [
    ("sar", "Drive the rover to x 2, y 3 at 5 m/s.", GO_23, "5 m/s"),
    ("sar", "Drive the rover to x 2, y 3 at 5 km/h.", GO_23, "5 km/h"),
    ("sar", "Drive the rover to x 2, y 3 below 1 m/s.", GO_23, "below 1 m/s"),
    ("g1_go2", "Walk the dog to room_b at 1 m/s.", walk("room_b"), "1 m/s"),
])
def test_a_speed_asked_that_no_skill_takes_is_dropped(crew_name: str, request_: str,
                                                      p: dict[str, Any], said: str) -> None:
    """Each ran at whatever speed the robot drives: neither crew has a skill with a speed."""
    assert found(check(load_crew(crew_name), request_, p)) == [
        (None, "dropped_request", f"the request states {said!r}, {_SPEED}")]


@pytest.mark.parametrize("request_", [
    "Drive the rover to x 2, y 3; the wind is 5 m/s.",  # said of no action
    "Drive the rover to x 2, y 3, not at 5 m/s.",  # ruled out
])
def test_a_speed_said_of_no_action_is_no_speed_asked(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


# -- a stop to all, or a request sent by mistake, after the request --------------------------

CARRY_B = carry("red_cube", "room_b")


@pytest.mark.parametrize(("after", "said"), [
    ("Stop everything.", "stop everything"), ("All stop.", "all stop"), ("Halt.", "halt"),
    ("Freeze!", "freeze"), ("Hold everything.", "hold everything"),
    ("Everyone stay put.", "everyone stay put"), ("Okay, stop!", "okay, stop"),
])
def test_a_stop_to_all_after_the_request_moves_no_robot_on(g1_go2: Crew, after: str,
                                                          said: str) -> None:
    """Each carried the cube (this crew's stops are its safe fallback's alone)."""
    assert found(check(g1_go2, f"Carry the red cube to room_b. {after}", CARRY_B)) == [
        (i, "excluded_robot", f"the request rules out {robot}: {said!r}")
        for i, robot in ((0, "g1"), (1, "g1"), (2, "go2"))]


def test_a_stop_to_all_leaves_the_safe_fallback_asked(sar: Crew) -> None:
    """"Land the drone. Stop." still lands the drone and stops the rover."""
    abort = plan("abort", LAND, ("tb3", "stop", {}))
    assert found(check(sar, "Land the drone. Stop.", abort)) == []
    assert found(check(sar, "Search x 0 to 5, y 0 to 5 and land. Stop everything.", abort)) == [
        (None, "dropped_request", "the request states the zone x [0, 5] y [0, 5]; no step "
         "covers it"),
        (None, "dropped_request", "the request asks to 'search' (iris.search_target); no step "
         "does")]
    assert codes(check(sar, "Drive the rover to x 2, y 3. Stop!", GO_23)) == [
        (None, "dropped_request"), (0, "excluded_robot")]


@pytest.mark.parametrize(("after", "cue"), [
    ("As you were.", "as you were"),
    ("Revert.", "revert"), ("Rollback.", "rollback"), ("Hmm, leave it.", "hmm, leave it"),
    ("Typo, ignore.", "typo, ignore"), ("Sorry, wrong window.", "wrong window"),
    ("Wrong crew.", "wrong crew"), ("That was a test.", "that was a test"),
    ("Oops, that was for someone else.", "that was for someone else"),
    ("(ignore this)", "ignore this"), ("Not that.", "not that"),
])
def test_a_mistake_or_a_word_to_drop_it_said_after_takes_the_request_back(
        g1_go2: Crew, after: str, cue: str) -> None:
    """Each carried the cube to room_b."""
    assert found(check(g1_go2, f"Carry the red cube to room_b. {after}", CARRY_B)) == [
        (None, "retracted_request", f"the request takes back what it asked ({cue!r}): no step "
         "may run")]


def test_a_robot_asked_about_then_left_is_dismissed_not_the_request(sar: Crew) -> None:
    v = check(sar, "Search x 0 to 5, y 0 to 5 and land, and the rover? Leave it.", SEARCH_LAND)
    assert found(v) == []


# -- a robot hurt, failing or with a part broken; a place locked or full -------------------


@pytest.mark.parametrize(("state", "said"), [
    ("the dog is injured", "dog is injured"), ("the dog is overheating", "dog is overheating"),
    ("the dog is limping", "dog is limping"), ("the dog is stuck", "dog is stuck"),
    ("the dog has a fault", "dog has a fault"), ("the dog's leg is broken", "dog's leg is broken"),
    ("the dog's battery is dead", "dog's battery is dead"),
])
def test_a_robot_hurt_or_failing_is_ruled_out(g1_go2: Crew, state: str, said: str) -> None:
    """Each let the dog carry the cube."""
    v = check(g1_go2, f"Carry the red cube to room_b; {state}.", CARRY_B)
    assert found(v) == [(2, "excluded_robot", f"the request rules out go2: {said!r}")]


def test_a_robot_failing_keeps_its_safe_fallback(sar: Crew) -> None:
    assert found(check(sar, "The drone's battery is failing - land it.", LAND_ONLY)) == []
    assert found(check(sar, "The drone's motor is overheating; land it now.", LAND_ONLY)) == []


@pytest.mark.parametrize("state", ["locked", "full", "under construction", "inaccessible"])
def test_a_place_said_to_be_shut_is_no_place_to_go(g1_go2: Crew, state: str) -> None:
    v = check(g1_go2, f"Carry the red cube to room_b; room_b is {state}.", CARRY_B)
    assert codes(v) == [(2, "negated_step")]


def test_a_robot_said_to_act_instead_replaces_the_one_before(g1_go2: Crew, sar: Crew) -> None:
    """"..., but the humanoid walks instead" walked the dog (only a robot right before
    "instead" replaced); a robot replaced is asked nothing ("... with the rover; the drone does
    it instead" refused the drone's search as the rover's)."""
    assert found(check(g1_go2, "Walk the dog to room_b, but the humanoid walks instead.",
                       walk("room_b"))) == [
        (0, "excluded_robot", "the request rules out go2: 'humanoid walks instead'")]
    assert found(check(sar, "Search x 0 to 5, y 0 to 5 with the rover; the drone does it "
                       "instead.", SEARCH_LAND)) == []


# -- the drone kept on the ground, unavailable, or in weather too bad to fly -------------------


@pytest.mark.parametrize(("after", "said"), [
    ("stay on the ground", "stay on the ground"), ("keep it grounded", "keep it grounded"),
    ("the drone must remain on the ground", "remain on the ground"),
])
def test_a_drone_kept_on_the_ground_takes_no_takeoff(sar: Crew, after: str, said: str) -> None:
    """Each flew the search ("stay airborne" was read; its opposite was not)."""
    assert found(check(sar, f"Search x 0 to 5, y 0 to 5 and land; {after}.", SEARCH_LAND)) == [
        (0, "negated_step", f"the request keeps iris not airborne ({said!r}); iris.takeoff ends "
         "it")]


def test_a_drone_grounded_first_takes_no_takeoff(sar: Crew) -> None:
    """"Ground the drone. Search ..." flew the search ("ground the" is the landing's alias)."""
    assert found(check(sar, "Ground the drone. Search x 0 to 5, y 0 to 5 and land.",
                       SEARCH_LAND)) == [
        (0, "negated_step", "the request keeps iris not airborne ('ground the drone'); "
         "iris.takeoff ends it")]
    assert found(check(sar, "Ground the drone.", LAND_ONLY)) == []
    # grounded after what it was asked: the search before it stands
    assert found(check(sar, "Search x 0 to 5, y 0 to 5 and land, ground the drone afterwards.",
                       SEARCH_LAND)) == []


@pytest.mark.parametrize("request_", [
    "Keep the rover on the ground and search x 0 to 5, y 0 to 5, then land.",  # not the drone
    "Land the drone and keep it landed.",
])
def test_a_ground_kept_of_another_robot_or_after_landing_leaves_the_plan(sar: Crew,
                                                                         request_: str) -> None:
    p = LAND_ONLY if request_.startswith("Land") else SEARCH_LAND
    assert found(check(sar, request_, p)) == []


@pytest.mark.parametrize(("after", "said", "steps"), [
    # a fault (or a ban): all but the landing, its safe fallback
    ("drones are banned", "drones are banned", (0, 1)),
    ("the drone was reassigned", "drone was reassigned", (0, 1)),
    ("the drone has been recalled", "drone has been recalled", (0, 1)),
    ("the drone lost GPS", "drone lost gps", (0, 1)),
    ("the drone lost its link", "drone lost its link", (0, 1)),
    ("the drone has no propellers", "drone has no propellers", (0, 1)),
    ("the drone failed its preflight check", "drone failed its preflight check", (0, 1)),
    # not the crew's to use now, or too windy: every step
    ("the drone is spoken for", "drone is spoken for", (0, 1, 2)),
    ("the drone is in the hangar", "drone is in the hangar", (0, 1, 2)),
    ("it's too windy to fly", "too windy to fly", (0, 1, 2)),
])
def test_a_drone_unavailable_or_unfit_to_fly_is_ruled_out(sar: Crew, after: str, said: str,
                                                          steps: tuple[int, ...]) -> None:
    """Each flew the search."""
    v = check(sar, f"Search x 0 to 5, y 0 to 5 and land; {after}.", SEARCH_LAND)
    assert found(v) == [(i, "excluded_robot", f"the request rules out iris: {said!r}")
                        for i in steps]


def test_a_drone_that_lost_gps_may_still_land(sar: Crew) -> None:
    assert found(check(sar, "The drone lost GPS; land it now.", LAND_ONLY)) == []


def test_search_by_ground_only_leaves_the_drone_out(sar: Crew) -> None:
    v = check(sar, "Search x 0 to 5, y 0 to 5 by ground only.", SEARCH_LAND)
    assert found(v) == [(i, "excluded_robot", "the request asks for tb3 only; not iris")
                        for i in (0, 1, 2)]


def test_a_robot_that_failed_to_get_there_may_go_again(sar: Crew) -> None:
    request_ = "The rover failed to reach x 2, y 3 earlier; drive it to x 2, y 3 again."
    assert found(check(sar, request_, GO_23)) == []


# -- a thing that cannot be taken, a robot asleep or charging, a thing or place said wrong ----


@pytest.mark.parametrize(("after", "said"), [
    ("the cube is glued down", "cube is glued down"),
    ("the cube is too heavy", "cube is too heavy"),
    ("the cube is too hot", "cube is too hot"),
])
def test_a_thing_that_cannot_be_taken_is_ruled_out(g1_go2: Crew, after: str, said: str) -> None:
    """Each carried the cube."""
    assert found(check(g1_go2, f"Carry the red cube to room_b; {after}.", CARRY_B)) == [
        (0, "negated_step", f"the request rules out g1.grab_from_table here: {said!r}")]


@pytest.mark.parametrize(("after", "said"), [
    ("the dog is asleep", "dog is asleep"), ("let the dog sleep", "dog sleep"),
    ("the dog needs to recharge", "dog needs to recharge"),
    ("the dog must charge first", "dog must charge"),
])
def test_a_robot_asleep_or_to_charge_first_is_ruled_out(g1_go2: Crew, after: str,
                                                        said: str) -> None:
    v = check(g1_go2, f"Carry the red cube to room_b; {after}.", CARRY_B)
    assert found(v) == [(2, "excluded_robot", f"the request rules out go2: {said!r}")]


@pytest.mark.parametrize(("after", "cue"), [("Wrong cube.", "wrong cube"),
                                            ("Oops, wrong room.", "oops, wrong room")])
def test_a_thing_or_place_said_wrong_after_takes_the_request_back(g1_go2: Crew, after: str,
                                                                  cue: str) -> None:
    assert found(check(g1_go2, f"Carry the red cube to room_b. {after}", CARRY_B)) == [
        (None, "retracted_request", f"the request takes back what it asked ({cue!r}): no step "
         "may run")]


def test_room_b_said_to_be_the_wrong_room_is_no_place_to_go(g1_go2: Crew) -> None:
    v = check(g1_go2, "Carry the red cube to room_b; room_b is the wrong room.", CARRY_B)
    assert codes(v) == [(2, "negated_step")]


@pytest.mark.parametrize(("request_", "p"), [
    ("Walk the dog to room_b; the other room is closed.", walk("room_b")),
    ("Carry the red cube to the other table, table_b.", carry("red_cube", "table_b")),
    ("The cube is fragile, so carry it carefully to room_b.", CARRY_B),
    ("Carry the red cube to room_b; the bottle is too heavy.", CARRY_B),
    ("Walk the dog to room_b, then let it charge.", walk("room_b")),
])
def test_what_these_cues_leave_runs(g1_go2: Crew, request_: str, p: dict[str, Any]) -> None:
    assert found(check(g1_go2, request_, p)) == []


def test_a_robot_once_damaged_and_mended_may_go(sar: Crew) -> None:
    request_ = "The rover was damaged yesterday but is fixed now; drive it to x 2, y 3."
    assert found(check(sar, request_, GO_23)) == []


@pytest.mark.parametrize("request_", [
    "Drive the rover to x 2, y 3; the path is clear.",
    "Drive the rover to x 2, y 3 if you can.",
    "Drive the rover to x 2, y 3 when possible.",
    # (a safety the crew's own checks stand for asks now: tests/gate/test_intent.py)
    "Drive the rover to x 2, y 3 if it is safe.",
])
def test_safety_said_as_a_fact_or_a_condition_on_the_crew_asks_now(sar: Crew,
                                                                   request_: str) -> None:
    assert found(check(sar, request_, GO_23)) == []


# -- another of a binding's kind, or what belongs to it ------------------------------------

DISPATCH_PLAN = plan("search_and_dispatch", ("iris", "takeoff", {}),
                     ("iris", "search_target", {"x_min": 0, "x_max": 5, "y_min": 0, "y_max": 5}),
                     ("tb3", "navigate_to", {"target": "victim"}))


@pytest.mark.parametrize(("request_", "said"), [
    ("Search x 0 to 5, y 0 to 5, then send the rover to the second victim.", "the second victim"),
    ("Search x 0 to 5, y 0 to 5, then send the rover to the other victim.", "the other victim"),
    ("Search x 0 to 5, y 0 to 5, then send the rover to the victim's car.", "the victim's car"),
    ("Search x 0 to 5, y 0 to 5, then send the rover toward the victim for 3 m.",
     "toward the victim for 3 m"),
])
def test_another_victim_or_what_is_the_victims_is_no_place_the_gate_can_tell(
        sar: Crew, request_: str, said: str) -> None:
    """Each sent the rover to the victim the search found."""
    assert found(check(sar, request_, DISPATCH_PLAN)) == [
        (None, "unclear_place", f"the request says {said!r}{_UNPLACED}")]


@pytest.mark.parametrize("request_", [
    "Search x 0 to 5, y 0 to 5, then send the rover to the victim's position.",
    "The victim's family is waiting; search x 0 to 5, y 0 to 5 and send the rover to the victim.",
    "Search x 0 to 5, y 0 to 5 for the other victim and send the rover to the victim.",
])
def test_the_victim_itself_is_the_binding(sar: Crew, request_: str) -> None:
    assert found(check(sar, request_, DISPATCH_PLAN)) == []


# -- an action on a thing that no skill of the crew does -------------------------------------

HANDOVER = plan("handover", ("g1", "grab_from_table", {"object": "bottle"}),
                ("g1", "hand_over", {}))


@pytest.mark.parametrize(("request_", "p", "said"), [
    ("Smash the bottle.", HANDOVER, "smash the bottle"),
    ("Throw me the bottle.", HANDOVER, "throw me the bottle"),
    ("Open the bottle and hand it to me.", HANDOVER, "open the bottle"),
    ("Push the red cube to room_b.", CARRY_B, "push the red cube"),
    ("Throw the red cube to room_b.", CARRY_B, "throw the red cube"),
])
def test_an_action_on_a_thing_that_no_skill_does_is_dropped(g1_go2: Crew, request_: str,
                                                            p: dict[str, Any], said: str) -> None:
    """Each grabbed the thing and handed or carried it: an action the request did not ask."""
    assert found(check(g1_go2, request_, p)) == [
        (None, "dropped_request", f"the request asks to {said!r}, which no skill of the crew "
         "does: no step does it (ask for one of the crew's actions)")]


@pytest.mark.parametrize(("request_", "p"), [
    ("Hand me the empty bottle.", HANDOVER),  # said of it
    ("Hand me the bottle; the cap is open.", HANDOVER),
    ("Drop the block off at the dropoff point.",
     plan("carry", ("g1", "grab_from_table", {"object": "block"}), ("g1", "place_on_table", {}),
          ("go2", "navigate_to_location", {"location": "dropoff"}))),  # a delivery
])
def test_a_word_of_such_an_action_said_otherwise_leaves_the_plan(g1_go2: Crew, request_: str,
                                                                 p: dict[str, Any]) -> None:
    assert found(check(g1_go2, request_, p)) == []


# -- a way back asked with nowhere to come back to --------------------------------------------

_BACK = "; no step comes back (ask for it with where to come back to: a point or one of the " \
    "crew's locations)"


@pytest.mark.parametrize(("crew_name", "request_", "p", "said"), [
    ("sar", "Drive the rover to x 2, y 3 and back.", GO_23, "and back"),
    ("sar", "Drive the rover to x 2, y 3 and come back.", GO_23, "and come back"),
    ("sar", "Drive the rover to x 2, y 3, then return to base.", GO_23, "then return"),
    ("sar", "Drive the rover to x 2, y 3, there and back.", GO_23, "there and back"),
    ("g1_go2", "Walk the dog to room_b and back.", walk("room_b"), "and back"),
])
def test_a_way_back_with_nowhere_to_come_back_to_is_dropped(
        crew_name: str, request_: str, p: dict[str, Any], said: str) -> None:
    """Each drove or walked one way only, the way back passed over."""
    assert found(check(load_crew(crew_name), request_, p)) == [
        (None, "dropped_request", f"the request asks for the way back ({said!r}){_BACK}")]


@pytest.mark.parametrize("request_", [
    "Search x 0 to 5, y 0 to 5 and come back down.",  # the landing
    "Drive the rover back to x 2, y 3.",  # back to a point
    "Drive the rover to x 2, y 3 and report back.",
])
def test_back_said_otherwise_is_no_way_back(sar: Crew, request_: str) -> None:
    p = SEARCH_LAND if request_.startswith("Search") else GO_23
    assert found(check(sar, request_, p)) == []


# -- linear work --------------------------------------------------------------------------------


PADDING = {
    "faults and corrections between values": lambda: _repeat(
        "the drone is broken; land it. drive the rover to x 2, y 3 no x 4, y 5 sorry x 1, y 1. "),
    "limits, closures and a no again": lambda: _repeat(
        "don't go past 2 m, a ceiling of 3 m, capped at 4 m. airspace closed; flights grounded. "
        "i said no. "),
    "points and zones kept away from": lambda: _repeat(
        "search x 0 to 5, y 0 to 5 avoiding x 2, y 2, outside x 6 to 7, y 6 to 7. wait outside "
        "room_a. "),
    "reports later, sentences instead": lambda: _repeat(
        "drive the rover to x 2, y 3 and report back later. land the drone. drive it instead. "),
    "directions, hedges, part of the way": lambda: _repeat(
        "take off to 5 m, no, higher. maybe don't. drive 1 m toward x 2, y 3 for 2 m. "),
    "stops to all, faults, shut places": lambda: _repeat(
        "carry the cube to room_b. all stop. the dog's leg is broken; room_b is locked. typo, "
        "ignore. "),
    "fires, smoke, pauses": lambda: _repeat(
        "drive the rover to x 2, y 3 once the fire is out, when the smoke clears. give it a "
        "minute. "),
    "other victims": lambda: _repeat(
        "send the rover to the second victim, to the victim's car, to the victim's position. "),
    "actions no skill does": lambda: _repeat(
        "smash the bottle, throw me the cube, hand me the empty bottle, drop the block off. "),
    "ways back": lambda: _repeat(
        "drive the rover to x 2, y 3 and back, then return to base, and come back down. "),
    # (quadratic before: 81x; each way back looked for a place to its sentence's end)
    "ways back in one sentence": lambda: _repeat("and back and come back then return "),
    "people sent": lambda: _repeat("send the medics to x 2, y 3, send the rover to the medics. "),
    "places said from others": lambda: _repeat(
        "drive the rover to 2 m from x 2, y 3, 10 feet north of room_b, 3 m east of the victim. "),
    # (quadratic before: 44x the work on ten times the text; each zone was cut by every zone
    # left out, each said again)
    "zones left out, said again": lambda: _repeat(
        "search x 0 to 5, y 0 to 5, avoid x 6 to 7, y 6 to 7, except x 0 to 1, y 0 to 5. "),
}


@pytest.fixture(scope="module")
def crews() -> list[Crew]:
    return [load_crew("sar"), load_crew("g1_go2")]


@pytest.mark.parametrize("padding", PADDING)
def test_these_cues_read_in_linear_work(padding: str, crews: list[Crew]) -> None:
    """Ten times the padding takes each crew's intent reader at most ``GROWTH`` times the work
    (tests/text/test_linear.py)."""
    growth = intent_growth(PADDING[padding](), crews)
    assert {name: g for name, g in growth.items() if g > GROWTH} == {}, growth
