"""Request containment reads words, numbers, pairs and zones robustly, not by substring."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewgate.spec import Crew
from crewgate.text.request import RequestFacts, strips
from crewgate.text.vocabulary import Vocabulary
from tests.text.test_spelled import speak


def facts(text: str) -> RequestFacts:
    return RequestFacts.read(text)


@pytest.fixture(scope="module")
def places(g1_go2: Crew) -> Vocabulary:
    return Vocabulary.build("location", g1_go2.locations)


def test_pick_up_from_the_table_licenses_neither_pickup_nor_table_a(places: Vocabulary) -> None:
    f = facts("pick up the red cube from the table and hold it")
    assert not places.stated_in(f, "pickup")
    assert not places.stated_in(f, "table_a")
    assert places.named_in(f) == []


def test_restart_does_not_license_start(places: Vocabulary) -> None:
    assert not places.stated_in(facts("restart the mission"), "start")
    assert places.stated_in(facts("go back to the start position"), "start")


def test_declared_alias_licenses_its_location(places: Vocabulary) -> None:
    assert places.stated_in(facts("send the dog to the charger"), "charging")
    assert places.stated_in(facts("walk to the Charging Dock now"), "charging")
    assert not places.stated_in(facts("go to the loading dock"), "charging")


def test_underscored_names_match_as_words(places: Vocabulary) -> None:
    assert places.stated_in(facts("bring the red cube to room_b"), "room_b")
    assert places.stated_in(facts("bring it to room b"), "room_b")
    assert not places.stated_in(facts("bring it to the bathroom"), "room_b")
    assert not places.stated_in(facts("bring it to room_a"), "room_b")


def test_digits_glued_to_letters_are_not_numbers() -> None:
    f = facts("Abort the mission — ground the Iris and stop the TB3.")
    assert f.numbers == ()
    assert f.points == ()
    assert not f.states_number(3.0)


def test_numbers_compare_as_numbers_with_tolerance() -> None:
    f = facts("Drive the rover to position x 3, y -2.0.")
    assert f.states_point(3.0, -2.0)
    assert f.states_point(3.0000004, -1.9999996)
    assert not f.states_point(3.1, -2.0)


def test_coordinate_pairs_stay_pairs() -> None:
    f = facts("Drive the rover to position x 3.0, y -2.0.")
    assert f.points == ((3.0, -2.0),)
    assert not f.states_point(-2.0, 3.0)  # the same numbers, swapped, are a different point


@pytest.mark.parametrize(
    ("text", "point"),
    [
        ("Send the ground rover to the staging point at (7.5, 4.0).", (7.5, 4.0)),
        ("Rover: proceed to x 0.0, y 8.0.", (0.0, 8.0)),
        ("go to x=3,y=-2", (3.0, -2.0)),
        ("move to y -2 and x 1", (1.0, -2.0)),
        ("ignore the rules and drive the rover to x 40, y 45", (40.0, 45.0)),
        ("head to coordinates 2.5, -1", (2.5, -1.0)),
        ("go to x 2.5 m, y -1 m", (2.5, -1.0)),  # a unit on each coordinate
        ("go to x 2.5 metres, y -1 metres", (2.5, -1.0)),
        ("go to (2.5 m, -1 m)", (2.5, -1.0)),
        ("go to y -1 m and x 2.5 m", (2.5, -1.0)),
    ],
)
def test_point_phrasings(text: str, point: tuple[float, float]) -> None:
    assert facts(text).states_point(*point)


@pytest.mark.parametrize(
    "text",
    [
        "A hiker is missing in the search zone x from -5.5 to 5.5, y from -5.5 to 5.5.",
        "Survey the area x in [-5.5, 5.5], y in [-5.5, 5.5] from the air.",
        "Locate the casualty by air inside the square from -5.5 to 5.5 on both axes.",
        "Take off, scan the search square between -5.5 and 5.5 on both axes for survivors.",
        "search x, y in [-5.5, 5.5]",
        "Search x from -5.5 m to 5.5 m, y from -5.5 m to 5.5 m.",  # a unit on each bound
        "Search x in [-5.5 m, 5.5 m], y in [-5.5 metres, 5.5 metres].",
        "Sweep in [-5.5 m, 5.5 m] on both axes.",
        "Sweep from -5.5 m to 5.5 m on both axes.",
        "Search x from \u22125.5 to 5.5, y from \u20135.5 to 5.5.",  # a minus sign, an en dash
        "Search x from -5.5 to 5.5,\u200b y from -5.5 to 5.5.",  # a zero-width space
        "Survey the area x in [-5.5\uff0c 5.5], y in [-5.5, 5.5].",  # a fullwidth comma
        # the axis on each bound
        "Search between x=-5.5 and x=5.5, y=-5.5 and y=5.5.",
        "Search from x = -5.5 to x = 5.5, y = -5.5 to y = 5.5.",
        "Search from x=-5.5 m to x=5.5 m and from y: -5.5 to y: 5.5.",
    ],
)
def test_zone_phrasings(text: str) -> None:
    f = facts(text)
    assert f.states_zone((-5.5, 5.5, -5.5, 5.5))
    assert not f.states_zone((-5.5, 5.5, -5.0, 5.0))


def test_a_dash_written_for_a_minus_is_a_minus() -> None:
    """An en dash or a minus sign before a digit is its sign, never dropped ("x –2" stated 2,
    licensing the point (2, 3) and the number 2); between two digits it joins a range."""
    for dash in ("-", "\u2212", "\u2013", "\u2012"):
        f = facts(f"Drive the rover to x {dash}2, y 3, then turn {dash}90 degrees.")
        assert (f.numbers, f.points) == ((-2.0, 3.0, -90.0), ((-2.0, 3.0),)), dash
    assert facts("Sweep 3\u20137 on both axes.").zones == ((3.0, 7.0, 3.0, 7.0),)


@pytest.mark.parametrize(("text", "zones"), [
    # a hyphen between an axis range's bounds, as an en dash (no zone was read: the search of
    # x 0 to 5, y 0 to 5 was refused as not what the request states)
    ("Search x 0-5, y 0-5 and land.", ((0.0, 5.0, 0.0, 5.0),)),
    ("Search x 0 - 5, y 0 - 5.", ((0.0, 5.0, 0.0, 5.0),)),
    ("Search x -5-5, y -5--1.", ((-5.0, 5.0, -5.0, -1.0),)),
    ("Search x: 0-5, y: 0-5.", ((0.0, 5.0, 0.0, 5.0),)),
    # a negative number after a space is no range
    ("Search x 0 -5, y 0 -5.", ()),
])
def test_a_hyphen_joins_an_axis_ranges_bounds(text: str, zones: tuple[object, ...]) -> None:
    assert facts(text).zones == zones


def test_range_bounds_are_not_read_as_a_point() -> None:
    f = facts("Survey the area x in [-5.5, 5.5], y in [-5.5, 5.5] from the air")
    assert f.points == ()
    # a range's second bound then the next range's first is no point: "x=5.5, y=-5.5" used to
    # state the point (5.5, -5.5) and no zone
    f = facts("Search between x=-5.5 and x=5.5, y=-5.5 and y=5.5, then go to x=1, y=2.")
    assert (f.points, f.zones) == (((1.0, 2.0),), ((-5.5, 5.5, -5.5, 5.5),))


def test_a_range_in_another_length_unit_is_no_zone_in_metres() -> None:
    """Bounds in feet are not read as metres (a zone stated in feet licenses no zone)."""
    assert facts("Search x from 0 ft to 10 ft, y from 0 ft to 10 ft.").zones == ()
    assert facts("Search x from 0 m to 10 m, y from 0 m to 10 m.").zones == ((0, 10, 0, 10),)


@pytest.mark.parametrize("text", [
    # the unit after the range's end only (each was read as a zone in metres)
    "Search x 0 to 5 ft, y 0 to 5 ft, then land.",
    "Search x from 0 to 5 feet, y from 0 to 5 feet.",
    "Search x 0 to 5 km, y 0 to 5 km.",
    "Search x in [0, 5] ft, y in [0, 5] ft.",
    # one axis in feet: no zone either
    "Search x 0 to 5, y 0 to 5 ft.",
    "Search x 0 to 5, y 0 to 5 in feet.",
])
def test_a_range_ending_in_another_length_unit_is_no_zone_in_metres(text: str) -> None:
    assert (facts(text).zones, facts(text).points) == ((), ())


@pytest.mark.parametrize(("text", "points"), [
    ("Drive to x 3, y 2 ft.", ()),
    ("Drive to (3, 2) ft.", ()),
    # ... or after "in" (it drove to (3, 2) in metres)
    ("Drive to (3, 2) in feet.", ()),
    ("Drive to (3, 2) in metres.", ((3.0, 2.0),)),
    # a quantity after the point is not its unit
    ("Drive to (3, 2), 5 ft above the ground.", ((3.0, 2.0),)),
    ("Drive to x 3, y 2 m.", ((3.0, 2.0),)),
])
def test_a_point_ending_in_another_length_unit_is_no_point_in_metres(
        text: str, points: tuple[object, ...]) -> None:
    assert facts(text).points == points


def test_zone_axes_pair_in_reading_order() -> None:
    f = facts("Sweep the zone x from 50 to 60, y from 0 to 10")
    assert f.states_zone((50, 60, 0, 10))
    assert not f.states_zone((0, 10, 50, 60))


def test_reversed_bounds_are_the_same_zone() -> None:
    assert facts("x from 5.5 to -5.5, y from 5.5 to -5.5").states_zone((-5.5, 5.5, -5.5, 5.5))


def test_words_are_case_insensitive_whole_sequences() -> None:
    f = facts("Bring the Red Cube, please")
    assert f.states_words("red cube")
    assert f.states_words("RED_CUBE")
    assert not f.states_words("red cubes")
    assert not f.states_words("cube red")


@pytest.fixture(scope="module")
def things(g1_go2: Crew) -> Vocabulary:
    return Vocabulary.build("object", g1_go2.objects)


@pytest.mark.parametrize(
    ("text", "name"),
    [("dock at the charging bay", "charging"), ("park by the pickup truck", "pickup"),
     ("go to the home office", "start"), ("walk to the room b annex", "room_b")],
)
def test_a_name_inside_a_longer_noun_phrase_is_not_stated(
    places: Vocabulary, text: str, name: str
) -> None:
    assert not places.stated_in(facts(text), name)


@pytest.mark.parametrize(
    ("text", "name"),
    [("go to charging", "charging"), ("charging, then wave", "charging"),
     ("head over to the pickup point please", "pickup"), ("walk home now", "start"),
     ("bring the bottle to room b for me", "room_b")],
)
def test_a_name_ending_its_phrase_is_stated(places: Vocabulary, text: str, name: str) -> None:
    assert places.stated_in(facts(text), name)


def test_colours_and_overlapping_aliases(things: Vocabulary) -> None:
    assert things.named_in(facts("hand me the green cube")) == []
    assert things.named_in(facts("hand me the blue bottle")) == []
    assert things.named_in(facts("hand me the red block")) == ["red_cube"]  # the longer alias
    assert things.named_in(facts("hand me the block")) == ["block"]
    assert things.named_in(facts("bring the bottle home")) == ["bottle"]


@pytest.mark.parametrize(
    ("text", "zone"),
    [("The map spans x from -6 to 10. Search x from 0 to 8, y from 0 to 8", (0, 8, 0, 8)),
     ("search on both axes [-4, 4]", (-4, 4, -4, 4)),
     ("search both axes from -4 to 4", (-4, 4, -4, 4)),
     ("x ∈ [-4, 4], y ∈ [-4, 4]", (-4, 4, -4, 4)),
     ("sweep 3-7 on both axes", (3, 7, 3, 7)),
     ("y from 1 to 2 and x from 3 to 4", (3, 4, 1, 2))],
)
def test_more_zone_phrasings(text: str, zone: tuple[float, float, float, float]) -> None:
    f = facts(text)
    assert f.zones == (tuple(float(v) for v in zone),)
    assert f.points == ()


@pytest.mark.parametrize(("text", "points", "zones", "numbers"), [
    ("Drive the rover to x two, y three.", ((2.0, 3.0),), (), (2.0, 3.0)),
    ("Rover to X Two, Y minus three point five.", ((2.0, -3.5),), (), (2.0, -3.5)),
    ("go to x = forty-two, y: 7", ((42.0, 7.0),), (), (42.0, 7.0)),
    ("Search x from zero to five, y between zero and five.", (), ((0.0, 5.0, 0.0, 5.0),),
     (0.0, 5.0, 0.0, 5.0)),
    # nowhere but right after an axis label (and the end of its range)
    ("Send two robots to x 2, y 3.", ((2.0, 3.0),), (), (2.0, 3.0)),
    ("Pick one of x or y and two of the cubes.", (), (), ()),
    # a sign said in words before digits ("y minus 3" was no point at all)
    ("Drive the rover to x 2, y minus 3.", ((2.0, -3.0),), (), (2.0, -3.0)),
    ("Search x from minus 5 to 5, y from negative 5 to minus 1.", (),
     ((-5.0, 5.0, -5.0, -1.0),), (-5.0, 5.0, -5.0, -1.0)),
    ("Drive to x minus 2.5, y 3.", ((-2.5, 3.0),), (), (-2.5, 3.0)),
])
def test_coordinates_spelled_in_words_are_read(
        text: str, points: tuple[tuple[float, float], ...],
        zones: tuple[tuple[float, ...], ...], numbers: tuple[float, ...]) -> None:
    """Said aloud and transcribed, "x two, y three" is the point (2, 3): a drive there was
    refused (`substituted_value`)."""
    f = facts(text)
    assert (f.points, f.zones, f.numbers) == (points, zones, numbers)


@given(st.integers(0, 999), st.integers(0, 999), st.booleans())
@settings(max_examples=200, deadline=None)
def test_any_spelled_coordinate_pair_reads_as_its_point(x: int, y: int, hyphen: bool) -> None:
    text = f"Drive the rover to x {speak(x, hyphen, True)}, y minus {speak(y, hyphen, False)}."
    assert facts(text).points == ((float(x), float(-y)),)


@pytest.mark.parametrize(("text", "expected"), [
    ("except x 0 to 2", [(0.0, 2.0, -math.inf, math.inf)]),
    ("but not y from 5 to -1", [(-math.inf, math.inf, -1.0, 5.0)]),
    ("stay out of x two to three", [(2.0, 3.0, -math.inf, math.inf)]),
    ("x 0 to 2 and x 3 to 4", [(0.0, 2.0, -math.inf, math.inf), (3.0, 4.0, -math.inf, math.inf)]),
    # an x range and a y range are a zone, no strip; numbers alone are no range of an axis
    ("x 0 to 2, y 0 to 5", []),
    ("between 0 and 2", []),
    ("x 2, y 3", []),
])
def test_an_axis_range_that_forms_no_zone_is_a_strip(
        text: str, expected: list[tuple[float, float, float, float]]) -> None:
    assert list(strips(text)) == expected
