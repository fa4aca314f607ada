"""Retrieval: what of a large crew the planner is shown for one request.

The study's mechanism ("retrieval injects typed skills, locations, and workflow contracts into
the planning context") made explicit. A crew whose whole context fits its ``context_budget``
(tokens, estimated at 4 characters each) is shown whole, as before. A larger crew is shown a
*focus*: the workflows that best match the request, with the robots and skills their steps use,
the locations and objects the request names (then others, while the budget lasts), and the
bindings and fallback steps of those robots. The focus is a crew of its own, rendered by the
same rule objects as the whole crew; the gate still checks every plan against the whole crew,
so a plan outside the focus is refused, never let through.

Workflows are ranked lexically (BM25 over the words of each workflow's name, description,
examples, robots and skills; names are split at underscores, numbers kept), with a boost for a
workflow whose robots the request names; where a sentence encoder is given (the exemplar's
MiniLM, when installed), by the BM25 score relative to the best one plus the cosine similarity
of the request to the workflow's description and examples, so that a request in other words
than the crew's still finds its workflow. Ranking is linear in the crew's size; the index is
built once per crew (the encoder keeps the workflows' embeddings). What the planner was shown,
and how it was ranked, is journaled with each plan (:meth:`Focus.to_json`).
"""

from __future__ import annotations

import math
import re
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from crewgate.conditions import Knowledge
from crewgate.spec import Crew

CHARS_PER_TOKEN = 4  # the usual estimate for English text and JSON with BPE tokenizers
MAX_WORKFLOWS = 8  # a focus shows at most this many workflows, however large the budget
ROBOT_BOOST = 3.0  # per robot of a workflow the request names (before shared words alone)
_WORD = re.compile(r"[a-z]+|[0-9]+")
_NAMES = re.compile(r"[a-z0-9_]+")
_K1, _B = 1.2, 0.75
NAMED_BOOST = 1.0  # with an encoder: per robot of a workflow the request names

# cosine similarity of a text to each of several (a sentence encoder's)
Similarity = Callable[[str, Sequence[str]], list[float]]


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@dataclass(frozen=True, slots=True)
class Focus:
    """What the planner is shown of a crew for one request."""

    crew: Crew  # the whole crew, or the focus as a crew of its own
    whole: bool
    workflows: tuple[str, ...]
    robots: tuple[str, ...]
    skills: int  # how many robot skills the focus shows
    locations: tuple[str, ...]
    objects: tuple[str, ...]
    budget_tokens: int
    ranking: str = "bm25"  # "bm25", or "bm25+embeddings" with an encoder

    def to_json(self) -> dict[str, Any]:
        if self.whole:
            return {"whole": True, "budget_tokens": self.budget_tokens}
        return {"whole": False, "budget_tokens": self.budget_tokens, "ranking": self.ranking,
                "workflows": list(self.workflows), "robots": list(self.robots),
                "skills": self.skills, "locations": list(self.locations),
                "objects": list(self.objects)}


class _Index:
    """A crew's workflows as BM25 documents, and its sizes, computed once."""

    def __init__(self, crew: Crew) -> None:
        self.crew = crew
        self.docs: dict[str, Counter[str]] = {}
        self.robots: dict[str, frozenset[str]] = {}
        self.prose: dict[str, str] = {}  # what an encoder compares the request with
        for name, wf in crew.workflows.items():
            refs = [str(s) for s in wf.steps]
            robots = frozenset(r.split(".")[0] for r in refs)
            text = " ".join([name, wf.description, *wf.examples, *refs])
            self.docs[name] = Counter(words(text.replace("_", " ").replace(".", " ")))
            self.robots[name] = robots
            self.prose[name] = " ".join([wf.description, *wf.examples]).strip() or name
        n = max(len(self.docs), 1)
        df: Counter[str] = Counter()
        for doc in self.docs.values():
            df.update(doc.keys())
        self.idf = {w: math.log(1 + (n - d + 0.5) / (d + 0.5)) for w, d in df.items()}
        self.avg = sum(sum(d.values()) for d in self.docs.values()) / n
        self.robot_words = {r: {r.lower(), *(a.lower() for a in robot.aliases),
                                robot.kind.lower()}
                            for r, robot in crew.robots.items()}
        # a crew far over any budget is not rendered whole just to measure it
        visible = sum(1 for r in crew.robots.values() for sk in r.skills.values() if sk.visible)
        self.least_chars = 60 * visible + 20 * (len(crew.locations) + len(crew.objects))
        self._whole: int | None = None

    def whole_chars(self, limit: int) -> int:
        """The whole crew's context and schema in characters (a lower bound once that is
        over ``limit``)."""
        if self.least_chars > limit:
            return self.least_chars
        if self._whole is None:
            self._whole = _whole_chars(self.crew)
        return self._whole

    def rank(self, request: str, similarity: Similarity | None = None
             ) -> list[tuple[float, str]]:
        asked = Counter(words(request.replace("_", " ")))
        said = set(_NAMES.findall(request.lower()))  # names whole: r12, iris, bay_3
        named = {r for r, ws in self.robot_words.items() if ws & said}
        if similarity is not None:
            return self._blend(request, named, self.lexical(asked, set()), similarity)
        return self.lexical(asked, named)

    def _blend(self, request: str, named: set[str], lexical: list[tuple[float, str]],
               similarity: Similarity) -> list[tuple[float, str]]:
        names = list(self.docs)
        cosine = dict(zip(names, similarity(request, [self.prose[n] for n in names]),
                          strict=True))
        best = max((score for score, _ in lexical), default=0.0) or 1.0
        scored = [(score / best + max(cosine[name], 0.0)
                   + NAMED_BOOST * len(named & self.robots[name]), name)
                  for score, name in lexical]
        scored.sort(key=lambda s: (-s[0], s[1]))
        return scored

    def lexical(self, asked: Counter[str], named: set[str]) -> list[tuple[float, str]]:
        scored = []
        for name, doc in self.docs.items():
            length = sum(doc.values())
            score = 0.0
            for w in asked:
                tf = doc.get(w)
                if tf:
                    score += self.idf[w] * tf * (_K1 + 1) / (
                        tf + _K1 * (1 - _B + _B * length / self.avg))
            if named & self.robots[name]:
                score += ROBOT_BOOST * len(named & self.robots[name])
            scored.append((score, name))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return scored


_INDEXES: OrderedDict[int, _Index] = OrderedDict()
_MAX_INDEXES = 16


def _index(crew: Crew) -> _Index:
    found = _INDEXES.get(id(crew))
    if found is None or found.crew is not crew:
        found = _INDEXES[id(crew)] = _Index(crew)
        while len(_INDEXES) > _MAX_INDEXES:
            _INDEXES.popitem(last=False)
    return found


def _whole_chars(crew: Crew) -> int:
    import json

    from crewgate.render.context import render_context
    from crewgate.render.plan_schema import plan_json_schema

    return (len(render_context(crew, Knowledge.CONTRACTS))
            + len(json.dumps(plan_json_schema(crew, Knowledge.CONTRACTS))))


def focus(crew: Crew, request: str,
          similarity: Callable[[], Similarity | None] | None = None) -> Focus:
    """What to show the planner of ``crew`` for ``request`` (the whole crew if it fits).
    ``similarity`` gives a sentence encoder's similarity, asked for only when the crew does
    not fit (loading one costs a moment)."""
    budget = crew.context_budget
    limit = budget * CHARS_PER_TOKEN
    index = _index(crew)
    if index.whole_chars(limit) <= limit:
        return Focus(crew, True, tuple(crew.workflows), tuple(crew.robots),
                     sum(len(r.skills) for r in crew.robots.values()), tuple(crew.locations),
                     tuple(crew.objects), budget)
    chosen: list[str] = []
    sub: Crew | None = None
    encoder = similarity() if similarity is not None else None
    for score, name in index.rank(request, encoder):
        if len(chosen) >= MAX_WORKFLOWS or (chosen and score <= 0):
            break
        trial = _sub(crew, [*chosen, name], request, with_others=False)
        if chosen and _whole_chars(trial) > limit:
            break
        chosen.append(name)
        sub = trial
    assert sub is not None  # a crew has at least one workflow
    full = _sub(crew, chosen, request, with_others=True, limit=limit)
    if _whole_chars(full) <= limit:
        sub = full
    return Focus(sub, False, tuple(sub.workflows), tuple(sub.robots),
                 sum(len(r.skills) for r in sub.robots.values()), tuple(sub.locations),
                 tuple(sub.objects), budget,
                 "bm25" if encoder is None else "bm25+embeddings")


def _sub(crew: Crew, workflows: list[str], request: str, *, with_others: bool,
         limit: int = 0) -> Crew:
    """The focus as a crew: the chosen workflows, the robots and skills they use (with their
    fallback steps and bindings), the places and objects the request names (and others up to
    ``limit`` characters, with ``with_others``)."""
    steps: dict[str, set[str]] = {}
    for name in workflows:
        for ref in crew.workflows[name].steps:
            robot, skill = str(ref).split(".", 1)
            steps.setdefault(robot, set()).add(skill)
    for fb in crew.fallback:
        robot, skill = fb.step.split(".", 1)
        if robot in steps:
            steps[robot].add(skill)
    robots = {r: crew.robots[r].model_copy(update={"skills": {
        s: sk for s, sk in crew.robots[r].skills.items() if s in wanted}})
        for r, wanted in steps.items()}
    said = set(words(request))
    places = _named(crew.locations, said, lambda loc: loc.aliases)
    things = _named(crew.objects, said, lambda obj: obj.aliases)
    bindings = {n: b for n, b in crew.bindings.items()
                if any(n in sk.produces or any(p.accepts_binding(n) for p in sk.params.values())
                       for r in robots.values() for sk in r.skills.values())}
    fallback = [fb for fb in crew.fallback if fb.step.split(".", 1)[0] in robots]
    update: dict[str, Any] = {"robots": robots, "bindings": bindings, "fallback": fallback,
                              "workflows": {n: crew.workflows[n] for n in workflows},
                              "locations": {n: crew.locations[n] for n in places},
                              "objects": {n: crew.objects[n] for n in things}}
    sub = _copy(crew, update)
    if not with_others:
        return sub
    # the other places and objects, while the budget lasts (a plan may need one the request
    # only describes)
    for field, table in (("locations", crew.locations), ("objects", crew.objects)):
        shown = dict(update[field])
        for name in table:
            if name in shown:
                continue
            shown[name] = table[name]
            if len(shown) % 25 == 0 and _whole_chars(_copy(crew, {**update, field: shown})) > limit:
                for extra in list(shown)[-25:]:
                    if extra not in update[field]:
                        del shown[extra]
                break
        update[field] = shown
    return _copy(crew, update)


def _copy(crew: Crew, update: dict[str, Any]) -> Crew:
    sub = crew.model_copy(update=update)
    for cached in ("intent", "context"):  # the whole crew's, if computed: not the focus's
        sub.__dict__.pop(cached, None)
    return sub


def _named(table: dict[str, Any], said: set[str], aliases: Any) -> list[str]:
    out = []
    for name, item in table.items():
        if set(words(name.replace("_", " "))) <= said or name.lower() in said or any(
                set(words(a)) <= said for a in aliases(item) if words(a)):
            out.append(name)
    return out


__all__ = ["CHARS_PER_TOKEN", "Focus", "Similarity", "focus"]
