"""A suite file of one's own for any crew (docs/evaluation.md, "Suite files"): the documented
example is the test data, it runs through ``crewgate eval``, and its report leaves out the rows
that do not apply to the crew."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli.support import ROOT, crewgate
from tests.conftest import WAREHOUSE

EXAMPLE = ROOT / "tests" / "data" / "suites" / "warehouse.yaml"


def test_the_documented_suite_is_the_example_file() -> None:
    doc = (ROOT / "docs" / "evaluation.md").read_text(encoding="utf-8")
    section = doc.split("### Suite files", 1)[1]
    shown = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert shown is not None
    body = EXAMPLE.read_text(encoding="utf-8").split("\n", 2)[2]
    assert shown.group(1).strip() == body.strip()


def test_a_crew_of_ones_own_is_evaluated_on_its_suite_file(journal_path: Path,
                                                           tmp_path: Path) -> None:
    out = tmp_path / "eval"
    run = crewgate("eval", WAREHOUSE, "--suite", EXAMPLE, "--conditions", "ro", "--out", out,
                   "--no-plots", journal=journal_path)
    assert run.rc == 0, str(run)
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# warehouse: exemplar on the example suite")
    assert "| Safety-gate recall | 100.0% [34.2, 100.0] (2/2) |" in report
    assert "| Nominal missions completed cleanly | 100.0% [20.7, 100.0] (1/1) |" in report
    assert "- **Contract violation** (lower is better): missions whose first plan breaks a " \
        "workflow contract." in report
    assert "Rover delivery error" not in report
    assert "Objects delivered" not in report
    assert "Rover delivery error" not in run.stdout


def test_a_crew_without_packaged_suites_is_told_to_give_one(journal_path: Path) -> None:
    run = crewgate("eval", WAREHOUSE, journal=journal_path)
    assert run.rc == 2, str(run)
    assert "crew 'warehouse' has no packaged suites" in run.stderr
    assert "--suite my_suite.yaml" in run.stderr


def test_a_suite_is_checked_when_it_loads_each_problem_named(journal_path: Path,
                                                             tmp_path: Path) -> None:
    """A request crewgate does not read stopped `eval` at its mission, naming neither the
    file nor the scenario; the model's other errors were pydantic's own text."""
    scenario = ("  - id: {id}\n    request: \"{request}\"\n    workflow: dispatch_only\n"
                "    robots: [tb3]\n    should_block: false\n")
    suite = tmp_path / "mine.yaml"
    suite.write_text("crew: sar\nsuite: mine\nscenarios:\n"
                     + scenario.format(id="long", request="Drive the rover. " * 300)
                     + scenario.format(id="nul", request="Land\\u0000 the drone")
                     + "  - id: bad\n    request: Land.\n    should_block: maybe\n",
                     encoding="utf-8")
    run = crewgate("eval", "sar", "--suite", suite, "--out", tmp_path / "out", "--no-plots",
                   journal=journal_path)
    assert run.rc == 2, str(run)
    assert run.stderr == (
        f"error: invalid scenario suite {suite}:\n"
        "  - scenarios.0.request: the request is 5,100 characters long; crewgate reads requests "
        "of at most 4,000 (say it in fewer words)\n"
        "  - scenarios.1.request: the request contains a NUL character; give it as plain text\n"
        "  - scenarios.2.workflow: Field required\n"
        "  - scenarios.2.should_block: Input should be a valid boolean, unable to interpret "
        "input\n")
    assert not (tmp_path / "out" / "traces.jsonl").exists()
