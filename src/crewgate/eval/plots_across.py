"""The cross-planner plot of an evaluation run with several planners: for each condition they
share, the missions whose first plan had a problem of each substitution class, one bar per
planner, with 95% Wilson whiskers (``OUT/plots/across.png`` and ``.svg``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crewgate.eval.plots_mpl import figure, save
from crewgate.eval.report import ordered
from crewgate.substitution import CLASSES

COLORS = ("#1f4e79", "#d1495b", "#2e8b57", "#f2a65a", "#8e6c8a", "#4f9d9a", "#c9a227")


def plot_across(results: dict[str, dict[str, Any]], out: Path) -> list[Path]:
    names = list(results)
    shared = [c for c in ordered(list(results[names[0]]["conditions"]))
              if all(c in results[n]["conditions"] for n in names)]
    if not shared:
        return []

    def subs(name: str, cond: str) -> dict[str, Any]:
        found: dict[str, Any] = results[name]["conditions"][cond].get(
            "substitutions", {}).get("missions", {})
        return found

    width = 0.84 / len(names)
    with figure(max(7.0, 1.1 * len(CLASSES) + 1.5), 2.6 * len(shared) + 1.2) as fig:
        from matplotlib.patches import Patch

        axes = fig.subplots(len(shared), 1, squeeze=False)
        for row, cond in enumerate(shared):
            ax = axes[row][0]
            for j, name in enumerate(names):
                cells = subs(name, cond)
                for i, kind in enumerate(CLASSES):
                    cell = cells.get(kind)
                    if not cell or cell.get("rate") is None:
                        continue
                    x = i - 0.42 + width * (j + 0.5)
                    rate = 100.0 * float(cell["rate"])
                    ax.bar(x, rate, width * 0.92, color=COLORS[j % len(COLORS)],
                           edgecolor="#333", linewidth=0.4)
                    if cell.get("ci"):
                        lo, hi = (100.0 * float(v) for v in cell["ci"])
                        ax.errorbar(x, rate, yerr=[[max(rate - lo, 0.0)], [max(hi - rate, 0.0)]],
                                    fmt="none", ecolor="#222", elinewidth=0.8, capsize=2.0)
            ax.set_xticks(range(len(CLASSES)), [k.replace(" ", "\n") for k in CLASSES],
                          fontsize=7.5)
            ax.set_ylim(0, 104)
            ax.set_ylabel(f"{cond}\nmissions (%)")
            ax.grid(axis="y", alpha=0.3)
            ax.set_axisbelow(True)
        first = results[names[0]]
        axes[0][0].set_title(f"{first.get('crew')}, suite {first.get('suite')}: missions whose "
                             "first plan had a problem of each substitution class\n(lower is "
                             "better; 95% Wilson intervals)")
        fig.legend(handles=[Patch(facecolor=COLORS[j % len(COLORS)], edgecolor="#333",
                                  label=name) for j, name in enumerate(names)],
                   loc="outside lower center", ncol=len(names))
        return save(fig, out / "plots" / "across")


__all__ = ["plot_across"]
