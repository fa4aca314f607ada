"""The plumbing of the plots still drawn with matplotlib (the summary's bars, the planners side
by side): matplotlib is optional and imported only when such a figure is drawn, figures are built
with the object API (no pyplot state: nothing global is reused and nothing stays open), and the
output is deterministic (fixed SVG ids, no dates, text kept as text in the SVG)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from crewgate.errors import UserError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

HINT = 'pip install "crewgate[eval]"'


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


def save(fig: Figure, stem: Path) -> list[Path]:
    """STEM.png (150 dpi) and STEM.svg. The layout is computed once, for the PNG, and kept for
    the SVG (laying a figure out is a third of drawing it)."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    png = stem.parent / f"{stem.name}.png"
    fig.savefig(png, dpi=150, metadata={"Software": None})
    vector = stem.parent / f"{stem.name}.svg"
    fig.set_layout_engine("none")  # the positions found for the PNG stay as they are
    fig.savefig(vector, metadata={"Date": None, "Creator": None})
    return [png, vector]
