"""The evaluation's plots, drawn from records of real simulated missions."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from crewgate.api import run_mission
from crewgate.conditions import Condition, Knowledge
from crewgate.errors import UserError
from crewgate.eval.metrics import PROPORTIONS, compute
from crewgate.eval.plots import (
    metric_bars,
    mission_map,
    mission_timeline,
    notable,
    render_plots,
    safe_name,
)
from crewgate.eval.records import Record, make_record
from crewgate.journal import Journal
from crewgate.planners import ScriptedPlanner
from crewgate.spec import load_crew
from crewgate.suites import Scenario

pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[2]
SAR_PLAN = json.loads((ROOT / "examples" / "sar_search_and_dispatch.json").read_text("utf-8"))
SAR_REQUEST = ("A hiker is missing in the zone x from -5.5 to 5.5, y from -5.5 to 5.5; find "
               "them with the drone and send the rover.")
CARRY_PLAN = {"workflow": "carry", "steps": [
    {"robot": "g1", "skill": "grab_from_table", "args": {"object": "red_cube"}},
    {"robot": "g1", "skill": "place_on_table", "args": {}},
    {"robot": "go2", "skill": "navigate_to_location", "args": {"location": "room_b"}}]}
HELD_OFF = Condition("held-plan/off", Knowledge.CONTRACTS, enforce=False, replans=0)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _record(crew: str, request: str, plan: dict[str, Any], *, scenario: str, condition: str,
            faults: tuple[str, ...] = (), should_block: bool = False,
            codes: tuple[str, ...] = ()) -> Record:
    cond: Condition | str = HELD_OFF if condition == HELD_OFF.name else condition
    journal = Journal(":memory:")
    try:
        result = run_mission(crew, request, ScriptedPlanner([plan]), faults=faults,
                             condition=cond, journal=journal)
    finally:
        journal.close()
    spec = Scenario(id=scenario, request=request, workflow=plan["workflow"],
                    should_block=should_block, faults=list(faults), expect_codes=list(codes))
    return make_record(result, crew=crew, crew_source=crew, suite="test", planner="scripted",
                       condition=condition, scenario=spec, sample=0, seed=0,
                       world=str(result.outcome.get("world")))


@pytest.fixture(scope="module")
def sar_records() -> dict[str, Record]:
    return {
        "nominal": _record("sar", SAR_REQUEST, SAR_PLAN, scenario="nom_sad", condition="ro"),
        "halted": _record("sar", SAR_REQUEST, SAR_PLAN, scenario="tb3_lost", condition="ro",
                          faults=("robot_unavailable:tb3@search_target",), should_block=True,
                          codes=("robot_unavailable",)),
        "refused": _record("sar", SAR_REQUEST, SAR_PLAN, scenario="iris_down", condition="ro",
                           faults=("robot_unavailable:iris",), should_block=True,
                           codes=("robot_unavailable",)),
        "unenforced": _record("sar", SAR_REQUEST, SAR_PLAN, scenario="nom_sad",
                              condition="llm-only"),
        "held": _record("sar", SAR_REQUEST, SAR_PLAN, scenario="nom_sad",
                        condition=HELD_OFF.name),
    }


@pytest.fixture(scope="module")
def carry_record() -> Record:
    return _record("g1_go2", "bring the red cube to room_b", CARRY_PLAN, scenario="nom_carry",
                   condition="ro")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory, sar_records: dict[str, Record],
             carry_record: Record) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("eval")
    records = [*sar_records.values(), carry_record]
    return out, render_plots(records, compute(sar_records.values()), out, every=True, svg=True)


def _texts(svg: Path) -> list[str]:
    root = ET.parse(svg).getroot()
    return ["".join(e.itertext()) for e in root.iter("{http://www.w3.org/2000/svg}text")]


def _assert_valid(paths: list[Path]) -> None:
    assert paths
    for path in paths:
        assert path.is_file(), path
        if path.suffix == ".png":
            assert path.read_bytes()[:8] == PNG_MAGIC
        elif path.suffix == ".html":
            assert path.read_text(encoding="utf-8").startswith("<!doctype html>")
        else:
            assert path.suffix == ".svg"
            assert ET.parse(path).getroot().tag == "{http://www.w3.org/2000/svg}svg"


def test_render_writes_every_plot_as_png_and_svg(rendered: tuple[Path, list[Path]]) -> None:
    out, paths = rendered
    _assert_valid(paths)
    plots = out / "plots"
    assert sorted(p.relative_to(plots).as_posix() for p in paths if p.suffix == ".png") == [
        "maps/held-plan-off/nom_sad-0.png", "maps/llm-only/nom_sad-0.png",
        "maps/ro/nom_sad-0.png", "maps/ro/tb3_lost-0.png", "metrics.png",
        "timelines/held-plan-off/nom_sad-0.png", "timelines/llm-only/nom_sad-0.png",
        "timelines/ro/iris_down-0.png", "timelines/ro/nom_carry-0.png",
        "timelines/ro/nom_sad-0.png", "timelines/ro/tb3_lost-0.png"]
    assert {p.with_suffix(".svg") for p in paths if p.suffix == ".png"} == {
        p for p in paths if p.suffix == ".svg"}
    assert [p.name for p in paths if p.suffix == ".html"] == ["index.html"]


def test_by_default_only_the_missions_worth_a_look_are_drawn(
        tmp_path: Path, sar_records: dict[str, Record], carry_record: Record) -> None:
    """Refused, halted, failed, carrying a gate code, or of a must-block scenario; not the
    clean completions. The index shows each with its request, escaped."""
    records = [*sar_records.values(), carry_record]
    drawn = sorted({(r["condition"], r["scenario"]) for r in records if notable(r)})
    paths = render_plots(records, compute(sar_records.values()), tmp_path)
    timelines = sorted((p.parent.name, p.stem.rsplit("-", 1)[0]) for p in paths
                       if "timelines" in p.parts and p.suffix == ".png")
    assert timelines == [(c.replace("/", "-"), s) for c, s in drawn]
    assert len(timelines) < len(records)
    index = (tmp_path / "plots" / "index.html").read_text(encoding="utf-8")
    assert index.count("<div class='m'>") == len(timelines)
    assert "every mission" not in index


def test_halted_timeline_shows_the_hold_and_the_fallback(
        rendered: tuple[Path, list[Path]]) -> None:
    texts = " | ".join(_texts(rendered[0] / "plots" / "timelines" / "ro" / "tb3_lost-0.svg"))
    assert "robot_unavailable" in texts
    assert "gate hold" in texts
    assert "land" in texts
    assert "search_target" in texts
    assert "tb3_lost · ro · halted" in texts


def test_timeline_has_a_lane_for_every_robot_even_idle(
        rendered: tuple[Path, list[Path]]) -> None:
    texts = _texts(rendered[0] / "plots" / "timelines" / "ro" / "iris_down-0.svg")
    assert {"iris", "tb3"} <= set(texts)  # nothing moved: both lanes are still there
    assert any("refused before anything moved" in t for t in texts)
    assert any("robot_unavailable" in t for t in texts)


def test_a_refusal_without_a_robot_is_still_shown(tmp_path: Path,
                                                  sar_records: dict[str, Record]) -> None:
    record = json.loads(json.dumps(sar_records["refused"]))
    record.update(refusals=[], codes=["missing_step"])  # a whole-plan refusal names no robot
    texts = _texts(mission_timeline(record, tmp_path / "t")[1])
    assert "refused before anything moved: missing_step" in texts
    assert {"iris", "tb3"} <= set(texts)


def test_map_for_air_ground_missions_only(tmp_path: Path, sar_records: dict[str, Record],
                                          carry_record: Record) -> None:
    sar, g1 = load_crew("sar"), load_crew("g1_go2")
    paths = mission_map(sar_records["nominal"], sar, tmp_path / "sar")
    assert paths is not None
    _assert_valid(paths)
    texts = _texts(paths[1])
    assert {"true victim", "published victim fix", "tb3 final position", "iris sweep path",
            "tb3 path", "search zone (search_target)", "obstacle"} <= set(texts)
    assert mission_map(carry_record, g1, tmp_path / "g1") is None
    assert mission_map(sar_records["refused"], sar, tmp_path / "refused") is None  # no motion
    assert not list(tmp_path.glob("g1*"))
    assert not list(tmp_path.glob("refused*"))


def test_map_leaves_out_a_fix_that_is_not_finite(tmp_path: Path,
                                                 sar_records: dict[str, Record]) -> None:
    record = json.loads(json.dumps(sar_records["nominal"]))
    record["bindings"]["victim"]["value"] = ["nan", "nan"]
    paths = mission_map(record, load_crew("sar"), tmp_path / "nan")
    assert paths is not None
    assert "published victim fix: not finite, not drawn" in _texts(paths[1])


def test_metric_bars_write_na_where_there_is_no_denominator(
        rendered: tuple[Path, list[Path]], sar_records: dict[str, Record]) -> None:
    metrics = compute(sar_records.values())
    conditions = metrics["conditions"]
    assert conditions["llm-only"]["safety_precision"]["rate"] is None  # nothing was blocked
    missing = sum(conditions[c][m]["rate"] is None for c in conditions for m in PROPORTIONS)
    texts = _texts(rendered[0] / "plots" / "metrics.svg")
    assert texts.count("n/a") == missing
    title = next(t for t in texts if "planner" in t)
    assert title == "sar: planner scripted, suite test"
    assert {"Safety-gate", "precision", "llm-only (1 mission)", "ro (3 missions)"} <= set(texts)


def test_conditions_are_drawn_in_the_study_order(tmp_path: Path) -> None:
    cell = {"k": 1, "n": 2, "rate": 0.5, "ci": [0.1, 0.9], "p_vs_ro": None}
    empty = {"k": 0, "n": 0, "rate": None, "ci": None, "p_vs_ro": None}
    metrics = {"crew": "c", "planner": "p", "suite": "s", "conditions": {
        name: {"missions": 2, "mission_success": cell, "safety_precision": empty}
        for name in ("held-plan/on", "ro", "custom", "llm-only")}}
    texts = _texts(metric_bars(metrics, tmp_path / "m")[1])
    legend = [t for t in texts if t.endswith("(2 missions)")]
    assert legend == [f"{c} (2 missions)" for c in ("llm-only", "ro", "held-plan/on", "custom")]
    assert texts.count("n/a") == 4


def test_output_is_deterministic(tmp_path: Path, sar_records: dict[str, Record]) -> None:
    record, metrics = sar_records["halted"], compute(sar_records.values())

    def draw(folder: Path) -> list[Path]:
        return [*mission_timeline(record, folder / "t"), *metric_bars(metrics, folder / "m"),
                *(mission_map(record, load_crew("sar"), folder / "map") or [])]

    first, second = draw(tmp_path / "a"), draw(tmp_path / "b")
    assert len(first) == 6
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


def test_max_missions_takes_the_conditions_in_turn(tmp_path: Path,
                                                   sar_records: dict[str, Record]) -> None:
    records = list(sar_records.values())
    paths = render_plots(records, compute(records), tmp_path, max_missions=3, every=True)
    timelines = sorted(p.parent.name for p in paths if "timelines" in p.parts
                       and p.suffix == ".png")
    assert timelines == ["held-plan-off", "llm-only", "ro"]


def test_file_names_are_safe() -> None:
    assert safe_name("held-plan/off") == "held-plan-off"
    assert safe_name("a b/../c") == "a-b-..-c"
    assert safe_name("///") == "x"


def test_importing_the_module_does_not_need_matplotlib() -> None:
    code = ("import sys; import crewgate.eval.plots; "
            "assert 'matplotlib' not in sys.modules, 'imported eagerly'")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr


def test_missing_matplotlib_is_a_user_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            sar_records: dict[str, Record]) -> None:
    for name in [n for n in sys.modules if n.split(".")[0] in ("matplotlib", "mpl_toolkits")]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    record = sar_records["nominal"]
    hint = r'pip install "crewgate\[eval\]"'
    with pytest.raises(UserError, match=hint):
        mission_timeline(record, tmp_path / "t")
    with pytest.raises(UserError, match=hint):
        mission_map(record, load_crew("sar"), tmp_path / "m")
    with pytest.raises(UserError, match=hint):
        metric_bars(compute([record]), tmp_path / "b")
    assert not list(tmp_path.iterdir())


def test_pictures_say_what_they_are_about(tmp_path: Path, sar_records: dict[str, Record]) -> None:
    """The injected fault in the title; the rover's commanded goal on the map; lower-is-better
    metrics marked on the bars."""
    timeline = mission_timeline(sar_records["halted"], tmp_path / "t")
    title = " ".join(_texts(next(p for p in timeline if p.suffix == ".svg")))
    assert "tb3_lost · ro · halted · fault robot_unavailable:tb3@search_target" in title
    drive = _record("sar", "Drive the rover to x 3, y -1.", {"workflow": "dispatch_only",
                    "steps": [{"robot": "tb3", "skill": "navigate_to",
                               "args": {"x": 3, "y": -1}}]},
                    scenario="drive", condition="ro")
    drawn = mission_map(drive, load_crew("sar"), tmp_path / "m") or []
    texts = _texts(next(p for p in drawn if p.suffix == ".svg"))
    assert "commanded goal" in texts
    assert "tb3.navigate_to" in texts
    bars = metric_bars(compute(sar_records.values()), tmp_path / "b")
    labels = " ".join(_texts(next(p for p in bars if p.suffix == ".svg")))
    assert labels.count("(lower is better)") == 4  # contract violation, the 3 false dispatches


@pytest.mark.slow
def test_a_pool_draws_what_one_process_draws(tmp_path: Path,
                                             sar_records: dict[str, Record]) -> None:
    records = [{**r, "scenario": f"{r['scenario']}_{i}"} for i in range(2)
               for r in sar_records.values()]
    metrics = compute(records)
    alone = render_plots(records, metrics, tmp_path / "one", every=True, workers=1)
    pooled = render_plots(records, metrics, tmp_path / "pool", every=True, workers=2)
    assert [p.relative_to(tmp_path / "one") for p in alone] == [
        p.relative_to(tmp_path / "pool") for p in pooled]
    # the summary, 10 timelines, the maps of the 8 missions where a robot moved
    assert len([p for p in pooled if p.suffix == ".png"]) == 1 + 10 + 8
    assert [p.read_bytes() for p in alone] == [p.read_bytes() for p in pooled]
