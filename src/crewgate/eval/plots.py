"""The evaluation's plots, written from the records alone (``crewgate report DIR`` redraws them).

* ``metric_bars``: the proportion metrics per condition, with 95% Wilson intervals, as SVG
  (:mod:`crewgate.eval.plots_bars`); with ``png``, also as PNG for slides and papers
  (matplotlib, ``pip install "crewgate[eval]"``, imported only then);
* ``mission_timeline``: per mission, one lane per robot, a bar per dispatched step, the gate's
  refusals (before anything moved, or at a step's dispatch: the gate's hold);
* ``mission_map``: per air-ground mission, the area, obstacles, search zone, paths, victim, fix;
* ``render_plots``: all of them under ``OUT/plots/``, with ``index.html`` showing them.

Every SVG is written by hand (:mod:`crewgate.eval.svg`), a few milliseconds each: without
``png`` no plot imports matplotlib. Every file is deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from crewgate.eval.metrics import PROPORTIONS
from crewgate.eval.plots_bars import (
    Chart,
    Group,
    Panel,
    Series,
    draw_svg,
    label_lines,
    proportion_cell,
)
from crewgate.eval.plots_map import mission_map
from crewgate.eval.plots_mission import crew_of, mission_timeline
from crewgate.eval.records import Record
from crewgate.eval.report import CREW_SPECIFIC, LABELS, ordered
from crewgate.eval.svg import clip
from crewgate.spec import Crew

__all__ = ["metric_bars", "mission_map", "mission_timeline", "render_plots", "safe_name",
           "summary_chart"]

CONDITION_COLORS = {"llm-only": "#b0b0b0", "skill-list": "#f2a65a", "ro-prompt": "#7fb3d5",
                    "ro": "#1f4e79", "held-plan/off": "#d1495b", "held-plan/on": "#2e8b57"}
SPARE_COLORS = ("#8e6c8a", "#c9a227", "#4f9d9a", "#a0522d", "#5c6bc0", "#7cb342")
SUBTITLE = "proportions per condition with 95% Wilson intervals; n/a: no mission or step to count"


def metric_bars(metrics: dict[str, Any], path_stem: Path, *, png: bool = False) -> list[Path]:
    """``STEM.svg`` (and with ``png`` ``STEM.png``): :func:`summary_chart`."""
    chart = summary_chart(metrics)
    paths = [draw_svg(chart, path_stem)]
    if png:
        from crewgate.eval.plots_mpl import draw_png

        paths.append(draw_png(chart, path_stem))
    return paths


def summary_chart(metrics: dict[str, Any]) -> Chart:
    """Grouped bars: one group per proportion metric, one bar per condition (rate in %), 95%
    Wilson whiskers, "n/a" where the metric has no denominator in that condition. A metric
    only some crews have (objects delivered) is left out where no condition has a denominator
    for it, as in report.md."""
    given = metrics.get("conditions") or {}
    cells: dict[str, dict[str, Any]] = {c: v for c, v in given.items() if isinstance(v, dict)}
    conds = ordered(list(cells))
    names = [n for n in PROPORTIONS if any(n in cells[c] for c in conds)
             and (n not in CREW_SPECIFIC or any(_denominator(cells[c].get(n)) for c in conds))]
    names += sorted({n for c in conds for n, v in cells[c].items()
                     if isinstance(v, dict) and "rate" in v and n not in PROPORTIONS
                     and (n != "planner_error" or v.get("k"))})
    colors = _condition_colors(conds)
    series = tuple(Series(c, c + _missions(cells[c].get("missions")), colors[c]) for c in conds)
    groups = []
    for name in names:
        label = LABELS.get(name, name.replace("_", " "))
        groups.append(Group(name, label_lines(label),
                            tuple(proportion_cell(cells[c].get(name), f"{c} · {clip(label, 60)}")
                                  for c in conds),
                            "(lower is better)" if _lower(name) else ""))
    return Chart(f"{metrics.get('crew')}: planner {metrics.get('planner')}, "
                 f"suite {metrics.get('suite')}", SUBTITLE, series,
                 (Panel(("rate (%)",), tuple(groups)),))


def render_plots(records: Sequence[Record], metrics: dict[str, Any], out_dir: Path, *,
                 max_missions: int | None = None, every: bool = False,
                 png: bool = False) -> list[Path]:
    """``OUT/plots/metrics.svg`` (and ``metrics.png`` with ``png``);
    ``plots/timelines/COND/SCENARIO-SAMPLE.svg`` and (air-ground) ``plots/maps/...`` for the
    missions worth a look (:func:`notable`: refused, halted, failed, carrying a gate code, or
    of a scenario that must be blocked), or for every mission with ``every``;
    ``plots/index.html`` shows them all. ``max_missions`` caps the missions drawn, taking the
    conditions in turn."""
    root = out_dir / "plots"
    written = metric_bars(metrics, root / "metrics", png=png)
    crews: dict[str, Crew | None] = {}  # by source: a study's missions share one or two
    drawn: list[tuple[Record, list[Path]]] = []
    for record in _chosen([r for r in records if every or notable(r)], max_missions):
        source = str(record.get("crew_source") or record.get("crew"))
        if source not in crews:
            crews[source] = crew_of(record)
        crew, stem = crews[source], _stem(record)
        paths = mission_timeline(record, root / "timelines" / stem, crew=crew)
        if crew is not None:
            paths += mission_map(record, crew, root / "maps" / stem) or []
        drawn.append((record, paths))
        written += paths
    written.append(write_index(root, drawn, shown_all=every, missions=len(records)))
    return written


def _stem(record: Record) -> str:
    cond = safe_name(str(record.get("condition", "none")))
    name = (f"{safe_name(str(record.get('scenario', 'mission')))}-"
            f"{safe_name(str(record.get('sample', 0)))}")
    return f"{cond}/{name}"


def notable(record: Record) -> bool:
    """A mission worth drawing by default: not a clean completion, or one that should have been
    blocked."""
    expected = record.get("expected") or {}
    dispatched = record.get("dispatched") or []
    return bool(record.get("status") != "completed" or record.get("codes")
                or expected.get("should_block")
                or any(d.get("codes") or d.get("succeeded") is False for d in dispatched))


def write_index(root: Path, drawn: Sequence[tuple[Record, list[Path]]], *, shown_all: bool,
                missions: int) -> Path:
    """``plots/index.html``: the summary, then each drawn mission's pictures with its scenario,
    condition, status and codes (every text escaped: requests are data, never markup)."""
    from html import escape

    def img(path: Path) -> str:
        rel = path.relative_to(root).as_posix()
        return f'<a href="{escape(rel)}"><img src="{escape(rel)}" loading="lazy"></a>'

    which = ("every mission" if shown_all else
             f"{len(drawn)} of {missions} missions: those refused, halted, failed, carrying a "
             "gate code, or of a scenario that must be blocked (`--all-plots` draws every one)")
    parts = ["<!doctype html><meta charset='utf-8'><title>crewgate evaluation plots</title>",
             "<style>body{font-family:sans-serif;margin:2em}img{max-width:48%;margin:.3em}"
             "h2{margin-top:2em}.m{border-top:1px solid #ccc;padding:.5em 0}</style>",
             "<h1>crewgate evaluation plots</h1>",
             f'<p>{escape(which)}.</p><img src="metrics.svg" style="max-width:90%">']
    for record, paths in drawn:
        codes = ", ".join(str(c) for c in record.get("codes") or []) or "no gate code"
        parts.append(
            f"<div class='m'><b>{escape(str(record.get('scenario')))}</b> "
            f"({escape(str(record.get('condition')))}, sample {escape(str(record.get('sample')))}"
            f"): {escape(str(record.get('status')))}, {escape(codes)}<br>"
            f"<i>{escape(str(record.get('request', '')))}</i><br>"
            + "".join(img(p) for p in paths) + "</div>")
    index = root / "index.html"
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return index


def safe_name(text: str) -> str:
    """A file-name part: "held-plan/off" -> "held-plan-off"."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.") or "x"


def _chosen(records: Sequence[Record], limit: int | None) -> list[Record]:
    if limit is None:
        return list(records)
    queues: dict[str, list[Record]] = {}
    for r in records:
        queues.setdefault(str(r.get("condition")), []).append(r)
    turns = [queues[c] for c in ordered(list(queues))]
    out: list[Record] = []
    depth = 0
    while len(out) < limit and any(depth < len(q) for q in turns):
        out += [q[depth] for q in turns if depth < len(q)][: limit - len(out)]
        depth += 1
    return out


def _lower(metric: str) -> bool:
    from crewgate.eval.report import MEANINGS

    return MEANINGS.get(metric, ("", "higher"))[1] == "lower"


def _denominator(metric: Any) -> bool:
    return isinstance(metric, dict) and bool(metric.get("n"))


def _missions(count: Any) -> str:
    return f" ({count} mission{'' if count == 1 else 's'})" if count else ""


def _condition_colors(conds: list[str]) -> dict[str, str]:
    spare = iter(SPARE_COLORS * (1 + len(conds) // len(SPARE_COLORS)))
    return {c: CONDITION_COLORS.get(c) or next(spare) for c in conds}
