"""`crewgate --version`, `crews`, `validate`, `spec schema` and usage errors, through the real
console script."""

from __future__ import annotations

import json
import re
from importlib import metadata, resources
from pathlib import Path

import pytest

from tests.cli.support import ROOT, WAREHOUSE, assert_clean_failure, crewgate

PACKAGED = {"sar": ["iris", "tb3"], "g1_go2": ["g1", "go2"]}


def _packaged_text(name: str) -> str:
    return (resources.files("crewgate.crews") / f"{name}.yaml").read_text(encoding="utf-8")


# -- version and crews ---------------------------------------------------------------------------


def test_version(journal_path: Path) -> None:
    run = crewgate("--version", journal=journal_path)
    assert run.rc == 0, str(run)
    assert run.stdout.strip() == f"crewgate {metadata.version('crewgate')}"
    assert run.stderr == ""


def test_crews_table_lists_both_packaged_crews_with_their_robots(journal_path: Path) -> None:
    run = crewgate("crews", journal=journal_path)
    assert run.rc == 0, str(run)
    rows = {line.split("│")[1].strip(): line for line in run.stdout.splitlines()
            if line.count("│") >= 3}
    assert set(PACKAGED) <= set(rows), str(run)
    for name, robots in PACKAGED.items():
        assert all(robot in rows[name] for robot in robots), rows[name]


def test_crews_json(journal_path: Path) -> None:
    run = crewgate("crews", "--json", journal=journal_path)
    assert run.rc == 0, str(run)
    crews = {c["name"]: c for c in run.json()}
    assert set(crews) == set(PACKAGED)
    for name, robots in PACKAGED.items():
        assert crews[name]["robots"] == robots
        assert crews[name]["title"]
        assert crews[name]["workflows"]
    assert "search_and_dispatch" in crews["sar"]["workflows"]
    assert "carry" in crews["g1_go2"]["workflows"]
    assert crews["sar"]["worlds"] == ["A", "B", "C"]


# -- validate ------------------------------------------------------------------------------------


def test_validate_packaged_crew(journal_path: Path) -> None:
    run = crewgate("validate", "sar", journal=journal_path)
    assert run.rc == 0, str(run)
    assert run.stdout.startswith("valid: crew 'sar': 2 robots"), str(run)


def test_validate_packaged_crew_json(journal_path: Path) -> None:
    run = crewgate("validate", "g1_go2", "--json", journal=journal_path)
    assert run.rc == 0, str(run)
    summary = run.json()
    assert summary["valid"] is True
    assert summary["crew"] == "g1_go2"
    assert summary["robots"] == 2
    assert summary["workflows"] == 4


def test_validate_crew_file(journal_path: Path) -> None:
    run = crewgate("validate", WAREHOUSE.relative_to(ROOT), journal=journal_path)
    assert run.rc == 0, str(run)
    assert "valid: crew 'warehouse': 1 robot, 3 skills, 3 locations" in run.stdout


def test_validate_unmodified_copy_is_valid(journal_path: Path, tmp_path: Path) -> None:
    """Control for the broken-copy tests below: the copy itself is fine."""
    copy = tmp_path / "sar_copy.yaml"
    copy.write_text(_packaged_text("sar"), encoding="utf-8")
    run = crewgate("validate", copy, journal=journal_path)
    assert run.rc == 0, str(run)


# (old text, new text, field path the message must name, further words it must contain)
BROKEN = {
    "misspelled field": (
        '        preconditions: ["airborne == true"]\n',
        '        precondtions: ["airborne == true"]\n',
        "robots.iris.skills.search_target.precondtions", ["unknown field"]),
    "unknown state field": (
        '        preconditions: ["airborne == true"]\n',
        '        preconditions: ["altitude_ok == true"]\n',
        "robots.iris.skills.search_target.preconditions.0", ["altitude_ok", "no state field"]),
    "wrong type": (
        "        duration_s: 4\n",
        "        duration_s: four\n",
        "robots.iris.skills.takeoff.duration_s", ["number"]),
    "misspelled top-level field": (
        "title: Air-ground search and dispatch\n",
        "titel: Air-ground search and dispatch\n",
        "titel", ["unknown field"]),
}


@pytest.mark.parametrize(("old", "new", "path", "words"), list(BROKEN.values()), ids=list(BROKEN))
def test_validate_broken_crew_names_line_and_field(
        journal_path: Path, tmp_path: Path, old: str, new: str, path: str,
        words: list[str]) -> None:
    text = _packaged_text("sar")
    assert old in text
    line = text[:text.index(old)].count("\n") + 1  # the first occurrence is the one replaced
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")

    run = crewgate("validate", broken, journal=journal_path)
    assert_clean_failure(run)
    assert str(broken) in run.stderr
    assert f"line {line}: {path}:" in run.stderr, str(run)
    for word in words:
        assert word in run.stderr, str(run)
    assert run.stdout == ""


def test_validate_yaml_syntax_error_names_the_line(journal_path: Path, tmp_path: Path) -> None:
    text = _packaged_text("sar")
    anchor = "    liveness_timeout_s: 1.0\n"
    line = text[:text.index(anchor)].count("\n") + 2  # the inserted line follows the anchor
    broken = tmp_path / "syntax.yaml"
    broken.write_text(text.replace(anchor, anchor + "   oops: - x\n", 1), encoding="utf-8")

    run = crewgate("validate", broken, journal=journal_path)
    assert_clean_failure(run)
    assert re.search(rf"line {line}, column \d+: not valid YAML", run.stderr), str(run)


def test_validate_empty_file(journal_path: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("", encoding="utf-8")
    run = crewgate("validate", empty, journal=journal_path)
    assert_clean_failure(run)
    assert "must be a mapping" in run.stderr


def test_validate_rejects_duplicate_keys(journal_path: Path, tmp_path: Path) -> None:
    text = _packaged_text("sar")
    broken = tmp_path / "dup.yaml"
    broken.write_text(text.replace("name: sar\n", "name: sar\nname: sar_two\n", 1),
                      encoding="utf-8")
    run = crewgate("validate", broken, journal=journal_path)
    assert_clean_failure(run)
    line = text.splitlines().index("name: sar") + 2
    assert f"line {line}" in run.stderr
    assert "duplicate key 'name'" in run.stderr


def _alias_bomb(levels: int) -> str:
    """Ten values, then ``levels`` lists of ten aliases of the list before: 10^(levels+1)."""
    lines = ["a0: &a0 [" + ", ".join(["x"] * 10) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("what", "args", "said"), [
    ("crew", ("validate", "{file}"), "invalid crew spec {file}:\n  - line 7, column 5: not "
     "valid YAML: its aliases make it stand for more than 2,000,000 values"),
    ("suite", ("eval", "sar", "--suite", "{file}", "--no-plots", "--out", "{out}"),
     "invalid scenario suite {file}:\n  - line 7, column 5: not valid YAML: its aliases make "
     "it stand for more than 2,000,000 values"),
    ("prices", ("eval", "sar", "--planner", "scripted", "--no-plots", "--out", "{out}",
                "--prices", "{file}"),
     "price file '{file}': line 7, column 5: not valid YAML: its aliases make it stand for "
     "more than 2,000,000 values"),
])
def test_a_yaml_file_whose_aliases_stand_for_billions_of_values_is_refused(
        journal_path: Path, tmp_path: Path, what: str, args: tuple[str, ...], said: str) -> None:
    """Ten lines of aliases of aliases (a billion values) made `crewgate validate` and `crewgate
    eval` run for hours (validation and the finite-number check walk every value); now the
    loader counts them on the node graph and refuses, naming the line."""
    bomb = tmp_path / f"{what}.yaml"
    bomb.write_text(_alias_bomb(8), encoding="utf-8")
    fill = {"file": str(bomb), "out": str(tmp_path / "out")}
    run = crewgate(*(a.format(**fill) for a in args), journal=journal_path)
    assert_clean_failure(run)
    assert said.format(**fill) in run.stderr
    assert not (tmp_path / "out" / "traces.jsonl").exists()


def test_aliases_that_stand_for_few_values_are_read(journal_path: Path, tmp_path: Path) -> None:
    """A value written once and aliased (a robot's description) reads as written out."""
    text = _packaged_text("sar")
    said = "    description: Differential-drive ground rover"
    anchored = text.replace("    description: ", "    description: &about ", 1).replace(
        said + text.split(said, 1)[1].split("\n", 1)[0], "    description: *about", 1)
    assert anchored.count("*about") == 1
    assert anchored.count("&about") == 1
    spec = tmp_path / "anchored.yaml"
    spec.write_text(anchored, encoding="utf-8")
    run = crewgate("validate", spec, journal=journal_path)
    assert run.rc == 0, run.stderr
    assert run.stdout.startswith("valid: crew 'sar': 2 robots, 6 skills")


def test_validate_unknown_crew_suggests_the_closest(journal_path: Path) -> None:
    run = crewgate("validate", "sr", journal=journal_path)
    assert_clean_failure(run)
    assert "unknown crew 'sr'" in run.stderr
    assert "did you mean 'sar'" in run.stderr


def test_validate_missing_file(journal_path: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "crew.yaml"
    run = crewgate("validate", missing, journal=journal_path)
    assert_clean_failure(run)
    assert f"'{missing}' does not exist" in run.stderr, str(run)


def test_validate_directory_is_a_clean_error(journal_path: Path, tmp_path: Path) -> None:
    run = crewgate("validate", tmp_path, journal=journal_path)
    assert_clean_failure(run)
    assert str(tmp_path) in run.stderr


# -- spec schema ---------------------------------------------------------------------------------


def test_spec_schema_out_writes_json_schema(journal_path: Path, tmp_path: Path) -> None:
    target = tmp_path / "crew.schema.json"
    run = crewgate("spec", "schema", "--out", target, journal=journal_path)
    assert run.rc == 0, str(run)
    assert str(target) in run.stdout
    schema = json.loads(target.read_text(encoding="utf-8"))
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert schema["type"] == "object"
    assert {"robots", "workflows"} <= set(schema["properties"])
    assert {"name", "robots", "workflows"} <= set(schema["required"])


def test_spec_schema_stdout_matches_file(journal_path: Path, tmp_path: Path) -> None:
    target = tmp_path / "schema.json"
    to_file = crewgate("spec", "schema", "-o", target, journal=journal_path)
    to_stdout = crewgate("spec", "schema", journal=journal_path)
    assert (to_file.rc, to_stdout.rc) == (0, 0)
    assert json.loads(to_stdout.stdout) == json.loads(target.read_text(encoding="utf-8"))


# -- usage errors (click) ------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (("run", "sar"), "Missing argument 'REQUEST'"),
    (("check", "sar", "--plan", "plan.json"), "Missing option '--request'"),
    (("no-such-command",), "No such command 'no-such-command'"),
    (("validate", "sar", "--no-such-option"), "No such option: --no-such-option"),
], ids=["missing-argument", "missing-option", "unknown-command", "unknown-option"])
def test_usage_errors_exit_2_without_traceback(journal_path: Path, args: tuple[str, ...],
                                               message: str) -> None:
    run = crewgate(*args, journal=journal_path)
    assert run.rc == 2, str(run)
    assert "Traceback" not in run.stderr, str(run)
    assert run.stderr.startswith("Usage: crewgate"), str(run)
    assert message in run.stderr, str(run)
    assert run.stdout == ""


def test_no_arguments_shows_help_without_traceback(journal_path: Path) -> None:
    run = crewgate(journal=journal_path)
    assert "Traceback" not in run.stderr, str(run)
    assert "Usage: crewgate [OPTIONS] COMMAND" in run.stdout + run.stderr
    assert run.rc in (0, 2)


def test_help_exits_0(journal_path: Path) -> None:
    run = crewgate("--help", journal=journal_path)
    assert run.rc == 0, str(run)
    for command in ("run", "check", "validate", "crews", "trace", "spec"):
        assert re.search(rf"│ {command} ", run.stdout), command


def test_help_paragraphs_wrap_to_the_terminal_once(journal_path: Path) -> None:
    """Every paragraph of every command's help fills its lines up to the terminal's width but
    the last (typer 0.29 kept the source's line breaks: the lines of the source, shorter than a
    wide terminal, or wrapped into a full line and a stub on a narrow one)."""
    import typer.main
    from typer.core import TyperGroup

    from crewgate.cli import app as cli_app

    assert crewgate("--help", journal=journal_path).rc == 0  # registers every command
    root = typer.main.get_command(cli_app.app)
    assert isinstance(root, TyperGroup)
    commands = [(name,) for name in root.commands] + [("spec", "schema")]
    assert len(commands) > 20
    short = []
    for command in commands:
        run = crewgate(*command, "--help", journal=journal_path)
        assert run.rc == 0, str(run)
        width = max(map(len, run.stdout.splitlines()))
        prose = run.stdout.split("╭")[0].splitlines()[3:]  # after "Usage: ..."
        paragraph: list[str] = []
        for line in [*prose, ""]:
            if line.strip():
                paragraph.append(line.rstrip())
                continue
            short += [(command, line) for line in paragraph[:-1] if len(line) < width - 30]
            paragraph = []
    assert short == []


def test_every_journal_event_kind_has_its_mark_in_the_timeline() -> None:
    from crewgate.cli.render import _KIND_STYLE
    from crewgate.journal import EventKind

    assert sorted(_KIND_STYLE) == sorted(EventKind)


def test_help_shows_flags_as_flags_and_arguments_in_capitals(journal_path: Path) -> None:
    """A flag takes no value (no ``<bool>`` beside it); every argument of the usage line is
    written in capitals, required in braces, optional in brackets (typer's convention)."""
    run = crewgate("run", "--help", journal=journal_path)
    assert run.rc == 0, str(run)
    assert "Usage: crewgate run [OPTIONS] {CREW} {REQUEST}" in run.stdout
    json_line = next(line for line in run.stdout.splitlines() if "--json" in line)
    assert "<bool>" not in json_line
    assert "<str>" in next(line for line in run.stdout.splitlines() if "--condition" in line)
    trace = crewgate("trace", "--help", journal=journal_path)
    assert "Usage: crewgate trace [OPTIONS] [MISSION]" in trace.stdout


def test_trace_of_a_journal_with_damaged_rows_names_the_damage(journal_path: Path,
                                                              tmp_path: Path) -> None:
    """A row crewgate did not write as it reads it stopped `crewgate trace` with a traceback."""
    import sqlite3

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"workflow": "abort", "steps": [
        {"robot": "iris", "skill": "land", "args": {}}]}))
    run = crewgate("run", "sar", "Land the drone.", "--plan", plan, "--json",
                   journal=journal_path)
    mission = run.json()["mission_id"]
    with sqlite3.connect(journal_path) as db:
        db.execute("UPDATE events SET data = '{not json' WHERE kind = 'mission_started'")
        db.execute("UPDATE events SET data = '{\"problems\": 7}' WHERE kind = 'verdict'")
        db.execute("UPDATE events SET kind = 'nonsense' WHERE kind = 'sent'")
    trace = crewgate("trace", mission, journal=journal_path)
    assert trace.rc == 0, str(trace)
    lines = trace.stdout.splitlines()
    assert lines[2].endswith("mission_started Land the drone. (damaged row: the data column is "
                             "not JSON (Expecting property name enclosed in double quotes: line "
                             "1 column 2 (char 1)))")
    (note,) = [line for line in lines if "note " in line]
    assert "note          [0] iris.land damaged row: kind 'nonsense' is none crewgate writes; " \
        in note, note
    assert trace.stderr == ""
