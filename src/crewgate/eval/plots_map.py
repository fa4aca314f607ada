"""The map of an air-ground mission, written as SVG (``STEM.svg``): the operational area, the
keep-out zones, the world's obstacles, the search zone, where the drone swept and the rover drove,
the true victim, the fix the drone published and the goals the steps were sent to, in metres with
equal aspect. Values from the record that are not finite numbers are not drawn (a NaN fix is
said to be so in the legend); every text is escaped by the writer."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crewgate.eval.plots_svg import (
    FRAME,
    GRID,
    INK,
    MUTED,
    Key,
    keys_width,
    legend,
    line_key,
    marker,
    marker_key,
    mission_title,
    patch_key,
    title_block,
    x_axis,
)
from crewgate.eval.records import Record
from crewgate.eval.svg import Svg, clip, finite, num, tick_label, ticks
from crewgate.sim.section import SimSection
from crewgate.spec import Crew

Point = tuple[float, float]
Zone = tuple[float, float, float, float]  # x_min, x_max, y_min, y_max
ZONE_KEYS = ("x_min", "x_max", "y_min", "y_max")
AIR = {"quadcopter"}
PATHS = {True: ("#1f77b4", 1.3), False: ("#e65100", 3.2)}  # air (a sweep): thin; ground: thick
VICTIM, FIX, GOAL = "#d50000", "#aa00ff", "#2e7d32"
SIDE, LEFT = 560.0, 64.0  # px: the longer side of the plot, its left margin


def mission_map(record: Record, crew: Crew, path_stem: Path) -> list[Path] | None:
    """``STEM.svg``, or None when a map makes no sense: no simulated world with obstacles or
    targets, or no robot that moved in x, y."""
    sim = crew.section(SimSection)
    world = sim.worlds.get(str(record.get("world") or sim.default_world)) if sim else None
    trails = _trails(record)
    moved = {name for name, xy in trails.items() if len(set(xy)) > 1}
    if world is None or not moved or not (world.obstacles or world.targets):
        return None
    models = {name: r.model for name, r in sim.robots.items()} if sim else {}
    area, zones = crew.area.operational, _zones(record)
    targets, fixes, goals = _targets(record, world.targets), _fixes(record), _goals(record)
    points = [p for xy in trails.values() for p in xy] + [g for _, g in goals]
    points += [*targets.values(), *(v for v in fixes.values() if v is not None)]
    points += [p for _, (x0, x1, y0, y1) in zones for p in ((x0, y0), (x1, y1))]
    points += [(area.x[0], area.y[0]), (area.x[1], area.y[1])]
    x0, x1 = min(p[0] for p in points) - 0.5, max(p[0] for p in points) + 0.5
    y0, y1 = min(p[1] for p in points) - 0.5, max(p[1] for p in points) + 0.5
    s = SIDE / max(x1 - x0, y1 - y0)
    pw, ph = max((x1 - x0) * s, 160.0), max((y1 - y0) * s, 160.0)  # equal aspect, not a sliver
    x0, x1 = (x0 + x1) / 2 - pw / s / 2, (x0 + x1) / 2 + pw / s / 2
    y0, y1 = (y0 + y1) / 2 - ph / s / 2, (y0 + y1) / 2 + ph / s / 2
    svg = Svg(0, 0)  # its size is known at the end
    top = title_block(svg, mission_title(record), f"world {record.get('world')}: "
                      f"{world.description}".rstrip(": ")) + 4

    def px(x: float) -> float:
        return LEFT + (x - x0) * s

    def py(y: float) -> float:
        return top + (y1 - y) * s

    def rect(x: tuple[float, float], y: tuple[float, float], cls: str, **style: Any) -> None:
        svg.el("rect", x=px(x[0]), y=py(y[1]), width=(x[1] - x[0]) * s,
               height=(y[1] - y[0]) * s, cls=cls, **style)

    svg.el("clipPath", f'<rect x="{num(LEFT)}" y="{num(top)}" width="{num(pw)}" '
           f'height="{num(ph)}"/>', id="plot-area")
    x_axis(svg, px, x0, x1, top=top, bottom=top + ph, label="x (m)", count=int(pw // 50))
    _y_axis(svg, py, y0, y1, left=LEFT, right=LEFT + pw, count=int(ph // 60))
    keys: list[Key] = [patch_key("operational area", "none", "#555555", dash="6 4")]
    with svg.group(clip_path="url(#plot-area)"):
        rect(area.x, area.y, "area", fill="none", stroke="#555555", stroke_width=1.2,
             stroke_dasharray="6 4")
        for skill in dict.fromkeys(skill for skill, _ in zones):
            keys.append(patch_key(f"search zone ({clip(skill, 30)})", "#bbdefb", "#1565c0",
                                  dash="5 3"))
        for _, (zx0, zx1, zy0, zy1) in zones:
            rect((zx0, zx1), (zy0, zy1), "zone", fill="#bbdefb", fill_opacity=0.5,
                 stroke="#1565c0", stroke_width=1.2, stroke_dasharray="5 3")
        for keep in crew.area.keep_out:
            rect(keep.x, keep.y, "keep-out", fill="#b71c1c", fill_opacity=0.12,
                 stroke="#b71c1c")
        if crew.area.keep_out:
            keys.append(patch_key("keep-out zone", "#f4d4d4", "#b71c1c"))
        for box in world.obstacles:
            rect(box.x, box.y, "obstacle", fill="#7a7a7a", stroke="#424242")
        if world.obstacles:
            keys.append(patch_key("obstacle", "#7a7a7a", "#424242"))
        for name, xy in sorted(trails.items()):
            air = models.get(name) in AIR
            color, width = PATHS[air]
            label = clip(name, 24)
            if name in moved:
                svg.polyline([(px(x), py(y)) for x, y in xy], stroke=color, stroke_width=width,
                             stroke_opacity=0.85 if air else 0.95, stroke_linejoin="round",
                             stroke_linecap="round", cls="path")
                marker(svg, "circle", px(xy[0][0]), py(xy[0][1]), 4.5, "#ffffff", color,
                       width=1.6, cls="start")
                keys.append(line_key(f"{label} {'sweep path' if air else 'path'}", color,
                                     width))
            if not air:
                marker(svg, "square", px(xy[-1][0]), py(xy[-1][1]), 5.5, color, "#111111",
                       cls="final")
                still = "" if name in moved else " (did not move)"
                keys.append(marker_key(f"{label} final position{still}", "square", color,
                                       "#111111", 5))
        for name, (x, y) in targets.items():
            marker(svg, "star", px(x), py(y), 11, VICTIM, "#111111", cls="victim")
            keys.append(marker_key(f"true {clip(name, 24)}", "star", VICTIM, "#111111", 8))
        for name, value in fixes.items():
            if value is None:
                keys.append(marker_key(f"published {clip(name, 24)} fix: not finite, not drawn",
                                       "plus", "#bdbdbd", "#9e9e9e"))
                continue
            marker(svg, "plus", px(value[0]), py(value[1]), 7, FIX, "#ffffff", cls="fix")
            keys.append(marker_key(f"published {clip(name, 24)} fix", "plus", FIX, "#ffffff"))
        for step, (x, y) in goals:
            with svg.group(cls="goal"):
                marker(svg, "cross", px(x), py(y), 7, GOAL, "#111111")
                svg.text(px(x) + 9, py(y) + 14, step, size=11, fill=INK, halo=True)
        if goals:
            keys.append(marker_key("commanded goal", "cross", GOAL, "#111111"))
    keys.append(marker_key("start", "circle", "#ffffff", "#333333", 4.5))
    svg.el("rect", x=LEFT, y=top, width=pw, height=ph, fill="none", stroke=FRAME)
    used = legend(svg, keys, LEFT + pw + 36, top, 0.0)  # one key a row
    svg.width = LEFT + pw + 36 + keys_width(keys) + 16
    bottom = top + ph + 44
    outside = [name for name, value in fixes.items() if value is not None and zones and not
               any(z[0] <= value[0] <= z[1] and z[2] <= value[1] <= z[3] for _, z in zones)]
    if outside:  # a detection near the edge, or a displaced fix: say so on the picture
        text = (f"the {clip(', '.join(outside), 40)} fix lies outside every searched zone (the "
                "sensor sees past the sweep's edge, or the fix is displaced)")
        for line in textwrap.wrap(text, max(60, int(pw / 6.6)))[:2]:
            svg.text(LEFT, bottom + 16, line, size=12, fill="#6a1b9a", cls="note")
            bottom += 17
    svg.height = max(bottom, top + used) + 12
    return [svg.save(path_stem)]


def _y_axis(svg: Svg, py: Callable[[float], float], lo: float, hi: float, *, left: float,
            right: float, count: int) -> None:
    values = ticks(lo, hi, max(count, 3))
    with svg.group(cls="y-axis"):
        for value in values:
            y = py(value)
            svg.el("line", x1=left, y1=y, x2=right, y2=y, stroke=GRID, stroke_width=1)
            svg.el("line", x1=left - 5, y1=y, x2=left, y2=y, stroke=MUTED)
            svg.text(left - 8, y + 4, tick_label(value, values), size=11, fill=MUTED,
                     text_anchor="end", cls="tick")
        middle = (py(lo) + py(hi)) / 2
        svg.text(16, middle, "y (m)", size=12, fill=INK, text_anchor="middle",
                 transform=f"rotate(-90 16 {middle:.2f})")


def _trails(record: Record) -> dict[str, list[Point]]:
    """Each robot's x, y samples (``[t, x, y, ...]``), those with finite x and y."""
    out: dict[str, list[Point]] = {}
    raw = (record.get("outcome") or {}).get("trajectories") or {}
    for name, samples in raw.items():
        xy = [p for p in (_point(s[1:3]) for s in samples if isinstance(s, list)) if p]
        if xy:
            out[str(name)] = xy
    return out


def _goals(record: Record) -> list[tuple[str, Point]]:
    """The points dispatched steps were sent to: ``goal`` as [x, y] (as typed by the gate) or
    flat x, y arguments (untyped plans); not a binding's fix (drawn as the fix)."""
    out: list[tuple[str, Point]] = []
    for step in _steps(record):
        args = step.get("args") or {}
        goal = _point(args.get("goal", [args.get("x"), args.get("y")]))
        if goal:
            out.append((clip(f"{step.get('robot')}.{step.get('skill')}", 40), goal))
    return out


def _zones(record: Record) -> list[tuple[str, Zone]]:
    """The zones the dispatched steps were given: ``zone`` as [x_min, x_max, y_min, y_max] (as
    typed by the gate) or a mapping, or flat x_min ... y_max arguments (untyped plans)."""
    out: list[tuple[str, Zone]] = []
    for step in _steps(record):
        args = step.get("args") or {}
        raw = args.get("zone", args)
        values = [raw.get(k) for k in ZONE_KEYS] if isinstance(raw, dict) else raw
        if isinstance(values, list | tuple) and len(values) == 4:
            x0, x1, y0, y1 = (finite(v) for v in values)
            if x0 is not None and x1 is not None and y0 is not None and y1 is not None \
                    and x0 < x1 and y0 < y1:
                out.append((str(step.get("skill")), (x0, x1, y0, y1)))
    return out


def _targets(record: Record, world: dict[str, tuple[float, float]]) -> dict[str, Point]:
    """The truth: the outcome's victim (the simulator's), else the world's targets."""
    victim = (record.get("outcome") or {}).get("victim")
    victim = _point(victim[:2]) if isinstance(victim, list) else None
    return {"victim": victim} if victim else {str(k): v for k, v in world.items()}


def _fixes(record: Record) -> dict[str, Point | None]:
    """Point bindings the mission published; None where the value is not finite (a NaN fix)."""
    out: dict[str, Point | None] = {}
    for name, binding in sorted((record.get("bindings") or {}).items()):
        value = binding.get("value") if isinstance(binding, dict) else None
        if isinstance(value, list) and len(value) == 2:
            out[str(name)] = _point(value)
    return out


def _steps(record: Record) -> list[dict[str, Any]]:
    return [s for s in record.get("dispatched") or [] if isinstance(s, dict)]


def _point(raw: object) -> Point | None:
    """[x, y] of finite numbers, or None."""
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        return None
    x, y = finite(raw[0]), finite(raw[1])
    return None if x is None or y is None else (x, y)
