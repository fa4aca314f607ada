"""The evaluation's plots, drawn from records of real simulated missions: the summary and each
mission's timeline and map as hand-written SVG, checked element by element (the summary from
known metrics: test_plots_summary.py)."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from crewgate.api import run_mission
from crewgate.conditions import Condition, Knowledge
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

ROOT = Path(__file__).resolve().parents[2]
SAR_PLAN = json.loads((ROOT / "examples" / "sar_search_and_dispatch.json").read_text("utf-8"))
SAR_REQUEST = ("A hiker is missing in the zone x from -5.5 to 5.5, y from -5.5 to 5.5; find "
               "them with the drone and send the rover.")
CARRY_PLAN = {"workflow": "carry", "steps": [
    {"robot": "g1", "skill": "grab_from_table", "args": {"object": "red_cube"}},
    {"robot": "g1", "skill": "place_on_table", "args": {}},
    {"robot": "go2", "skill": "navigate_to_location", "args": {"location": "room_b"}}]}
HELD_OFF = Condition("held-plan/off", Knowledge.CONTRACTS, enforce=False, replans=0)
NS = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>&"'


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
    return out, render_plots(records, compute(sar_records.values()), out, every=True)


def _visible(element: ET.Element) -> str:
    """What a text element shows (its hover title left out)."""
    return (element.text or "") + "".join(
        (child.tail or "") if child.tag == f"{NS}title" else "".join(child.itertext())
        for child in element)


def _texts(svg: Path) -> list[str]:
    return [_visible(e) for e in ET.parse(svg).getroot().iter(f"{NS}text")]


def _classed(svg: Path, cls: str) -> list[ET.Element]:
    return [e for e in ET.parse(svg).getroot().iter() if e.get("class") == cls]


def _lanes(svg: Path) -> list[str]:
    return [_visible(t) for lane in _classed(svg, "lane") for t in lane.iter(f"{NS}text")
            if t.get("class") == "robot"]


def _refusals(svg: Path) -> list[str]:
    return [_visible(t) for g in _classed(svg, "refusal") for t in g.iter(f"{NS}text")]


def _step_labels(svg: Path) -> list[str]:
    return [_visible(t) for g in _classed(svg, "step") for t in g.iter(f"{NS}text")]


def _assert_valid(paths: list[Path]) -> None:
    assert paths
    for path in paths:
        assert path.is_file(), path
        if path.suffix == ".html":
            assert path.read_text(encoding="utf-8").startswith("<!doctype html>")
        else:
            assert path.suffix == ".svg"
            assert ET.parse(path).getroot().tag == f"{NS}svg"


def _copy(record: Record) -> Record:
    copied: Record = json.loads(json.dumps(record))
    return copied


def test_render_writes_the_summary_and_each_mission_as_svg(
        rendered: tuple[Path, list[Path]]) -> None:
    out, paths = rendered
    _assert_valid(paths)
    plots = out / "plots"
    assert sorted(p.relative_to(plots).as_posix() for p in paths) == [
        "index.html",
        "maps/held-plan-off/nom_sad-0.svg", "maps/llm-only/nom_sad-0.svg",
        "maps/ro/nom_sad-0.svg", "maps/ro/tb3_lost-0.svg", "metrics.svg",
        "timelines/held-plan-off/nom_sad-0.svg", "timelines/llm-only/nom_sad-0.svg",
        "timelines/ro/iris_down-0.svg", "timelines/ro/nom_carry-0.svg",
        "timelines/ro/nom_sad-0.svg", "timelines/ro/tb3_lost-0.svg"]


def test_the_index_shows_every_mission_svg(rendered: tuple[Path, list[Path]]) -> None:
    out, paths = rendered
    index = (out / "plots" / "index.html").read_text(encoding="utf-8")
    shown = re.findall(r'<img src="([^"]+)"', index)
    assert shown == ["metrics.svg", *(p.relative_to(out / "plots").as_posix() for p in paths
                                      if p.suffix == ".svg" and p.stem != "metrics")]


def test_by_default_only_the_missions_worth_a_look_are_drawn(
        tmp_path: Path, sar_records: dict[str, Record], carry_record: Record) -> None:
    """Refused, halted, failed, carrying a gate code, or of a must-block scenario; not the
    clean completions. The index shows each with its request, escaped."""
    records = [*sar_records.values(), carry_record]
    drawn = sorted({(r["condition"], r["scenario"]) for r in records if notable(r)})
    paths = render_plots(records, compute(sar_records.values()), tmp_path)
    timelines = sorted((p.parent.name, p.stem.rsplit("-", 1)[0]) for p in paths
                       if "timelines" in p.parts)
    assert timelines == [(c.replace("/", "-"), s) for c, s in drawn]
    assert len(timelines) < len(records)
    assert not [p for p in paths if p.suffix == ".png"]
    index = (tmp_path / "plots" / "index.html").read_text(encoding="utf-8")
    assert index.count("<div class='m'>") == len(timelines)
    assert "every mission" not in index


def test_halted_timeline_shows_the_hold_and_the_fallback(
        tmp_path: Path, sar_records: dict[str, Record]) -> None:
    [svg] = mission_timeline(sar_records["halted"], tmp_path / "t")
    assert _lanes(svg) == ["iris", "tb3"]
    assert len(_classed(svg, "bar")) == 3  # takeoff, search_target, the fallback's land
    assert _step_labels(svg) == ["takeoff", "search_target", "land"]
    assert _refusals(svg) == [
        "gate hold at dispatch: navigate_to [robot_unavailable]: robot 'tb3' is unavailable"]
    assert _classed(svg, "title")[0].text == (
        "tb3_lost · ro · halted · fault robot_unavailable:tb3@search_target")
    assert not _classed(svg, "note")  # nothing refused before t=0


def test_refused_plan_marks_every_refused_step_at_t0_on_every_lane(
        tmp_path: Path, sar_records: dict[str, Record]) -> None:
    [svg] = mission_timeline(sar_records["refused"], tmp_path / "t")
    assert _lanes(svg) == ["iris", "tb3"]  # nothing moved: both lanes are still there
    assert not _classed(svg, "bar")
    assert _refusals(svg) == [
        "refused: takeoff [robot_unavailable]: robot 'iris' is unavailable",
        "refused: search_target [robot_unavailable]: robot 'iris' is unavailable"]
    assert [_visible(n) for n in _classed(svg, "note")] == ["refused before anything moved"]
    marks = {line.get("x1") for g in _classed(svg, "refusal") for line in g.iter(f"{NS}line")}
    zero = next(t for t in _classed(svg, "tick") if _visible(t) == "0")
    assert marks == {zero.get("x")}  # both at t=0


def test_a_refusal_without_a_robot_is_still_shown(tmp_path: Path,
                                                  sar_records: dict[str, Record]) -> None:
    record = _copy(sar_records["refused"])
    record.update(refusals=[], codes=["missing_step"])  # a whole-plan refusal names no robot
    [svg] = mission_timeline(record, tmp_path / "t")
    assert [_visible(n) for n in _classed(svg, "note")] == [
        "refused before anything moved: missing_step"]
    assert _lanes(svg) == ["iris", "tb3"]


def test_violating_dispatches_name_their_codes(tmp_path: Path) -> None:
    """Enforcement off: the steps the gate would have refused move anyway, each bar labelled
    with its codes and hatched when it did not succeed."""
    plan = {"workflow": "search_and_dispatch", "steps": [
        {"robot": "iris", "skill": "takeoff", "args": {}},
        {"robot": "tb3", "skill": "fly_over", "args": {}}]}
    record = _record("sar", SAR_REQUEST, plan, scenario="bad", condition="llm-only")
    [svg] = mission_timeline(record, tmp_path / "t")
    codes = record["dispatched"][1]["codes"]
    assert codes
    assert _step_labels(svg) == ["takeoff", f"fly_over [{', '.join(codes)}]"]
    assert [r.get("fill") for r in _classed(svg, "bar")] == ["#3f8f3a", "#c62828"]
    assert not _refusals(svg)


def test_record_texts_are_escaped_and_bounded(tmp_path: Path,
                                              sar_records: dict[str, Record]) -> None:
    """Names, skills, codes, scenario and faults are data: never markup, never unbounded."""
    record = _copy(sar_records["halted"])
    for step in record["dispatched"]:
        step["robot"] = HOSTILE
    record["refusals"][0].update(robot=HOSTILE + "\x01", skill="x" * 5000,
                                 codes=["</text><script>alert(1)</script>"])
    record.update(scenario=f"{HOSTILE}'scenario", faults=["a&b<c>"], request="<b>bold</b>")
    [svg] = mission_timeline(record, tmp_path / "t")
    raw = svg.read_text(encoding="utf-8")
    assert "<script" not in raw
    assert "\x01" not in raw
    assert _lanes(svg) == ["iris", "tb3", HOSTILE, HOSTILE]  # the second: control char dropped
    [refusal] = _refusals(svg)
    assert refusal.startswith("gate hold at dispatch: xxx")
    assert "</text><script>alert(1)</script>" in refusal
    assert len(refusal) < 200
    assert _classed(svg, "title")[0].text == (
        f"{HOSTILE}'scenario · ro · halted · fault a&b<c>")
    assert [_visible(t) for t in _classed(svg, "subtitle")] == ["<b>bold</b>"]


def test_values_that_are_not_finite_never_reach_the_svg(
        tmp_path: Path, sar_records: dict[str, Record]) -> None:
    record = _copy(sar_records["halted"])
    record["dispatched"][0]["t_start"] = "nan"  # this step is left out
    record["dispatched"][1]["t_end"] = "inf"
    record["refusals"][0]["t"] = "-inf"
    record["outcome"]["sim_time_s"] = 1e308
    trail = record["outcome"]["trajectories"]["iris"]
    trail[3][1], trail[4][2] = "nan", "inf"
    record["dispatched"][1]["args"]["zone"] = [-5.5, "inf", -5.5, 5.5]
    [timeline] = mission_timeline(record, tmp_path / "t")
    [drawn] = mission_map(record, load_crew("sar"), tmp_path / "m") or []
    for svg in (timeline, drawn):
        raw = svg.read_text(encoding="utf-8").lower()
        assert not re.search(r"\bnan\b|\binf", raw), svg
        assert ET.parse(svg).getroot().tag == f"{NS}svg"
    assert len(_classed(timeline, "bar")) == 2
    assert not _classed(drawn, "zone")
    points = _classed(drawn, "path")[0].get("points", "").split()
    assert len(points) == len(trail) - 2
    assert all(math.isfinite(float(v)) for p in points for v in p.split(","))


def test_map_for_air_ground_missions_only(tmp_path: Path, sar_records: dict[str, Record],
                                          carry_record: Record) -> None:
    sar, g1 = load_crew("sar"), load_crew("g1_go2")
    paths = mission_map(sar_records["nominal"], sar, tmp_path / "sar")
    assert paths is not None
    _assert_valid(paths)
    texts = set(_texts(paths[0]))
    assert {"true victim", "published victim fix", "tb3 final position", "iris sweep path",
            "tb3 path", "search zone (search_target)", "obstacle", "operational area",
            "start", "x (m)", "y (m)"} <= texts
    assert len(_classed(paths[0], "obstacle")) == 2  # world A's two walls
    assert len(_classed(paths[0], "path")) == 2
    assert len(_classed(paths[0], "fix")) == len(_classed(paths[0], "victim")) == 1
    assert mission_map(carry_record, g1, tmp_path / "g1") is None
    assert mission_map(sar_records["refused"], sar, tmp_path / "refused") is None  # no motion
    assert not list(tmp_path.glob("g1*"))
    assert not list(tmp_path.glob("refused*"))


def test_map_keeps_equal_aspect(tmp_path: Path, sar_records: dict[str, Record]) -> None:
    """A metre is as long across as up: the area's rectangle has the area's proportions."""
    [svg] = mission_map(sar_records["nominal"], load_crew("sar"), tmp_path / "m") or []
    [area] = _classed(svg, "area")
    box = load_crew("sar").area.operational
    ratio = (box.x[1] - box.x[0]) / (box.y[1] - box.y[0])
    assert float(area.get("width", 0)) / float(area.get("height", 1)) == pytest.approx(ratio)


def test_map_leaves_out_a_fix_that_is_not_finite(tmp_path: Path,
                                                 sar_records: dict[str, Record]) -> None:
    record = _copy(sar_records["nominal"])
    record["bindings"]["victim"]["value"] = ["nan", "nan"]
    [svg] = mission_map(record, load_crew("sar"), tmp_path / "nan") or []
    assert not _classed(svg, "fix")
    assert len(_classed(svg, "victim")) == 1
    assert "published victim fix: not finite, not drawn" in _texts(svg)
    assert "published victim fix" not in _texts(svg)


def test_metric_bars_write_na_where_there_is_no_denominator(
        rendered: tuple[Path, list[Path]], sar_records: dict[str, Record]) -> None:
    metrics = compute(sar_records.values())
    conditions = metrics["conditions"]
    assert conditions["llm-only"]["safety_precision"]["rate"] is None  # nothing was blocked
    shown = [m for m in PROPORTIONS if m != "objects_delivered"]  # no carry: not drawn
    svg = rendered[0] / "plots" / "metrics.svg"
    groups = _classed(svg, "group")
    assert [g.get("data-key") for g in groups] == shown
    na = {(g.get("data-key"), c.get("data-series")) for g in groups
          for c in g.iter(f"{NS}g") if c.get("class") == "cell"
          and any(t.get("class") == "na" for t in c.iter(f"{NS}text"))}
    assert na == {(m, c) for c in conditions for m in shown
                  if conditions[c][m]["rate"] is None}
    assert len(_classed(svg, "bar")) == len(shown) * len(conditions) - len(na)
    texts = _texts(svg)
    assert [_visible(t) for t in _classed(svg, "title")] == ["sar: planner scripted, suite test"]
    assert {"Safety-gate", "precision", "llm-only (1 mission)", "ro (3 missions)"} <= set(texts)


def test_conditions_are_drawn_in_the_study_order(tmp_path: Path) -> None:
    cell = {"k": 1, "n": 2, "rate": 0.5, "ci": [0.1, 0.9], "p_vs_ro": None}
    empty = {"k": 0, "n": 0, "rate": None, "ci": None, "p_vs_ro": None}
    metrics = {"crew": "c", "planner": "p", "suite": "s", "conditions": {
        name: {"missions": 2, "mission_success": cell, "safety_precision": empty}
        for name in ("held-plan/on", "ro", "custom", "llm-only")}}
    texts = _texts(metric_bars(metrics, tmp_path / "m")[0])
    legend = [t for t in texts if t.endswith("(2 missions)")]
    assert legend == [f"{c} (2 missions)" for c in ("llm-only", "ro", "held-plan/on", "custom")]
    assert texts.count("n/a") == 4


def test_mission_plots_are_deterministic(tmp_path: Path, sar_records: dict[str, Record]) -> None:
    record, crew = sar_records["halted"], load_crew("sar")

    def draw(folder: Path) -> list[Path]:
        return [*mission_timeline(record, folder / "t"),
                *(mission_map(record, crew, folder / "map") or [])]

    first, second = draw(tmp_path / "a"), draw(tmp_path / "b")
    assert [p.name for p in first] == ["t.svg", "map.svg"]
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


def test_the_summary_is_deterministic(tmp_path: Path, sar_records: dict[str, Record]) -> None:
    metrics = compute(sar_records.values())
    first, second = metric_bars(metrics, tmp_path / "a"), metric_bars(metrics, tmp_path / "b")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


def test_max_missions_takes_the_conditions_in_turn(tmp_path: Path,
                                                   sar_records: dict[str, Record]) -> None:
    records = list(sar_records.values())
    paths = render_plots(records, compute(records), tmp_path, max_missions=3, every=True)
    timelines = sorted(p.parent.name for p in paths if "timelines" in p.parts)
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


def test_the_plots_need_no_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      sar_records: dict[str, Record]) -> None:
    """Every plot is drawn without it (a PNG, asked for, needs it: test_plots_summary.py)."""
    for name in [n for n in sys.modules if n.split(".")[0] in ("matplotlib", "mpl_toolkits")]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    record = sar_records["nominal"]
    _assert_valid(mission_timeline(record, tmp_path / "t"))
    _assert_valid(mission_map(record, load_crew("sar"), tmp_path / "m") or [])
    _assert_valid(render_plots([record], compute([record]), tmp_path / "all", every=True))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all", "m.svg", "t.svg"]
    assert sorted(p.name for p in (tmp_path / "all" / "plots").iterdir()) == [
        "index.html", "maps", "metrics.svg", "timelines"]


def test_pictures_say_what_they_are_about(tmp_path: Path, sar_records: dict[str, Record]) -> None:
    """The injected fault in the title; the rover's commanded goal on the map."""
    [timeline] = mission_timeline(sar_records["halted"], tmp_path / "t")
    assert "tb3_lost · ro · halted · fault robot_unavailable:tb3@search_target" in _texts(
        timeline)
    drive = _record("sar", "Drive the rover to x 3, y -1.", {"workflow": "dispatch_only",
                    "steps": [{"robot": "tb3", "skill": "navigate_to",
                               "args": {"x": 3, "y": -1}}]},
                    scenario="drive", condition="ro")
    [drawn] = mission_map(drive, load_crew("sar"), tmp_path / "m") or []
    assert "commanded goal" in _texts(drawn)
    [goal] = _classed(drawn, "goal")
    assert [_visible(t) for t in goal.iter(f"{NS}text")] == ["tb3.navigate_to"]


def test_lower_is_better_metrics_are_marked_on_the_bars(
        tmp_path: Path, sar_records: dict[str, Record]) -> None:
    [svg] = metric_bars(compute(sar_records.values()), tmp_path / "b")
    marked = [g.get("data-key") for g in _classed(svg, "group")
              if any(t.get("class") == "group-note" and _visible(t) == "(lower is better)"
                     for t in g.iter(f"{NS}text"))]
    assert marked == ["contract_violation", "false_dispatch", "false_dispatch_per_dispatched",
                      "false_dispatch_missions"]
