"""The cross-planner plot of an evaluation run with several planners: for each condition they
share, the missions whose first plan had a problem of each substitution class, one bar per
planner, with 95% Wilson whiskers (``OUT/plots/across.svg``, drawn by
:mod:`crewgate.eval.plots_bars`; ``across.png`` too with ``png``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crewgate.eval.plots_bars import Chart, Group, Panel, Series, draw_svg, proportion_cell
from crewgate.eval.report import ordered
from crewgate.substitution import CLASSES

COLORS = ("#1f4e79", "#d1495b", "#2e8b57", "#f2a65a", "#8e6c8a", "#4f9d9a", "#c9a227")


def plot_across(results: dict[str, dict[str, Any]], out: Path, *,
                png: bool = False) -> list[Path]:
    """``OUT/plots/across.svg`` (and ``.png``); nothing when the planners share no
    condition."""
    chart = across_chart(results)
    if chart is None:
        return []
    stem = out / "plots" / "across"
    paths = [draw_svg(chart, stem)]
    if png:
        from crewgate.eval.plots_mpl import draw_png

        paths.append(draw_png(chart, stem))
    return paths


def across_chart(results: dict[str, dict[str, Any]]) -> Chart | None:
    """A panel per shared condition, a group per substitution class, a bar per planner."""
    names = list(results)
    shared = [c for c in ordered(list(results[names[0]]["conditions"]))
              if all(c in results[n]["conditions"] for n in names)]
    if not shared:
        return None

    def subs(name: str, cond: str) -> dict[str, Any]:
        found: dict[str, Any] = results[name]["conditions"][cond].get(
            "substitutions", {}).get("missions", {})
        return found

    panels = tuple(
        Panel((cond, "missions (%)"), tuple(
            Group(kind, tuple(kind.split(" ")),
                  tuple(proportion_cell(subs(name, cond).get(kind), f"{name} · {cond} · {kind}")
                        for name in names))
            for kind in CLASSES))
        for cond in shared)
    first = results[names[0]]
    return Chart(f"{first.get('crew')}, suite {first.get('suite')}: missions whose first plan "
                 "had a problem of each substitution class",
                 "lower is better; 95% Wilson intervals; n/a: no mission to count",
                 tuple(Series(name, name, COLORS[j % len(COLORS)])
                       for j, name in enumerate(names)),
                 panels, height=200.0)


__all__ = ["across_chart", "plot_across"]
