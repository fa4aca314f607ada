"""Names and aliases of a crew's locations and objects, normalized for lookup and containment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from crewgate.spec import CrewObject, Location
from crewgate.text.request import RequestFacts, words


def phrase_key(text: str) -> str:
    """The lookup key of a name or phrase: its words, lower-case, single-spaced."""
    return " ".join(words(text))


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Canonical names of one kind (locations or objects) and every phrase that denotes them."""

    kind: str
    lookup: Mapping[str, str]  # phrase key -> canonical name
    phrases: Mapping[str, tuple[str, ...]]  # canonical name -> its phrase keys

    @classmethod
    def build(cls, kind: str, entries: Mapping[str, Location | CrewObject]) -> Vocabulary:
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
        """Whether the request states this name or one of its aliases, as whole words."""
        return any(facts.states_words(p) for p in self.phrases.get(name, ()))

    def named_in(self, facts: RequestFacts) -> list[str]:
        """Every canonical name the request states."""
        return [n for n in self.phrases if self.stated_in(facts, n)]
