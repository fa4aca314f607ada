"""The map of an air-ground mission: the operational area, the world's obstacles, the search
zone, where the drone swept and the rover drove, the true victim and the fix the drone published."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewgate.eval.plots_mission import figure, mission_title, save
from crewgate.eval.records import Record
from crewgate.sim.section import SimSection
from crewgate.spec import Box, Crew

if TYPE_CHECKING:
    from matplotlib.axes import Axes

ZONE_KEYS = ("x_min", "x_max", "y_min", "y_max")
AIR = {"quadcopter"}
PATHS: dict[bool, dict[str, Any]] = {  # air (the drone's sweep): thin; ground: thick
    True: {"color": "#1f77b4", "lw": 0.9, "ls": "-", "alpha": 0.8},
    False: {"color": "#e65100", "lw": 2.4, "ls": "-", "alpha": 0.95},
}


def mission_map(record: Record, crew: Crew, path_stem: Path, *, svg: bool = True
                ) -> list[Path] | None:
    """The map, or None when it makes no sense: no simulated world with obstacles or targets,
    or no robot that moved in x, y."""
    sim = crew.section(SimSection)
    world = sim.worlds.get(record.get("world") or sim.default_world) if sim else None
    trails = {name: [(float(p[1]), float(p[2])) for p in points]
              for name, points in record.get("outcome", {}).get("trajectories", {}).items()
              if points}
    moved = {name for name, xy in trails.items() if len(set(xy)) > 1}
    if world is None or not moved or not (world.obstacles or world.targets):
        return None
    area = crew.area.operational
    models = {name: r.model for name, r in sim.robots.items()} if sim else {}
    with figure(9.0, 6.4) as fig:
        from matplotlib.lines import Line2D
        from matplotlib.patches import Rectangle

        ax = fig.add_subplot()
        _box(ax, area, Rectangle, fill=False, ls="--", ec="#555", lw=1.0,
             label="operational area")
        for i, keep in enumerate(crew.area.keep_out):
            _box(ax, keep, Rectangle, fc="none", ec="#b71c1c", hatch="xx", lw=0.8,
                 label="keep-out zone" if i == 0 else None)
        for i, box in enumerate(world.obstacles):
            _box(ax, box, Rectangle, fc="#757575", ec="#424242", alpha=0.85,
                 label="obstacle" if i == 0 else None)
        zones = _zones(record)
        for i, (skill, zone) in enumerate(zones):
            first = all(other != skill for other, _ in zones[:i])
            ax.add_patch(Rectangle((zone[0], zone[2]), zone[1] - zone[0], zone[3] - zone[2],
                                   fc="#bbdefb", ec="#1565c0", ls="--", alpha=0.45, lw=1.2,
                                   label=f"search zone ({skill})" if first else None, zorder=0.5))
        for name, xy in sorted(trails.items()):
            air = models.get(name) in AIR
            if name in moved:
                kind = "sweep path" if air else "path"
                ax.plot(*zip(*xy, strict=True), **PATHS[air], label=f"{name} {kind}", zorder=2)
                ax.plot(*xy[0], marker="o", ms=6, mfc="white", mec=PATHS[air]["color"], zorder=3)
            if not air:
                still = "" if name in moved else " (did not move)"
                ax.plot(*xy[-1], marker="s", ms=8, color=PATHS[air]["color"], mec="black",
                        ls="none", label=f"{name} final position{still}", zorder=4)
        targets = _targets(record, world.targets)
        fixes = _fixes(record)
        for name, point in targets.items():
            ax.plot(*point, marker="*", ms=15, color="#d50000", mec="black", ls="none",
                    label=f"true {name}", zorder=5)
        for name, value in fixes.items():
            if value is None:
                ax.add_line(Line2D([], [], marker="P", color="#9e9e9e", ls="none",
                                   label=f"published {name} fix: not finite, not drawn"))
            else:
                ax.plot(*value, marker="P", ms=10, color="#aa00ff", mec="white", ls="none",
                        label=f"published {name} fix", zorder=6)
        goals = _goals(record)
        for i, (step, goal) in enumerate(goals):
            ax.plot(*goal, marker="X", ms=10, color="#2e7d32", mec="black", ls="none",
                    label="commanded goal" if i == 0 else None, zorder=6)
            ax.annotate(step, goal, textcoords="offset points", xytext=(6, -10), fontsize=7)
        outside = [name for name, value in fixes.items() if value is not None and zones and not
                   any(z[0] <= value[0] <= z[1] and z[2] <= value[1] <= z[3] for _, z in zones)]
        if outside:  # a detection near the edge, or a displaced fix: say so on the picture
            ax.text(0.01, 0.01, f"the {', '.join(outside)} fix lies outside every searched zone "
                    "(the sensor sees past the sweep's edge, or the fix is displaced)",
                    transform=ax.transAxes, fontsize=7, color="#6a1b9a", va="bottom")
        ax.plot([], [], marker="o", mfc="white", mec="#333", ls="none", label="start")
        points = [p for xy in trails.values() for p in xy]
        points += [g for _, g in goals]
        points += [*targets.values(), *(v for v in fixes.values() if v is not None)]
        for _, (x0, x1, y0, y1) in zones:
            points += [(x0, y0), (x1, y1)]
        points += [(area.x[0], area.y[0]), (area.x[1], area.y[1])]
        ax.set_xlim(min(p[0] for p in points) - 0.5, max(p[0] for p in points) + 0.5)
        ax.set_ylim(min(p[1] for p in points) - 0.5, max(p[1] for p in points) + 0.5)
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        ax.grid(alpha=0.25)
        ax.set_title(f"{mission_title(record)}\nworld {record.get('world')}: "
                     f"{world.description}".rstrip(": "))
        fig.legend(loc="outside right upper")
        return save(fig, path_stem, svg=svg)


def _goals(record: Record) -> list[tuple[str, tuple[float, float]]]:
    """The points dispatched steps were sent to: ``goal`` as [x, y] (as typed by the gate) or
    flat x, y arguments (untyped plans); not a binding's fix (drawn as the fix)."""
    out: list[tuple[str, tuple[float, float]]] = []
    for step in record.get("dispatched", []):
        args = step.get("args") or {}
        raw = args.get("goal", [args.get("x"), args.get("y")])
        if isinstance(raw, list | tuple) and len(raw) == 2 and all(
                isinstance(v, int | float) and math.isfinite(v) for v in raw):
            out.append((f"{step.get('robot')}.{step.get('skill')}",
                        (float(raw[0]), float(raw[1]))))
    return out


def _box(ax: Axes, box: Box, rect: Any, **style: Any) -> None:
    ax.add_patch(rect((box.x[0], box.y[0]), box.x[1] - box.x[0], box.y[1] - box.y[0], **style))


def _zones(record: Record) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The zones the dispatched steps were given: ``zone`` as [x_min, x_max, y_min, y_max] (as
    typed by the gate) or a mapping, or flat x_min ... y_max arguments (untyped plans)."""
    out: list[tuple[str, tuple[float, float, float, float]]] = []
    for step in record.get("dispatched", []):
        args = step.get("args") or {}
        raw = args.get("zone", args)
        values = [raw.get(k) for k in ZONE_KEYS] if isinstance(raw, dict) else raw
        if isinstance(values, list | tuple) and len(values) == 4 and all(
                _finite(v) for v in values):
            x0, x1, y0, y1 = (float(v) for v in values)
            if x0 < x1 and y0 < y1:
                out.append((str(step.get("skill")), (x0, x1, y0, y1)))
    return out


def _targets(record: Record, world: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """The truth: the outcome's victim (the simulator's), else the world's targets."""
    victim = record.get("outcome", {}).get("victim")
    if isinstance(victim, list) and len(victim) >= 2 and all(_finite(v) for v in victim[:2]):
        return {"victim": (float(victim[0]), float(victim[1]))}
    return dict(world)


def _fixes(record: Record) -> dict[str, tuple[float, float] | None]:
    """Point bindings the mission published; None where the value is not finite (a NaN fix)."""
    out: dict[str, tuple[float, float] | None] = {}
    for name, binding in sorted(record.get("bindings", {}).items()):
        value = binding.get("value") if isinstance(binding, dict) else None
        if isinstance(value, list) and len(value) == 2:
            finite = all(_finite(v) for v in value)
            out[name] = (float(value[0]), float(value[1])) if finite else None
    return out


def _finite(value: Any) -> bool:
    """A finite number; JSON records carry NaN as the string "nan"."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return False
    try:
        return math.isfinite(float(value))
    except ValueError:
        return False
