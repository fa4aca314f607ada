"""Grouped bars with 95% interval whiskers, the shape of the evaluation's summary (a group per
metric, a bar per condition) and of the planners side by side (a panel per condition, a group
per substitution class, a bar per planner).

This module owns the chart as values (:class:`Chart`: panels of groups of cells, the series that
colour them) and its drawing as SVG (:func:`draw_svg`, by :mod:`crewgate.eval.svg`, no
matplotlib); :func:`crewgate.eval.plots_mpl.draw_png` draws the same chart as a PNG when one is
asked for, so the two files cannot disagree. :func:`proportion_cell` reads a proportion of
``metrics.json`` into a cell. Bounds: a rate and its interval are finite and within [0, 100] %
before they are drawn (anything else is "n/a", or no whisker); texts are escaped by the writer
and bounded here (labels, legend, tooltips).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crewgate.eval.plots_svg import FRAME, GRID, INK, MUTED, legend, patch_key, title_block
from crewgate.eval.svg import Svg, clip, finite, fit, num, text_width

EDGE, WHISKER, BAND = "#333333", "#222222", "#f5f6f8"
LEFT, RIGHT, MIN_WIDTH = 76.0, 20.0, 640.0  # px: margins, the narrowest picture
LABEL_CHARS, LABEL_LINES, KEY_CHARS, TIP_CHARS = 15, 4, 60, 200
LINE = 14.0  # px between the lines of a group's label


@dataclass(frozen=True, slots=True)
class Cell:
    """One bar: a rate in %, its interval (both ends or neither), or no rate ("n/a")."""

    rate: float | None
    low: float | None = None
    high: float | None = None
    tooltip: str = ""


@dataclass(frozen=True, slots=True)
class Group:
    """A group of bars, one cell per series, under its label (and a note, "lower is better")."""

    key: str
    label: tuple[str, ...]
    cells: tuple[Cell, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class Series:
    """What one bar of every group stands for (a condition, a planner), and its colour."""

    key: str
    label: str
    color: str


@dataclass(frozen=True, slots=True)
class Panel:
    """A plot of groups under one y axis named ``axis`` (line by line), from 0 to 100 %."""

    axis: tuple[str, ...]
    groups: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class Chart:
    """A titled picture: its panels one above the other, the series' legend under them."""

    title: str
    subtitle: str
    series: tuple[Series, ...]
    panels: tuple[Panel, ...]
    height: float = 300.0  # px, each panel's plot


def percent(value: object) -> float | None:
    """A rate (0..1) from metrics.json as a finite percentage in [0, 100], else None."""
    number = finite(value)
    return None if number is None else max(0.0, min(100.0, 100.0 * number))


def proportion_cell(metric: Any, about: str) -> Cell:
    """A cell from a proportion ``{"k", "n", "rate", "ci"}``; "n/a" without a finite rate."""
    if not isinstance(metric, dict):
        return Cell(None, tooltip=clip(f"{about}: n/a", TIP_CHARS))
    counts = f" ({metric.get('k')}/{metric.get('n')})" if "k" in metric else ""
    rate = percent(metric.get("rate"))
    if rate is None:
        return Cell(None, tooltip=clip(f"{about}: n/a{counts}", TIP_CHARS))
    ci = metric.get("ci")
    ends = [percent(v) for v in ci] if isinstance(ci, list | tuple) and len(ci) == 2 else []
    if len(ends) != 2 or ends[0] is None or ends[1] is None:
        return Cell(rate, tooltip=clip(f"{about}: {rate:.1f}%{counts}", TIP_CHARS))
    low, high = min(ends[0], rate), max(ends[1], rate)
    return Cell(rate, low, high,
                clip(f"{about}: {rate:.1f}% [{low:.1f}, {high:.1f}]{counts}", TIP_CHARS))


def label_lines(text: str) -> tuple[str, ...]:
    """A group's label wrapped to lines of about ``LABEL_CHARS``, at most ``LABEL_LINES``."""
    lines = textwrap.wrap(clip(text, LABEL_CHARS * LABEL_LINES), LABEL_CHARS) or [""]
    if len(lines) > LABEL_LINES:
        lines = [*lines[: LABEL_LINES - 1], clip(" ".join(lines[LABEL_LINES - 1:]), LABEL_CHARS)]
    return tuple(lines)


def draw_svg(chart: Chart, stem: Path) -> Path:
    """``STEM.svg``: the title, each panel (bands, grid, bars, whiskers, labels), the legend."""
    count = max(1, len(chart.series))
    slot = max(100.0, 22.0 * count + 14.0)  # px per group
    groups = max([1, *(len(p.groups) for p in chart.panels)])
    width = max(MIN_WIDTH, LEFT + slot * groups + RIGHT)
    svg = Svg(width, 0)
    y = title_block(svg, chart.title, chart.subtitle, x=LEFT) + 6
    for panel in chart.panels:
        y = _panel(svg, panel, chart, top=y, slot=slot) + 10
    keys = [patch_key(clip(s.label, KEY_CHARS), s.color, EDGE) for s in chart.series]
    row = sum(30 + text_width(k.label, 12) + 18 for k in keys) - 18
    x = LEFT + max(0.0, (width - LEFT - RIGHT - row) / 2)  # centred when it fits on one row
    svg.height = y + legend(svg, keys, x, y, width - x - RIGHT) + 10
    return svg.save(stem)


def _panel(svg: Svg, panel: Panel, chart: Chart, *, top: float, slot: float) -> float:
    """One panel from ``top``; returns the y below its groups' labels."""
    height, count = chart.height, max(1, len(chart.series))
    bottom = top + height
    right = LEFT + slot * max(1, len(panel.groups))

    def py(value: float) -> float:
        return bottom - value / 104.0 * height

    with svg.group(cls="panel"):
        for i in range(1, len(panel.groups), 2):
            svg.el("rect", x=LEFT + i * slot, y=top, width=slot, height=height, fill=BAND)
        with svg.group(cls="y-axis"):
            for value in range(0, 101, 20):
                svg.el("line", x1=LEFT, y1=py(value), x2=right, y2=py(value),
                       stroke=GRID, stroke_width=1, cls="grid")
                svg.text(LEFT - 7, py(value) + 4, str(value), size=11, fill=MUTED,
                         text_anchor="end", cls="tick")
            lines = [clip(line, 30) for line in panel.axis[:2]]
            for k, line in enumerate(lines):
                x = 18 + 14 * k + (7 if len(lines) == 1 else 0)
                svg.text(x, top + height / 2, line, size=12, fill=INK, text_anchor="middle",
                         transform=f"rotate(-90 {num(x)} {num(top + height / 2)})", cls="axis")
        under = bottom
        for i, group in enumerate(panel.groups):
            left = LEFT + i * slot
            with svg.group(cls="group", data_key=clip(group.key, KEY_CHARS)):
                width = slot * 0.84 / count
                for j, (series, cell) in enumerate(zip(chart.series, group.cells, strict=False)):
                    _bar(svg, cell, series, left + slot * 0.08 + width * j, width, py)
                lines = [fit(line, 11, slot - 6) for line in group.label]
                for k, line in enumerate(lines):
                    svg.text(left + slot / 2, bottom + 17 + LINE * k, line, size=11, fill=INK,
                             text_anchor="middle", cls="group-label")
                if group.note:
                    svg.text(left + slot / 2, bottom + 17 + LINE * len(lines),
                             fit(group.note, 10, slot - 6), size=10, fill=MUTED,
                             font_style="italic", text_anchor="middle", cls="group-note")
            under = max(under, bottom + 8 + LINE * (len(group.label) + bool(group.note)))
        svg.el("line", x1=LEFT, y1=bottom, x2=right, y2=bottom, stroke=EDGE, stroke_width=1)
        svg.el("rect", x=LEFT, y=top, width=right - LEFT, height=height, fill="none",
               stroke=FRAME)
    return under + 8


def _bar(svg: Svg, cell: Cell, series: Series, x: float, width: float,
         py: Callable[[float], float]) -> None:
    """A bar at ``x``: the rate, its whisker, "0" on a zero rate, "n/a" without a rate."""
    centre, base = x + width / 2, py(0.0)
    with svg.group(cls="cell", data_series=clip(series.key, KEY_CHARS)):
        if cell.tooltip:
            svg.tooltip(cell.tooltip)
        if cell.rate is None:
            svg.text(centre + 3.5, base - 5, "n/a", size=10, fill="#444444",
                     transform=f"rotate(-90 {num(centre + 3.5)} {num(base - 5)})", cls="na")
            return
        top = py(cell.rate)
        svg.el("rect", x=x + width * 0.04, y=min(top, base - 1.5), width=width * 0.92,
               height=max(base - top, 1.5), fill=series.color, stroke=EDGE, stroke_width=0.6,
               cls="bar")
        if cell.low is not None and cell.high is not None:
            cap = min(8.0, width * 0.5) / 2
            svg.el("line", x1=centre, y1=py(cell.high), x2=centre, y2=py(cell.low),
                   stroke="#ffffff", stroke_width=3, stroke_opacity=0.7)  # seen on dark bars
            svg.el("line", x1=centre, y1=py(cell.high), x2=centre, y2=py(cell.low),
                   stroke=WHISKER, stroke_width=1.1, cls="whisker")
            for end in (cell.low, cell.high):
                svg.el("line", x1=centre - cap, y1=py(end), x2=centre + cap, y2=py(end),
                       stroke=WHISKER, stroke_width=1.1, cls="cap")
        if cell.rate == 0.0:
            svg.text(centre, base - 5, "0", size=10, fill=INK, text_anchor="middle", halo=True,
                     cls="zero")
