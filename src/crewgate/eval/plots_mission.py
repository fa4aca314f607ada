"""The execution timeline of a mission (one lane per robot), and the plumbing every plot shares:
matplotlib is optional and imported only when a figure is drawn, figures are built with the object
API (no pyplot state: nothing global is reused and nothing stays open), and the output is
deterministic (fixed SVG ids, no dates, text kept as text in the SVG)."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewgate.errors import UserError
from crewgate.eval.records import Record
from crewgate.spec import Crew, load_crew

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

HINT = 'pip install "crewgate[eval]"'
COLORS = {"success": "#3f8f3a", "failed": "#e39b2d", "violating": "#c62828",
          "fallback": "#3466a8"}
LEGEND = {"success": "succeeded cleanly", "failed": "failed", "violating": "violating dispatch",
          "fallback": "safe fallback"}
REFUSAL = "#d50000"
CHAR_IN = 0.056  # width of one label character at 7 pt (bold), inches
LEVEL = 0.3  # height of one row of labels above a bar, lane units


@contextmanager
def figure(width: float, height: float) -> Iterator[Figure]:
    """A fresh Agg-rendered figure under the plots' rc settings."""
    try:
        import matplotlib
    except ModuleNotFoundError as exc:
        raise UserError(f"the evaluation's plots need matplotlib: {HINT}") from exc
    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")  # never a GUI; an interactive session keeps its own backend
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "crewgate",
                                "font.size": 8.0, "axes.titlesize": 9.5,
                                "legend.fontsize": 7.5, "legend.frameon": False}):
        fig = Figure(figsize=(width, height), layout="constrained")
        try:
            yield fig
        finally:
            fig.clear()


def save(fig: Figure, stem: Path, *, svg: bool = True) -> list[Path]:
    """STEM.png (150 dpi) and, with ``svg``, STEM.svg. The layout is computed once, for the
    PNG, and kept for the SVG (laying a figure out is a third of drawing it)."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    png = stem.parent / f"{stem.name}.png"
    fig.savefig(png, dpi=150, metadata={"Software": None})
    if not svg:
        return [png]
    vector = stem.parent / f"{stem.name}.svg"
    fig.set_layout_engine("none")  # the positions found for the PNG stay as they are
    fig.savefig(vector, metadata={"Date": None, "Creator": None})
    return [png, vector]


def mission_title(record: Record) -> str:
    """Scenario, condition, status, and the faults injected (what the picture is about)."""
    faults = [str(f) for f in record.get("faults") or []]
    return (f"{record.get('scenario', record.get('mission_id', '?'))} · "
            f"{record.get('condition', '?')} · {record.get('status', '?')}"
            + (f" · fault {', '.join(faults)}" if faults else ""))


def mission_timeline(record: Record, path_stem: Path, *, crew: Crew | None = None,
                     svg: bool = True) -> list[Path]:
    """One lane per robot of the crew; a bar per dispatched step (clean / failed / violating /
    fallback), red marks where the gate refused: at t=0 for a plan refused before anything moved,
    at the step's time for a dispatch-time refusal (the gate's hold)."""
    steps = [*record.get("dispatched", []), *record.get("fallback", [])]
    refusals = list(record.get("refusals", []))
    crew = crew if crew is not None else crew_of(record)
    robots = _robots(record, crew, [*steps, *refusals])
    span = max([5.0, float(record.get("outcome", {}).get("sim_time_s") or 0.0),
                *(float(s["t_end"]) for s in steps), *(float(r.get("t", 0)) for r in refusals)])
    char = span * 1.06 / (9.0 / CHAR_IN)  # one character in data units on a ~9 in axes
    lanes = {r: _lane(r, steps, refusals, span, char) for r in robots}
    tops: dict[str, float] = {}
    y = 0.0
    for name in reversed(robots):
        tops[name] = y
        y += 1.0 + LEVEL * lanes[name][1]
    planned = [r for r in refusals if r.get("stage") == "plan"]
    unplaced = [r for r in refusals if r.get("robot") not in robots]  # no robot to draw it on
    refused = bool(planned) or record.get("status") == "refused"
    note = ("refused before anything moved" if refused
            else "refused at a step's dispatch" if unplaced else "")
    top = y + (0.6 if note else 0.0)
    with figure(10.0, 1.7 + 0.62 * (top + 0.15)) as fig:
        from matplotlib.patches import Patch

        ax = fig.add_subplot()
        for name in robots:
            _draw_lane(ax, lanes[name][0], tops[name])
        if refused:  # a band before t=0: nothing ever moved
            ax.axvspan(-0.03 * span, 0.0, color=REFUSAL, alpha=0.18, lw=0)
            ax.axvline(0.0, color=REFUSAL, lw=1.5)
        if note:
            why = (", ".join(record.get("codes") or []) or record.get("planner_error")
                   or record.get("reason") or "")
            detail = f": {textwrap.shorten(why, 120)}" if why and (unplaced or not planned) else ""
            ax.text(0.005 * span, y + 0.3, note + detail, color=REFUSAL, fontsize=7.5,
                    va="center", fontweight="bold")
        ax.set_yticks([tops[n] + 0.4 for n in robots], [_robot_label(n, crew) for n in robots])
        ax.set_ylim(-0.15, top)
        ax.set_xlim(-0.03 * span, 1.03 * span)
        ax.set_xlabel("simulated time (s)")
        ax.grid(axis="x", alpha=0.3)
        ax.set_axisbelow(True)
        ax.set_title(f"{mission_title(record)}\n{_wrap(str(record.get('request', '')), 140)}")
        handles: list[Any] = [Patch(color=c, label=LEGEND[k]) for k, c in COLORS.items()]
        handles.append(Patch(facecolor="white", edgecolor="#444", hatch="////",
                             label="hatched: did not succeed"))
        handles.append(ax.scatter([], [], marker="X", color=REFUSAL, label="refused by the gate"))
        fig.legend(handles=handles, loc="outside lower center", ncol=6)
        return save(fig, path_stem, svg=svg)


@dataclass(slots=True)
class Mark:
    """A bar (a dispatched step) or a refusal on a lane, and where its label goes."""

    x: float
    width: float
    label: str
    color: str
    hatch: str | None = None
    refusal: bool = False
    label_x: float = 0.0
    row: int | None = None  # the label row above the bar; None: inside the bar


def _lane(robot: str, steps: list[dict[str, Any]], refusals: list[dict[str, Any]], span: float,
          char: float) -> tuple[list[Mark], int]:
    """The lane's marks, each label given a row so that none overlaps; and the rows used."""
    marks: list[Mark] = []
    for s in sorted((s for s in steps if s.get("robot") == robot), key=lambda s: s["t_start"]):
        kind = _category(s)
        t0, t1 = float(s["t_start"]), float(s["t_end"])
        marks.append(Mark(t0, max(t1 - t0, 0.004 * span),
                          s["skill"] + (f" [{', '.join(s['codes'])}]" if s.get("codes") else ""),
                          COLORS[kind],
                          "////" if s.get("succeeded") is not True and kind != "failed" else None))
    mine = [r for r in refusals if r.get("robot") == robot]
    for stage, prefix in (("plan", "refused: "), ("dispatch", "gate hold, refused at dispatch: ")):
        at = [r for r in mine if r.get("stage", "plan") == stage]
        for t in sorted({float(r.get("t", 0.0)) for r in at}):
            text = "; ".join(f"{r.get('skill', '?')} [{', '.join(r.get('codes', []))}]"
                             for r in at if float(r.get("t", 0.0)) == t)
            marks.append(Mark(t, 0.0, prefix + text, REFUSAL, refusal=True))
    rows: list[list[tuple[float, float]]] = []
    for mark in marks:
        need = (len(mark.label) + 2) * char
        if not mark.refusal and mark.width >= need:
            continue
        start = min(mark.x + (char if mark.refusal else 0.0), 1.03 * span - need)
        row = next((i for i, taken in enumerate(rows)
                    if all(start >= b or start + need <= a for a, b in taken)), len(rows))
        rows.extend([] for _ in range(row + 1 - len(rows)))
        rows[row].append((start, start + need))
        mark.label_x, mark.row = start, row
    return marks, len(rows)


def _draw_lane(ax: Axes, marks: list[Mark], base: float) -> None:
    center = base + 0.4
    for m in marks:
        if m.refusal:
            ax.vlines(m.x, base + 0.05, base + 0.75, color=REFUSAL, lw=1.0, linestyles=":")
            ax.scatter([m.x], [center], marker="X", s=70, color=REFUSAL, edgecolors="white",
                       linewidths=0.6, zorder=4)
        else:
            ax.barh(center, m.width, left=m.x, height=0.5, color=m.color, hatch=m.hatch,
                    edgecolor="#333", linewidth=0.5)
        if m.row is None:
            ax.text(m.x + m.width / 2, center, m.label, ha="center", va="center", fontsize=7,
                    color="white", fontweight="bold")
        else:
            ax.text(m.label_x, base + 0.75 + LEVEL * m.row, m.label, ha="left", va="bottom",
                    fontsize=7, color=REFUSAL if m.refusal else "#222")


def _category(step: dict[str, Any]) -> str:
    if step.get("kind") == "fallback":
        return "fallback"
    if step.get("codes"):
        return "violating"
    return "success" if step.get("succeeded") is True else "failed"


def _robots(record: Record, crew: Crew | None, items: list[dict[str, Any]]) -> list[str]:
    """Every robot of the crew (idle ones too), then any other name the mission used."""
    names: list[str] = list(crew.robots) if crew else []
    for source in (record.get("final_state", {}), record.get("outcome", {}).get("robots", {}),
                   {str(i.get("robot")): None for i in items if i.get("robot")}):
        names += [n for n in source if n not in names]
    return names


def _robot_label(name: str, crew: Crew | None) -> str:
    return name if crew is None or name in crew.robots else f"{name}\n(not in crew)"


def crew_of(record: Record) -> Crew | None:
    """The record's crew, or None when its spec cannot be loaded any more."""
    try:
        return load_crew(record.get("crew_source") or record["crew"])
    except (UserError, KeyError):
        return None


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.wrap(text, width)[:2])
