"""The offline default planner: no network, no GPU, deterministic.

It selects the workflow contract whose example requests are most similar to the request (MiniLM
sentence embeddings, or a lexical fallback without the model package), then fills the
contract's step template from the request (see :mod:`crewgate.planners.exemplar.slots`). A
request that is not similar enough to any contract's examples gets no plan, with the reason: it
is not forced into the nearest workflow.

The planner reads the crew spec directly, whatever context a condition renders: it is a
deterministic baseline, not a language model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal, Self

from pydantic import Field

from crewgate.codes import Code, Problem
from crewgate.plan import Plan, Step
from crewgate.planners.base import Planner, PlanningRequest, Proposal
from crewgate.planners.exemplar.cues import (
    Cues,
    mentioned,
    missing_robots,
    names_workflow,
    unasked_robots,
)
from crewgate.planners.exemplar.embedding import (
    Encoder,
    LexicalEncoder,
    default_encoder,
    encoder_named,
)
from crewgate.planners.exemplar.phrases import delexicalize, sentences
from crewgate.planners.exemplar.slots import (
    action_words,
    fill_bounded,
    fill_plan,
    fill_stated,
    filled_and_lacking,
    provided,
    template,
)
from crewgate.planners.exemplar.store import (
    Embedder,
    EmbeddingStore,
    default_store,
    embed_examples,
)
from crewgate.planners.options import PlannerOptions
from crewgate.spec import Crew, split_ref
from crewgate.spec.params import FillRequest
from crewgate.text.request import RequestFacts
from crewgate.text.vocabulary import Vocabulary

# Below these similarities no contract is close enough (calibrated on the packaged crews:
# nominal requests score >= 0.45 with MiniLM, unrelated ones <= 0.25; see tests/planners).
THRESHOLDS = {"minilm": 0.30, "lexical": 0.12}


# How the values a request states weigh on the choice of workflow (added to the similarity).
SLOT_USED = 0.10  # a stated crew value (point, zone, known place or object) the template takes
SLOT_UNUSED = 0.15  # a stated value the template would ignore
SLOT_LACKING = 0.15  # a required value the request does not state
UNASKED_ROBOT = 0.10  # a robot the plan would move though the request names neither it nor its acts
MISSING_ROBOT = 0.10  # a robot the request names that the plan would leave idle
NEGATED_ROBOT = 0.25  # a robot the plan would move though the request says to leave it out
NAMED_WORKFLOW = 0.10  # the request uses the workflow's name ("abort", "search ... only")
ASKED_STEPS = 0.10  # the request names the action of at least one of the template's steps
# A candidate the request holds something against gives way to the next only if that one scores
# within this much of the best: a far worse workflow is a stretch, not a fit.
RUNNER_UP = 0.15
# What the request holds against every plan alike: no other workflow would do better.
NO_PLAN_FITS = frozenset({Code.OUT_OF_RANGE, Code.UNCLEAR_NEGATION, Code.UNCLEAR_PLACE})


@dataclass(frozen=True, slots=True)
class Match:
    workflow: str
    score: float
    example: str


@dataclass(frozen=True, slots=True)
class Candidate:
    match: Match
    fit: float
    plan: Plan

    @property
    def score(self) -> float:
        return self.match.score + self.fit


class ExemplarOptions(PlannerOptions):
    encoder: Literal["auto", "minilm", "lexical"] = Field(
        "auto", description="Sentence similarity: minilm (MiniLM embeddings, the embeddings "
        "extra), lexical (TF-IDF of stems and trigrams), or auto (minilm when installed).")
    threshold: float | None = Field(
        None, ge=0, description="The score below which no workflow fits the request (default: "
        "0.30 with minilm, 0.12 with lexical).")


class ExemplarPlanner(Planner):
    """Offline and deterministic, the default: the workflow contract whose example requests are
    closest to the request, its steps filled with the values the request states."""

    name = "exemplar"
    Options = ExemplarOptions
    replans = False  # its answer depends on the request alone

    def __init__(self, crew: Crew, encoder: Encoder | None = None,
                 threshold: float | None = None, *,
                 store: EmbeddingStore | Literal[False] | None = None) -> None:
        """``store``: where the examples' embeddings are kept between runs (None: the default
        directory, :func:`~crewgate.planners.exemplar.store.cache_dir`; False: nowhere)."""
        self.crew = crew
        self.encoder = encoder or default_encoder()
        self.threshold = threshold if threshold is not None else THRESHOLDS.get(
            self.encoder.name, 0.3)
        self.places: Vocabulary = crew.context.locations
        self.things: Vocabulary = crew.context.objects
        self.actions = action_words(crew)
        self.examples = [(name, ex, self._mask(ex)) for name, wf in crew.workflows.items()
                         for ex in (wf.examples or [wf.description])]
        masked = [m for _, _, m in self.examples]
        # embed them once, kept on disk between runs where the encoder's embeddings can be
        kept = default_store() if store is None else store or None
        self.examples_kept = kept is not None and isinstance(self.encoder, Embedder) and (
            embed_examples(self.encoder, crew.name, masked, kept))
        self.encoder.similarity("warm-up", masked)  # the rest, and one pass to warm it up

    def _mask(self, text: str) -> str:  # see phrases.delexicalize
        return delexicalize(text, self.places, self.things)

    @classmethod
    def from_options(cls, crew: Crew, options: ExemplarOptions) -> Self:
        return cls(crew, encoder_named(options.encoder), options.threshold)

    def rank(self, request: str) -> list[Match]:
        """Workflows by their best example's similarity to the request (or to one of its
        sentences, so that a preamble does not drown the instruction), best first."""
        examples = [m for _, _, m in self.examples]
        scores = self.encoder.similarity(self._mask(request), examples)
        for part in sentences(request):
            scores = [max(a, b) for a, b in zip(
                scores, self.encoder.similarity(self._mask(part), examples), strict=True)]
        best: dict[str, Match] = {}
        for (name, example, _), score in zip(self.examples, scores, strict=True):
            if name not in best or score > best[name].score:
                best[name] = Match(name, score, example)
        return sorted(best.values(), key=lambda m: -m.score)

    def candidates(self, request: str) -> list[Candidate]:
        """Every workflow's filled template, scored: similarity to its nearest example, plus how
        well the values the request states fit the slots the template takes."""
        cues = Cues.read(self.crew, request)
        brief = self.crew.intent.brief(request)
        # what the parts that ask state, with what a zone left out leaves of a zone stated
        facts = brief.asked_facts or RequestFacts.read(request)
        fill = FillRequest(facts, self.crew.context, self.actions, frozenset(
            r for m in brief.negated for r in m.referents), tuple(brief.alternatives))
        known, unknown = provided(self.crew, fill)
        sequence = [(a, b) for first, then, _ in brief.sequence
                    for a in first.referents for b in then.referents]
        out = []
        for match in self.rank(request):
            wf = self.crew.workflows[match.workflow]
            refs = template(self.crew, wf, cues, sequence)
            args = fill_plan(self.crew, wf, refs, fill)
            fill_stated(self.crew, refs, args, brief)
            fill_bounded(self.crew, refs, args, brief)
            filled, lacking = filled_and_lacking(self.crew, wf, refs, args, cues)
            moving = {split_ref(ref)[0] for ref in refs}
            fit = (SLOT_USED * len(known & filled)
                   - SLOT_UNUSED * len((known | unknown) - filled)
                   - SLOT_LACKING * len(lacking)
                   - UNASKED_ROBOT * len(unasked_robots(self.crew, refs, cues))
                   - MISSING_ROBOT * len(missing_robots(refs, cues))
                   - NEGATED_ROBOT * len(cues.excluded & moving)
                   + NAMED_WORKFLOW * names_workflow(match.workflow, cues)
                   + ASKED_STEPS * any(mentioned(self.crew, r, cues) for r in refs))
            plan = Plan(match.workflow, tuple(
                Step(*split_ref(ref), args=a) for ref, a in zip(refs, args, strict=True)))
            out.append(Candidate(match, fit, plan))
        return sorted(out, key=lambda c: -c.score)

    def _propose(self, request: PlanningRequest) -> Proposal:
        """The best-scoring candidate that the request holds nothing against (the crew's
        intent rule, as the gate applies it); no plan, with the reason, when none fits or the
        request takes back what it asked."""
        candidates = self.candidates(request.request)
        best = candidates[0]
        if best.score < self.threshold:
            return _no_plan(f"no workflow of crew {self.crew.name!r} fits the request: the "
                            f"closest is {best.match.workflow!r} (score {best.score:.2f} < "
                            f"{self.threshold:.2f}, {self.encoder.name} encoder)")
        brief = self.crew.intent.brief(request.request)
        if brief.retracted is not None:
            return _no_plan(f"the request takes back what it asked ({brief.retracted!r}): "
                            "nothing to plan")
        if brief.idle is not None:
            return _no_plan(f"{brief.idle.says()}: nothing to plan ({brief.idle.fix()})")
        refusals: list[tuple[Candidate, list[Problem]]] = []
        for candidate in candidates:
            if candidate.score < max(self.threshold, best.score - RUNNER_UP):
                break
            problems = self.crew.intent.review(
                candidate.plan.workflow, [(s.robot, s.skill, s.args) for s in
                                          candidate.plan.steps], request.request)
            beyond = [p for p in problems if p.code in NO_PLAN_FITS]
            if beyond:  # the request asks what no plan may do (an altitude of 25 m)
                return _no_plan("the request cannot be planned as asked: "
                                + "; ".join(p.detail for p in beyond[:3]))
            if not problems:
                raw = json.dumps({**candidate.plan.to_json(), "score": round(candidate.score, 3),
                                  "similarity": round(candidate.match.score, 3),
                                  "nearest_example": candidate.match.example})
                return Proposal(raw, candidate.plan)
            refusals.append((candidate, problems))
        closest, problems = refusals[0]
        return _no_plan(f"no workflow of crew {self.crew.name!r} does what the request asks: "
                        f"the closest, {closest.match.workflow!r}, would not "
                        f"({'; '.join(p.detail for p in problems[:3])})")


def _no_plan(note: str) -> Proposal:
    return Proposal(json.dumps({"workflow": None, "steps": [], "note": note}), Plan(None, ()),
                    note=note)


__all__ = ["ExemplarOptions", "ExemplarPlanner", "LexicalEncoder", "Match"]
