"""What a mission's pictures share (the timeline's and the map's): the title block, the
markers (drawn alike on the picture and in its legend), the legend, and a horizontal axis.
Drawing goes through :mod:`crewgate.eval.svg`, which escapes every text."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from crewgate.eval.records import Record
from crewgate.eval.svg import Svg, clip, num, text_width, tick_label, ticks

INK, MUTED, GRID = "#222222", "#5f6368", "#e3e5e8"
FRAME = "#b9bec5"  # the outline of a plot's area
REFUSAL = "#d50000"
TITLE_CHARS, LINE_CHARS = 160, 140  # the title's bound; a subtitle line's
HATCH = ('<pattern id="hatch" width="7" height="7" patternUnits="userSpaceOnUse" '
         'patternTransform="rotate(45)"><rect width="2.6" height="7" fill="#ffffff" '
         'fill-opacity="0.55"/></pattern>')


def mission_title(record: Record) -> str:
    """Scenario, condition, status, and the faults injected (what the picture is about)."""
    faults = [str(f) for f in record.get("faults") or []]
    return clip(f"{record.get('scenario', record.get('mission_id', '?'))} · "
                f"{record.get('condition', '?')} · {record.get('status', '?')}"
                + (f" · fault {', '.join(faults)}" if faults else ""), TITLE_CHARS)


def title_block(svg: Svg, title: str, subtitle: str, *, x: float = 20, y: float = 26) -> float:
    """The title (bold) and up to two lines of subtitle; returns the y below them."""
    svg.text(x, y, clip(title, TITLE_CHARS), size=15, font_weight="bold", fill=INK, cls="title")
    for line in textwrap.wrap(" ".join(subtitle.split()), LINE_CHARS)[:2]:
        y += 18
        svg.text(x, y, line, size=12, fill=MUTED, cls="subtitle")
    return y + 14


_SHAPES: dict[str, list[tuple[float, float]]] = {  # unit outlines, y pointing down
    "star": [(math.sin(k * math.pi / 5) * (1.0 if k % 2 == 0 else 0.42),
              -math.cos(k * math.pi / 5) * (1.0 if k % 2 == 0 else 0.42)) for k in range(10)],
    "plus": [(-0.3, -1), (0.3, -1), (0.3, -0.3), (1, -0.3), (1, 0.3), (0.3, 0.3), (0.3, 1),
             (-0.3, 1), (-0.3, 0.3), (-1, 0.3), (-1, -0.3), (-0.3, -0.3)],
    "cross": [(-0.55, -0.85), (0, -0.3), (0.55, -0.85), (0.85, -0.55), (0.3, 0), (0.85, 0.55),
              (0.55, 0.85), (0, 0.3), (-0.55, 0.85), (-0.85, 0.55), (-0.3, 0), (-0.85, -0.55)],
}


def marker(svg: Svg, shape: str, x: float, y: float, size: float, fill: str, stroke: str,
           *, width: float = 1.0, cls: str | None = None) -> None:
    """A marker of radius ``size`` at (x, y): circle, square, star, plus or cross."""
    if shape == "circle":
        svg.el("circle", cx=x, cy=y, r=size, fill=fill, stroke=stroke, stroke_width=width,
               cls=cls)
    elif shape == "square":
        svg.el("rect", x=x - size, y=y - size, width=2 * size, height=2 * size, fill=fill,
               stroke=stroke, stroke_width=width, cls=cls)
    else:
        points = " ".join(f"{num(x + dx * size)},{num(y + dy * size)}"
                          for dx, dy in _SHAPES[shape])
        svg.el("polygon", points=points, fill=fill, stroke=stroke, stroke_width=width,
               stroke_linejoin="round", cls=cls)


Swatch = Callable[[Svg, float, float], None]  # draws a key's symbol centred at x, y


@dataclass(frozen=True, slots=True)
class Key:
    """A legend entry: its symbol and its text."""

    label: str
    swatch: Swatch


def patch_key(label: str, fill: str, stroke: str = "none", *, dash: str | None = None,
              hatch: bool = False, opacity: float | None = None) -> Key:
    def draw(svg: Svg, x: float, y: float) -> None:
        svg.el("rect", x=x - 10, y=y - 6, width=20, height=12, rx=2, fill=fill,
               fill_opacity=opacity, stroke=stroke, stroke_dasharray=dash)
        if hatch:
            svg.el("rect", x=x - 10, y=y - 6, width=20, height=12, fill="url(#hatch)")

    return Key(label, draw)


def line_key(label: str, color: str, width: float, *, dash: str | None = None) -> Key:
    return Key(label, lambda svg, x, y: svg.el("line", x1=x - 11, y1=y, x2=x + 11, y2=y,
                                               stroke=color, stroke_width=width,
                                               stroke_dasharray=dash))


def marker_key(label: str, shape: str, fill: str, stroke: str, size: float = 6.0) -> Key:
    return Key(label, lambda svg, x, y: marker(svg, shape, x, y, size, fill, stroke))


def keys_width(keys: list[Key]) -> float:
    """The width of the widest key (its symbol and its text)."""
    return max((30 + text_width(key.label, 12) for key in keys), default=0.0)


def legend(svg: Svg, keys: list[Key], x: float, y: float, width: float) -> float:
    """The keys left to right, a new row where the next would pass ``width``; returns the
    height used."""
    col, row = 0.0, 0
    with svg.group(cls="legend"):
        for key in keys:
            need = 30 + text_width(key.label, 12)
            if col and col + need > width:
                col, row = 0.0, row + 1
            centre = y + 9 + 22 * row
            key.swatch(svg, x + col + 11, centre)
            svg.text(x + col + 28, centre + 4, key.label, size=12, fill=INK)
            col += need + 18
    return 22.0 * (row + 1) if keys else 0.0


def x_axis(svg: Svg, scale: Callable[[float], float], lo: float, hi: float, *, top: float,
           bottom: float, label: str, count: int) -> None:
    """Vertical grid lines at round values, their labels under ``bottom``, the axis' name."""
    values = ticks(lo, hi, count)
    with svg.group(cls="x-axis"):
        for value in values:
            px = scale(value)
            svg.el("line", x1=px, y1=top, x2=px, y2=bottom, stroke=GRID, stroke_width=1)
            svg.el("line", x1=px, y1=bottom, x2=px, y2=bottom + 5, stroke=MUTED)
            svg.text(px, bottom + 18, tick_label(value, values), size=11, fill=MUTED,
                     text_anchor="middle", cls="tick")
        svg.text((scale(lo) + scale(hi)) / 2, bottom + 36, label, size=12, fill=INK,
                 text_anchor="middle")
