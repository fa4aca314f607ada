"""Sound statistics for proportions: 95% Wilson score intervals (statsmodels) and two-sided
Fisher exact tests (scipy). Both libraries come with ``pip install "crewgate[eval]"``."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from crewgate.errors import UserError

HINT = 'pip install "crewgate[eval]"'


def _need(module: str) -> Any:
    try:
        return __import__(module, fromlist=["_"])
    except ModuleNotFoundError as exc:
        raise UserError(f"the evaluation's statistics need {exc.name}: {HINT}") from exc


@dataclass(frozen=True, slots=True)
class Proportion:
    """k successes out of n, with its 95% Wilson interval; rate None when n == 0 (n/a)."""

    k: int
    n: int
    ci: tuple[float, float] | None

    @property
    def rate(self) -> float | None:
        return self.k / self.n if self.n else None


def proportion(k: int, n: int) -> Proportion:
    if n == 0:
        return Proportion(k, n, None)
    lo, hi = _need("statsmodels.stats.proportion").proportion_confint(k, n, alpha=0.05,
                                                                      method="wilson")
    return Proportion(k, n, (float(lo), float(hi)))


def fisher_p(a: Proportion, b: Proportion) -> float | None:
    """Two-sided Fisher exact test of a against b (None when either is empty)."""
    if a.n == 0 or b.n == 0:
        return None
    table = [[a.k, a.n - a.k], [b.k, b.n - b.k]]
    result = _need("scipy.stats").fisher_exact(table, alternative="two-sided")
    p = float(result[1] if isinstance(result, tuple) else result.pvalue)
    return min(1.0, p) if math.isfinite(p) else None


def mean_std(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(var)
