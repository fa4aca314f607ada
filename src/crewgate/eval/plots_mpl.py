"""The PNG of a bar chart (:class:`crewgate.eval.plots_bars.Chart`), for slides and papers,
drawn with matplotlib only when asked for (``--png``): every plot is SVG without it.

matplotlib is optional (``pip install "crewgate[eval]"``) and imported only here, when a PNG is
drawn; :func:`require_matplotlib` lets a command fail before its work rather than after it.
Figures are built with the object API (no pyplot state: nothing global is reused and nothing
stays open), texts are never read as mathtext (a "$" in a name is a "$"), and the output is
deterministic (no date, no software stamp).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from crewgate.errors import UserError
from crewgate.eval.plots_bars import EDGE, WHISKER, Chart

if TYPE_CHECKING:
    from matplotlib.figure import Figure

HINT = 'pip install "crewgate[eval]"'


def require_matplotlib() -> None:
    """Raise the install hint now if matplotlib is missing (a PNG was asked for)."""
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError as exc:
        raise UserError(f"the PNG plots (--png) need matplotlib: {HINT}; without --png every "
                        "plot is SVG and needs nothing more") from exc


@contextmanager
def figure(width: float, height: float) -> Iterator[Figure]:
    """A fresh Agg-rendered figure under the plots' rc settings."""
    require_matplotlib()
    import matplotlib

    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")  # never a GUI; an interactive session keeps its own backend
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"text.parse_math": False, "font.size": 8.0, "axes.titlesize": 9.5,
                                "legend.fontsize": 7.5, "legend.frameon": False}):
        fig = Figure(figsize=(width, height), layout="constrained")
        try:
            yield fig
        finally:
            fig.clear()


def draw_png(chart: Chart, stem: Path) -> Path:
    """``STEM.png`` at 150 dpi: the chart's bars, whiskers, "0" and "n/a" as in its SVG."""
    groups = max([1, *(len(p.groups) for p in chart.panels)])
    panels = max(1, len(chart.panels))
    with figure(max(7.0, 1.15 * groups + 1.6),
                1.4 + chart.height / 75.0 * panels) as fig:
        from matplotlib.patches import Patch

        axes = fig.subplots(panels, 1, squeeze=False)
        width = 0.84 / max(1, len(chart.series))
        for row, panel in enumerate(chart.panels):
            ax = axes[row][0]
            for i, group in enumerate(panel.groups):
                for j, (series, cell) in enumerate(zip(chart.series, group.cells,
                                                       strict=False)):
                    x = i - 0.42 + width * (j + 0.5)
                    if cell.rate is None:
                        ax.text(x, 1.5, "n/a", rotation=90, ha="center", va="bottom",
                                fontsize=7, color="#444")
                        continue
                    if cell.rate == 0.0:
                        ax.text(x, 1.5, "0", ha="center", va="bottom", fontsize=7,
                                color="#222", zorder=5, bbox={"facecolor": "white",
                                                              "edgecolor": "none", "pad": 0.5})
                    ax.bar(x, cell.rate, width * 0.92, color=series.color, edgecolor=EDGE,
                           linewidth=0.4)
                    if cell.low is not None and cell.high is not None:
                        ax.errorbar(x, cell.rate, yerr=[[cell.rate - cell.low],
                                                        [cell.high - cell.rate]],
                                    fmt="none", ecolor=WHISKER, elinewidth=0.8, capsize=2.0)
            ax.set_xticks(range(len(panel.groups)),
                          ["\n".join([*g.label, *([g.note] if g.note else [])])
                           for g in panel.groups], fontsize=7.5)
            ax.set_xlim(-0.6, len(panel.groups) - 0.4)
            ax.set_ylim(0, 104)
            ax.set_ylabel("\n".join(panel.axis))
            ax.grid(axis="y", alpha=0.3)
            ax.set_axisbelow(True)
        axes[0][0].set_title(f"{chart.title}\n{chart.subtitle}")
        fig.legend(handles=[Patch(facecolor=s.color, edgecolor=EDGE, label=s.label)
                            for s in chart.series],
                   loc="outside lower center", ncol=max(1, len(chart.series)))
        stem.parent.mkdir(parents=True, exist_ok=True)
        png = stem.parent / f"{stem.name}.png"
        fig.savefig(png, dpi=150, metadata={"Software": None})
        return png
