"""The summary's bars (``plots/metrics.svg``) and the planners side by side (``across.svg``),
hand-written SVG read back element by element from known metrics; the PNG only on request."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from crewgate.errors import UserError
from crewgate.eval.plots import metric_bars, summary_chart
from crewgate.eval.plots_across import plot_across
from crewgate.substitution import CLASSES

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>&"\'\x07'
needs_matplotlib = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                      reason='a PNG needs pip install "crewgate[eval]"')


def _p(k: int, n: int, rate: Any, ci: Any) -> dict[str, Any]:
    return {"k": k, "n": n, "rate": rate, "ci": ci, "p_vs_ro": None}


NONE = _p(0, 0, None, None)


def _metrics(**conditions: dict[str, Any]) -> dict[str, Any]:
    return {"crew": "sar", "planner": "replay", "suite": "study", "conditions": conditions}


KNOWN = _metrics(**{
    "ro": {"missions": 20, "workflow_accuracy": _p(10, 20, 0.5, [0.2, 0.8]),
           "safety_recall": _p(8, 8, 1.0, [0.675, 1.0]), "safety_precision": NONE,
           "contract_violation": _p(0, 20, 0.0, [0.0, 0.161]), "objects_delivered": NONE},
    "llm-only": {"missions": 1, "workflow_accuracy": _p(1, 1, 1.0, [0.2, 1.0]),
                 "safety_recall": NONE, "safety_precision": NONE,
                 "contract_violation": _p(1, 1, 1.0, [0.2, 1.0]), "objects_delivered": NONE}})


def _root(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def _classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == cls]


def _cells(root: ET.Element) -> dict[tuple[str, str], ET.Element]:
    """Each bar's group, by (metric, condition), in drawing order."""
    return {(str(g.get("data-key")), str(c.get("data-series"))): c
            for g in _classed(root, "group") for c in _classed(g, "cell")}


def _value(root: ET.Element, y: str | None) -> float:
    """A pixel height read back as a rate in %, through the grid lines at 0 and 100."""
    lines = [float(str(line.get("y1"))) for line in _classed(root, "grid")]
    ticks = [t.text for t in _classed(root, "tick")]
    zero, hundred = lines[ticks.index("0")], lines[ticks.index("100")]
    return (zero - float(str(y))) / (zero - hundred) * 100


def test_one_group_per_metric_and_one_bar_per_condition(tmp_path: Path) -> None:
    [svg] = metric_bars(KNOWN, tmp_path / "m")
    root = _root(svg)
    assert [g.get("data-key") for g in _classed(root, "group")] == [
        "workflow_accuracy", "contract_violation", "safety_recall", "safety_precision"]
    for group in _classed(root, "group"):  # the study's order of conditions
        assert [c.get("data-series") for c in _classed(group, "cell")] == ["llm-only", "ro"]
    assert len(_classed(root, "bar")) == 5  # 8 cells, 3 without a rate
    assert [t.text for t in _classed(root, "na")] == ["n/a"] * 3
    cells = _cells(root)
    assert {k for k, c in cells.items() if _classed(c, "na")} == {
        ("safety_recall", "llm-only"), ("safety_precision", "llm-only"),
        ("safety_precision", "ro")}
    assert not [c for c in cells.values() if _classed(c, "na") and _classed(c, "bar")]
    assert [t.text for t in _classed(root, "group-note")] == ["(lower is better)"]
    assert [t.text for t in _classed(root, "group-label")] == [
        "Workflow", "accuracy", "Contract", "violation", "Safety-gate", "recall", "Safety-gate",
        "precision"]
    legend = [t.text for t in _classed(root, "legend")[0].iter(f"{NS}text")]
    assert legend == ["llm-only (1 mission)", "ro (20 missions)"]


def test_bars_and_whiskers_stand_at_the_rates_and_intervals(tmp_path: Path) -> None:
    root = _root(metric_bars(KNOWN, tmp_path / "m")[0])
    cells = _cells(root)
    ends = {key: (round(_value(root, w.get("y2")), 1), round(_value(root, w.get("y1")), 1))
            for key, c in cells.items() for w in _classed(c, "whisker")}
    assert ends == {("workflow_accuracy", "llm-only"): (20, 100),
                    ("workflow_accuracy", "ro"): (20, 80),
                    ("contract_violation", "llm-only"): (20, 100),
                    ("contract_violation", "ro"): (0, 16.1),
                    ("safety_recall", "ro"): (67.5, 100)}
    [bar] = _classed(cells["workflow_accuracy", "ro"], "bar")
    assert _value(root, bar.get("y")) == pytest.approx(50)
    assert bar.get("fill") == "#1f4e79"  # ro's colour
    [title] = cells["workflow_accuracy", "ro"].findall(f"{NS}title")
    assert title.text == "ro · Workflow accuracy: 50.0% [20.0, 80.0] (10/20)"
    zero = cells["contract_violation", "ro"]
    assert [t.text for t in _classed(zero, "zero")] == ["0"]  # a zero rate is said to be one
    assert float(str(_classed(zero, "bar")[0].get("height"))) > 1  # and its colour seen
    assert [t.text for c in cells.values() for t in _classed(c, "zero")] == ["0"]


def test_a_crew_specific_metric_is_drawn_only_where_it_counts_something() -> None:
    assert "objects_delivered" not in [g.key for g in summary_chart(KNOWN).panels[0].groups]
    counted = _metrics(**{"ro": {**KNOWN["conditions"]["ro"],
                                 "objects_delivered": _p(1, 2, 0.5, [0.1, 0.9])},
                          "llm-only": KNOWN["conditions"]["llm-only"]})
    [panel] = summary_chart(counted).panels
    assert [g.key for g in panel.groups][-1] == "objects_delivered"


def test_names_are_text_never_markup_and_bounded(tmp_path: Path) -> None:
    """The crew, planner, suite and condition names are data (a record or a folder names
    them): escaped in the title, the legend and the attributes, cut where too long."""
    cond = HOSTILE + "c" * 300
    metrics = {"crew": HOSTILE, "planner": f"{HOSTILE}</text>", "suite": "s" * 400,
               "conditions": {cond: {"missions": 3, "mission_success": _p(1, 3, 1 / 3,
                                                                            [0.06, 0.79])},
                              "ro": {"missions": 3, "mission_success": NONE}}}
    [svg] = metric_bars(metrics, tmp_path / "m")
    raw = svg.read_text(encoding="utf-8")
    assert "<script" not in raw
    assert "\x07" not in raw
    root = _root(svg)
    [title] = _classed(root, "title")
    assert str(title.text).startswith(
        "<script>&\"': planner <script>&\"'</text>, suite sssss")
    assert len(str(title.text)) <= 160
    [key] = [t.text for t in _classed(root, "legend")[0].iter(f"{NS}text")
             if str(t.text).startswith("<script>")]
    assert str(key).startswith("<script>&\"'ccc")
    assert len(str(key)) <= 60
    assert [c.get("data-series") for c in _classed(root, "cell")] == [
        "ro", "<script>&\"'" + "c" * 47 + "…"]  # cut at 60, the bell dropped


def test_values_that_are_not_finite_are_never_drawn(tmp_path: Path) -> None:
    metrics = _metrics(ro={"missions": 2, "workflow_accuracy": _p(1, 2, "nan", [0.1, 0.9]),
                           "skill_grounding": _p(1, 2, 0.5, [float("nan"), float("inf")]),
                           "mission_success": _p(2, 2, 1e300, [-1e300, 1e300])})
    [svg] = metric_bars(metrics, tmp_path / "m")
    assert not re.search(r"\bnan\b|\binf", svg.read_text(encoding="utf-8").lower())
    root = _root(svg)
    cells = _cells(root)
    assert _classed(cells["workflow_accuracy", "ro"], "na")  # a NaN rate is no rate
    assert not _classed(cells["skill_grounding", "ro"], "whisker")
    [whisker] = _classed(cells["mission_success", "ro"], "whisker")  # clamped to [0, 100] %
    assert (_value(root, whisker.get("y2")), _value(root, whisker.get("y1"))) == (0, 100)


def test_the_summary_is_deterministic_svg_and_png(tmp_path: Path) -> None:
    first, second = metric_bars(KNOWN, tmp_path / "a"), metric_bars(KNOWN, tmp_path / "b")
    assert [p.name for p in first] == ["a.svg"]
    assert first[0].read_bytes() == second[0].read_bytes()


@needs_matplotlib
def test_a_png_is_drawn_when_asked_for(tmp_path: Path) -> None:
    first = metric_bars(KNOWN, tmp_path / "a", png=True)
    second = metric_bars(KNOWN, tmp_path / "b", png=True)
    assert [p.name for p in first] == ["a.svg", "a.png"]
    assert first[1].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert first[1].read_bytes() == second[1].read_bytes()


def test_no_matplotlib_is_needed_unless_a_png_is_asked_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n.split(".")[0] in ("matplotlib", "mpl_toolkits")]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert [p.name for p in metric_bars(KNOWN, tmp_path / "m")] == ["m.svg"]
    with pytest.raises(UserError, match=r'--png\) need matplotlib: pip install "crewgate\[eval'):
        metric_bars(KNOWN, tmp_path / "p", png=True)
    assert not list(tmp_path.glob("*.png"))


def _subs(rates: Mapping[str, float | None]) -> dict[str, Any]:
    return {"missions": {k: _p(1, 4, rate, None if rate is None else [0.05, 0.7])
                         for k, rate in rates.items()}}


def test_planners_side_by_side_a_panel_per_shared_condition(tmp_path: Path) -> None:
    cells = dict.fromkeys(CLASSES, 0.25)
    results = {
        "a": {"crew": "g1_go2", "suite": "study", "conditions": {
            "ro": {"substitutions": _subs(cells)}, "llm-only": {"substitutions": _subs(cells)},
            "skill-list": {"substitutions": _subs(cells)}}},
        f"b {HOSTILE}": {"crew": "g1_go2", "suite": "study", "conditions": {
            "ro": {"substitutions": _subs({**cells, "zone": None})},
            "llm-only": {"substitutions": _subs(cells)}}}}
    [svg] = plot_across(results, tmp_path)
    assert svg == tmp_path / "plots" / "across.svg"
    root = _root(svg)
    panels = _classed(root, "panel")
    assert [[t.text for t in _classed(p, "axis")] for p in panels] == [
        ["llm-only", "missions (%)"], ["ro", "missions (%)"]]
    for panel in panels:
        assert [g.get("data-key") for g in _classed(panel, "group")] == list(CLASSES)
        assert {len(_classed(g, "cell")) for g in _classed(panel, "group")} == {2}
    assert len(_classed(panels[1], "na")) == 1  # b's zone under ro: no rate
    assert len(_classed(root, "bar")) == 2 * 2 * len(CLASSES) - 1
    assert "<script" not in svg.read_text(encoding="utf-8")
    assert not (tmp_path / "plots" / "across.png").exists()
