"""Backends own their sections of the crew spec (``sim``, ``ros2``): the spec learns them from
the installed backends, validates them with the backend's model, reports their errors with file
lines beside the crew's own, and exports them in the crew JSON Schema."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import jsonschema
import pytest
import yaml
from pydantic import Field

import crewgate.spec.crew as crew_module
from crewgate.errors import SpecError
from crewgate.ros2.section import Ros2Section
from crewgate.sim.section import SimSection
from crewgate.spec import Crew, crew_json_schema, parse_crew
from crewgate.spec.base import SpecPath
from crewgate.spec.sections import Section, registered_sections

ROOT = Path(__file__).parents[1]
CREWS = [ROOT / "src" / "crewgate" / "crews" / "sar.yaml",
         ROOT / "src" / "crewgate" / "crews" / "g1_go2.yaml",
         *sorted((ROOT / "tests" / "data" / "crews").glob("*.yaml"))]


def _data(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return loaded


def test_the_installed_backends_own_sim_and_ros2() -> None:
    expected: dict[str, type[Section]] = {"ros2": Ros2Section, "sim": SimSection}
    assert registered_sections() == expected


@pytest.mark.parametrize("path", CREWS, ids=lambda p: p.name)
def test_the_crew_schema_accepts_every_crew_file(path: Path) -> None:
    schema = json.loads(crew_json_schema())
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(_data(path))]
    assert errors == []


def test_the_crew_schema_knows_each_sections_fields() -> None:
    schema = json.loads(crew_json_schema())
    data = _data(CREWS[0])
    data["sim"]["dt"] = 0.1  # the field is dt_s
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema).iter_errors(data))
    assert error is not None
    assert error.message == "Additional properties are not allowed ('dt' was unexpected)"
    assert list(error.absolute_path) == ["sim"]
    assert "sections" not in schema["properties"]


def test_section_errors_come_with_their_lines_and_the_crews_own() -> None:
    text = CREWS[0].read_text(encoding="utf-8")
    text = text.replace("  dt_s: 0.05", "  dt_s: fast", 1).replace("name: sar", "name: 3sar", 1)
    with pytest.raises(SpecError) as caught:
        parse_crew(text, "sar.yaml")
    problems = caught.value.problems
    assert [p.split(": ")[1] for p in problems] == ["name", "sim.dt_s"]
    assert [p.split(":")[0] for p in problems] == ["line 3", f"line {_line(text, '  dt_s:')}"]


def test_a_sections_references_are_checked_against_the_crew() -> None:
    text = CREWS[0].read_text(encoding="utf-8").replace("  default_world: A",
                                                         "  default_world: Z", 1)
    with pytest.raises(SpecError) as caught:
        parse_crew(text, "sar.yaml")
    assert caught.value.problems == [
        f"line {_line(text, '  default_world:')}: sim.default_world: unknown world 'Z'"]


def _line(text: str, start: str) -> int:
    """The number of the first line of the text that starts so."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_sections_is_not_a_field_of_a_crew_file() -> None:
    data = _data(CREWS[0])
    data["sections"] = {}
    with pytest.raises(SpecError, match="sections: unknown field"):
        parse_crew(yaml.safe_dump(data), "<test>")


class BeaconSection(Section):
    """A toy backend's section: beacons the robots carry."""

    key: ClassVar[str] = "beacons"
    title: ClassVar[str] = "Beacons (`beacons`)"
    robots: dict[str, int] = Field(description="Beacon channel per robot.")

    def problems(self, crew: Crew) -> Iterator[tuple[SpecPath, str]]:
        for robot in self.robots:
            if robot not in crew.robots:
                yield ("beacons", "robots", robot), f"unknown robot {robot!r}"


@pytest.fixture
def beacons(monkeypatch: pytest.MonkeyPatch) -> None:
    sections = {**registered_sections(), "beacons": BeaconSection}
    monkeypatch.setattr(crew_module, "registered_sections", lambda: sections)


@pytest.mark.usefixtures("beacons")
def test_a_new_backends_section_needs_no_change_in_the_spec() -> None:
    data = _data(CREWS[0])
    data["beacons"] = {"robots": {"iris": 4}}
    crew = parse_crew(yaml.safe_dump(data), "<test>")
    assert crew.section(BeaconSection) == BeaconSection(robots={"iris": 4})
    assert crew.section(SimSection) is not None
    data["beacons"] = {"robots": {"iriss": 4}}
    with pytest.raises(SpecError, match=r"beacons\.robots\.iriss: unknown robot 'iriss'"):
        parse_crew(yaml.safe_dump(data), "<test>")
