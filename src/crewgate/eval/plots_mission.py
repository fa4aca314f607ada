"""The execution timeline of a mission, written as SVG (``STEM.svg``, about 2 ms): one
lane per robot of the crew (idle ones too), a bar per dispatched step coloured by what came of
it, and the gate's refusals where they happened: at t=0 for a plan refused before anything
moved, at the step's time for a refusal at its dispatch (the gate's hold), each naming its code
and the fact it is about. Records are data: texts are escaped by the writer, labels bounded,
times that are not finite numbers are left out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crewgate.errors import UserError
from crewgate.eval.plots_svg import (
    FRAME,
    HATCH,
    INK,
    MUTED,
    REFUSAL,
    legend,
    marker,
    marker_key,
    mission_title,
    patch_key,
    title_block,
    x_axis,
)
from crewgate.eval.records import Record
from crewgate.eval.svg import Svg, clip, finite, fit, text_width
from crewgate.spec import Crew, load_crew

COLORS = {"success": "#3f8f3a", "failed": "#e39b2d", "violating": "#c62828",
          "fallback": "#3466a8"}
LEGEND = {"success": "succeeded cleanly", "failed": "failed", "violating": "violating dispatch",
          "fallback": "safe fallback"}
WIDTH, LANE, BAR, ROW = 980.0, 50.0, 24.0, 16.0  # px: picture, lane, bar, a row of labels
NAME_CHARS, LABEL_CHARS, DETAIL_CHARS = 24, 60, 90
MAX_LANES = 40
PREFIX = {"plan": "refused: ", "dispatch": "gate hold at dispatch: "}


@dataclass(slots=True)
class Mark:
    """A bar (a dispatched step) or a refusal on a lane, and where its label goes."""

    x: float  # px
    width: float  # px; 0 for a refusal
    label: str
    color: str
    tooltip: str
    hatch: bool = False
    refusal: bool = False
    label_x: float = 0.0
    row: int | None = None  # the label's row above the bar; None: inside the bar


def mission_timeline(record: Record, path_stem: Path, *, crew: Crew | None = None
                     ) -> list[Path]:
    """``STEM.svg``: the mission's lanes, bars and refusals, a time axis and a legend."""
    steps = [s for s in [*(record.get("dispatched") or []), *(record.get("fallback") or [])]
             if isinstance(s, dict) and _time(s.get("t_start")) is not None]
    refusals = [r for r in record.get("refusals") or [] if isinstance(r, dict)]
    crew = crew if crew is not None else crew_of(record)
    robots = _robots(record, crew, [*steps, *refusals])
    lanes_shown = robots[:MAX_LANES]
    span = max([5.0, _time((record.get("outcome") or {}).get("sim_time_s")) or 0.0,
                *(_end(s) for s in steps), *(_time(r.get("t")) or 0.0 for r in refusals)])
    t0, t1 = -0.03 * span, 1.03 * span
    left = 36 + max([40.0, *(text_width(clip(n, NAME_CHARS), 13, bold=True)
                            for n in lanes_shown)])
    right = WIDTH - 24

    def scale(t: float) -> float:
        return left + (t - t0) / (t1 - t0) * (right - left)

    lanes = {name: _lane(name, steps, refusals, scale, (left, right)) for name in lanes_shown}
    svg = Svg(WIDTH, 0)
    top = title_block(svg, mission_title(record), str(record.get("request") or ""))
    planned = [r for r in refusals if r.get("stage", "plan") == "plan"]
    unplaced = [r for r in refusals if str(r.get("robot")) not in lanes_shown]
    refused = bool(planned) or record.get("status") == "refused"
    note = ("refused before anything moved" if refused
            else "refused at a step's dispatch" if unplaced else "")
    if note:
        why = (", ".join(str(c) for c in record.get("codes") or [])
               or str(record.get("planner_error") or record.get("reason") or ""))
        if why and (unplaced or not planned):
            note += f": {why}"
        svg.text(left, top + 8, fit(note, 13, right - left, bold=True), size=13,
                 font_weight="bold", fill=REFUSAL, cls="note")
        top += 20
    plot_top, y = top, top
    bands = []
    for name in lanes_shown:
        rows = max((m.row + 1 for m in lanes[name] if m.row is not None), default=0)
        bands.append((name, y, rows))
        y += LANE + ROW * rows
    bottom = y
    for i, (_, band_top, rows) in enumerate(bands):
        if i % 2 == 0:
            svg.el("rect", x=left, y=band_top, width=right - left, height=LANE + ROW * rows,
                   fill="#f5f6f8")
    x_axis(svg, scale, t0, t1, top=plot_top, bottom=bottom, label="simulated time (s)",
           count=12)
    if refused:  # a band before t=0: nothing ever moved
        svg.el("rect", x=left, y=plot_top, width=scale(0.0) - left, height=bottom - plot_top,
               fill=REFUSAL, fill_opacity=0.16)
        svg.el("line", x1=scale(0.0), y1=plot_top, x2=scale(0.0), y2=bottom, stroke=REFUSAL,
               stroke_width=1.5)
    for name, band_top, rows in bands:
        _draw_lane(svg, name, lanes[name], band_top, rows, crew, left)
    svg.el("rect", x=left, y=plot_top, width=right - left, height=bottom - plot_top,
           fill="none", stroke=FRAME)
    legend_y = bottom + 48
    if len(robots) > MAX_LANES:
        svg.text(left, legend_y + 2, f"{len(robots) - MAX_LANES} more robots not drawn",
                 size=11, fill=MUTED)
        legend_y += 16
    keys = [patch_key(LEGEND[k], c) for k, c in COLORS.items()]
    keys += [patch_key("hatched: did not succeed", "#8a8f96", hatch=True),
             marker_key("refused by the gate", "cross", REFUSAL, "#ffffff", 7)]
    svg.height = legend_y + legend(svg, keys, left, legend_y, right - left) + 10
    return [svg.save(path_stem, HATCH)]


def _lane(robot: str, steps: list[dict[str, Any]], refusals: list[dict[str, Any]],
          scale: Callable[[float], float], bounds: tuple[float, float]) -> list[Mark]:
    """The lane's marks, each label given a row so that none overlaps."""
    marks: list[Mark] = []
    for s in sorted((s for s in steps if str(s.get("robot")) == robot),
                    key=lambda s: _time(s.get("t_start")) or 0.0):
        kind = _category(s)
        start, end = _time(s.get("t_start")) or 0.0, _end(s)
        codes = ", ".join(str(c) for c in s.get("codes") or [])
        label = clip(str(s.get("skill", "?")), LABEL_CHARS) + (f" [{codes}]" if codes else "")
        outcome = ("succeeded" if s.get("succeeded") is True else "did not succeed"
                   if s.get("succeeded") is None else "failed")
        message = clip(s.get("message") or "", 200)
        marks.append(Mark(scale(start), max(scale(end) - scale(start), 5.0),
                          clip(label, 2 * LABEL_CHARS), COLORS[kind],
                          f"{robot}.{clip(s.get('skill', '?'), LABEL_CHARS)} {start:g}-{end:g} s: "
                          f"{outcome}" + (f"; {codes}" if codes else "")
                          + (f"; {message}" if message else ""),
                          hatch=s.get("succeeded") is not True and kind != "failed"))
    mine = [r for r in refusals if str(r.get("robot")) == robot]
    for r in sorted(mine, key=lambda r: _time(r.get("t")) or 0.0):
        stage = "dispatch" if r.get("stage") == "dispatch" else "plan"
        codes = ", ".join(str(c) for c in r.get("codes") or []) or "no code recorded"
        details = [str(p.get("detail")) for p in r.get("problems") or []
                   if isinstance(p, dict) and p.get("detail")]
        label = (f"{PREFIX[stage]}{clip(r.get('skill', '?'), LABEL_CHARS)} [{codes}]"
                 + (f": {clip(details[0], DETAIL_CHARS)}" if details else ""))
        marks.append(Mark(scale(_time(r.get("t")) or 0.0), 0.0, label, REFUSAL,
                          clip("; ".join([label, *details[1:]]), 400), refusal=True))
    left, right = bounds
    rows: list[list[tuple[float, float]]] = []
    for mark in marks:
        if not mark.refusal and mark.width >= text_width(mark.label, 11, bold=True) + 10:
            continue
        mark.label = fit(mark.label, 11, right - left - 8)
        need = text_width(mark.label, 11) + 8
        start = mark.x + (9.0 if mark.refusal else 0.0)
        if start + need > right:  # too close to the end: the label goes before the mark
            start = mark.x - need - (3.0 if mark.refusal else -mark.width)
        start = max(left + 2, min(start, right - need))
        row = next((i for i, taken in enumerate(rows)
                    if all(start >= b or start + need <= a for a, b in taken)), len(rows))
        rows.extend([] for _ in range(row + 1 - len(rows)))
        rows[row].append((start, start + need))
        mark.label_x, mark.row = start, row
    return marks


def _draw_lane(svg: Svg, name: str, marks: list[Mark], top: float, rows: int,
               crew: Crew | None, left: float) -> None:
    bar_y = top + ROW * rows + (LANE - BAR) / 2
    centre = bar_y + BAR / 2
    with svg.group(cls="lane"):
        foreign = crew is not None and name not in crew.robots
        svg.text(left - 12, centre + (0 if foreign else 4.5), clip(name, NAME_CHARS), size=13,
                 font_weight="bold", fill=INK, text_anchor="end", cls="robot", tooltip=name)
        if foreign:
            svg.text(left - 12, centre + 14, "(not in crew)", size=10, fill=MUTED,
                     text_anchor="end")
        for m in marks:
            label_y = bar_y - 6 - ROW * (rows - 1 - (m.row or 0))  # the first row on top
            if m.refusal:
                with svg.group(cls="refusal"):
                    svg.tooltip(m.tooltip)
                    svg.el("line", x1=m.x, y1=top + 4, x2=m.x, y2=top + ROW * rows + LANE - 4,
                           stroke=REFUSAL, stroke_width=1.2, stroke_dasharray="2 3")
                    marker(svg, "cross", m.x, centre, 8, REFUSAL, "#ffffff", width=1.2)
                    svg.text(m.label_x, label_y, m.label, size=11, fill=REFUSAL, halo=True)
                continue
            with svg.group(cls="step"):
                svg.tooltip(m.tooltip)
                svg.el("rect", x=m.x, y=bar_y, width=m.width, height=BAR, rx=3, fill=m.color,
                       stroke="#2b2b2b", stroke_width=0.6, cls="bar")
                if m.hatch:
                    svg.el("rect", x=m.x, y=bar_y, width=m.width, height=BAR, rx=3,
                           fill="url(#hatch)")
                if m.row is None:
                    svg.text(m.x + m.width / 2, centre + 4, m.label, size=11,
                             font_weight="bold", fill="#ffffff", text_anchor="middle")
                else:
                    svg.text(m.label_x, label_y, m.label, size=11, fill=INK, halo=True)


def _time(value: object) -> float | None:
    """A time from a record: finite, within [0, 1e6] s."""
    number = finite(value)
    return None if number is None else max(0.0, number)


def _end(step: dict[str, Any]) -> float:
    start = _time(step.get("t_start")) or 0.0
    return max(start, _time(step.get("t_end")) or start)


def _category(step: dict[str, Any]) -> str:
    if step.get("kind") == "fallback":
        return "fallback"
    if step.get("codes"):
        return "violating"
    return "success" if step.get("succeeded") is True else "failed"


def _robots(record: Record, crew: Crew | None, items: list[dict[str, Any]]) -> list[str]:
    """Every robot of the crew (idle ones too), then any other name the mission used."""
    names = dict.fromkeys(crew.robots if crew else [])
    outcome = record.get("outcome") or {}
    for source in (record.get("final_state") or {}, outcome.get("robots") or {},
                   [i.get("robot") for i in items if i.get("robot")]):
        names.update((str(n), None) for n in source if str(n) not in names)
    return list(names)


def crew_of(record: Record) -> Crew | None:
    """The record's crew, or None when its spec cannot be loaded any more."""
    try:
        return load_crew(record.get("crew_source") or record["crew"])
    except (UserError, KeyError):
        return None
