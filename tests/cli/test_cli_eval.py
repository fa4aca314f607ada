"""`crewgate eval` and `crewgate report` as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from crewgate.testing import FakeOpenAIServer, Injection, Reply
from tests.cli.support import ROOT, assert_clean_failure, crewgate

SAR_4ARM = ROOT / "tests" / "corpus" / "study" / "sar" / "recorded_plans_mock_4arm.jsonl"
G1_HELD = ROOT / "tests" / "corpus" / "study" / "g1_go2" / "recorded_plans_held_plan.jsonl"


def test_eval_json_is_the_metrics_file(journal_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run = crewgate("eval", "sar", "--planner", "replay", "--plans", SAR_4ARM, "--out", out,
                   "--no-plots", "--json", journal=journal_path)
    assert run.rc == 0, str(run)
    data = run.json()
    assert data == json.loads((out / "metrics.json").read_text())
    assert (data["crew"], data["planner"], data["suite"]) == ("sar", "replay", "study")
    assert list(data["conditions"]) == ["llm-only", "skill-list", "ro-prompt", "ro"]
    ro = data["conditions"]["ro"]
    assert ro["false_dispatch"]["k"] == 0
    assert ro["safety_recall"] == {**ro["safety_recall"], "k": 8, "n": 8, "rate": 1.0}
    assert data["conditions"]["skill-list"]["safety_precision"]["rate"] is None
    assert {"mean", "std"} <= set(ro["planning_latency"])
    for name in ("report.md", "table.tex", "traces.jsonl"):
        assert (out / name).stat().st_size > 0
    assert len((out / "traces.jsonl").read_text().splitlines()) == 80


def test_eval_resumes_and_report_rerenders(journal_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = crewgate("eval", "g1_go2", "--planner", "replay", "--plans", G1_HELD, "--held-plan",
                     "--out", out, "--no-plots", "--json", journal=journal_path)
    assert first.rc == 0, str(first)
    traces = (out / "traces.jsonl").read_text()
    again = crewgate("eval", "g1_go2", "--planner", "replay", "--plans", G1_HELD, "--held-plan",
                     "--out", out, "--no-plots", "--json", journal=journal_path)
    assert again.json() == first.json()
    assert (out / "traces.jsonl").read_text() == traces  # nothing re-run, nothing appended
    assert set(first.json()["conditions"]) == {"held-plan/off", "held-plan/on"}
    (out / "report.md").unlink()
    report = crewgate("report", out, "--no-plots", journal=journal_path)
    assert report.rc == 0, str(report)
    assert "Safety-gate recall" in (out / "report.md").read_text()
    assert "held-plan/on" in report.stdout


def test_eval_plots(journal_path: Path, tmp_path: Path) -> None:
    """The summary as SVG and, with --png, as PNG; each drawn mission as SVG; --svg, no longer
    needed, is still accepted (and no longer offered in --help)."""
    out = tmp_path / "run"
    run = crewgate("eval", "sar", "--planner", "replay", "--plans", SAR_4ARM, "--out", out,
                   "--conditions", "ro", "--max-plots", "3", "--all-plots", "--svg", "--png",
                   journal=journal_path)
    assert run.rc == 0, str(run)
    plots = out / "plots"
    assert (plots / "metrics.png").read_bytes().startswith(b"\x89PNG")
    files = sorted(p.relative_to(plots).as_posix() for p in plots.rglob("*.*"))
    assert files == ["index.html", "maps/ro/nom_sad_1-0.svg", "maps/ro/nom_sad_2-0.svg",
                     "maps/ro/nom_sad_3-0.svg", "metrics.png", "metrics.svg",
                     "timelines/ro/nom_sad_1-0.svg", "timelines/ro/nom_sad_2-0.svg",
                     "timelines/ro/nom_sad_3-0.svg"]
    for svg in plots.rglob("*.svg"):
        assert ET.parse(svg).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    index = (plots / "index.html").read_text(encoding="utf-8")
    assert index.count('<img src="timelines/ro/') == 3
    assert "--svg" not in crewgate("eval", "--help", journal=journal_path).stdout
    again = crewgate("report", out, "--no-plots", "--svg", journal=journal_path)
    assert again.rc == 0, str(again)
    (plots / "metrics.png").unlink()
    redrawn = crewgate("report", out, "--max-plots", "1", journal=journal_path)
    assert redrawn.rc == 0, str(redrawn)
    assert not (plots / "metrics.png").exists()  # a PNG only when asked for
    assert crewgate("report", out, "--png", journal=journal_path).rc == 0
    assert (plots / "metrics.png").read_bytes().startswith(b"\x89PNG")


# Runs crewgate's commands in a fresh interpreter, then says which matplotlib modules were
# loaded; after them, with matplotlib made unimportable, asks for a PNG.
WITHOUT_MATPLOTLIB = """
import json, sys
from crewgate.cli.app import main

def run(*args):
    sys.argv = ["crewgate", *args]
    try:
        main()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    return 0

out, plans = sys.argv[1:3]
codes = [run("eval", "sar", "--planner", "replay", "--plans", plans, "--conditions", "ro",
             "--max-plots", "1", "--out", out), run("report", out, "--max-plots", "1"),
         run("eval", "sar", "--planner", "replay", "--plans", plans, "--conditions", "ro",
             "--no-plots", "--out", out + "-b"),
         run("compare", out, out + "-b", "--out", out + "-both")]
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "matplotlib")
sys.modules["matplotlib"] = None  # as if it were not installed
codes += [run("eval", "sar", "--planner", "replay", "--plans", plans, "--conditions", "ro",
              "--png", "--out", out + "-png"), run("report", out, "--png"),
          run("compare", out, out + "-b", "--png", "--out", out + "-both-png")]
print(json.dumps({"codes": codes, "loaded": loaded}))
"""


def test_default_eval_and_report_import_no_matplotlib(journal_path: Path,
                                                      tmp_path: Path) -> None:
    """Every default plot is SVG (eval, report, compare): matplotlib is never imported; --png
    without it fails before any mission (or comparison), with the install hint."""
    out = tmp_path / "run"
    env = {**os.environ, "CREWGATE_JOURNAL": str(journal_path), "COLUMNS": "200",
           "XDG_STATE_HOME": str(tmp_path / "state")}
    proc = subprocess.run([sys.executable, "-c", WITHOUT_MATPLOTLIB, str(out), str(SAR_4ARM)],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result == {"codes": [0, 0, 0, 0, 2, 2, 2], "loaded": []}
    assert sorted(p.name for p in (out / "plots").glob("metrics.*")) == ["metrics.svg"]
    assert sorted(p.name for p in (tmp_path / "run-both" / "plots").iterdir()) == [
        "across.svg"]
    assert not (tmp_path / "run-png").exists()  # refused before the missions
    assert not (tmp_path / "run-both-png").exists()  # refused before the comparison
    assert proc.stderr.count('need matplotlib: pip install "crewgate[eval]"') == 3


def test_eval_errors_are_clean(journal_path: Path, tmp_path: Path) -> None:
    assert_clean_failure(crewgate("eval", "sar", "--suite", "nope", journal=journal_path))
    assert_clean_failure(crewgate("eval", "sar", "--conditions", "ro,rox",
                                  journal=journal_path))
    assert_clean_failure(crewgate("report", tmp_path / "empty", journal=journal_path))


PRICES = "currency: EUR\nmodels:\n  fake-model: {input: 2, output: 10}\n"


def test_eval_against_a_model_server(journal_path: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A hosted planner at a loopback server that rate-limits: missions at once, retried,
    cached for the rerun, tokens and cost in metrics.json and report.md."""
    monkeypatch.setenv("CREWGATE_CACHE", str(tmp_path / "cache.sqlite3"))
    prices = tmp_path / "prices.yaml"
    prices.write_text(PRICES)
    answer = {"workflow": "navigation_only", "steps": [
        {"robot": "go2", "skill": "navigate_to_location", "args": {"location": "charging"}}]}
    with FakeOpenAIServer(default=Reply(answer=answer, input_tokens=1000, output_tokens=50),
                          inject=[Injection(429, first=3, retry_after="0")]) as server:
        args = ("eval", "g1_go2", "--planner", "openai", "--model", "fake-model", "--base-url",
                server.base_url, "--conditions", "ro", "--jobs", "4", "--prices", prices,
                "--no-plots", "--json")
        run = crewgate(*args, "--out", tmp_path / "a", journal=journal_path)
        asked = len(server.requests)
        again = crewgate(*args, "--out", tmp_path / "b", journal=journal_path)
        assert len(server.requests) == asked  # the rerun asked nothing
    assert run.rc == 0, str(run)
    ro = run.json()["conditions"]["ro"]
    answers = ro["tokens"]["answers"]
    assert ro["tokens"]["retries"] == len(server.injected) == 3  # fewer than the attempts
    assert (ro["tokens"]["input"], ro["tokens"]["output"]) == (1000 * answers, 50 * answers)
    assert ro["cost"] == {"currency": "EUR", "input": round(0.002 * answers, 6),
                          "output": round(0.0005 * answers, 6),
                          "total": round(0.0025 * answers, 6)}
    assert "retries in all" in run.stderr
    assert f"{answers} planner answers from the response cache" in again.stderr
    assert again.json()["conditions"]["ro"]["tokens"]["cached"] == answers
    assert "## Planner calls" in (tmp_path / "a" / "report.md").read_text()


def test_eval_with_a_dead_model_server(journal_path: Path, tmp_path: Path) -> None:
    with FakeOpenAIServer(inject=[Injection(503, message="upstream down")]) as server:
        run = crewgate("eval", "g1_go2", "--planner", "openai", "--model", "m", "--base-url",
                       server.base_url, "--conditions", "ro", "--retries", "0", "--no-cache",
                       "--json", journal=journal_path)
    assert run.rc == 3, str(run)  # written all the same, but not a complete evaluation
    ro = run.json()["conditions"]["ro"]
    assert (ro["planner_error"]["k"], ro["planner_error"]["n"]) == (20, 20)
    assert ro["safety_recall"]["n"] == 0  # no answer is not a refusal
    assert "20 of 20 missions got no planner answer" in run.stderr
    assert "20 x " in run.stderr
    assert "upstream down" in run.stderr
    assert "exit status 3: rerun with the same --out" in run.stderr


def test_eval_exits_3_until_every_mission_has_an_answer(journal_path: Path,
                                                         tmp_path: Path) -> None:
    """Two missions got no answer: exit 3, everything written; the rerun asks for those two
    only, and exits 0."""
    answer = {"workflow": "navigation_only", "steps": [
        {"robot": "go2", "skill": "navigate_to_location", "args": {"location": "charging"}}]}
    with FakeOpenAIServer(default=Reply(answer=answer),
                          inject=[Injection(503, first=2, message="upstream down")]) as server:
        args = ("eval", "g1_go2", "--planner", "openai", "--model", "m", "--base-url",
                server.base_url, "--conditions", "ro", "--retries", "0", "--no-cache",
                "--no-plots", "--json", "--out", tmp_path / "run")
        first = crewgate(*args, journal=journal_path)
        traces = [json.loads(line) for line in (tmp_path / "run" / "traces.jsonl").open()]
        failed = {r["request"] for r in traces if r["planner_error"]}
        asked = len(server.requests)
        again = crewgate(*args, journal=journal_path)
        rerun = [json.dumps(r.body) for r in server.requests[asked:]]
    assert (first.rc, again.rc) == (3, 0), (str(first), str(again))
    assert first.json()["conditions"]["ro"]["planner_error"]["k"] == len(failed) == 2
    assert "exit status 3: rerun with the same --out" in first.stderr
    # the rerun asked for the two missions without an answer, nothing else
    requests = {r["request"] for r in traces}
    assert rerun
    assert {q for q in requests if any(json.dumps(q)[1:-1] in b for b in rerun)} == failed
    assert again.json()["conditions"]["ro"]["planner_error"]["k"] == 0


@pytest.mark.parametrize(("text", "named"), [
    ("models:\n  m: {input: .nan, output: 1}\n", "nan"),
    ("models:\n  m: {input: .inf, output: 1}\n", "inf"),
    ("models:\n  m: {input: '0.15', output: 1}\n", "'0.15'"),
    ("models:\n  m: {input: -1, output: 1}\n", "-1"),
    ("models:\n  m: {input: 1, output: true}\n", "True"),
    ("models:\n  m: {input: 1, ouput: 2}\n", "ouput"),
    ("prices: {}\n", "prices"),
    ("- a list\n", "must be a mapping"),
    ("models: [unclosed\n", "not valid YAML"),
])
def test_a_bad_price_file_is_a_clean_error(journal_path: Path, tmp_path: Path, text: str,
                                           named: str) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text(text)
    run = crewgate("eval", "g1_go2", "--planner", "replay", "--plans", G1_HELD, "--prices",
                   prices, "--no-plots", journal=journal_path)
    assert_clean_failure(run)
    assert named in run.stderr


def test_a_price_file_without_the_model_is_refused_before_anything_runs(
        journal_path: Path, tmp_path: Path) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text(PRICES)
    run = crewgate("eval", "g1_go2", "--planner", "openai", "--model", "other-model",
                   "--base-url", "http://127.0.0.1:9/v1", "--prices", prices,
                   journal=journal_path)
    assert_clean_failure(run)
    assert "no price for model 'other-model'" in run.stderr


def test_report_prices_an_evaluation_already_run(journal_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    answer = {"workflow": "navigation_only", "steps": []}
    with FakeOpenAIServer(default=Reply(answer=answer, input_tokens=100, output_tokens=10)) as s:
        run = crewgate("eval", "g1_go2", "--planner", "openai", "--model", "fake-model",
                       "--base-url", s.base_url, "--conditions", "ro", "--no-cache",
                       "--no-plots", "--out", out, journal=journal_path)
    assert run.rc == 0, str(run)
    assert "cost" not in json.loads((out / "metrics.json").read_text())["conditions"]["ro"]
    prices = tmp_path / "prices.yaml"
    prices.write_text(PRICES)
    report = crewgate("report", out, "--prices", prices, "--no-plots", "--json",
                      journal=journal_path)
    assert report.rc == 0, str(report)
    ro = report.json()["conditions"]["ro"]
    answers = ro["tokens"]["answers"]
    assert ro["cost"]["total"] == round(answers * (100 * 2 + 10 * 10) / 1_000_000, 6)


@pytest.mark.parametrize(("edit", "why"), [
    (lambda r: r.pop("planner"), "planner: Field required"),
    (lambda r: r.update(planning_s="0.1"), "planning_s: Input should be a valid number"),
    (lambda r: r["expected"].update(should_block="no"),
     "expected.should_block: Input should be a valid boolean"),
    (lambda r: r.update(dispatched=[{"robot": "tb3"}]), "dispatched.0.skill: Field required"),
    (lambda r: r["outcome"].update(tb3_to_victim_m=[1.0]),
     "outcome.tb3_to_victim_m.float: Input should be a valid number"),
    (lambda r: r["attempts"][0]["verdict"].update(problems=[{"code": 5}]),
     "attempts.0.verdict.problems.0.code: Input should be a valid string"),
])
def test_report_of_a_record_crewgate_did_not_write_names_the_line_and_field(
        journal_path: Path, tmp_path: Path, edit: Callable[[dict[str, Any]], object],
        why: str) -> None:
    # each of these stopped `crewgate report` with a traceback halfway through the metrics
    out = tmp_path / "run"
    first = crewgate("eval", "sar", "--planner", "replay", "--plans", SAR_4ARM, "--out", out,
                     "--no-plots", "--conditions", "ro", journal=journal_path)
    assert first.rc == 0, str(first)
    traces = out / "traces.jsonl"
    lines = traces.read_text().splitlines()
    record = json.loads(lines[2])
    edit(record)
    traces.write_text("\n".join([*lines[:2], json.dumps(record), *lines[3:]]) + "\n")
    report = crewgate("report", out, "--no-plots", journal=journal_path)
    assert_clean_failure(report)
    assert report.stderr.strip() == (f"error: {traces}:3: not a mission record ({why}); was the "
                                     "file written by `crewgate eval`?")
