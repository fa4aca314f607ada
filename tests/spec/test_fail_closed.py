"""A crew spec can only narrow the gate: every spec that would widen it, or promise what no plan
can do, is refused at load with its line, its path, the value and the fix (docs/crew-spec.md,
"What a spec may not do").

Each case edits a packaged crew's YAML and asserts the exact problem lines ``parse_crew``
reports; the CLI test shows ``crewgate validate`` exiting 2 with them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pytest
from pydantic import ValidationError

from crewgate.errors import SpecError
from crewgate.spec import Binding, Box, Skill, load_crew, packaged_crews, parse_crew
from tests.cli.support import assert_clean_failure, crewgate

CREWS = Path(__file__).parents[1] / "data" / "crews"
FIX = ("is not a finite number; a crew spec holds finite numbers only (write a finite value, "
       "or leave an optional limit out)")
ONE_NAME = "one name must denote one thing: rename or remove one of them"


def packaged(name: str) -> str:
    return resources.files("crewgate.crews").joinpath(f"{name}.yaml").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Refused:
    """The edited text of a crew, and the problems the loader reports for it."""

    text: str
    problems: list[str]

    def line(self, snippet: str, nth: int = 1) -> int:
        """The line (1-based) where the ``nth`` occurrence of ``snippet`` starts."""
        at = -1
        for _ in range(nth):
            at = self.text.index(snippet, at + 1)
        return self.text[:at].count("\n") + 1


def refused(name: str, *edits: tuple[str, str]) -> Refused:
    """Crew ``name`` with each (old, new) edit made at the first occurrence of old; it must be
    refused."""
    text = packaged(name)
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    with pytest.raises(SpecError) as caught:
        parse_crew(text, f"{name}.yaml")
    return Refused(text, caught.value.problems)


# -- every crew we ship or test with still loads --------------------------------------------------


@pytest.mark.parametrize("name", [*packaged_crews(), *sorted(p.name for p in
                                                             CREWS.glob("*.yaml"))])
def test_every_packaged_and_test_crew_still_loads(name: str) -> None:
    crew = load_crew(CREWS / name if name.endswith(".yaml") else name)
    assert crew.max_steps == 64
    assert crew.dispatch_window_s == 0.5
    assert all(b.max_skew_s == 0.5 for b in crew.bindings.values())


# -- no number that is not finite, anywhere -------------------------------------------------------

TAKEOFF_ALTITUDE = "min: 1.0, max: 10.0, unit: m, default: 3.0,"


def test_a_nan_bound_is_refused() -> None:
    """`min: .nan` would drop the bound: every comparison with NaN is false."""
    r = refused("sar", (TAKEOFF_ALTITUDE, "min: .nan, max: 10.0, unit: m, default: 3.0,"))
    assert r.problems == [f"line {r.line('min: .nan')}: "
                          f"robots.iris.skills.takeoff.params.altitude.min: .nan {FIX}"]


def test_an_infinite_operational_area_is_refused() -> None:
    r = refused("sar", ("operational: {x: [-6, 10]", "operational: {x: [-.inf, 10]"))
    assert r.problems == [f"line {r.line('operational:')}: area.operational.x.0: -.inf {FIX}"]


@pytest.mark.parametrize("value", [".inf", "1e400", "inf", "-1.0e+400"])
def test_an_infinite_age_is_refused(value: str) -> None:
    r = refused("sar", ("max_age_s: 120", f"max_age_s: {value}"))
    shown = {"-1.0e+400": "-.inf"}.get(value, value)
    assert r.problems == [f"line {r.line('max_age_s')}: bindings.victim.max_age_s: {shown} {FIX}"]


def test_an_integer_beyond_any_float_is_refused() -> None:
    r = refused("sar", ("duration_s: 4", "duration_s: 1" + "0" * 400))
    assert r.problems == [f"line {r.line('duration_s: 1')}: robots.iris.skills.takeoff."
                          f"duration_s: an integer of 401 digits {FIX}"]


def test_a_condition_on_a_nan_is_refused() -> None:
    r = refused("sar", ('"battery >= 0.2"', '"battery >= .nan"'))
    assert r.problems == [f"line {r.line('battery >= .nan')}: robots.iris.skills.takeoff."
                          f"preconditions.1: condition 'battery >= .nan': .nan {FIX}"]


def test_an_infinite_effect_is_refused() -> None:
    r = refused("sar", ("effects: {airborne: true}", "effects: {airborne: .inf}"))
    assert r.problems == [f"line {r.line('airborne: .inf')}: "
                          f"robots.iris.skills.takeoff.effects.airborne: .inf {FIX}"]


def test_non_finite_fallback_arguments_are_refused() -> None:
    r = refused("sar", ("{step: tb3.stop}", "{step: tb3.stop, args: {x: 1e400, y: .nan}}"))
    line = r.line("{step: tb3.stop")
    assert r.problems == [f"line {line}: fallback.1.args.x: 1e400 {FIX}",
                          f"line {line}: fallback.1.args.y: .nan {FIX}"]


def test_non_finite_numbers_in_backend_sections_are_refused() -> None:
    r = refused("sar", ("dt_s: 0.05", "dt_s: .nan"), ("fix_noise_m: 0.15", "fix_noise_m: .inf"))
    assert r.problems == [f"line {r.line('dt_s')}: sim.dt_s: .nan {FIX}",
                          f"line {r.line('fix_noise_m')}: sim.robots.iris.params.fix_noise_m: "
                          f".inf {FIX}"]
    text = (CREWS / "wired.yaml").read_text(encoding="utf-8").replace(
        "success_field: success", "success_field: success\n          duration_s: -.inf", 1)
    with pytest.raises(SpecError) as caught:
        parse_crew(text, "wired.yaml")
    line = text[:text.index("duration_s: -.inf")].count("\n") + 1
    assert caught.value.problems == [
        f"line {line}: ros2.robots.rover.skills.dock.duration_s: -.inf {FIX}"]


def test_non_finite_numbers_are_reported_with_every_other_problem() -> None:
    r = refused("sar", (TAKEOFF_ALTITUDE, "min: .nan, max: 10.0, unit: m, default: 3.0,"),
                ("duration_s: 60", "duration_s: long"))
    assert r.problems == [
        f"line {r.line('min: .nan')}: robots.iris.skills.takeoff.params.altitude.min: .nan {FIX}",
        f"line {r.line('duration_s: long')}: robots.iris.skills.search_target.duration_s: "
        "Input should be a valid number, unable to parse string as a number"]


def test_spec_models_built_in_python_refuse_non_finite_numbers() -> None:
    for build in (lambda: Binding(max_age_s=math.inf), lambda: Box(x=(0, math.nan), y=(0, 1)),
                  lambda: Skill(description="d", duration_s=1, timeout_s=2,
                                effects={"battery": math.nan})):
        with pytest.raises(ValidationError) as caught:
            build()
        assert [e["type"] for e in caught.value.errors()] == ["non_finite_number"]


# -- contracts some plan can meet -----------------------------------------------------------------

LAND_AFTER_SEARCH = ("      - {first: iris.search_target, then: iris.land, why: land after the "
                     "search}\n")
NAVIGATE_BEFORE_TAKEOFF = "      - {first: tb3.navigate_to, then: iris.takeoff}\n"


def test_an_order_cycle_is_refused_and_named() -> None:
    r = refused("sar", (LAND_AFTER_SEARCH, LAND_AFTER_SEARCH + NAVIGATE_BEFORE_TAKEOFF))
    assert r.problems == [
        f"line {r.line('{first: tb3.navigate_to')}: workflows.search_and_dispatch.order.4: this "
        "rule closes the cycle tb3.navigate_to -> iris.takeoff -> iris.search_target -> "
        "tb3.navigate_to: each step on it waits for the one before, so no plan holding them all "
        "can run; remove one of its rules"]


def test_a_step_ordered_after_itself_is_refused() -> None:
    r = refused("sar", ("{first: iris.takeoff, then: iris.search_target,",
                        "{first: iris.search_target, then: iris.search_target,"))
    assert r.problems == [
        f"line {r.line('{first: iris.search_target, then: iris.search_target')}: "
        "workflows.search_and_dispatch.order.0: this rule closes the cycle iris.search_target -> "
        "iris.search_target: each step on it waits for the one before, so no plan holding them "
        "all can run; remove one of its rules"]


def test_min_steps_beyond_the_counts_is_refused() -> None:
    r = refused("sar", ("    min_steps: 1\n    partial: true",
                        "    min_steps: 3\n    partial: true"))
    assert r.problems == [
        f"line {r.line('min_steps: 3')}: workflows.abort.min_steps: min_steps 3 is more than the "
        "steps' counts allow together (2); no plan can meet it: lower min_steps or raise a count"]


@pytest.mark.parametrize("count", ["0", "0..0"])
def test_a_step_that_may_never_occur_is_refused(count: str) -> None:
    r = refused("sar", ("iris.get_coordinates: {count: 0..1}",
                        f"iris.get_coordinates: {{count: {count}}}"))
    assert r.problems == [
        f"line {r.line('iris.get_coordinates: {count: 0')}: workflows.search_and_dispatch.steps."
        "iris.get_coordinates.count: count 0 allows the step no occurrence; remove the step from "
        "the workflow instead"]


def test_a_required_step_after_a_step_that_may_never_occur_is_refused() -> None:
    """takeoff may not occur, and search_target (required) is ordered after it."""
    r = refused("sar", ("      iris.takeoff: {count: 1}", "      iris.takeoff: {count: 0..0}"))
    assert r.problems == [
        f"line {r.line('iris.takeoff: {count: 0..0}')}: workflows.search_and_dispatch.steps."
        "iris.takeoff.count: count 0 allows the step no occurrence; remove the step from the "
        "workflow instead"]


def test_required_steps_of_a_robot_outside_the_workflow_are_refused() -> None:
    r = refused("sar", ("    robots: [iris]\n", "    robots: [tb3]\n"))
    # (step, lines from its key to its value: search_target's is a block on the next line)
    steps = [("iris.takeoff", 0), ("iris.search_target", 1), ("iris.get_coordinates", 0),
             ("iris.land", 0)]
    assert r.problems == [
        f"line {r.line(f'      {ref}:', 2) + below}: workflows.search_only.steps.{ref}: robot "
        "'iris' takes a step but is not listed under robots" for ref, below in steps]


def test_a_hidden_step_and_a_required_step_ordered_after_it_are_refused() -> None:
    r = refused("g1_go2",
                ("      g1.hand_over: {count: 1, args: {object: {from_request: true}}}\n",
                 "      g1.hand_over: {count: 1, args: {object: {from_request: true}}}\n"
                 "      g1.stop: {count: 0..1}\n"),
                ("      - {first: g1.grab_from_table, then: g1.hand_over, why: grab before handing "
                 "over}\n",
                 "      - {first: g1.grab_from_table, then: g1.hand_over, why: grab before handing "
                 "over}\n      - {first: g1.stop, then: g1.hand_over}\n"))
    assert r.problems == [
        f"line {r.line('g1.stop: {count')}: workflows.handover.steps.g1.stop: g1.stop is hidden "
        "(visible: false): a plan naming it gets unknown_skill, so no plan can hold the step; "
        "make the skill visible or remove the step",
        f"line {r.line('{first: g1.stop')}: workflows.handover.order.1: g1.hand_over is required "
        "but ordered after g1.stop, which no plan can hold (its skill is hidden (visible: "
        "false)); remove the rule or make g1.stop a step plans can hold"]


DISPATCH_GOAL = "        args: {goal: {from_request: true, required: true}}"


def test_a_bind_to_a_binding_no_step_of_the_workflow_publishes_is_refused() -> None:
    r = refused("sar", (DISPATCH_GOAL, "        args: {target: {bind: victim}}"))
    assert r.problems == [
        f"line {r.line('{bind: victim}}', 2)}: workflows.dispatch_only.steps.tb3.navigate_to."
        "args.target.bind: 'victim' is published only by iris.search_target, and no step of this "
        "workflow can be one of them: its value could only be left over from another mission; "
        "add the step that publishes it, or remove the rule"]


def test_required_arguments_of_two_one_of_groups_are_refused() -> None:
    r = refused("sar", (DISPATCH_GOAL, "        args: {goal: {required: true}, "
                                       "target: {required: true}}"))
    assert r.problems == [
        f"line {r.line('{goal: {required: true}')}: workflows.dispatch_only.steps.tb3.navigate_to"
        ".args: the argument rules require goal and target, but tb3.navigate_to takes exactly one "
        "of target or x, y; no step can give them all"]


@pytest.mark.parametrize(("rng", "message"), [
    ("[20, 30]", "range [20, 30] leaves no value altitude accepts (number in [1, 10] m), so no "
                 "step can give it; widen the range or remove it"),
    ("[5, 2]", "range [5, 2] is empty; write [low, high]"),
])
def test_a_range_no_value_passes_is_refused(rng: str, message: str) -> None:
    r = refused("sar", ("      iris.takeoff: {count: 1}",
                        f"      iris.takeoff: {{count: 1, args: {{altitude: {{range: {rng}}}}}}}"))
    assert r.problems == [f"line {r.line('range:')}: workflows.search_and_dispatch.steps."
                          f"iris.takeoff.args.altitude.range: {message}"]


def test_required_steps_beyond_max_steps_are_refused() -> None:
    r = refused("sar", ("fallback:\n", "max_steps: 2\nfallback:\n"))
    assert r.problems == [  # the line of the steps' mapping: its first step
        f"line {r.line('      iris.takeoff: {count: 1}', n)}: workflows.{w}.steps: the required "
        "steps need 3 "
        "steps, more than the crew's max_steps 2; no plan the gate reads can hold them"
        for n, w in ((1, "search_and_dispatch"), (2, "search_only"))]


def test_min_steps_beyond_max_steps_is_refused() -> None:
    r = refused("sar", ("fallback:\n", "max_steps: 3\nfallback:\n"),
                ("      iris.land: {count: 0..1}\n      tb3.stop: {count: 0..1}\n    min_steps: 1",
                 "      iris.land: {count: 0..2}\n      tb3.stop: {count: 0..2}\n    min_steps: 4"))
    assert r.problems == [
        f"line {r.line('min_steps: 4')}: workflows.abort.min_steps: min_steps 4 is more than the "
        "crew's max_steps 3; no plan the gate reads can meet it"]


@pytest.mark.parametrize(("field", "value", "message"), [
    ("max_steps", "0", "Input should be greater than or equal to 1"),
    ("max_steps", "1001", "Input should be less than or equal to 1000"),
    ("dispatch_window_s", "0", "Input should be greater than 0"),
    ("dispatch_window_s", "11", "Input should be less than or equal to 10"),
    ("dispatch_window_s", ".nan", f".nan {FIX}"),
])
def test_crew_limits_are_bounded(field: str, value: str, message: str) -> None:
    r = refused("sar", ("fallback:\n", f"{field}: {value}\nfallback:\n"))
    assert r.problems == [f"line {r.line(f'{field}:')}: {field}: {message}"]


@pytest.mark.parametrize(("value", "message"), [
    ("-0.1", "Input should be greater than or equal to 0"),
    ("61", "Input should be less than or equal to 60"),
    (".inf", f".inf {FIX}"),
])
def test_the_clock_skew_tolerance_is_bounded(value: str, message: str) -> None:
    r = refused("sar", ("max_age_s: 120", f"max_age_s: 120\n    max_skew_s: {value}"))
    assert r.problems == [f"line {r.line('max_skew_s')}: bindings.victim.max_skew_s: {message}"]


# -- one name, one thing --------------------------------------------------------------------------

ROOM_B = "room_b: {pose: [0.0, -1.0]}"


def test_an_alias_that_reads_like_another_locations_is_refused() -> None:
    """room_b's `charging-dock` reads as charging's `charging dock`."""
    r = refused("g1_go2", (ROOM_B, "room_b: {pose: [0.0, -1.0], aliases: [charging-dock]}"))
    assert r.problems == [
        f"line {r.line('charging: {pose')}: locations.charging.aliases.1: 'charging dock' and "
        "'charging-dock' of location 'room_b' (locations.room_b.aliases.0) both read as "
        f"'charging dock'; {ONE_NAME}"]


def test_a_location_alias_naming_an_object_is_refused() -> None:
    r = refused("g1_go2", (ROOM_B, "room_b: {pose: [0.0, -1.0], aliases: [Bottle]}"))
    assert r.problems == [
        f"line {r.line('  bottle: {aliases')}: objects.bottle: 'bottle' and 'Bottle' of location "
        f"'room_b' (locations.room_b.aliases.0) both read as 'bottle'; {ONE_NAME}"]


def test_a_robot_alias_naming_a_location_is_refused() -> None:
    r = refused("g1_go2", ("aliases: [dog, robot dog, unitree go2]",
                           "aliases: [dog, robot dog, unitree go2, pickup]"))
    assert r.problems == [
        f"line {r.line('aliases: [dog,')}: robots.go2.aliases.3: 'pickup' already names location "
        f"'pickup' (locations.pickup); {ONE_NAME}"]


def test_a_skill_alias_of_another_skill_of_the_robot_is_refused() -> None:
    r = refused("g1_go2", ("aliases: [hand, pass, give]", "aliases: [hand, pass, give, grab]"))
    assert r.problems == [
        f"line {r.line('aliases: [hand,')}: robots.g1.skills.hand_over.aliases.3: 'grab' already "
        "names skill 'g1.grab_from_table' (robots.g1.skills.grab_from_table.aliases.0); "
        f"{ONE_NAME}"]


def test_a_skill_alias_naming_a_robot_is_refused() -> None:
    r = refused("g1_go2", ("aliases: [hand, pass, give]", "aliases: [hand, pass, give, Dog]"))
    assert r.problems == [
        f"line {r.line('aliases: [hand,')}: robots.g1.skills.hand_over.aliases.3: 'Dog' and 'dog' "
        f"of robot 'go2' (robots.go2.aliases.0) both read as 'dog'; {ONE_NAME}"]


def test_skills_of_different_robots_may_share_names_and_aliases() -> None:
    text = packaged("sar").replace("aliases: [land, ground the,",
                                   "aliases: [halt, land, ground the,", 1)
    crew = parse_crew(text, "sar.yaml")
    assert "halt" in crew.robots["iris"].skills["land"].aliases
    assert "halt" in crew.robots["tb3"].skills["stop"].aliases


def test_a_workflow_alias_naming_a_skill_a_robot_or_another_workflow_is_refused() -> None:
    """A workflow's alias asks for each of its steps: one that is a skill's (tb3's "stop"), a
    robot's or another workflow's would ask for both."""
    r = refused("sar", ("aliases: [abort, call off the mission,",
                        "aliases: [abort, stop, TurtleBot, call off the mission,"),
                ("  search_only:\n", "  search_only:\n    aliases: [Abort]\n"))
    line = r.line("aliases: [abort,")
    assert r.problems == [
        f"line {line}: workflows.abort.aliases.0: 'abort' and 'Abort' of workflow 'search_only' "
        f"(workflows.search_only.aliases.0) both read as 'abort'; {ONE_NAME}",
        f"line {line}: workflows.abort.aliases.1: 'stop' already names skill 'tb3.stop' "
        f"(robots.tb3.skills.stop); {ONE_NAME}",
        f"line {line}: workflows.abort.aliases.2: 'TurtleBot' and 'turtlebot' of robot 'tb3' "
        f"(robots.tb3.aliases.2) both read as 'turtlebot'; {ONE_NAME}"]


def test_an_alias_with_no_word_is_refused() -> None:
    r = refused("g1_go2", (ROOM_B, "room_b: {pose: [0.0, -1.0], aliases: ['?!', '--']}"))
    line = r.line("room_b:")
    assert r.problems == [
        f"line {line}: locations.room_b.aliases.{i}: {word!r} has no word a request could state; "
        "write a name or alias with letters or digits"
        for i, word in enumerate(["?!", "--"])]


# -- places inside the area -----------------------------------------------------------------------


@pytest.mark.parametrize("edit", [
    ("  table_b: {pose: [2.0, 1.0]", "  table_b: {pose: [20.0, 1.0]"),
    ("operational: {x: [-2, 4], y: [-2, 3]}",
     "operational: {x: [-2, 4], y: [-2, 3]}\n"
     "  keep_out: [{name: pit, x: [1.5, 2.5], y: [0.5, 1.5]}]"),
])
def test_a_location_where_no_point_may_go_is_refused(edit: tuple[str, str]) -> None:
    r = refused("g1_go2", edit)
    x = "20" if "20.0" in edit[1] else "2"
    assert r.problems == [
        f"line {r.line('  table_b: {pose')}: locations.table_b.pose: ({x}, 1) is outside the "
        "operational area or inside a keep-out zone, where no plan may send a robot; move the "
        "location or widen the area"]


# -- through the command line ---------------------------------------------------------------------


def test_validate_refuses_a_widening_spec_with_every_line(journal_path: Path,
                                                          tmp_path: Path) -> None:
    nan = (TAKEOFF_ALTITUDE, "min: .nan, max: 10.0, unit: m, default: 3.0,")
    cycle = (LAND_AFTER_SEARCH, LAND_AFTER_SEARCH + NAVIGATE_BEFORE_TAKEOFF)
    clash = ("aliases: [drone, uav, aircraft, air asset]",
             "aliases: [drone, uav, aircraft, air asset, turtlebot]")
    # names are compared once every field is valid: the clash is found when the others are gone
    for edits, paths in (((nan, cycle, clash), ["robots.iris.skills.takeoff.params.altitude.min",
                                                "workflows.search_and_dispatch.order.4"]),
                         ((clash,), ["robots.tb3.aliases.2"])):
        r = refused("sar", *edits)
        assert [p.split(": ")[1] for p in r.problems] == paths
        spec = tmp_path / "widening.yaml"
        spec.write_text(r.text, encoding="utf-8")
        run = crewgate("validate", spec, journal=journal_path)
        assert_clean_failure(run)
        assert f"invalid crew spec {spec}:" in run.stderr, str(run)
        for problem in r.problems:
            assert f"  - {problem}" in run.stderr, str(run)
        assert run.stdout == ""
