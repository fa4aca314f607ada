"""The evaluation's plots, written from the records alone (``crewgate report DIR`` redraws them).

* ``metric_bars``: the proportion metrics per condition, with 95% Wilson intervals (matplotlib,
  ``pip install "crewgate[eval]"``, imported only when it is drawn; PNG at 150 dpi and SVG);
* ``mission_timeline``: per mission, one lane per robot, a bar per dispatched step, the gate's
  refusals (before anything moved, or at a step's dispatch: the gate's hold);
* ``mission_map``: per air-ground mission, the area, obstacles, search zone, paths, victim, fix;
* ``render_plots``: all of them under ``OUT/plots/``, with ``index.html`` showing them.

The missions' pictures are written as SVG by hand (:mod:`crewgate.eval.svg`), about 2 ms each,
without matplotlib. Every file is deterministic.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from crewgate.eval.metrics import PROPORTIONS
from crewgate.eval.plots_map import mission_map
from crewgate.eval.plots_mission import crew_of, mission_timeline
from crewgate.eval.plots_mpl import figure, save
from crewgate.eval.records import Record
from crewgate.eval.report import LABELS, ordered
from crewgate.spec import Crew

__all__ = ["metric_bars", "mission_map", "mission_timeline", "render_plots", "safe_name"]

CONDITION_COLORS = {"llm-only": "#b0b0b0", "skill-list": "#f2a65a", "ro-prompt": "#7fb3d5",
                    "ro": "#1f4e79", "held-plan/off": "#d1495b", "held-plan/on": "#2e8b57"}
SPARE_COLORS = ("#8e6c8a", "#c9a227", "#4f9d9a", "#a0522d", "#5c6bc0", "#7cb342")


def metric_bars(metrics: dict[str, Any], path_stem: Path) -> list[Path]:
    """Grouped bars: one group per proportion metric, one bar per condition (rate in %), 95%
    Wilson whiskers, "n/a" where the metric has no denominator in that condition."""
    cells: dict[str, dict[str, Any]] = metrics.get("conditions") or {}
    conds = ordered(list(cells))
    names = [n for n in PROPORTIONS if any(n in cells[c] for c in conds)]
    names += sorted({n for c in conds for n, v in cells[c].items()
                     if isinstance(v, dict) and "rate" in v and n not in names
                     and (n != "planner_error" or v.get("k"))})
    colors = _condition_colors(conds)
    width = 0.84 / max(1, len(conds))
    with figure(max(7.0, 1.15 * len(names) + 1.6), 5.4) as fig:
        from matplotlib.patches import Patch

        ax = fig.add_subplot()
        for j, cond in enumerate(conds):
            for i, name in enumerate(names):
                x = i - 0.42 + width * (j + 0.5)
                cell = cells[cond].get(name)
                if not cell or cell.get("rate") is None:
                    ax.text(x, 1.5, "n/a", rotation=90, ha="center", va="bottom", fontsize=7,
                            color="#444")
                    continue
                rate = 100.0 * float(cell["rate"])
                if rate == 0.0:
                    ax.text(x, 1.5, "0", ha="center", va="bottom", fontsize=7, color="#222",
                            bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5},
                            zorder=5)
                ax.bar(x, rate, width * 0.92, color=colors[cond], edgecolor="#333",
                       linewidth=0.4)
                if cell.get("ci"):
                    lo, hi = (100.0 * float(v) for v in cell["ci"])
                    ax.errorbar(x, rate, yerr=[[max(rate - lo, 0.0)], [max(hi - rate, 0.0)]],
                                fmt="none", ecolor="#222", elinewidth=0.8, capsize=2.0)
        ax.set_xticks(range(len(names)),
                      [textwrap.fill(LABELS.get(n, n.replace("_", " ")), 15)
                       + ("\n(lower is better)" if _lower(n) else "") for n in names],
                      fontsize=7.5)
        ax.set_xlim(-0.6, len(names) - 0.4)
        ax.set_ylim(0, 104)
        ax.set_ylabel("rate (%)")
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
        ax.set_title(f"{metrics.get('crew')}: planner {metrics.get('planner')}, "
                     f"suite {metrics.get('suite')}\nproportions per condition with 95% Wilson "
                     "intervals; n/a: no mission or step to count")
        fig.legend(handles=[Patch(facecolor=colors[c], edgecolor="#333",
                                  label=c + _missions(cells[c].get("missions"))) for c in conds],
                   loc="outside lower center", ncol=max(1, len(conds)))
        return save(fig, path_stem)


def render_plots(records: Sequence[Record], metrics: dict[str, Any], out_dir: Path, *,
                 max_missions: int | None = None, every: bool = False) -> list[Path]:
    """``OUT/plots/metrics.png|svg``; ``plots/timelines/COND/SCENARIO-SAMPLE.svg`` and (air-
    ground) ``plots/maps/...`` for the missions worth a look (:func:`notable`: refused, halted,
    failed, carrying a gate code, or of a scenario that must be blocked), or for every mission
    with ``every``; ``plots/index.html`` shows them all. ``max_missions`` caps the missions
    drawn, taking the conditions in turn."""
    root = out_dir / "plots"
    written = metric_bars(metrics, root / "metrics")
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


def _missions(count: Any) -> str:
    return f" ({count} mission{'' if count == 1 else 's'})" if count else ""


def _condition_colors(conds: list[str]) -> dict[str, str]:
    spare = iter(SPARE_COLORS * (1 + len(conds) // len(SPARE_COLORS)))
    return {c: CONDITION_COLORS.get(c) or next(spare) for c in conds}
