"""Backends are plugins on the command line: `crewgate backends` lists them with their options,
`run --backend NAME` chooses one, `-b KEY=VALUE` and the shorthands set its options, and what a
backend does not take is an error that says where the value belongs."""

from __future__ import annotations

from pathlib import Path

from tests.cli.support import EXAMPLE_PLAN, SAR_REQUEST, assert_clean_failure, crewgate


def test_backends_json_lists_sim_and_ros2_with_their_options(journal_path: Path) -> None:
    run = crewgate("backends", "--json", journal=journal_path)
    assert run.rc == 0, str(run)
    listed = {b["name"]: [o["name"] for o in b["options"]] for b in run.json()}
    assert listed == {"ros2": ["namespace", "wait_for"], "sim": ["world", "seed", "faults"]}
    assert [b["error"] for b in run.json()] == [None, None]


def test_backends_reads_as_a_table(journal_path: Path) -> None:
    run = crewgate("backends", journal=journal_path)
    assert run.rc == 0, str(run)
    assert "faults (--fault)" in run.stdout
    assert "The built-in simulator, in process, on simulated time" in run.stdout


def test_a_backend_option_sets_the_world(journal_path: Path) -> None:
    run = crewgate("run", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN, "-b", "world=B", "--json",
                   journal=journal_path)
    assert run.rc == 0, str(run)
    journaled = crewgate("trace", "--json", journal=journal_path).json()
    assert journaled["mission"]["meta"]["world"] == "B"


def test_an_unknown_backend_gets_did_you_mean(journal_path: Path) -> None:
    run = crewgate("run", "sar", SAR_REQUEST, "--backend", "simm", journal=journal_path)
    assert_clean_failure(run)
    assert run.stderr.startswith("error: unknown backend 'simm' (did you mean 'sim'?)")


def test_an_option_the_backend_does_not_take_says_where_it_belongs(journal_path: Path) -> None:
    run = crewgate("run", "sar", SAR_REQUEST, "--backend", "ros2", "--fault", "nan_fix",
                   journal=journal_path)
    assert_clean_failure(run)
    assert run.stderr.strip() == (
        "error: backend ros2 takes no option 'faults' (give faults to each `crewgate node`); "
        "it takes: namespace, wait_for")


def test_an_unknown_backend_option_gets_did_you_mean(journal_path: Path) -> None:
    run = crewgate("run", "sar", SAR_REQUEST, "-b", "wrold=B", journal=journal_path)
    assert_clean_failure(run)
    assert run.stderr.strip() == ("error: backend sim takes no option 'wrold' (did you mean "
                                  "'world'?); it takes: world, seed, faults")


def test_a_repeated_backend_option_gives_a_list(journal_path: Path) -> None:
    run = crewgate("run", "sar", SAR_REQUEST, "--plan", EXAMPLE_PLAN, "-b", "faults=nan_fix",
                   "-b", "faults=stale_fix", "--json", journal=journal_path)
    assert run.rc == 1, str(run)
    journaled = crewgate("trace", "--json", journal=journal_path).json()
    assert journaled["mission"]["meta"]["faults"] == ["nan_fix", "stale_fix"]
