"""Names and aliases of a crew's locations and objects, normalized for lookup and containment.

A request *states* a name when one of its phrases occurs as a whole noun phrase, not merely as
words inside a longer one: "the charger" states ``charging`` (an alias); "the charging bay",
"a pickup truck" or "the home office" state nothing (the phrase goes on into a head noun); "the
green cube" does not state ``red_cube`` through its alias "cube" (another colour); and of two
overlapping mentions the longer wins ("red block" is the red cube, not the block).

Names and requests are compared as folded words in any script (:mod:`crewgate.text.words`), so
"Café", "café" and "CAFÉ" are one name and an alias "会议室" is stated only by a request that says
it. Finding the mentions takes time linear in the request: the phrases are indexed by their
first word, and a mention is compared only with the mentions that could contain it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Protocol

from crewgate.text.request import RequestFacts
from crewgate.text.words import fold, words

# Words after which a noun phrase is over (used by the planners to cut a phrase they quote).
BOUNDARY = frozenset("""
a an the to from at on in into onto over under for with without and or but then please now
right immediately quickly so again once by near next beside behind of as if is are was be where
when while which that this these those it its me us you him her them i im my your our their
before after until too also there here up down away back straight directly asap thanks thank
home inside outside across along around through toward towards
""".split())
# Head nouns that make a name part of a longer name of another place or thing: "the charging
# bay", "a pickup truck", "the home office" are not charging, pickup or home.
HEAD_NOUNS = frozenset("""
area bay zone station dock pad spot point corner room office hall lab annex wing building site
garage lot yard roof deck floor level door gate wall window desk bench shelf rack table counter
truck van car cart bin box crate tray cup ball bottle cube block can bag kit tool
""".split())
COLOURS = frozenset("""
red green blue yellow black white orange purple pink brown grey gray silver gold golden
""".split())


class Named(Protocol):
    """Anything with aliases: a crew location or object."""

    @property
    def aliases(self) -> Sequence[str]: ...


def phrase_key(text: str) -> str:
    """The lookup key of a name or phrase: its folded words, single-spaced ("Room_B" -> "room
    b"). Never empty for a name that is not blank: a name without letters or digits ("!!!",
    "🚀") is its folded text, which no request's words can state."""
    return " ".join(words(text)) or " ".join(fold(text).split()) or " ".join(text.split())


class Vocabulary:
    """Canonical names of one kind (locations or objects) and every phrase that denotes them."""

    def __init__(self, kind: str, lookup: Mapping[str, str],
                 phrases: Mapping[str, tuple[str, ...]]) -> None:
        self.kind = kind
        self.lookup = lookup  # phrase key -> canonical name
        self.phrases = phrases  # canonical name -> its phrase keys
        self._by_first: dict[str, list[tuple[tuple[str, ...], str]]] = defaultdict(list)
        for name, keys in phrases.items():
            for key in keys:
                seq = tuple(words(key))
                if seq:  # a name without words is never stated
                    self._by_first[seq[0]].append((seq, name))
        self._longest = max((len(seq) for seqs in self._by_first.values() for seq, _ in seqs),
                            default=0)
        self._cache: dict[str, frozenset[str]] = {}

    @classmethod
    def build(cls, kind: str, entries: Mapping[str, Named]) -> Vocabulary:
        lookup: dict[str, str] = {}
        phrases: dict[str, tuple[str, ...]] = {}
        for name, entry in entries.items():
            keys = tuple(dict.fromkeys(phrase_key(p) for p in (name, *entry.aliases)))
            phrases[name] = keys
            for key in keys:
                lookup[key] = name
        return cls(kind, lookup, phrases)

    def resolve(self, text: str) -> str | None:
        """The canonical name a plan value denotes ("Charging Dock" -> charging), or None."""
        return self.lookup.get(phrase_key(text))

    def stated_in(self, facts: RequestFacts, name: str) -> bool:
        """Whether the request states this name or one of its aliases as a noun phrase."""
        return name in self.mentioned(facts)

    def named_in(self, facts: RequestFacts) -> list[str]:
        """Every canonical name the request states, in declaration order."""
        found = self.mentioned(facts)
        return [n for n in self.phrases if n in found]

    def mentioned(self, facts: RequestFacts) -> frozenset[str]:
        toks = facts.tokens
        cached = self._cache.get(facts.text)
        if cached is None:
            cached = self._cache[facts.text] = self._mentions(toks, facts.breaks)
            if len(self._cache) > 256:
                self._cache.pop(next(iter(self._cache)))
        return cached

    def _mentions(self, toks: tuple[str, ...], breaks: frozenset[int]) -> frozenset[str]:
        by_first, size = self._by_first, len(toks)
        spans = [(i, i + len(seq), name) for i, tok in enumerate(toks) if tok in by_first
                 for seq, name in by_first[tok] if toks[i:i + len(seq)] == seq]
        ends: dict[int, list[int]] = defaultdict(list)  # mention start -> its ends
        for start, end, _ in spans:
            ends[start].append(end)
        kept = set()
        for start, end, name in spans:
            # a longer mention containing this one starts at most self._longest words before
            if any(e >= end and (e - s) > (end - start)
                   for s in range(max(0, end - self._longest), start + 1) for e in ends.get(s, ())):
                continue  # inside a longer mention ("pickup" in "pickup point")
            if (end < size and toks[end] in HEAD_NOUNS and end not in ends
                    and end - 1 not in breaks):
                continue  # the noun phrase goes on: "charging bay", "pickup truck"
            if start > 0 and toks[start - 1] in COLOURS:
                continue  # another colour: "green cube" is not the red cube
            kept.add(name)
        return frozenset(kept)
