"""Scenario suites: requests with the workflow they call for, whether a safe system must block
them, the faults the simulator injects, and the codes a correct block carries; the loader of
the packaged suites (YAML files in this package) and of suite files by path."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, ValidationError, field_validator

from crewgate.errors import InputFileError, NotFoundError, SpecError, UserError
from crewgate.limits import check_request
from crewgate.spec.base import Name, SpecModel
from crewgate.yamlsafe import load_yaml, yaml_problem

PACKAGE = "crewgate.suites"

Family = Literal["none", "grounding", "contract", "state", "planner"]


class Scenario(SpecModel):
    id: str = Field(min_length=1)
    request: str = Field(min_length=1)
    workflow: Name | None = Field(description="The workflow the request calls for (None: none).")
    robots: list[Name] = Field(default_factory=list)
    should_block: bool
    faults: list[str] = Field(default_factory=list, description="Simulator fault specs.")
    expect_codes: list[str] = Field(
        default_factory=list, description="A correct block carries at least one of these codes.")
    expect_family: Family | None = Field(
        None, description="The code family a correct block shows (default: from expect_codes; "
        "'planner' when no workflow fits and the planner should propose nothing).")
    study_fault: str = "none"
    world: str | None = None
    tags: list[str] = Field(default_factory=list, description="paraphrase, substitution, "
                            "injection, multi_fault, mid_mission, off_domain, ...")
    reference_plan: dict[str, Any] | None = Field(
        None, description="What a careful planner that cannot see the faults proposes "
        "(used to verify the suite, never by planners).")
    note: str = ""

    @field_validator("request")
    @classmethod
    def _a_request(cls, request: str) -> str:
        """One crewgate reads (a bound, no NUL): found when the suite loads, not mid-run."""
        try:
            return check_request(request)
        except UserError as exc:
            raise ValueError(str(exc)) from None

    @property
    def family(self) -> Family:
        if self.expect_family is not None:
            return self.expect_family
        if not self.expect_codes:
            return "none"
        from crewgate.codes import Code

        families = {Code.named(c).family.value for c in self.expect_codes}
        for family in ("state", "contract", "grounding"):
            if family in families:
                return family
        return "none"


class Suite(SpecModel):
    crew: Name
    suite: str
    scenarios: list[Scenario] = Field(min_length=1)


def packaged_suites() -> list[str]:
    folder = resources.files(PACKAGE)
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_suite(crew: str, suite: str = "study") -> Suite:
    """A packaged suite (``study``, ``extended``, ``holdout``) of a packaged crew, or a suite
    file by path."""
    path = Path(suite)
    if path.suffix in (".yaml", ".yml") or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise InputFileError(f"cannot read suite {suite!r}: {exc}") from exc
        return _parse(text, str(path))
    name = f"{crew}_{suite}"
    if not any(p.startswith(f"{crew}_") for p in packaged_suites()):
        raise InputFileError(
            f"crew {crew!r} has no packaged suites (those are the study's crews, sar and "
            f"g1_go2); give a suite file of its own: --suite my_suite.yaml (the format: "
            "docs/evaluation.md, 'Suite files')")
    if name not in packaged_suites():
        raise NotFoundError("suite", name, packaged_suites(), "or give a suite YAML file")
    text = resources.files(PACKAGE).joinpath(f"{name}.yaml").read_text("utf-8")
    return _parse(text, f"<packaged suite {name}>")


def packaged_requests(crew: str) -> dict[str, str]:
    """Scenario id -> request over the packaged suites of ``crew`` (empty for other crews); an
    id in several suites keeps the request of the first suite by name."""
    out: dict[str, str] = {}
    for name in packaged_suites():
        if name.startswith(f"{crew}_"):
            for s in load_suite(crew, name[len(crew) + 1:]).scenarios:
                out.setdefault(s.id, s.request)
    return out


def _parse(text: str, source: str) -> Suite:
    try:
        return Suite.model_validate(load_yaml(text))
    except yaml.YAMLError as exc:
        raise SpecError(source, [yaml_problem(exc)], "scenario suite") from exc
    except ValidationError as exc:
        raise SpecError(source, [
            f"{'.'.join(map(str, e['loc'])) or '(top level)'}: "
            f"{e['msg'].removeprefix('Value error, ')}" for e in exc.errors()],
            "scenario suite") from exc
