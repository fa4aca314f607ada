"""One name, one thing: the crew's names and aliases compared as requests and plans are read.

Requests and plans name locations, objects, robots and skills by a name or an alias, read
through :func:`crewgate.text.phrase_key`, so "charging-dock", "Charging Dock" and
"charging_dock" are one key. Two entries with one key would let a plan or a request meaning one
denote the other: the gate resolves the key to one of them, and a request naming either would
*state* both. A name whose key has no words is found in every request. Both widen the gate, and
are refused.

Locations, objects and robots share one namespace (a request says "the dock" or "the dog"
without saying which kind of thing it means). Each robot's skills, with their aliases, form
another, which also stays clear of the first; skills of different robots may share a name or
an alias (``stop``), since a step always names its robot.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewgate.spec.base import SpecPath
from crewgate.text import phrase_key, words

if TYPE_CHECKING:
    from crewgate.spec.crew import Crew


@dataclass(frozen=True, slots=True)
class _Owner:
    kind: str  # "location", "object", "robot", "skill", "workflow"
    name: str  # "charging", "iris.takeoff"
    word: str  # the name or alias that claimed the key, as written
    path: SpecPath  # where it is written


def name_problems(crew: Crew) -> Iterator[tuple[SpecPath, str]]:
    """Names and aliases that denote two entries after normalization, or nothing at all."""
    nouns: dict[str, _Owner] = {}
    for section, kind, entries in (("locations", "location", crew.locations),
                                   ("objects", "object", crew.objects),
                                   ("robots", "robot", crew.robots)):
        for name, entry in entries.items():
            yield from _claim(nouns, kind, name, (section, name), entry.aliases)
    every_action = dict(nouns)
    for rname, robot in crew.robots.items():
        actions = dict(nouns)
        for sname, skill in robot.skills.items():
            yield from _claim(actions, "skill", f"{rname}.{sname}",
                              ("robots", rname, "skills", sname), skill.aliases, sname)
        every_action.update(actions)
    # a workflow's aliases ask for its steps: clear of every name, skill and other workflow
    for wname, workflow in crew.workflows.items():
        yield from _claim(every_action, "workflow", wname, ("workflows", wname),
                          workflow.aliases, named=False)


def _claim(keys: dict[str, _Owner], kind: str, name: str, path: SpecPath,
           aliases: Sequence[str], written: str | None = None, *, named: bool = True
           ) -> Iterator[tuple[SpecPath, str]]:
    """Claim the keys of an entry's name (as ``written``, if not ``name``; not when not
    ``named``) and aliases; the problems of those another entry has claimed."""
    clashed: set[str] = set()  # each clash of the entry said once ("wave" named and aliased)
    for i, word in enumerate([written or name, *aliases]):
        if i == 0 and not named:
            continue
        where: SpecPath = path if i == 0 else (*path, "aliases", i - 1)
        key = phrase_key(word)
        if not words(word):
            yield where, (f"{word!r} has no word a request could state; write a name or alias "
                          "with letters or digits")
            continue
        owner = keys.get(key)
        if owner is None:
            keys[key] = _Owner(kind, name, word, where)
        elif (owner.kind, owner.name) != (kind, name) and key not in clashed:
            clashed.add(key)
            other = f"{owner.kind} {owner.name!r} ({'.'.join(map(str, owner.path))})"
            clash = (f"{word!r} already names {other}" if word == owner.word else
                     f"{word!r} and {owner.word!r} of {other} both read as {key!r}")
            yield where, f"{clash}; one name must denote one thing: rename or remove one of them"
