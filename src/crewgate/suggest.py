"""Bounded suggestions for refusals: the near names to a wrong one, found through an index, and a
listing of the known names that stays short however many there are.

A refusal names the fact it is about and what would be right; with a crew of ten thousand skills
"its skills: ..." would be tens of kilobytes per refused step (and a hallucinated plan of two
hundred steps megabytes of replan feedback). So a listing shows every name while there are few
(:data:`SHOWN`), else the nearest ones and how many more there are; and the nearest are found
among the names that share character trigrams with the wrong one, not by comparing it with
every name.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

SHOWN = 12  # a listing of at most this many names shows them all
NEAREST = 5  # otherwise, this many of the nearest
SMALL = 200  # up to this many names, compare with each; beyond, through the trigram index
CANDIDATES = 100  # names compared in full, of those that share the most trigrams


class Names:
    """Known names, indexed once for near matches."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names: tuple[str, ...] = tuple(names)
        self._grams: dict[str, list[int]] | None = None

    def near(self, name: str, n: int = 3) -> list[str]:
        """Up to ``n`` known names close to ``name``, closest first."""
        if len(self.names) <= SMALL:
            return difflib.get_close_matches(name, self.names, n=n, cutoff=0.6)
        if self._grams is None:
            grams: dict[str, list[int]] = {}
            for i, known in enumerate(self.names):
                for gram in _trigrams(known):
                    grams.setdefault(gram, []).append(i)
            self._grams = grams
        shared: Counter[int] = Counter()
        for gram in _trigrams(name[:200]):
            shared.update(self._grams.get(gram, ()))
        pool = [self.names[i] for i, _ in shared.most_common(CANDIDATES)]
        return difflib.get_close_matches(name, pool, n=n, cutoff=0.6)

    def listing(self, name: str = "") -> str:
        """Every name while there are few; else the nearest to ``name`` (or the first) and how
        many more there are."""
        if len(self.names) <= SHOWN:
            return ", ".join(self.names)
        shown = self.near(name, NEAREST) if name else []
        shown = shown or list(self.names[:NEAREST])
        return f"{', '.join(shown)} and {len(self.names) - len(shown):,} more"

    def did_you_mean(self, name: str) -> str:
        """" (did you mean 'x'?)" or an empty string."""
        close = self.near(name, 1)
        return f" (did you mean {close[0]!r}?)" if close else ""


def _trigrams(text: str) -> set[str]:
    padded = f"  {text.lower()} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


@lru_cache(maxsize=256)
def names_of(names: Sequence[str]) -> Names:
    """The index of a tuple of names, built once for each (the crew's skills of a robot, its
    locations)."""
    return Names(names)


__all__ = ["NEAREST", "SHOWN", "Names", "names_of"]
