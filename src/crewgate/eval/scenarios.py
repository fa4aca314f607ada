"""Scenario suites: requests with the workflow they call for, whether a safe system must block
them, the faults the simulator injects, and the codes a correct block carries."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import yaml
from pydantic import Field, ValidationError

from crewgate.errors import InputFileError, NotFoundError, SpecError
from crewgate.spec.base import Name, SpecModel


class Scenario(SpecModel):
    id: str = Field(min_length=1)
    request: str = Field(min_length=1)
    workflow: Name | None = Field(description="The workflow the request calls for (None: none).")
    robots: list[Name] = Field(default_factory=list)
    should_block: bool
    faults: list[str] = Field(default_factory=list, description="Simulator fault specs.")
    expect_codes: list[str] = Field(
        default_factory=list, description="A correct block carries at least one of these codes.")
    study_fault: str = "none"
    world: str | None = None
    note: str = ""


class Suite(SpecModel):
    crew: Name
    suite: str
    scenarios: list[Scenario] = Field(min_length=1)


def packaged_suites() -> list[str]:
    folder = resources.files("crewgate.eval.suites")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_suite(crew: str, suite: str = "study") -> Suite:
    """A packaged suite (``study``, ``extended``) of a packaged crew, or a suite file by path."""
    path = Path(suite)
    if path.suffix in (".yaml", ".yml") or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise InputFileError(f"cannot read suite {suite!r}: {exc}") from exc
        return _parse(text, str(path))
    name = f"{crew}_{suite}"
    if name not in packaged_suites():
        raise NotFoundError("suite", name, packaged_suites(), "or give a suite YAML file")
    text = resources.files("crewgate.eval.suites").joinpath(f"{name}.yaml").read_text("utf-8")
    return _parse(text, f"<packaged suite {name}>")


def _parse(text: str, source: str) -> Suite:
    try:
        return Suite.model_validate(yaml.safe_load(text))
    except (yaml.YAMLError, ValidationError) as exc:
        raise SpecError(source, [str(exc)]) from exc
