"""The request as a rule: a plan does what the request asks, with the robots it names, the values
it states, nothing dropped, nothing added, and nothing it rules out.

:class:`Intent` is derived from the crew spec (robot names, kinds and aliases; skill names and
aliases; places and objects; parameter units and ranges; which steps a workflow requires) and,
like every rule, renders itself for the planner (``describe``) and is checked by the gate: the
request is read once per mission into a :class:`Brief` (:meth:`Intent.read`), then the whole
plan is held to it (:meth:`Intent.check_plan`: what was dropped, taken back or unclear) and each
step, at plan time and again at its dispatch (:meth:`Intent.check`: who acts, what is ruled out,
what was not asked, which stated value it must carry).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from crewgate.codes import Code, Findings, Problem
from crewgate.spec.base import Rule
from crewgate.text.actors import ROBOT_FAMILIES, ROBOT_TYPES
from crewgate.text.inflect import gerund
from crewgate.text.intent import (
    ARTICLES,
    CLAUSE_JOINS,
    CUES,
    FAULTS,
    HAZARD_CUES,
    KEEPING_AWAY,
    LEAVES,
    MODAL_REACH,
    NEGATIONS,
    UNIVERSAL,
    WINDOW,
    Mention,
    PhraseTable,
    Quantity,
    Reading,
    Scope,
)
from crewgate.text.mood import PLAN_KIND, Idle
from crewgate.text.request import RequestFacts, Zone, strips
from crewgate.text.units import unit_key
from crewgate.text.words import clean, words
from crewgate.values import quick_init, tuple_of

if TYPE_CHECKING:
    from crewgate.spec.crew import Crew
    from crewgate.spec.robots import Skill
    from crewgate.spec.workflow import StepRule

# before a robot named at the end of a verb's clause: the robot it is done with
_INSTRUMENTAL = frozenset({"with", "using", "via"})
_BY_WAY_OF = ("by ", "from ", "via ", "through ")  # a robot's phrase said so: "by air"
ADDRESS_REACH = 12  # words from a verb to a robot named at the end of its clause, at most
_INSTEAD_REACH = 3  # words from a robot to an "instead" that ends its clause, at most
_SENTENCE_MARKS = frozenset(".!?;")
_ADDRESS_ENDS = frozenset(".!?;:,")  # what ends an address ("dog, not you: ...")
_NOT_YOU_ENDS = frozenset(".!?;:")  # ... what ends "dog, not you"
_ADDRESS_MARKS = frozenset("!.")  # after a robot alone before a verb: said to it
_GREETINGS = frozenset({"hey", "hi", "hello", "ok", "okay", "yo", "the", "you", "dear"})
AIR_WORDS = frozenset({"quadcopter", "drone", "uav", "aircraft", "multirotor", "helicopter",
                       "plane", "aerial", "air", "fixed", "flying", "quadrotor", "hexacopter"})
AIR = (("air", "asset"), ("air", "assets"), ("air", "unit"), ("air", "units"), ("aerial",),
       ("air", "robot"), ("air", "robots"), ("flying",), ("flying", "robot"), ("flying", "robots"),
       ("aircraft",), ("drones",), ("air", "support"), ("air", "team"), ("air", "vehicle"),
       ("air", "vehicles"),
       # where and how they fly ("the airspace is closed", "flights are grounded")
       ("airspace",), ("flights",), ("flight", "operations"), ("air", "operations"),
       ("air", "traffic"),
       # how it gets there ("fly to x 2, y 3", "go there by air", "get eyes on it from above",
       # "hover at x 2, y 3", "overfly x 2, y 3", "go there by drone", "via the air")
       ("fly",), ("by", "air"), ("from", "above"), ("from", "the", "air"), ("hover",),
       ("overfly",), ("by", "drone"), ("via", "air"), ("via", "the", "air"), ("by", "uav"),
       ("through", "the", "air"), ("airborne", "to"),
       # the robot said by its flying ("send the one that flies", "whichever robot can fly")
       *((*who, *that, *fly) for who in (("one",), ("robot",), ("whichever", "robot"),
                                         ("whichever", "one"))
         for that in ((), ("that",), ("which",))
         for fly in (("flies",), ("can", "fly")) if that or who[0] == "whichever"))
GROUND = (("ground", "asset"), ("ground", "assets"), ("ground", "unit"), ("ground", "units"),
          ("ground", "robot"), ("ground", "robots"), ("ground", "vehicle"),
          ("ground", "vehicles"), ("ground", "team"), ("ground", "support"),
          ("by", "ground"), ("by", "land"))  # ("search x 0 to 5, y 0 to 5 by ground only")
# words before a place that make it where someone is, not where to go
CONTEXT = (("from",), ("i", "m", "at"), ("i", "am", "at"), ("we", "re", "at"),
           ("we", "are", "at"), ("standing", "at"), ("sitting", "at"), ("waiting", "at"),
           ("near",), ("next", "to"), ("beside",), ("is", "at"), ("s", "at"), ("is", "on"),
           ("s", "on"), ("sits", "on"), ("lies", "on"), ("located", "at"), ("currently", "at"),
           ("still", "at"),
           # where a robot kept in place is ("the dog stays home", "remains at the charger")
           *((verb, *at) for verb in ("stay", "stays", "remain", "remains")
             for at in ((), ("at",), ("in",), ("on",))))
TOLERANCE = 1e-3
# the names a robot's state is kept by, beside the field's own ("stay airborne", "keep
# hovering", "remain in the air"): a boolean field of one of these names, kept true
KEPT_STATES: dict[str, tuple[str, ...]] = {
    "airborne": ("aloft", "hovering", "flying", "in the air", "in flight", "up in the air",
                 "up there", "overhead", "in the sky", "up in the sky", "up")}
# ... and kept false ("stay on the ground", "keep it grounded", "remain landed"): what would
# make the state true is ruled out (the takeoff)
KEPT_UNSTATES: dict[str, tuple[str, ...]] = {
    "airborne": ("on the ground", "grounded", "landed", "on the pad")}
NOT = "!"  # before a state's field in a state kept false ("iris.!airborne")
CEASE = frozenset({"stop", "stopping", "quit", "cease"})  # before a gerund: "stop searching"


def _faulted(said: str) -> bool:
    """Whether a saying that rules a robot out ends with a fault or a closure ("the drone is
    broken", "airspace closed"): its safe fallback, asked, may still run ("...; land it")."""
    said_words = tuple(words(said))
    return any(said_words[-len(state):] == state for state in FAULTS)


def _phrases(text: str) -> tuple[str, ...]:
    return tuple(words(text))


def _add(table: dict[tuple[str, ...], set[str]], phrase: str | tuple[str, ...],
         referent: str) -> None:
    key = phrase if isinstance(phrase, tuple) else _phrases(phrase)
    if key:
        table.setdefault(key, set()).add(referent)
        if len(key[-1]) > 2 and not key[-1].endswith("s"):  # "drones", "rovers"
            table.setdefault((*key[:-1], key[-1] + "s"), set()).add(referent)


def _freeze(table: dict[tuple[str, ...], set[str]]) -> PhraseTable:
    return {k: frozenset(v) for k, v in table.items()}


@dataclass(frozen=True, slots=True)
class Stated:
    """A quantity the request states, and the parameters it can be for ((robot.skill, param))."""

    quantity: Quantity
    params: tuple[tuple[str, str], ...]


@dataclass(slots=True)
class Brief:
    """A request as the gate holds a plan to it."""

    text: str
    named: dict[str, Mention] = field(default_factory=dict)  # robot -> its first mention
    excluded: dict[str, str] = field(default_factory=dict)  # robot -> why ("do not ...")
    # the stops said to all after the request ("... Stop!"): every robot ruled out by one may
    # still be brought to its safe fallback, where the request asks it
    halts: set[str] = field(default_factory=set)
    only: set[str] = field(default_factory=set)  # robots said to act alone ("drone only")
    actions: list[Mention] = field(default_factory=list)  # skills asked (refs)
    # actions asked of a robot none of whose skills they name ("use the rover to search"):
    # the action and that robot's mention; another robot's step of it takes its place
    misgiven: list[tuple[Mention, Mention]] = field(default_factory=list)
    # things named as alternatives ("the cube or the bottle"): either one is asked
    alternatives: list[frozenset[str]] = field(default_factory=list)
    # robots a thing is given to ("hand the bottle to the dog"), with the saying: a step
    # must give them something (its effects write their state), not hand it to a person
    recipients: list[tuple[frozenset[str], str]] = field(default_factory=list)
    only_actions: set[str] = field(default_factory=set)  # "just wave"
    negated: list[Mention] = field(default_factory=list)  # skills, places, objects ruled out
    places: list[Mention] = field(default_factory=list)  # destinations stated
    context: set[str] = field(default_factory=set)  # places stated as where someone is
    objects: list[Mention] = field(default_factory=list)
    stated: list[Stated] = field(default_factory=list)
    # states the request keeps ("stay airborne"): the robots, the field, the saying
    keeps: list[tuple[frozenset[str], str, str]] = field(default_factory=list)
    # quantities said as bounds ("below 4 metres"), with every parameter in their unit of the
    # robots they are said of: what no value of those may go beyond
    bounds: list[Stated] = field(default_factory=list)
    points: list[tuple[float, float]] = field(default_factory=list)  # stated, not negated
    zones: list[Zone] = field(default_factory=list)
    # points and zones a negation covers ("not x 2, y 3", "avoid (2, 3)"), with its saying
    negated_points: list[tuple[tuple[float, float], str]] = field(default_factory=list)
    negated_zones: list[tuple[Zone, str]] = field(default_factory=list)
    # ... and quantities ("take off, but not to 6 m", "any altitude except 6 m"): a parameter
    # given the value is ruled out
    negated_quantities: list[tuple[Stated, str]] = field(default_factory=list)
    # ... of them, the zones a negation keeps away from ("avoid x 0 to 2, y 0 to 2", "stay out
    # of ...", "x 0 to 2, y 0 to 2 is off limits"): a point in one, or a zone over one, is ruled
    # out
    avoided_zones: list[tuple[Zone, str]] = field(default_factory=list)
    # ... and the points ("search x 0 to 5, y 0 to 5 avoiding x 2, y 2"): a zone over one is
    # ruled out (the gate cannot tell that a search of it keeps away)
    avoided_points: list[tuple[tuple[float, float], str, frozenset[str]]] = field(
        default_factory=list)  # (with the robots its clause names: those it is said of)
    # ... and those left out ("search x 0 to 10, y 0 to 10 except x 0 to 2, y 0 to 2", "but not
    # x 0 to 2": a strip, the other axis whole; not one replaced, "instead of ...", nor one taken
    # back): a zone over one is ruled out
    left_out_zones: list[tuple[Zone, str]] = field(default_factory=list)
    # actions negated only with what their negation names ("do not go to the charger": going
    # there, not going): the action and the places' and objects' referents (the points and
    # zones it names are ruled out themselves: negated_points, negated_zones)
    negated_with: list[tuple[Mention, frozenset[str]]] = field(default_factory=list)
    # robots ruled out only with the things or values their negation names ("do not send the
    # dog to the charger"): robot -> (the things' referents, the values, the saying)
    excluded_with: dict[str, tuple[frozenset[str], tuple[tuple[float, ...], ...], str]] = field(
        default_factory=dict)
    retracted: str | None = None  # the cue, when the request takes back everything
    # actions the request asks to be done one after the other ("land the drone, then stop the
    # rover"): the one before, the one after, the saying
    sequence: list[tuple[Mention, Mention, str]] = field(default_factory=list)
    # what the parts that ask state, when a part asks nothing now (else: the request's facts)
    asked_facts: RequestFacts | None = None
    # the parts that ask nothing now, with the robots and actions (refs) each names
    unasked: list[tuple[Idle, frozenset[str]]] = field(default_factory=list)
    # the part that says so, when the request asks nothing now (a question, a supposition, what
    # happened, for later, a plan only: crewgate.text.mood)
    idle: Idle | None = None
    unclear: str | None = None  # a negation that covers nothing the gate knows
    unplaced: str | None = None  # a place the gate cannot tell ("the western half of ...")
    # speeds asked of an action that no skill of the crew takes ("drive ... at 5 m/s")
    unheld: list[Quantity] = field(default_factory=list)
    # actions asked of a thing that no skill of the crew does ("smash the bottle"): the saying
    undone: list[str] = field(default_factory=list)
    # a way back asked with no place to come back to ("drive ... to x 2, y 3 and back")
    returns: list[str] = field(default_factory=list)
    universal: bool = False
    clause_robots: dict[int, set[str]] = field(default_factory=dict)  # clause -> robots named
    free: set[str] = field(default_factory=set)  # robots named with no action of theirs beside
    # robots a skill of which takes something the request states (Intent._given)
    gives: frozenset[str] = frozenset()
    # the skills of the gerunds the request says, not ruled out ("after searching ..."): named
    # with no robot they are said of
    gerunds: frozenset[str] = frozenset()
    # each part stating points or zones: what it states, the robots it names (not ruled out),
    # the part; read only when a step needs it (IntentChecks._given_to)
    given_to: list[tuple[RequestFacts, frozenset[str], str]] | None = None

    def asks_robot(self, robot: str) -> bool:
        return self.universal or robot in self.named


class PlannedStep(NamedTuple):
    """A step of a plan as the request is held to it: its robot, ``robot.skill``, its typed
    arguments (None when they did not type), the parameters it gave, whether its workflow
    requires it, and whether the crew knows it (a robot with this skill for plans). A named
    tuple: one is built per step of every plan held to a request."""

    robot: str
    ref: str
    typed: Mapping[str, Any] | None
    given: frozenset[str]
    required: bool
    known: bool = True
    most: int | None = None  # how many times its workflow allows it (None: no bound)
    # its typed values that name something (places, objects, bindings), found once
    names: frozenset[str] = frozenset()


Typed = tuple[Mapping[str, Any] | None, frozenset[str]]  # typed arguments, parameters given
_NO_NAMES: frozenset[str] = frozenset()


@quick_init
@dataclass(frozen=True, slots=True)
class Held:
    """A plan held to its request: the request read (:class:`Brief`), the plan's steps as the
    request sees them, and which of them it asks for. Built once per plan."""

    brief: Brief
    steps: tuple[PlannedStep, ...]
    asked: tuple[bool, ...]


def within(value: float, bound: str, limit: float) -> bool:
    """Whether a value keeps to a bound ("<", "<=", ">", ">=") on ``limit`` (a value within
    the tolerance of it is it: "at most 4 m" takes 4.0005)."""
    if bound in ("<=", ">="):
        return value <= limit + TOLERANCE if bound == "<=" else value >= limit - TOLERANCE
    return value < limit - TOLERANCE if bound == "<" else value > limit + TOLERANCE


def _meets(span: tuple[float, float], bound: str, limit: float) -> bool:
    """Whether some value of the range keeps to the bound."""
    low, high = span
    return within(low, bound, limit) or within(high, bound, limit) or (
        low <= limit <= high and bound in ("<=", ">="))


def _part_at(parts: Sequence[Idle], starts: Sequence[int], word: int) -> int | None:
    """The index of the part that holds the word (``starts``: where each part begins, in
    order), or None."""
    k = bisect_right(starts, word) - 1
    return k if k >= 0 and word < parts[k].end else None


def _outside(parts: Sequence[Idle], start: int) -> Callable[[int], bool]:
    """Whether a word is asked: at ``start`` or after, in no part that asks nothing now."""
    starts = [p.start for p in parts]

    def asked(word: int) -> bool:
        return word >= start and _part_at(parts, starts, word) is None
    return asked


def _between(parts: Sequence[Idle], start: int, end: int) -> list[tuple[int, int]]:
    """The words from ``start`` to ``end`` outside the parts, as ranges."""
    out, at = [], start
    for p in parts:
        if p.start > at:
            out.append((at, p.start))
        at = max(at, p.end)
    if at < end:
        out.append((at, end))
    return out


# words that open a condition: a verb after a comma in its clause is what it asks, if ever
_IF = frozenset({"if", "unless", "when", "whether", "until", "once"})
# after a robot and a negation ("the dog must not leave the start position"): it stays
_LEAVING = frozenset({"leave", "leaves", "depart", "departs", "exit", "budge"})
# verbs that hand an action to the robot after them ("use the rover to search", "have the drone
# drive"), the action right after the robot (or its "to"); not one a particle follows ("make
# the drone go up": the drone's takeoff, said with the rover's verb)
_TELLING = frozenset({"use", "have", "tell", "ask", "order", "instruct", "get", "let"})
_PARTICLES = frozenset({"up", "down", "off", "out", "away", "back"})
_SUBJECT_MODALS = frozenset({"should", "must", "shall", "will", "can", "could", "needs", "need",
                             "has", "have", "to", "is", "going", "ought"})
_SUBJECT_MODALS_REACH = 3


def _told_to(words: Sequence[str], agent: Mention, action: Mention) -> bool:
    """Whether the request hands ``action`` to the robot of ``agent``: by a telling verb right
    before it ("use the rover to search", "have the drone drive to x 2, y 3"), or as its
    subject with modals between ("the rover should search x 0 to 5, y 0 to 5")."""
    before = words[agent.start - 1] if agent.start else ""
    if before in ARTICLES and agent.start > 1:
        before = words[agent.start - 2]
    gap = action.start - agent.end
    told = before in _TELLING and (gap == 0 or (gap == 1 and words[agent.end] == "to"))
    # ... or by the robot as the subject, modals between ("the rover should search ...")
    said = 0 < gap <= _SUBJECT_MODALS_REACH and _SUBJECT_MODALS.issuperset(
        words[agent.end:action.start]) and words[agent.end] != "to"
    return (told or said) and (
        action.end >= len(words) or words[action.end] not in _PARTICLES)


def _left(reading: Reading, m: Mention) -> str | None:
    """The saying, when the place is one left ("leave room_b", "rover, leave the charger")."""
    words = reading.words
    k = m.start - 1
    if k > 0 and words[k] in ARTICLES:
        k -= 1
    return reading.said(k, m.end) if k >= 0 and words[k] in LEAVES else None


def _replaced(reading: Reading, m: Mention) -> str | None:
    """The saying, when the robot is one replaced: "replace the rover with the drone", "swap
    the rover for the drone", "the drone goes ... in the rover's place"."""
    words = reading.words
    k = m.start - (m.start > 0 and words[m.start - 1] in ARTICLES)
    if k > 0 and words[k - 1] in _REPLACING:
        return reading.said(k - 1, m.end)
    if k > 0 and words[k - 1] == "in" and words[m.end:m.end + 2] == ("s", "place"):
        return reading.said(k - 1, m.end + 2)
    return None


def _not_you(reading: Reading, m: Mention, cue_ends: Mapping[int, int]) -> str | None:
    """The saying, when the robot is addressed as the "you" a negation rules out: "..., but
    not you, dog", "except you, dog", "dog, not you: ..." (not "not you, the dog": the dog
    said instead)."""
    words, seps = reading.words, reading.seps
    if m.start > 1 and words[m.start - 1] == "you" and "," in seps[m.start - 1]:
        cue = cue_ends.get(m.start - 1)
        if cue is not None and cue >= m.start - 4:
            return reading.said(cue, m.end)
    if m.end + 1 < len(words) and "," in seps[m.end - 1] and words[m.end:m.end + 2] == (
            "not", "you") and reading.clause_starts[m.clause] >= m.start - 1 and (
                m.end + 2 == len(words) or not _NOT_YOU_ENDS.isdisjoint(seps[m.end + 1])):
        return reading.said(m.start, m.end + 2)  # (addressed first: not "stop the rover, not
        # you, drone", nor "the dog, not you, humanoid, walks ...")
    return None


def _close(a: object, b: float) -> bool:
    return isinstance(a, int | float) and not isinstance(a, bool) and math.isfinite(a) and (
        abs(float(a) - b) <= TOLERANCE)


class IntentChecks:
    """The checks of :class:`Intent` (kept apart from its reading, for length)."""

    crew: Crew
    _takes: dict[str, frozenset[str]]  # slot -> robots with a skill taking a value of it

    _skills: dict[str, Skill]  # robot.skill -> the skill
    _gives_to: dict[str, frozenset[str]]  # robot.skill -> the other robots its effects write
    robots: PhraseTable  # the crew's robots by their names
    _verbs: frozenset[str]  # the words an action begins with
    _and_verb: re.Pattern[str]  # "and" before one of them: where a part of a clause begins
    _slotted: dict[tuple[str, str], tuple[str, ...]]  # (robot.skill, slot) -> its parameters
    _fallbacks: frozenset[str]  # the safe fallback's steps a plan may hold (robot.skill)

    def _skill(self, ref: str) -> Skill:
        return self._skills[ref]

    def asked(self, brief: Brief, steps: Sequence[PlannedStep], facts: RequestFacts,
              direct: Sequence[bool] | None = None) -> list[bool]:
        """Which steps the request asks for: itself (:meth:`direct`, or ``direct`` when the
        caller has it for each step), or as a step its workflow requires of a robot the request
        asks something of or gives work to (the humanoid's load in a carry the dog does; the
        forklift's lowering of the pallet it was asked to move)."""
        if direct is None:
            direct = [self.direct(brief, step, facts) for step in steps]
        robots = {s.robot for s, ok in zip(steps, direct, strict=True) if ok} | brief.gives
        return [ok or (s.required and s.robot in robots) for s, ok in zip(steps, direct,
                                                                           strict=True)]

    def _given(self, brief: Brief, facts: RequestFacts) -> frozenset[str]:
        """Robots a skill of which takes something the request states (a place, an object, a
        point, a zone, a quantity with its unit): the request gives them work."""
        slots = {"location": bool(brief.places), "object": bool(brief.objects),
                 "point": bool(facts.points), "zone": bool(facts.zones)}
        out = {ref.partition(".")[0] for s in brief.stated for ref, _ in s.params}
        for slot, stated in slots.items():
            if stated:
                out |= self._takes[slot]
        return frozenset(out)

    def direct(self, brief: Brief, step: PlannedStep, facts: RequestFacts) -> bool:
        """The request asks for this step itself: names its action; names its robot (or the
        crew) in a clause that names no action of it, leaving the how to the plan ("rover, run
        an errand", "bring the drone back down"); or states a value that goes into it. Depends
        on the step and the request alone (the gate keeps it with the step's settled checks)."""
        if any(step.ref in m.referents for m in brief.actions):
            return True
        if brief.universal or step.robot in brief.free:
            return True
        facts = brief.asked_facts or facts
        return any(self._carries_stated(brief, step, p, v, facts)
                   for p, v in (step.typed or {}).items() if p in step.given)

    def _carries_stated(self, brief: Brief, step: PlannedStep, param: str, value: Any,
                        facts: RequestFacts) -> bool:
        kind = self._skill(step.ref).params[param]
        if kind.slot in ("location", "object"):
            stated = brief.places + brief.objects
            return any(value in m.referents for m in stated) or value in brief.context
        if kind.slot == "point":
            return facts.states_point(value[0], value[1])
        if kind.slot == "zone":
            return facts.states_zone(value)
        if kind.numeric:
            return any(_close(value, s.quantity.value) for s in brief.stated) or (
                facts.states_number(float(value)))
        return False

    # -- the whole plan -----------------------------------------------------------------------

    def check_plan(self, brief: Brief, steps: Sequence[PlannedStep], f: Findings) -> None:
        """What the plan as a whole owes the request: nothing taken back runs, nothing stated is
        dropped, no negation is left unclear."""
        if brief.retracted is not None:  # (said of a plan with no step too: why it has none)
            f.add(Code.RETRACTED_REQUEST, f"the request takes back what it asked "
                  f"({brief.retracted!r}): no step may run")
        elif brief.idle is not None:
            f.add(Code.NOTHING_ASKED, f"{brief.idle.says()}: no step may run "
                  f"({brief.idle.fix()})")
        if brief.unclear is not None and brief.idle is None:
            f.add(Code.UNCLEAR_NEGATION, f"the request says {brief.unclear!r}, and the gate "
                  "cannot tell which robot, action or place it rules out; name it")
        if brief.unplaced is not None and brief.idle is None:
            f.add(Code.UNCLEAR_PLACE, f"the request says {brief.unplaced!r}, a place the gate "
                  "cannot tell; state the point or zone it means, or name one of the crew's "
                  "locations")
        if brief.retracted is not None or brief.idle is not None:
            return
        for q in brief.unheld:
            f.add(Code.DROPPED_REQUEST, f"the request states {q.text!r}, a speed no skill of "
                  "the crew takes: no step can keep to it (leave it out, or give the skill a "
                  "speed parameter)")
        for said in brief.returns:
            f.add(Code.DROPPED_REQUEST, f"the request asks for the way back ({said!r}); no step "
                  "comes back (ask for it with where to come back to: a point or one of the "
                  "crew's locations)")
        for said in brief.undone:
            f.add(Code.DROPPED_REQUEST, f"the request asks to {said!r}, which no skill of the "
                  "crew does: no step does it (ask for one of the crew's actions)")
        for stated in brief.stated:
            if self._beyond(stated):
                self._stated_plan(stated, steps, f)
        for bound in brief.bounds:
            q = bound.quantity
            ranges = list(dict.fromkeys(self._range(ref, p) for ref, p in bound.params))
            if ranges and not any(_meets(r, q.bound, q.value) for r in ranges):
                where = ", ".join(f"{ref} {p}" for ref, p in bound.params)
                f.add(Code.OUT_OF_RANGE, f"the request bounds {where} ({q.text!r}); no value "
                      f"they take is: {', '.join(_rng(r) for r in ranges)}")
        if any(s.typed is None for s in steps):
            return  # a step refused for its arguments: what the plan carries is judged later
        places = {r for m in brief.places for r in m.referents} | brief.context
        gone = [v for s in steps for p, v in (s.typed or {}).items() if p in s.given
                and self._skill(s.ref).params[p].slot == "location"] if brief.places else []
        # a step that goes somewhere unstated is refused for it (substituted_value): the
        # destination it replaced is not told again
        wrong = sum(v not in places for v in gone)
        missed = [m for m in brief.places if not set(gone) & m.referents]
        for m in missed[wrong:]:
            f.add(Code.DROPPED_REQUEST, f"the request names {m.phrase!r} "
                  f"({_names(m.referents)}) as a destination; no step goes there"
                  + self._one_plan(steps, places))
        for point in self._uncovered(steps, "point", brief.points):
            f.add(Code.DROPPED_REQUEST, f"the request states the point ({point[0]:g}, "
                  f"{point[1]:g}); no step goes there")
        for zone in self._uncovered(steps, "zone", brief.zones):
            f.add(Code.DROPPED_REQUEST, f"the request states the zone x [{zone[0]:g}, "
                  f"{zone[1]:g}] y [{zone[2]:g}, {zone[3]:g}]; no step covers it")
        for m in _uncarried(brief.objects, steps):
            if not self._unsaid(steps, "object"):  # else: the defaulting step's fault
                f.add(Code.DROPPED_REQUEST, f"the request names {m.phrase!r} "
                      f"({_names(m.referents)}); no step carries it")
        for robots, said in brief.recipients:
            if not any(robots & self._gives_to[s.ref] for s in steps if s.ref in self._gives_to):
                f.add(Code.DROPPED_REQUEST, f"the request gives something to "
                      f"{_names(robots)} ({said!r}); no step gives {_names(robots)} anything")
        owed = {m.referents: m for m in reversed(brief.actions) if not m.light}
        for m in sorted(owed.values(), key=lambda m: m.start):  # "stop" and "halt": once
            if not any(s.ref in m.referents for s in steps):
                f.add(Code.DROPPED_REQUEST, f"the request asks to {m.phrase!r} "
                      f"({_names(m.referents)}); no step does")
        for stated in brief.stated:
            if not self._beyond(stated):
                self._stated_plan(stated, steps, f)
        for first, then, said in brief.sequence:
            at = _first_of(steps, first.referents)
            later = _first_of(steps, then.referents)
            if at is not None and later is not None and later < at:
                f.add(Code.OUT_OF_ORDER, f"the request asks for {_names(first.referents)} "
                      f"before {_names(then.referents)} ({said!r}); the plan does "
                      f"{steps[later].ref} first")

    def _one_plan(self, steps: Sequence[PlannedStep], stated: set[str]) -> str:
        """Why one plan cannot go there too: its workflow allows no further move, and every
        move it has goes to another place the request states."""
        full = [s.ref for s in steps if s.most is not None and s.typed is not None
                and any(self._skill(s.ref).params[p].slot == "location"
                        and s.typed.get(p) in stated for p in s.given)
                and sum(t.ref == s.ref for t in steps) >= s.most]
        if not full:
            return ""
        return (f" (the workflow allows {full[0]} {_times(steps, full[0])} in one plan: the "
                "request cannot be done in one plan; ask for the rest in another request)")

    def _uncovered(self, steps: Sequence[PlannedStep], slot: str,
                   stated: Sequence[tuple[float, ...]]) -> list[tuple[float, ...]]:
        """The stated points (zones) no step carries, less one for each point (zone) a step
        gives that the request does not state: that step is refused for it already
        (``substituted_value``), and the same fact is not told twice."""
        if not stated:
            return []  # nothing stated: nothing left, whatever the steps give
        given = [v for s in steps if s.known
                 for p, v in (s.typed or {}).items()
                 if p in s.given and self._skill(s.ref).params[p].slot == slot]
        left = [z for z in stated if not any(_same(v, z) for v in given)]
        wrong = sum(not any(_same(v, z) for z in stated) for v in given)
        return left[wrong:]

    def _unsaid(self, steps: Sequence[PlannedStep], slot: str) -> bool:
        """No step of the plan gives a parameter of ``slot`` and some step leaves one to its
        default: the plan never says which (a later ``place`` may default to what an earlier
        ``grab`` named)."""
        given = any(p in step.given for step in steps if step.known
                    for p in self._slotted.get((step.ref, slot), ()))
        return not given and any(self._defaulted(s, slot) for s in steps)

    def _defaulted(self, step: PlannedStep, slot: str) -> list[str]:
        """The step's parameters of a slot that the plan left to their default."""
        if not step.known:
            return []
        return [p for p in self._slotted.get((step.ref, slot), ()) if p not in step.given]

    def _stated_plan(self, stated: Stated, steps: Sequence[PlannedStep], f: Findings) -> None:
        q = stated.quantity
        if any(s.ref == ref and _close((s.typed or {}).get(p), q.value)
               for s in steps for ref, p in stated.params):
            return
        where = ", ".join(f"{ref} {p}" for ref, p in stated.params)
        ranges = [self._range(ref, p) for ref, p in stated.params]
        if self._beyond(stated):  # whatever the plan: said once, for the whole plan
            f.add(Code.OUT_OF_RANGE, f"the request states {q.text!r} (for {where}), outside "
                  f"what it takes: {', '.join(_rng(r) for r in dict.fromkeys(ranges))}")
        elif any(s.ref == ref for s in steps for ref, _ in stated.params):
            return  # the step that should carry it is refused itself (``check``)
        else:
            f.add(Code.DROPPED_REQUEST, f"the request states {q.text!r} (for {where}); no "
                  "step carries it")

    def _beyond(self, stated: Stated) -> bool:
        """No parameter the quantity can be for takes it (an altitude of 25 m)."""
        return all(not lo <= stated.quantity.value <= hi
                   for lo, hi in (self._range(ref, p) for ref, p in stated.params))

    def _range(self, ref: str, param: str) -> tuple[float, float]:
        kind = self._skill(ref).params[param]
        low, high = getattr(kind, "min", None), getattr(kind, "max", None)
        return (-math.inf if low is None else float(low), math.inf if high is None else
                float(high))

    # -- each step ----------------------------------------------------------------------------

    def check(self, brief: Brief, steps: Sequence[PlannedStep], index: int,
              asked: Sequence[bool], f: Findings, *, dispatch: bool = False) -> None:
        """Step ``index`` of ``steps``: who acts, what is ruled out, whether the request asks
        for it, which stated value it must carry. At dispatch, a request taken back refuses
        every step again."""
        step = steps[index]
        if not step.known:
            return  # refused as unknown; there is nothing of it to hold to the request
        if brief.retracted is not None:
            if dispatch:
                f.add(Code.RETRACTED_REQUEST, f"the request takes back what it asked "
                      f"({brief.retracted!r}): {step.ref} may not run")
            return
        if brief.idle is not None:
            if dispatch:
                f.add(Code.NOTHING_ASKED, f"{brief.idle.says()}: {step.ref} may not run "
                      f"({brief.idle.fix()})")
            return
        mark = len(f.items)
        self._who(brief, step, f, steps)
        self._ruled_out(brief, step, f)
        if len(f.items) > mark or step.typed is None:
            return  # ruled out already, or refused for its arguments: nothing more to say
        left = self._defaulted(step, "object")
        left = left if left and self._unsaid(steps, "object") else []
        for m in _uncarried(brief.objects, steps) if left else ():
            f.add(Code.SUBSTITUTED_VALUE, f"the request names {m.phrase!r} "
                  f"({_names(m.referents)}); {step.ref} leaves its {left[0]} to the default")
        if len(f.items) > mark:
            return
        if not asked[index]:
            part = next((p for p, refs in brief.unasked
                         if step.robot in refs or step.ref in refs), None)
            f.add(Code.UNREQUESTED_STEP, f"nothing in the request asks for {step.ref}: it names "
                  f"neither {step.robot} nor this action, and no value it states goes into it"
                  if part is None else f"nothing in the request asks for {step.ref} now: it "
                  f"names {step.robot} or this action only where it {part.kind} ({part.said!r})")
        elif brief.only_actions and step.ref not in brief.only_actions and not step.required:
            f.add(Code.UNREQUESTED_STEP, f"the request asks only for "
                  f"{_names(brief.only_actions)}; not for {step.ref}")
        for stated in brief.stated:
            self._stated_step(stated, steps, step, f)
        for bound in brief.bounds:
            self._bounded_step(bound, step, f)
        for robots, state, said in brief.keeps:
            kept = not state.startswith(NOT)  # the value kept: "!airborne" keeps it false
            field_name = state.removeprefix(NOT)
            if step.robot in robots and any(
                    field_ == field_name and owner in ("", step.robot) and value is (not kept)
                    for owner, field_, value in self._skill(step.ref).split_effects):
                f.add(Code.NEGATED_STEP, f"the request keeps {step.robot} "
                      f"{'' if kept else 'not '}{field_name} ({said!r}); {step.ref} ends it")

    def _who(self, brief: Brief, step: PlannedStep, f: Findings,
             steps: Sequence[PlannedStep]) -> None:
        if step.robot in brief.excluded and not (  # (a faulty or halted robot's fallback)
                step.ref in self._fallbacks and (brief.excluded[step.robot] in brief.halts
                                                 or _faulted(brief.excluded[step.robot]))):
            f.add(Code.EXCLUDED_ROBOT, f"the request rules out {step.robot}: "
                  f"{brief.excluded[step.robot]!r}")
        elif step.robot in brief.excluded_with and self._with(step, *brief.excluded_with[
                step.robot][:2]):
            f.add(Code.EXCLUDED_ROBOT, f"the request rules out {step.robot} here: "
                  f"{brief.excluded_with[step.robot][2]!r}")
        elif brief.only and step.robot not in brief.only:
            f.add(Code.EXCLUDED_ROBOT, f"the request asks for {_names(brief.only)} only; not "
                  f"{step.robot}")
        values = step.names
        mark = len(f.items)
        for m in brief.places:
            named = brief.clause_robots.get(m.clause, set())
            if named and step.robot not in named and values & m.referents:
                f.add(Code.SUBSTITUTED_ROBOT, f"the request gives {m.phrase!r} to "
                      f"{_names(named)}; {self._can_go(named)}, and {step.robot} may not take "
                      "its place")
        for m, agent in brief.misgiven if len(f.items) == mark else ():
            # (the robot told carries in the plan a place or object its clause states: "have
            # the dog take the cube to room_b" is the humanoid's grab and the dog's walk, the
            # carry the workflow makes of it; "use the rover to search" with the rover driving
            # to the victim is the drone's search all the same; and a step the request asks
            # for besides, "send the drone to search ... and send the rover to the victim", or
            # of a robot its clause names too, "dispatch the drone to ... and the rover to ...")
            stated = {r for t in (brief.places, brief.objects) for n in t
                      if n.clause == m.clause for r in n.referents}
            if agent.referents <= brief.excluded.keys():
                continue  # "... with the rover; the drone does it instead": the rover replaced
            if step.ref in m.referents and step.robot not in agent.referents and not any(
                    s.robot in agent.referents and s.names & stated for s in steps) and not any(
                    step.ref in a.referents for a in brief.actions) and (
                    step.robot not in brief.clause_robots.get(m.clause, ())):
                f.add(Code.SUBSTITUTED_ROBOT, f"the request asks {_names(agent.referents)} to "
                      f"{m.phrase!r}; {_names(agent.referents)} has no such skill, and "
                      f"{step.robot} may not take its place")
                break
        if (len(f.items) == mark and step.typed and brief.named and not brief.universal
                and step.robot not in brief.named and step.ref not in brief.gerunds
                and not any(step.ref in m.referents for m in brief.actions)):
            self._given_elsewhere(brief, step, f)  # "fly the drone to x 2, y 3": not the rover

    def _given_elsewhere(self, brief: Brief, step: PlannedStep, f: Findings) -> None:
        """A step of a robot the request does not name, asked for by no action (nor named by a
        gerund: "send the rover to the victim after searching x 0 to 5, ..."), that goes to a
        point or zone the request states only in parts naming other robots ("Fly the drone
        to x 2, y 3" and the rover's drive there): the value is theirs, and the step takes
        their place."""
        params = self._skill(step.ref).params
        for pname, value in (step.typed or {}).items():
            slot = params[pname].slot
            if slot not in ("point", "zone"):
                continue
            said = [(robots, part) for facts, robots, part in self._given_to(brief)
                    if (facts.states_point(value[0], value[1]) if slot == "point"
                        else facts.states_zone(value))]
            if said and all(robots and step.robot not in robots for robots, _ in said):
                robots, part = said[0]
                what = (f"the point ({value[0]:g}, {value[1]:g})" if slot == "point"
                        else f"the zone x {_rng(value[:2])}, y {_rng(value[2:])}")
                able = self._can_go(robots, zone=slot == "zone")
                f.add(Code.SUBSTITUTED_ROBOT, f"the request gives {what} to {_names(robots)} "
                      f"({part!r}); {able}, and {step.robot} may not take its place")
                return

    def _given_to(self, brief: Brief) -> list[tuple[RequestFacts, frozenset[str], str]]:
        """Each part of the request (a sentence, or a part of it ", then ..." begins, or "and"
        and a verb that names a robot of its own) that states points or zones, with the robots
        it names (read once per request, and only when a step needs it): "fly over x 0 to 5,
        y 0 to 5 and land, then drive the rover to x 1, y 1" and "fly over x 0 to 5, y 0 to 5
        and send the rover to whoever you find" give the zone to no robot; "make the drone go
        up and drive to x 2, y 3" gives the point to the drone."""
        if brief.given_to is None:
            brief.given_to = []
            parts: list[tuple[list[str], frozenset[str]]] = []  # (its pieces, its robots)
            for clause in PART_BREAK.split(clean(brief.text)):
                for k, piece in enumerate(self._and_verb.split(clause)):
                    reading = Reading(piece, self._verbs)
                    robots = frozenset(r for m in reading.mentions(
                        self.robots, stays=True) if m.negated is None for r in m.referents)
                    if not robots and parts and any(
                            w in self._verbs and reading.words[i + 1:i + 2] in _PRONOUNS
                            for i, w in enumerate(reading.words)):
                        robots = parts[-1][1]  # "the drone is ready; send it to x 2, y 3"
                    if k and not robots:  # "... and drive to x 2, y 3": the same robot's
                        parts[-1][0].append(piece)
                    else:
                        parts.append(([piece], robots))
            for pieces, robots in parts:
                part = " and ".join(pieces)
                facts = RequestFacts.read(part)
                if facts.points or facts.zones:
                    brief.given_to.append((facts, robots, part.strip()))
        return brief.given_to

    @staticmethod
    def _with(step: PlannedStep, things: frozenset[str],
              values: tuple[tuple[float, ...], ...]) -> bool:
        """Whether the step carries one of these things or values."""
        return bool(step.names & things) or any(
            _same(v, n) for v in (step.typed or {}).values() for n in values)

    def _can_go(self, robots: Iterable[str], zone: bool = False) -> str:
        """Which of these robots' skills could go there (a skill requiring a place or a point;
        ``zone``: could take it, a skill with a zone parameter), or that none could."""
        slots = ("zone",) if zone else ("location", "point")
        able = [f"{r}.{n}" for r in sorted(robots) for n, s in self.crew.robots[r].skills.items()
                if s.visible and any(p.slot in slots and (zone or s.is_required(name))
                                     for name, p in s.params.items())]
        if able:
            return f"{_names(able)} could {'take it' if zone else 'go there'}"
        return (f"{_names(robots)} has no skill that "
                f"{'takes a zone' if zone else 'moves it to a place'}")

    def _ruled_out(self, brief: Brief, step: PlannedStep, f: Findings) -> None:
        if not (brief.negated or brief.negated_points or brief.negated_zones
                or brief.negated_with or brief.left_out_zones or brief.avoided_zones
                or brief.negated_quantities or brief.avoided_points):
            return
        values = step.names
        said = [m.negated for m in brief.negated
                if m.negated and (step.ref in m.referents or values & m.referents)]
        said += [m.negated for m, things in brief.negated_with  # the action with what it names
                 if m.negated and step.ref in m.referents and values & things]
        for slot, negated, entered in (
                ("point", brief.negated_points, brief.avoided_zones),
                ("zone", brief.negated_zones, brief.avoided_zones + brief.left_out_zones)):
            if (negated or entered or brief.avoided_points) and step.typed is not None:
                for p in self._slotted.get((step.ref, slot), ()):
                    if p in step.given:  # a point or zone it says not to go to; a point
                        value = step.typed.get(p)  # inside, or a zone over, one kept away
                        said += [cue for stated, cue in negated if _same(value, stated)]
                        said += [cue for zone, cue in entered if _enters(value, zone)]
                        if slot == "zone" and isinstance(value, tuple) and len(value) == 4:
                            said += [cue for point, cue, robots in brief.avoided_points
                                     if (not robots or step.robot in robots)
                                     and _enters(point, value)]
        for stated, cue in brief.negated_quantities:  # a value it rules out, given or
            for ref, param in stated.params:  # left to its default
                if ref == step.ref and _close((step.typed or {}).get(param),
                                              stated.quantity.value):
                    said.append(cue)
        if said:  # the longest saying: "do not send the dog to the charger" over "do not send"
            f.add(Code.NEGATED_STEP, f"the request rules out {step.ref} here: "
                  f"{max(said, key=len)!r}")

    def _bounded_step(self, bound: Stated, step: PlannedStep, f: Findings) -> None:
        q = bound.quantity
        for ref, param in bound.params:
            value = (step.typed or {}).get(param) if ref == step.ref else None
            if isinstance(value, int | float) and not within(value, q.bound, q.value):
                how = "" if param in step.given else " (the default)"
                f.add(Code.BEYOND_BOUND, f"the request bounds {step.ref} {param} ({q.text!r}); "
                      f"the plan gives {value:g}{how}")

    def _stated_step(self, stated: Stated, steps: Sequence[PlannedStep], step: PlannedStep,
                     f: Findings) -> None:
        q = stated.quantity
        mine = [p for ref, p in stated.params if ref == step.ref]
        if not mine or step.typed is None or self._beyond(stated) or any(
                s.ref == ref and _close((s.typed or {}).get(p), q.value)
                for s in steps for ref, p in stated.params):
            return
        param = mine[0]
        lo, hi = self._range(step.ref, param)
        if not lo <= q.value <= hi:
            f.add(Code.OUT_OF_RANGE, f"the request states {q.text!r} for {step.ref} {param}, "
                  f"outside {_rng((lo, hi))}")
            return
        value = step.typed.get(param)
        how = "" if param in step.given else " (the default)"
        f.add(Code.SUBSTITUTED_VALUE, f"the request states {q.text!r} for {step.ref} {param}; "
              f"the plan gives {value:g}{how}" if isinstance(value, int | float) else
              f"the request states {q.text!r} for {step.ref} {param}; the plan gives none")


class Intent(IntentChecks, Rule):
    """What a request asks of this crew, as a rule (see the module's doc)."""

    codes: ClassVar[frozenset[Code]] = frozenset({
        Code.SUBSTITUTED_ROBOT, Code.EXCLUDED_ROBOT, Code.NEGATED_STEP, Code.UNREQUESTED_STEP,
        Code.DROPPED_REQUEST, Code.RETRACTED_REQUEST, Code.NOTHING_ASKED, Code.BEYOND_BOUND,
        Code.UNCLEAR_NEGATION, Code.UNCLEAR_PLACE, Code.OUT_OF_ORDER,
        Code.SUBSTITUTED_VALUE, Code.OUT_OF_RANGE})

    def __init__(self, crew: Crew) -> None:
        self.crew = crew
        self._briefs: dict[str, Brief] = {}
        self._skills = {f"{name}.{sname}": skill for name, robot in crew.robots.items()
                        for sname, skill in robot.skills.items()}
        slotted: dict[tuple[str, str], list[str]] = {}
        for ref, skill in self._skills.items():
            for pname, kind in skill.params.items():
                if kind.slot is not None:
                    slotted.setdefault((ref, kind.slot), []).append(pname)
        self._slotted = {key: tuple(names) for key, names in slotted.items()}
        robots: dict[tuple[str, ...], set[str]] = {}
        skills: dict[tuple[str, ...], set[str]] = {}
        # an action named as a gerund ("skip searching", "landing is not needed"): read only to
        # rule it out; never what a request asks ("the landing pad" asks for no landing)
        gerunds: dict[tuple[str, ...], set[str]] = {}
        self.air = [n for n, r in crew.robots.items()
                    if AIR_WORDS & {w for p in (r.kind, *r.aliases) for w in words(p)}]

        def action(phrase: str, refs: Iterable[str]) -> None:
            """The phrase names these steps' action, as a verb and as a gerund."""
            verb, *rest = _phrases(phrase) or ("",)
            for ref in refs:
                _add(skills, phrase, ref)
                if verb.isalpha():
                    gerunds.setdefault((gerund(verb), *rest), set()).add(ref)

        for name, robot in crew.robots.items():
            for phrase in (name, robot.kind, *robot.aliases):
                _add(robots, phrase, name)
            for category in AIR if name in self.air else GROUND:
                _add(robots, category, name)
            for sname, skill in robot.skills.items():
                if skill.visible:
                    for phrase in (sname.replace("_", " "), *skill.aliases):
                        action(phrase, (f"{name}.{sname}",))
        # what an action begins with, as a verb or a gerund ("send", "sending"): a skill's
        # (not the first word of a workflow's alias: "end the mission" makes no "end" a verb)
        verbs = frozenset(phrase[0] for table in (skills, gerunds) for phrase in table)
        # a workflow's aliases ask for each step it allows ("abort the mission": the drone's
        # landing and the rover's stop), as a skill's alias asks for the skill
        for workflow in crew.workflows.values():
            steps = [ref for ref in workflow.steps
                     if ref in self._skills and self._skills[ref].visible]
            for phrase in workflow.aliases:
                action(phrase, steps)
        # a word that says only a type of robot names the crew's robots of its family, when
        # no robot is named by it already ("the copter": the drone; "the ugv": the rover)
        for family, nouns in ROBOT_TYPES.items():
            members = self.air if family == "air" else [
                n for n, r in crew.robots.items()
                if not ROBOT_FAMILIES[family].isdisjoint(
                    w for p in (n, r.kind, *r.aliases) for w in words(p))]
            for noun in nouns:
                if members and (noun,) not in robots:
                    robots[(noun,)] = set(members)
        self.robots = _freeze(robots)
        self.skills = _freeze(skills)
        self.gerunds = _freeze({k: v for k, v in gerunds.items() if k not in skills})
        self._verbs = verbs
        # skills a robot named as their object is the one to do: those that move or change
        # their own robot ("stop the drone", "land the rover", "drive the dog to room_a");
        # not those that act on a thing or a zone ("find the rover": the drone's search for
        # it) nor a gesture ("greet the dog": the humanoid's wave)
        # the robots whose state a skill's effects write, other than its own ("go2.payload"):
        # those it gives something to
        self._gives_to = {ref: frozenset(owner for owner, _, _ in skill.split_effects
                                         if owner not in ("", ref.partition(".")[0]))
                          for ref, skill in self._skills.items()}
        self._said_of = frozenset(ref for ref, skill in self._skills.items() if not any(
            k.slot in ("object", "zone") for k in skill.params.values()) and (
            any(owner in ("", ref.partition(".")[0]) for owner, _, _ in skill.split_effects)
            or any(k.slot in ("location", "point") for k in skill.params.values())))
        # "fly over x 0 to 5, y 0 to 5 and send the rover ...": a part of its own begins at
        # "and" before a verb of the crew's (the zone is given to no robot named after it)
        self._and_verb = re.compile(r"\s+and\s+(?=(?:then\s+)?(?:" + "|".join(
            sorted(map(re.escape, self._verbs), key=len, reverse=True)) + r")\b)",
            re.IGNORECASE)
        self._takes = {slot: frozenset(
            name for name, robot in crew.robots.items() for skill in robot.skills.values()
            if skill.visible and any(k.slot == slot for k in skill.params.values()))
            for slot in ("location", "object", "point", "zone")}
        self.places = _freeze({_phrases(p): {n} for n, loc in crew.locations.items()
                               for p in (n, *loc.aliases) if _phrases(p)})
        # each robot's boolean state a request can keep ("airborne"), by its names
        states: dict[tuple[str, ...], set[str]] = {}
        for name, robot in crew.robots.items():
            for fname, state in robot.state.items():
                if state.type == "bool" and fname in KEPT_STATES:
                    for phrase in (fname.replace("_", " "), *KEPT_STATES[fname]):
                        states.setdefault(_phrases(phrase), set()).add(f"{name}.{fname}")
                    for phrase in KEPT_UNSTATES.get(fname, ()):
                        states.setdefault(_phrases(phrase), set()).add(f"{name}.{NOT}{fname}")
        self.states = _freeze(states)
        # the robots kept in the air by "hover" said last ("search ... and hover")
        self._hovering = frozenset(ref.partition(".")[0] for refs in states.values()
                                   for ref in refs if ref.endswith(".airborne"))
        self.objects = _freeze({_phrases(p): {n} for n, obj in crew.objects.items()
                                for p in (n, *obj.aliases) if _phrases(p)})
        # the runtime bindings a step may go to by name ("victim"): said as where something
        # else is ("halfway to the victim", "past the victim"), a binding is no place to go
        self.bindings = _freeze({_phrases(n): {n} for n in crew.bindings if _phrases(n)})
        self._foreign = self._foreign_nouns()
        # what may be done to a thing that no skill of the crew does ("smash the bottle")
        self._foreign_acts = THING_ACTIONS - self._verbs
        # the robots a plan can bring to their safe fallback (the drone's landing, the rover's
        # stop): told to stop, they are owed it or stopped by it, not ruled out (_halted)
        self._fallbacks = frozenset(fb.step for fb in crew.fallback if fb.step in self._skills
                                    and self._skills[fb.step].visible)
        self._stoppable = frozenset(ref.partition(".")[0] for ref in self._fallbacks)
        # every table a reading looks up, found in one pass (crewgate.text.intent.PhraseIndex)
        self._index = CUES.extended((IN_ORDER, self.robots, self.places, self.objects,
                                     self.skills, self.gerunds, self.states, self.bindings))

    # -- holding a plan to a request ----------------------------------------------------------

    def brief(self, request: str) -> Brief:
        """The request read (the last few kept: a mission holds its plan, and each dispatch
        its step, to the same request)."""
        found = self._briefs.get(request)
        if found is None:
            found = self._briefs[request] = self.read(request)
            if len(self._briefs) > 64:
                self._briefs.pop(next(iter(self._briefs)))
        return found

    def forget(self) -> None:
        """Drop the kept readings (a benchmark's or a test's cold reading)."""
        self._briefs.clear()

    def hold(self, workflow: str | None, steps: Sequence[tuple[str, str, Mapping[str, Any]]],
             facts: RequestFacts, typed: Sequence[Typed] | None = None) -> Held:
        """A plan's steps ((robot, skill, args)) held to its request; ``typed`` gives each
        step's typed arguments and the parameters it gave when the caller has them (else the
        arguments are typed here)."""
        return self.held([self.planned(workflow, robot, name, args,
                                       typed[i] if typed is not None else None)
                          for i, (robot, name, args) in enumerate(steps)], facts)

    def held(self, steps: Sequence[PlannedStep], facts: RequestFacts,
             direct: Sequence[bool] | None = None) -> Held:
        """Planned steps held to their request (``direct``: :meth:`direct` of each, when the
        caller has it)."""
        brief = self.brief(facts.text)
        return Held(brief, tuple(steps), tuple(self.asked(brief, steps, facts, direct)))

    def planned(self, workflow: str | None, robot: str, name: str, args: Mapping[str, Any],
                typed: Typed | None, skill: Skill | None = None,
                rule: StepRule | None = None) -> PlannedStep:
        """A step as the request sees it (``typed``: its typed arguments and the parameters it
        gave, as the gate settled them; None: typed here; ``skill`` and ``rule``: the crew's
        skill of that name and the workflow's rule of the step, when the caller found them).
        Depends on the step and its workflow alone (the gate keeps it with the step's settled
        checks)."""
        ref = f"{robot}.{name}"
        if skill is None:
            skill = self.crew.skill(robot, name)
        values, given = typed if typed is not None else self._typed(skill, args)
        if values is None and skill is not None:  # refused for its arguments: still said
            given = frozenset(a for a in args if a in skill.params)
        if rule is None:
            wf = self.crew.workflows.get(workflow or "")
            rule = wf.steps.get(ref) if wf is not None else None
        names = frozenset([v for v in values.values() if isinstance(v, str)]) if values else (
            _NO_NAMES)
        return tuple_of(PlannedStep, (robot, ref, values, given,
                                      rule is not None and rule.count.low >= 1,
                                      skill is not None and skill.visible,
                                      rule.count.high if rule is not None else None, names))

    def _typed(self, skill: Skill | None, args: Mapping[str, Any]) -> Typed:
        checked = skill.check(dict(args), self.crew.context, Findings(None), "") if skill else None
        return checked if checked is not None else (None, frozenset())

    def review(self, workflow: str | None,
               steps: Sequence[tuple[str, str, Mapping[str, Any]]], request: str) -> list[Problem]:
        """Everything the request holds against a plan, the plan's problems first, then each
        step's: what a planner checks its own proposal against before offering it."""
        held = self.hold(workflow, steps, RequestFacts.read(request))
        plan = Findings(None)
        self.check_plan(held.brief, held.steps, plan)
        out = list(plan.items)
        for index in range(len(held.steps)):
            f = Findings(index)
            self.check(held.brief, held.steps, index, held.asked, f)
            out += f.items
        return out

    # -- the planner's prompt -----------------------------------------------------------------

    def describe(self) -> str:
        names = "; ".join(f"{n} ({', '.join([r.kind, *r.aliases])})"
                          for n, r in self.crew.robots.items())
        air = ", ".join(self.air) or "none"
        return "\n".join([
            "## The request is the brief",
            f"Robots are named by name, kind or alias: {names}. Air robots: {air}; the others "
            "are ground robots.",
            "- Give each action, destination, point and zone to the robot the request names "
            "for it; never to another robot. If the named robot cannot do it, or the crew has "
            "no such robot (\"send the boat ...\" to a crew with no boat), answer with no "
            "steps.",
            "- A robot the request rules out (\"do not send ...\", \"... only\", \"keep ... on "
            "the ground\", \"without ...\") takes no step; nor does anything the request says not "
            "to do, nor a step that ends a state it keeps (\"stay airborne\": no landing). "
            "A robot said to be broken, out of battery or grounded (\"the airspace is "
            "closed\") takes no step but its safe fallback, where the request asks it (\"the "
            "drone is broken; land it\").",
            "- Every value the request states (a number with its unit, a zone, a point, a place, "
            "an object) goes into the parameter it is for, in the parameter's unit (\"10 feet\" "
            "is 3.048 m), never a default or another value (a speed no skill takes cannot be "
            "kept to: answer with no steps); "
            "every destination, object and action it states is carried by a step. A bound it "
            "states (\"below 4 metres\", \"at least 5 m\", \"between 3 and 5 m\") holds for "
            "every value of that unit of the robot it is said of, defaults included. No "
            "step goes over a zone the request leaves out or keeps away from (\"search x 0 to "
            "10, y 0 to 10 except x 0 to 2\": search x 2 to 10, y 0 to 10). A place said as "
            "where another is (\"next to room_b\", \"beyond (2, 3)\", \"halfway to ...\") "
            "is not where to go. A place said from another by a distance (\"2 m north of x 2, "
            "y 3\") or a part of a zone (\"the western half of ...\") is none the gate can "
            "tell: answer with no steps; so is an action on a thing that no skill does "
            "(\"smash the bottle\"). A thing given to a robot (\"hand the bottle to the "
            "dog\") goes to it by a step that gives that robot something, never to a person.",
            "- Add no step the request does not ask for, beyond what the workflow requires. "
            "Do what it asks in the order it says (\"land the drone, then stop the rover\").",
            "- If the request takes back what it asked (\"never mind\", \"cancel that\", \"don't "
            "move anything\", \"... Wait.\"), answer with no steps; if it corrects itself "
            "(\"room_a, no wait, room_b\", \"room_a... actually, room_b\"), what follows the "
            "correction replaces what it corrects.",
            "- If it asks nothing to be done now, answer with no steps: a question (\"how long "
            "would the rover take to ...?\", \"is the drone able to ...?\"; not a polite request "
            "such as \"can you ...?\"), a supposition (\"what if ...\", \"the rover might "
            "...\"), what happened (\"yesterday ...\"), something for later (\"tomorrow\", "
            "\"at some point\", \"on my mark\", \"once I confirm\", \"prepare to ...\"), "
            "a plan only (\"don't execute it\") or what "
            "someone else does (\"I'll drive there myself\", \"tell the medics to go to ...\"); "
            "a part of it that asks nothing now asks for no step.",
        ])

    # -- reading a request --------------------------------------------------------------------

    def _foreign_nouns(self) -> frozenset[str]:
        """The nouns of kinds of robot the crew has none of ("boat" to a crew of a drone and a
        rover; ``ROBOT_FAMILIES``): a family is the crew's when a robot's name, kind or alias
        says it (the air family: an air robot); none is a word the crew's robots, skills,
        places or objects are named with."""
        own = {w for phrase in (*self.robots, *self.skills, *self.places, *self.objects)
               for w in phrase}
        has = {family for family, nouns in ROBOT_FAMILIES.items()
               if (family == "air" and self.air) or not nouns.isdisjoint(own)}
        return frozenset(w for family, nouns in ROBOT_FAMILIES.items() if family not in has
                         for w in nouns) - own

    def read(self, text: str) -> Brief:
        reading = Reading(text, self._verbs, self._foreign, self._index)
        brief = Brief(text, universal=reading.universal)
        start, rest = 0, text  # where what is asked begins, and the text from there
        # the last cue that takes back what came before; a correction that names nothing after
        # it ("actually, quickly") is none, but one that names a robot replaces the robot
        last_robot: int | None = None  # where the last robot named stands (found once)
        for cue, cue_end in reversed(reading.retractions):
            after = reading.span_text(cue_end, len(reading.words))
            asks = self._asks_anything(reading, cue_end, after)
            if cue_end in reading.corrections and not asks:
                if last_robot is None:
                    last_robot = self._last_robot(reading)
                if last_robot < cue_end:
                    continue
                asks = True  # "drive the rover to x 2, y 3. No, the drone.": the robot replaced
            start, rest = cue_end, after
            if reading.nothing_moves is not None or not asks:
                brief.retracted = cue
            break
        for k, end in reading.stops_all:  # "... Stop everything.": no robot moves on but to
            if k >= start:  # its safe fallback ("Land the drone. Stop." lands it)
                said = reading.said(k, end)
                brief.halts.add(said)
                for robot in self.crew.robots:
                    brief.excluded.setdefault(robot, said)
        instead = reading.instead_from
        if instead is not None and instead > start and not any(
                reading.words[m.end:m.end + 1] == ("instead",)
                for m in reading.mentions(self.robots, stays=True) if m.start >= instead):
            # "Land the drone. Drive the rover to x 2, y 3 instead.": the drive replaces the
            # landing, as after a correction (not "... Use the drone instead.": _instead)
            start, rest = instead, reading.span_text(instead, len(reading.words))
        # what is named in a part that asks nothing now ("is the rover free? send the drone",
        # "search x 0 to 5, y 0 to 5 and land. send the rover tomorrow") is not asked, as
        # nothing named before a retraction is; a request that asks nothing at all is said so
        parts = reading.idle if brief.retracted is None else ()
        if parts:
            brief.idle = self._idle(reading, start, parts)
        asked = _outside(parts, start) if parts and brief.idle is None else start.__le__
        states = reading.kept(self.states) if self.states else []
        keeping = {k for _, k in states}  # where a verb keeps a state ("must stay airborne")
        known: list[int] | None = None  # where actions, places and objects are named
        agents: list[Mention] = []  # robots named, in order: who does the verbs after them
        # (the last named before a verb in its part of the clause)
        negated_robots: list[Mention] = []  # by a negation's scope: qualified below
        kept_out: dict[int, str] = {}  # things a robot is kept out of: where, and the saying
        cue_ends: dict[int, int] | None = None  # where each negation cue ends: its start
        for m in reading.mentions(self.robots, stays=True):
            if m.start < start or (m.negated is None and not asked(m.start)):
                continue
            agents.append(m)
            negated = m.negated
            if negated is not None and reading.negating(m.start, True) is not None:
                negated_robots.append(m)
                continue
            if negated is not None and keeping and not keeping.isdisjoint(
                    range(m.end, m.end + MODAL_REACH + 2)):
                negated = None  # "the drone must stay airborne": kept flying, not ruled out
            if negated is not None and (things := self._kept_out_of(reading, m)):
                # "keep the dog out of room_a": the place is ruled out, not the dog (nor is the
                # dog asked anything by it)
                kept_out.update((t.start, f"{negated} {reading.said(m.end + 1, t.end)}")
                                for t in things)
                continue
            if negated is None:  # "walk to room_b, but not you, dog": the dog addressed
                if cue_ends is None:
                    cue_ends = {end: cue for cue, end in reading.find(NEGATIONS)} \
                        if "you" in reading.words else {}
                negated = _not_you(reading, m, cue_ends) or _replaced(reading, m)
            if negated is None and (at := reading.modal_negation(m.start, m.end)) is not None:
                if known is None:
                    known = self._known(reading)
                negated = self._modal(reading, m, at, known)
            if negated is not None:
                for robot in m.referents:
                    brief.excluded.setdefault(robot, negated)
                continue
            for robot in m.referents:
                brief.named.setdefault(robot, m)
                brief.clause_robots.setdefault(m.clause, set()).add(robot)
            if m.exclusive:
                brief.only |= m.referents
        self._instead(reading, agents, brief)
        if not _HALTS.isdisjoint(reading.words):
            self._halted(reading, agents, brief)
        if negated_robots and (wholes := reading.all_but()):
            negated_robots = self._all_but(reading, wholes, negated_robots, brief)
        places, objects = ([m for m in reading.mentions(table, left=True) if m.start >= start
                            and (m.negated is not None or asked(m.start))]
                           for table in (self.places, self.objects))
        brief.recipients = self._recipients(reading, objects, agents)
        if objects and not self._foreign_acts.isdisjoint(reading.words):
            brief.undone = self._undone(reading, objects)
        if not _BACK_WORDS.isdisjoint(reading.words) and _BACK_WORDS.isdisjoint(self._verbs):
            brief.returns = self._returns(reading, start, places)
        if self.bindings:  # a binding named only as where another place is: ruled out as one
            brief.negated += [m for m in reading.mentions(self.bindings)
                              if m.start >= start and m.negated is not None]
        if start and brief.retracted is None:
            self._taken_back(reading, start, rest, places + objects, brief)
        negated_actions: list[Mention] = []
        # a gerund after a word that ceases ("stop searching") is ruled out, and that word is
        # no action of its own (not the rover's stop)
        gerunds = [m for m in reading.actions(self.gerunds, places + objects) if m.start >= start]
        ceased = {m.start - 1 for m in gerunds
                  if m.negated is None and m.start and reading.words[m.start - 1] in CEASE}
        negated_actions += [m if m.negated is not None else m._replace(
            negated=reading.said(m.start - 1, m.end)) for m in gerunds
            if m.negated is not None or m.start - 1 in ceased]
        agent_starts = [a.start for a in agents]  # (in order)
        said_actions: list[Mention] = []  # every action asked, whoever it is said of
        joined: list[Mention] = []  # verbs after "and"/"then" that the robot before cannot do
        corrected: Mention | None = None  # the last action before a correction ("take off
        # to 3 m, no, 4 m": the value right after the cue is still the takeoff's)
        for m in reading.actions(self.skills, places + objects):
            if m.start < start:
                corrected = m if m.negated is None else corrected
                continue
            if m.start in ceased or (m.negated is None and not asked(m.start)):
                continue
            if m.negated is not None:
                if not _of_foreign(reading, m.end):  # "don't send the boat": not the sending
                    negated_actions.append(m)
                continue
            said_actions.append(m)
            # the last robot named before the verb, if in its part of the clause, or named again
            # by a pronoun right after it ("the drone is ready; send it to x 2, y 3")
            k = bisect_left(agent_starts, m.start) - 1
            agent = agents[k] if k >= 0 and agent_starts[k] >= reading.part_start[m.start] \
                else None
            if agent is None and k >= 0 and reading.words[m.end:m.end + 1] in _PRONOUNS:
                agent = next((a for a in reversed(agents[:k + 1]) if a.negated is None), None)
            addressed = None
            if agent is None:
                agent = addressed = self._addressed(reading, agents, agent_starts, m)
            mine = {r for r in m.referents if agent is None
                    or r.partition(".")[0] in agent.referents}
            said_of = agent
            if (thing := self._object_robot(reading, agents, agent_starts, m)) is not None:
                # "stop the drone", "land the rover": the robot the verb is said of, after it
                mine = {r for r in m.referents & self._said_of
                        if r.partition(".")[0] in thing.referents}
                said_of = thing
                if not mine:
                    brief.misgiven.append((m, thing))
                    continue
            if not mine:  # "make the drone go up": "go" is the rover's; not an action asked
                if agent is not None and (agent is addressed
                                          or _told_to(reading.words, agent, m)):
                    # "use the rover to search", "Humanoid: walk to room_b"
                    brief.misgiven.append((m, agent))
                elif m.start and (reading.words[m.start - 1] in ("and", "then") or (
                        "," in reading.seps[m.start - 1] and _IF.isdisjoint(reading.words[
                            reading.clause_starts[reading.clause_of[m.start]]:m.start]))):
                    # "send the rover to the victim and land", "..., land" (not "if the rover
                    # cannot go, land": what a condition asks)
                    joined.append(m)
                continue
            if len(mine) < len(m.referents) and said_of is not None and said_of.negated is None:
                # "abort the drone": the drone's landing, not the rover's stop (abort's
                # aliases); not "without the dog, bring ...": the dog is ruled out, not asked
                m = m._replace(referents=frozenset(mine))
            brief.actions.append(m)
            if m.exclusive:
                brief.only_actions |= mine
        # a verb joined to the one before it that the robot named before cannot do is asked
        # of a robot asked something else already ("search ..., then send the rover to the
        # victim and land": the drone's landing); of none else ("make the drone go up and
        # drive there" asks the rover nothing)
        acting_robots = {ref.partition(".")[0] for a in brief.actions for ref in a.referents}
        for m in joined:
            kept_refs = frozenset(r for r in m.referents if r.partition(".")[0] in acting_robots)
            if kept_refs:
                brief.actions.append(m._replace(referents=kept_refs))
        for found, kept in ((places, brief.places), (objects, brief.objects)):
            for m in found:
                if m.start in kept_out:  # (its saying names the robot kept out, where the
                    # place's own cue, "out of", does not)
                    m = m._replace(negated=kept_out[m.start])
                elif kept is brief.places and m.negated is None and (
                        left := _left(reading, m)) is not None:
                    m = m._replace(negated=left)  # "leave room_b": not where to go
                if m.negated is not None:
                    brief.negated.append(m)
                elif kept is brief.places and self._context(reading, m.start):
                    brief.context |= m.referents
                elif kept and _either(reading, kept[-1], m):
                    # "bring me the cube or the bottle": either one is what is named
                    kept[-1] = kept[-1]._replace(
                        end=m.end, phrase=reading.said(kept[-1].start, m.end),
                        referents=kept[-1].referents | m.referents)
                    brief.alternatives.append(kept[-1].referents)
                else:
                    kept.append(m)
        # (not a gerund said of "the one" a robot is: "the drone should be the one going to
        # x 2, y 3" gives the point to the drone, as "the drone should go there" does)
        named_gerunds = [m for m in gerunds if m.negated is None and m.start - 1 not in ceased
                         and reading.words[max(0, m.start - 2):m.start] != _THE_ONE]
        brief.gerunds = frozenset(r for m in named_gerunds for r in m.referents)
        brief.sequence = self._sequence(reading, said_actions, named_gerunds)
        acting = {(m.clause, ref.partition(".")[0]) for m in brief.actions for ref in m.referents}
        for clause, robots in brief.clause_robots.items():
            brief.free |= {r for r in robots if (clause, r) not in acting}
        by_clause: dict[int, tuple[list[int], list[Mention]]] = {}  # the actions asked, per
        for m in brief.actions:  # clause, in order, with where each stands
            starts, actions = by_clause.setdefault(m.clause, ([], []))
            starts.append(m.start)
            actions.append(m)
        ruled_out: dict[int, list[tuple[float, ...]]] = {}  # the quantities, per scope
        for q in reading.quantities:
            if not q.bound and (no := reading.answered_no(q.end)) is not None and (
                    s := self._stated(q, brief, by_clause, None)) is not None:
                # a value answered no ("6 m? No way."): ruled out, as a negated one is
                brief.negated_quantities.append((self._bounding(s), reading.said(q.start, no)))
                continue
            if not asked(q.start):
                continue
            s = self._stated(q, brief, by_clause, corrected if q.start == start else None)
            if s is None:
                if q.unit == "m/s" and q.clause in by_clause and (
                        not reading.scopes or reading.negating(q.start) is None):
                    brief.unheld.append(q)  # "drive ... at 5 m/s": a speed no skill takes
                continue
            if q.bound:  # (a correction's, its action's alone: Quantity.corrected)
                brief.bounds.append(s if q.corrected else self._bounding(s))
            elif reading.scopes and (scope := reading.negating(q.start)) is not None:
                # a value ruled out ("but not to 6 m"): no value stated, and none of the
                # robot's parameters in its unit may take it (which one it was said of
                # may be the action negated with it: "don't take off to 6 m")
                brief.negated_quantities.append(
                    (self._bounding(s), reading.said(scope.at, max(q.end, scope.said_to))))
                ruled_out.setdefault(scope.at, []).append((q.value,))
            else:
                brief.stated.append(s)
        brief.stated += self._bare(reading, brief, {q.start for q in reading.quantities})
        valued = self._negated_values(reading, brief)
        for at, quantities in ruled_out.items():  # (a negated action with a value it rules
            valued[at] = (*valued.get(at, ()), *quantities)  # out: "don't take off to 6 m")
        # a negation a bound says ("do not fly above 4 metres": at most 4) rules out nothing
        # up to the bound's value ("do not climb above 2 m or send the rover": the rover)
        bounded = {q.start: q.end for q in reading.quantities if q.bound}
        for m, k in states:  # (of the robots its clause names, when it names one of them)
            named = brief.clause_robots.get(m.clause, set())
            for field_ in {ref.partition(".")[2] for ref in m.referents}:
                robots = {ref.partition(".")[0] for ref in m.referents
                          if ref.endswith(f".{field_}")}
                if field_.startswith(NOT) and (between := {
                        r for a in agents if k < a.start < m.start for r in a.referents}):
                    if not robots & between:
                        continue  # "keep the rover on the ground": no state of the rover's
                    named = between
                brief.keeps.append((frozenset(robots & named or robots), field_,
                                    reading.said(k, m.end)))
        if self._hovering and (hover := self._hovers(reading, start)) is not None:
            brief.keeps.append((self._hovering, "airborne", hover))
        if self._hovering and "ground" in reading.words:
            brief.keeps += self._grounded(reading, start, brief)
        if bounded and (negated_actions or negated_robots):
            negated_actions, negated_robots = (
                [m for m in found if (scope := reading.negating(m.start)) is None
                 or m.start >= bounded.get(scope.at, -1)]
                for found in (negated_actions, negated_robots))
        self._qualify(reading, negated_actions, negated_robots, valued, brief)
        unclear = self._unclear(reading, start, set(valued) | set(bounded), {
            at for at, values in valued.items() if all(len(v) == 2 for v in values)})
        if unclear is not None and not unclear[1]:
            brief.unclear = unclear[0]
        # (a place said from another by a distance first: "2 m north of x 2, y 3" over "north
        # of", the part of space it would be without the distance)
        brief.unplaced = (self._relative(reading, start, brief) if reading.quantities else None
                          ) or (unclear[0] if unclear is not None and unclear[1] else None) or (
            self._other_binding(reading, start) if self.bindings else None)
        facts = RequestFacts.read(text)
        if parts and brief.idle is None:  # the points and zones of the parts that ask
            brief.unasked = self._unasked(reading, parts)
            rest = " ".join(reading.span_text(a, b) for a, b in _between(parts, start,
                                                                          len(reading.words)))
            facts = brief.asked_facts = RequestFacts.read(rest)
        if brief.retracted is None:
            # (what a cue took back is not owed: "x 2, y 3. no wait, x 4, y 3" owes (4, 3))
            self._geometry(rest, reading, brief)
        if (brief.left_out_zones or brief.avoided_zones) and facts.zones:
            facts = brief.asked_facts = _less_left_out(facts, brief)
        brief.gives = self._given(brief, facts)
        return brief

    def _grounded(self, reading: Reading, start: int,
                  brief: Brief) -> list[tuple[frozenset[str], str, str]]:
        """"Ground" opening a clause before an air robot, before any action of its asked
        ("Ground the drone. Search ..."; not "search ... and land, ground the drone
        afterwards"): it is kept on the ground, as "keep the drone on the ground" keeps it."""
        words, seps, clause_of = reading.words, reading.seps, reading.clause_of
        first = min((m.start for m in brief.actions), default=len(words))
        out = []
        for i in reading.where(_GROUNDING):
            if i < start or i > first or not (i == 0 or clause_of[i - 1] != clause_of[i]
                                 or "," in seps[i - 1]) or reading.negating(i) is not None:
                continue
            k = i + 1 + (i + 1 < len(words) and words[i + 1] in ARTICLES)
            m = reading.mention_at(self.robots, k)
            if m is not None and (robots := m.referents & self._hovering):
                out.append((frozenset(robots), f"{NOT}airborne", reading.said(i, m.end)))
        return out

    def _hovers(self, reading: Reading, start: int) -> str | None:
        """"Hover" said after every action the request asks ("search x 0 to 5, y 0 to 5 and
        hover"): the state it ends in, airborne (not "take off and hover at 5 m, then search
        and land"); its saying, or None."""
        found = [i for i in reading.where(_HOVER) if i >= start]
        if not found:
            return None
        last = found[-1]
        if reading.negating(last) is not None or any(
                m.start > last for m in reading.mentions(self.skills)):
            return None  # (not "... and land; don't hover")
        return reading.said(last, last + 1)

    def _recipients(self, reading: Reading, things: Sequence[Mention],
                    robots: Sequence[Mention]) -> list[tuple[frozenset[str], str]]:
        """The robots a thing is given to: a verb of giving (``GIVING``), the thing, "to" and
        the robot, in that order, "over" after the verb or the thing ("hand the bottle to the
        dog", "give the red cube to the robot dog", "hand over the cube to the dog", "hand the
        cube over to the dog"), or a verb of putting, the thing, "in" or "on" and the robot
        ("put the cube in the dog's bin", "place it on the dog"), with the saying."""
        words = reading.words
        ends = {m.end: m for m in things if m.negated is None}
        out = []
        for robot in robots:
            if robot.negated is not None:
                continue
            k = robot.start - 1 - (robot.start > 0 and words[robot.start - 1] in ARTICLES)
            if k < 1 or words[k] not in _TO_ROBOT:
                continue
            thing = ends.get(k - 1 if words[k - 1] == "over" else k)
            if thing is None or reading.clause_of[thing.start] != reading.clause_of[k]:
                continue
            verb = thing.start - 1 - (thing.start > 0 and words[thing.start - 1] in ARTICLES)
            if verb > 0 and words[verb] == "over":
                verb -= 1
            if verb >= 0 and (words[verb] in PUTTING if words[k] in _INTO_ROBOT
                              else words[verb] in GIVING):
                out.append((robot.referents, reading.said(verb, robot.end)))
        return out

    def _addressed(self, reading: Reading, agents: Sequence[Mention], starts: Sequence[int],
                   action: Mention) -> Mention | None:
        """The robot a verb with no robot before it in its part is said to, or done with: one
        addressed before a colon ("Drone: go to x 2, y 3") or set off by a comma at the end
        of the verb's sentence ("go to x 2, y 3, drone."), or named at the end of the verb's
        clause after "with", "using", "via" or as "by air" ("go to x 2, y 3 with the drone";
        not "... with the drone overhead")."""
        words, seps, clause_of = reading.words, reading.seps, reading.clause_of
        k = bisect_left(starts, action.start) - 1
        if k >= 0:  # an address: the robot (after "hey", "the") ending the clause before
            a = agents[k]
            clause = clause_of[a.start]
            first, mark = reading.clause_starts[clause], seps[a.end - 1]
            set_off = ":" in mark or (not _ADDRESS_MARKS.isdisjoint(mark)
                                      and _GREETINGS.issuperset(words[first:a.start]))
            if a.negated is None and clause == clause_of[action.start] - 1 \
                    and first >= a.start - 2 and set_off:
                return a  # ("Drone: go ...", "Drone! Go ...", "Hey humanoid. Walk ...")
        for a in agents[k + 1:]:  # (the robots after the verb, a few words on at most)
            if clause_of[a.start] != clause_of[action.start] or a.negated is not None \
                    or a.start - action.end > ADDRESS_REACH:
                break
            if not (a.end == len(words) or clause_of[a.end] != clause_of[a.start]
                    or not _SENTENCE_MARKS.isdisjoint(seps[a.end - 1])):
                continue  # not at the end of its clause ("... with the drone overhead")
            lead = a.start - 1 if words[a.start - 1] in ARTICLES else a.start  # ("the drone")
            if a.phrase.startswith(_BY_WAY_OF) or "," in seps[lead - 1] or (
                    "(" in seps[lead - 1]) or (
                    words[lead - 1] in _INSTRUMENTAL and not seps[lead - 1].strip()):
                return a
        return None

    def _object_robot(self, reading: Reading, agents: Sequence[Mention],
                      starts: Sequence[int], action: Mention) -> Mention | None:
        """The robot named right after the verb ("stop the drone", "land the rover"): the one
        the action is said of; none for an action no skill of which is said of its object
        (``_said_of``: "find the rover" is a search for it)."""
        if self._said_of.isdisjoint(action.referents):
            return None
        at, words, seps = action.end, reading.words, reading.seps
        if at < len(words) and words[at] in ARTICLES and not seps[at - 1].strip():
            at += 1
        if at >= len(words) or seps[at - 1].strip():  # "drone lands, rover stops": no object
            return None
        k = bisect_left(starts, at)
        return agents[k] if k < len(starts) and starts[k] == at else None

    def _unasked(self, reading: Reading, parts: Sequence[Idle]
                 ) -> list[tuple[Idle, frozenset[str]]]:
        """Each part that asks nothing now, with the robots and actions it names (a step it
        names is refused saying so)."""
        starts = [p.start for p in parts]
        named: list[set[str]] = [set() for _ in parts]
        for m in (*reading.mentions(self.robots, stays=True), *reading.mentions(self.skills)):
            k = _part_at(parts, starts, m.start)
            if k is not None:
                named[k] |= m.referents
        return [(p, frozenset(n)) for p, n in zip(parts, named, strict=True) if n]

    def _idle(self, reading: Reading, start: int, parts: tuple[Idle, ...]) -> Idle | None:
        """The part that says the request asks nothing now, when it does (a plan only, or every
        robot, action, place, object and number it names, after a retraction's cue, lies in
        its questions, suppositions, what happened and what is for later: "what if the rover
        drove to x 2, y 3?"; "how far is room_b? walk the dog to room_a" asks the walk); the
        part where it first names something."""
        if parts[0].kind == PLAN_KIND:  # (then the only part: the whole request)
            return parts[0]
        named = (*reading.mentions(self.robots, stays=True),
                 *reading.mentions(self.places, left=True),
                 *reading.mentions(self.objects, left=True), *reading.mentions(self.gerunds),
                 *reading.mentions(self.skills))
        words = reading.words
        named_at = sorted([m.start for m in named if m.start >= start]
                          + [q.start for q in reading.quantities if q.start >= start]
                          + [i for i in range(start, len(words)) if words[i][0].isdigit()])
        starts = [p.start for p in parts]
        first = None
        for at in named_at:
            k = _part_at(parts, starts, at)
            if k is None:
                return None  # named where something may be asked
            if first is None:
                first = parts[k]
        return first if first is not None else parts[0]

    def _geometry(self, text: str, reading: Reading, brief: Brief) -> None:
        """The points and zones the request states outside a negated clause (which owes
        nothing: "don't go to x 2, y 2"). Clause by clause only where a negation is."""
        whole = RequestFacts.read(text)
        if not (whole.points or whole.zones):
            return
        if not reading.scopes:
            brief.points += whole.points
            brief.zones += whole.zones
            return
        for clause in CLAUSE_BREAK.split(clean(text)):  # as it reads (crewgate.text.words)
            if DIGIT.search(clause) is None:
                continue  # no number: no point, no zone
            facts = RequestFacts.read(clause)
            if (facts.points or facts.zones) and not Reading(clause, self._verbs).scopes:
                brief.points += facts.points
                brief.zones += facts.zones

    def _all_but(self, reading: Reading, wholes: list[tuple[Scope, int, int]],
                 negated: list[Mention], brief: Brief) -> list[Mention]:
        """"All robots except the drone stay": the robots an exception names act (asked, not
        ruled out), every other robot of the crew stays (ruled out, with the whole saying);
        the negated robots left to qualify are returned. (Each robot's exception is found by
        bisection: linear however many.)"""
        wholes = sorted(wholes, key=lambda w: w[0].start)
        starts = [scope.start for scope, _, _ in wholes]
        acting: dict[int, set[str]] = {}  # an exception (its index) -> the robots it names
        kept = []
        for m in negated:
            k = bisect_right(starts, m.start) - 1
            if k < 0 or m.start >= wholes[k][0].end:
                kept.append(m)
                continue
            acting.setdefault(k, set()).update(m.referents)
            for robot in m.referents:
                brief.named.setdefault(robot, m)
                brief.clause_robots.setdefault(m.clause, set()).add(robot)
        for k, robots in acting.items():
            _, whole, end = wholes[k]
            for robot in self.crew.robots:
                if robot not in robots:
                    brief.excluded.setdefault(robot, reading.said(whole, end))
        return kept

    def _taken_back(self, reading: Reading, start: int, rest: str, after: list[Mention],
                    brief: Brief) -> None:
        """What the request named before a cue that takes it back, and not again after it
        ("walk the dog to room_a, no wait, room_b": room_a; the points and zones before it), is
        ruled out, said from the thing (or the words before the values) to the cue; of the
        kinds of thing named after it only, where it names any ("move the blue pallet to the
        dock... actually, bay_2" keeps the pallet; "search x 0 to 5, y 0 to 5 at 3 m, no, 4 m"
        keeps the zone; "walk the dog to room_a, no wait, wave" takes room_a back)."""
        again = {r for m in after if m.negated is None for r in m.referents}
        # a robot named before it, when another is named after it, is replaced ("send the
        # rover, sorry, the drone, to x 2, y 3": the rover is ruled out)
        robots = [m for m in reading.mentions(self.robots, stays=True) if m.negated is None]
        instead = {r for m in robots if m.start >= start for r in m.referents}
        if instead:
            for m in robots:
                if m.start < start:
                    for robot in m.referents - instead:
                        brief.excluded.setdefault(robot, _said_to(reading, m.start, start))
        stated = RequestFacts.read(rest)
        # the kinds named after it: a destination (a place or a point), an object, a zone
        places = not again.isdisjoint(self.crew.locations) or bool(stated.points)
        objects = not again.isdisjoint(self.crew.objects)
        zones = bool(stated.zones)
        # ... or a quantity ("take off to 3 m, no, 4 m": the value replaced, nothing else)
        valued = any(q.start >= start for q in reading.quantities)
        if not (places or objects or zones or valued):
            # nothing named after it: all of it is taken back (but a robot: "... No, the
            # drone." replaces the rover, what it was asked stays)
            places = objects = zones = not instead
        for table, taken in ((self.places, places), (self.objects, objects)):
            if taken:
                brief.negated += [m._replace(negated=_said_to(reading, m.start, start))
                                  for m in reading.mentions(table, left=True)
                                  if m.start < start and not m.referents <= again]
        before = RequestFacts.read(reading.span_text(0, start))
        if before.points or before.zones:
            said = reading.said(max(0, start - WINDOW), start)  # the values, then the cue
            brief.negated_points += [(p, said) for p in before.points
                                     if places and p not in stated.points]
            brief.negated_zones += [(z, said) for z in before.zones
                                    if zones and z not in stated.zones]

    def _qualify(self, reading: Reading, actions: list[Mention], robots: list[Mention],
                 valued: dict[int, tuple[tuple[float, ...], ...]], brief: Brief) -> None:
        """Each negated action and robot, ruled out outright ("do not go anywhere", "do not
        send the rover"), or only with the places, objects, points and zones its negation also
        names ("do not go to the charger", "don't send the dog to the charger", "do not drive
        to x 2, y 3"): those are ruled out themselves, and the action or robot is, where it
        goes with them, not elsewhere. An action negated with a robot it names, and nothing
        else, is that robot's ("do not send the drone, drive the rover ...": the drone is ruled
        out, not sending); one negated "else" rules out what the request does not state, as
        request containment does ("drive to x 2, y 3 and do not go anywhere else")."""
        things = _by_scope(reading, brief.negated)  # a scope's cue -> the things it negates
        whom = _by_scope(reading, robots, True)  # ... -> the robots it negates
        words, seps = reading.words, reading.seps
        for mentions, is_robot in ((actions, False), (robots, True)):
            for m in mentions:
                scope = reading.negating(m.start, is_robot)
                if scope is None:
                    named: frozenset[str] = frozenset()
                    values: tuple[tuple[float, ...], ...] = ()
                else:  # what it names after the action or robot, with no comma between (past
                    # a comma, "do not send the dog, the charger is broken" tells why)
                    reach = next((k for k in range(m.end, scope.end) if "," in seps[k - 1]),
                                 scope.end)
                    named = frozenset(r for t in things.get(scope.at, ())
                                      if m.end <= t.start < reach for r in t.referents)
                    values = valued.get(scope.at, ()) if any(
                        w[0].isdigit() for w in words[m.end:reach]) else ()
                said = m.negated or ""
                if is_robot:
                    for robot in m.referents:
                        if named or values:
                            brief.excluded_with.setdefault(robot, (named, values, said))
                        else:
                            brief.excluded.setdefault(robot, said)
                elif named or values:
                    brief.negated_with.append((m, named))
                elif scope is None or not (
                        any(m.end <= r.start < reach for r in whom.get(scope.at, ()))
                        or "else" in words[m.end:reach]):
                    brief.negated.append(m)

    def _negated_values(self, reading: Reading,
                        brief: Brief) -> dict[int, tuple[tuple[float, ...], ...]]:
        """The points and zones a negation's scope covers (read past the scope's end while the
        value goes on: "not x 2, y 3"), each with the negation's saying; per scope (its cue's
        start) that covers any, those values (a negation of a value is clear)."""
        words, seps = reading.words, reading.seps
        valued: dict[int, tuple[tuple[float, ...], ...]] = {}
        by_clause: dict[int, set[str]] | None = None  # the robots each clause names
        for scope in reading.scopes:
            end = reading.through_values(scope)
            if not any(w[0].isdigit() for w in words[scope.start:end]):
                continue
            text = reading.span_text(scope.start, end)
            facts = RequestFacts.read(text)
            replaced = scope.cue in REPLACING
            lone = strips(text) if not (facts.zones or replaced) else ()
            if not (facts.points or facts.zones or lone):
                continue
            said = reading.said(scope.at, max(end, scope.said_to))
            if end >= scope.said_to:  # with its closing brackets: "avoid (2, 3)"
                after = seps[end - 1]
                said += after[:len(after) - len(after.lstrip(")]"))]
            brief.negated_points += [(p, said) for p in facts.points]
            brief.negated_zones += [(z, said) for z in facts.zones]
            over = facts.points and not _PASSING.isdisjoint(words[scope.start:end])
            if scope.cue in AVOIDING or over:  # a zone kept away from: a point in it, a zone
                # over it; a point ruled out to pass over as well ("don't fly over x 2, y 2")
                brief.avoided_zones += [(z, said) for z in (*facts.zones, *lone)]
                if scope.cue not in HAZARD_CUES and facts.points:  # ... and a point: a zone
                    # over it ("search ... avoiding x 2, y 2"; a hazard is where it is: "x 2, y
                    # 2 is flooded"), of the robots its clause names, if it names any ("keep
                    # the rover away from x 2, y 2": not the drone's search)
                    if by_clause is None:
                        by_clause = {}
                        for m in reading.mentions(self.robots, stays=True):
                            by_clause.setdefault(m.clause, set()).update(m.referents)
                    robots = frozenset(by_clause.get(reading.clause_of[scope.at], ()))
                    brief.avoided_points += [(p, said, robots) for p in facts.points]
            elif not replaced:  # one left out ("search ... except x 0 to 2"): a zone over it
                brief.left_out_zones += [(z, said) for z in (*facts.zones, *lone)]
            valued[scope.at] = (*facts.points, *facts.zones)
        return valued

    def _modal(self, reading: Reading, m: Mention, at: int, known: list[int]) -> str | None:
        """A robot named, then modals and a negation (at word ``at``) that covers nothing else
        the gate knows (``known``: where actions, places and objects are named): "the rover
        should not be used", "the rover cannot help" rule the robot out. One that covers an
        action, place or object ("the dog must not go to the charger") is held to the
        negated-step rule instead, the robot asked; but for a place it may not leave ("the dog
        must not leave the start position": it stays)."""
        scope = reading.scope_of(at)
        if scope is None:  # no negation in force: a condition ("if the rover cannot ..."), or
            return None    # a cue that takes back
        if reading.words[at + 1:at + 2] and reading.words[at + 1] in _LEAVING:
            return reading.said(m.start, at + 2)
        first = bisect_left(known, scope.start)
        if first < len(known) and known[first] < scope.end:
            return None
        return reading.said(m.start, at + 1)

    def _known(self, reading: Reading) -> list[int]:
        """Where the request names an action, place or object the gate knows, in order."""
        return sorted(m.start for table in (self.skills, self.places, self.objects)
                      for m in reading.mentions(table, left=table is not self.skills))

    def _halted(self, reading: Reading, agents: Sequence[Mention], brief: Brief) -> None:
        """A robot told to stop, where no skill the planner may plan is that stop ("the dog is
        heading to room_b, stop it", "stop the dog before it reaches room_b", "dog, stop!",
        "make it stop": the dog's stop is the safe fallback's alone): it is to move no
        further, so no step may move it (ruled out, with the saying)."""
        words, seps, n = reading.words, reading.seps, len(reading.words)
        starts = [a.start for a in agents]
        at = {a.start: a for a in agents if a.negated is None}  # (one look-up a stop: linear)
        for i in reading.where(_HALTS):
            if reading.negating(i) is not None or (i and words[i - 1] == "non"):
                continue  # "don't stop the dog", "non-stop"
            robot = said = None
            k = i + 1 + (i + 1 < n and words[i + 1] in ARTICLES)
            after = at.get(k)
            # the last robot named before; not where the stop is a skill of the crew's, which
            # is that robot's ("land the drone, stop": the rover's stop)
            j = bisect_left(starts, i) - 1
            before = agents[j] if j >= 0 and agents[j].negated is None and (
                words[i],) not in self.skills else None
            if after is not None and not seps[i].strip():  # "stop the dog"
                robot, said = after, reading.said(i, after.end)
            elif before is None:
                continue
            elif words[i + 1:i + 2] in _PRONOUNS or (
                    i > 1 and words[i - 2] in _MAKING and words[i - 1:i] in _PRONOUNS):
                robot, said = before, reading.said(i - 2 if words[i - 1:i] in _PRONOUNS
                                                   else i, i + 1 + (i + 1 < n))
            elif before.end == i and "," in seps[i - 1] and (
                    i + 1 == n or not _ADDRESS_ENDS.isdisjoint(seps[i])):
                robot, said = before, reading.said(before.start, i + 1)  # "dog, stop!"
            elif i + 1 == n and not _SET_APART.isdisjoint(seps[i - 1]) \
                    and seps[i - 1] != ".":  # (not a name: "g1.stop")
                robot, said = before, words[i]  # "the dog is walking to room_b — stop!"
            if robot is None or said is None or words[robot.end:robot.end + 1] in _WHERE_TO_STOP \
                    or words[i + 1:i + 2] in _WHERE_TO_STOP or words[i + 2:i + 3] in _WHERE_TO_STOP:
                continue  # "stop the dog at room_b", "stop it there": where its walk ends
            for name in robot.referents - self._stoppable:
                if not any(name == ref.partition(".")[0] for ref in self.skills.get(
                        (words[i],), ())):
                    brief.excluded.setdefault(name, said)

    def _instead(self, reading: Reading, agents: Sequence[Mention], brief: Brief) -> None:
        """A robot said with "instead" ending its clause, right after it or a few words on
        ("... Use the drone instead.", "the drone instead", "but the humanoid walks instead"):
        the robots named before it are replaced (ruled out)."""
        words, n = reading.words, len(reading.words)
        before: set[str] = set()  # the robots named so far (a few: the crew's; linear)
        for m in agents:
            at = m.end  # "instead", right after it or past a few words of its own ("the
            while at < n and at - m.end < _INSTEAD_REACH and words[at] != "instead" and (
                    words[at].isalpha() and reading.clause_of[at] == m.clause):
                at += 1  # humanoid walks instead", "the drone does it instead")
            if m.negated is None and at < n and words[at] == "instead" and (
                    at + 1 == n or reading.clause_of[at + 1] != m.clause):
                said = reading.said(m.start, at + 1)
                for robot in before - m.referents:
                    brief.excluded.setdefault(robot, said)
            if m.negated is None:
                before |= m.referents

    def _last_robot(self, reading: Reading) -> int:
        """Where the last robot named, not ruled out, stands (-1: none)."""
        return max((m.start for m in reading.mentions(self.robots, stays=True)
                    if m.negated is None), default=-1)

    def _asks_anything(self, reading: Reading, start: int, rest: str) -> bool:
        """Whether the request asks anything after word ``start`` (``rest``: its text from
        there): an action, place or object not negated, or a value ("no wait, x 4, y 3", "no
        wait, 5 m")."""
        return any(m.start >= start and m.negated is None for table in (
            self.skills, self.places, self.objects)
            for m in reading.mentions(table, left=table is not self.skills)) or bool(
            RequestFacts.read(rest).numbers)

    @staticmethod
    def _sequence(reading: Reading, actions: list[Mention], gerunds: list[Mention]
                  ) -> list[tuple[Mention, Mention, str]]:
        """The actions asked one after the other, each pair (the one first, the one after):
        the last action before a word that says what follows comes after ("then",
        "afterwards") and the first action after it ("land the drone first, then stop the
        rover"); an action and the action or gerund right after "before" or "after" in its
        clause ("land the drone before you stop the rover", "stop the rover after landing the
        drone", "before stopping the rover, land the drone"). Actions of the same skills are
        none (what repeats is ordered by its values)."""
        then_at, around = reading.where(THEN), reading.where(BEFORE_AFTER)
        # "land the drone followed by stopping the rover": "by" there says what "before" does
        followed = [i for i in reading.where(_BY) if i and reading.words[i - 1] == "followed"]
        if followed:
            around = sorted([*around, *followed])
        if len(actions) + len(gerunds) < 2:
            return []
        in_order = reading.find(IN_ORDER)
        if not (then_at or around or in_order):
            return []
        ordered = sorted(actions, key=lambda m: m.start)
        starts = [m.start for m in ordered]
        pairs: list[tuple[Mention, Mention]] = []
        for at, _ in in_order:  # "stop the rover and land the drone, in that order"
            listed = [m for m in ordered[:bisect_left(starts, at)]
                      if reading.clause_of[m.start] == reading.clause_of[at]]
            pairs += pairwise(listed)
        for t in then_at:
            k = bisect_left(starts, t)
            if 0 < k < len(ordered):
                pairs.append((ordered[k - 1], ordered[k]))
        if around:
            named = sorted([*actions, *gerunds], key=lambda m: m.start)
            named_starts = [m.start for m in named]
            for t in around:
                k = bisect_left(named_starts, t)
                if k == len(named) or named[k].start - t > MARKER_REACH \
                        or reading.clause_of[named[k].start] != reading.clause_of[t]:
                    continue  # no action right after it ("before the rover arrives")
                said = named[k]  # what "before"/"after" says the other is before or after
                if t == reading.part_start[t]:  # "before stopping the rover, land the drone"
                    j = bisect_left(starts, said.end)
                    other = ordered[j] if j < len(ordered) else None
                else:  # "land the drone before you stop the rover"
                    j = bisect_left(starts, t) - 1
                    other = ordered[j] if j >= 0 else None
                if other is None or reading.clause_of[other.start] != reading.clause_of[t]:
                    continue
                pairs.append((other, said) if reading.words[t] in ("before", "by")
                             else (said, other))
        return [(first, then, _said_to(reading, min(first.start, then.start),
                                       max(first.end, then.end)))
                for first, then in pairs if first.referents.isdisjoint(then.referents)]

    def _kept_out_of(self, reading: Reading, robot: Mention) -> list[Mention]:
        """The places and objects a robot is kept out of or away from, said right after it
        ("keep the dog out of room_a", "leave the rover clear of the charger"): what the
        keeping rules out, in place of the robot ("keep the dog out of it" rules the dog out)."""
        words, end = reading.words, robot.end
        if words[end:end + 2] not in KEEPING_AWAY:
            return []
        at = end + 2 + (words[end + 2:end + 3] in (("the",), ("a",)))
        return [t for table in (self.places, self.objects)
                if (t := reading.mention_at(table, at, left=True)) is not None]

    def _context(self, reading: Reading, start: int) -> bool:
        before = reading.words[max(0, start - 4):start]
        stripped = tuple(w for w in before if w not in ("the", "a", "an", "table"))
        return any(stripped[-len(cue):] == cue for cue in CONTEXT)

    def _stated(self, q: Quantity, brief: Brief,
                by_clause: Mapping[int, tuple[list[int], list[Mention]]],
                corrected: Mention | None = None) -> Stated | None:
        """The numeric parameters a quantity can be for: of the skill its clause asks for, else
        of the robots its clause names, else of any robot; with the quantity's unit. The
        actions looked at are the ``NEAR_ACTIONS`` nearest on each side (a clause of many is
        read in linear time); ``corrected``, first: the action whose value a correction right
        before the quantity replaces ("take off to 3 m, no, 4 m, search ...")."""
        starts, actions = by_clause.get(q.clause, ([], []))
        at = bisect_left(starts, q.start)
        near = [*reversed(actions[max(0, at - NEAR_ACTIONS):at]), *actions[at:at + NEAR_ACTIONS]]
        if corrected is not None:
            near.insert(0, corrected)
        for m in near:  # the action it follows, else precedes, that takes such a value
            params = self._taking(sorted(m.referents), q)
            if params:
                return Stated(q, params)
        robots = brief.clause_robots.get(q.clause) or set(self.crew.robots)
        params = self._taking([f"{r}.{s}" for r in sorted(robots)
                               for s, sk in self.crew.robots[r].skills.items() if sk.visible], q)
        return Stated(q, params) if params else None

    def _bare(self, reading: Reading, brief: Brief, read: set[int]) -> list[Stated]:
        """A number said without a unit right after an action and "to", for the one numeric
        parameter with a unit of each of the action's skills, in that unit ("take off to 6":
        the takeoff's altitude of 6 m; a skill with none or several such parameters takes
        none); not a number read already (``read``: the quantities' starts)."""
        out = []
        words = reading.words
        for m in brief.actions:
            if words[m.end:m.end + 1] != ("to",) or m.end + 1 in read:
                continue
            bare = reading.bare_number(m.end + 1)
            if bare is None:
                continue
            value, end = bare
            params = [[(ref, p, unit_key(getattr(kind, "unit", None)))
                       for p, kind in self._skill(ref).params.items()
                       if kind.numeric and getattr(kind, "unit", None)]
                      for ref in sorted(m.referents)]
            units = {unit for found in params for _, _, unit in found}
            if params and all(len(found) == 1 for found in params) and len(units) == 1:
                q = Quantity(m.end + 1, end, value, units.pop(), m.clause,
                             reading.said(m.end, end))
                out.append(Stated(q, tuple((ref, p) for [(ref, p, _)] in params)))
        return out

    def _bounding(self, stated: Stated) -> Stated:
        """A bound holds for every parameter in its unit of the robots it is said of ("stay
        below 4 metres, search ...": the takeoff's altitude too)."""
        robots = sorted({ref.partition(".")[0] for ref, _ in stated.params})
        return Stated(stated.quantity, self._taking(
            [f"{r}.{s}" for r in robots for s in self.crew.robots[r].skills], stated.quantity))

    def _taking(self, refs: Iterable[str], q: Quantity) -> tuple[tuple[str, str], ...]:
        """The numeric parameters of these skills in the quantity's unit; of a number said
        without a unit after a measure ("altitude 4"), those the measure names, in their own
        unit."""
        family = _MEASURE_FAMILIES.get(q.measure, frozenset({q.measure})) if q.measure else None
        return tuple((ref, p) for ref in dict.fromkeys(refs)
                     for p, kind in self._skill(ref).params.items()
                     if kind.numeric and (unit_key(getattr(kind, "unit", None)) == q.unit
                                          if family is None else not family.isdisjoint(
                                              p.split("_"))))

    def _unclear(self, reading: Reading, start: int, valued: set[int],
                 near_points: set[int]) -> tuple[str, bool] | None:
        """A negation that covers nothing the gate knows, or a part of space it cannot place:
        the saying, and whether it is a place."""
        # where each known thing is named (the robots' mentions as read for the brief: where
        # they stand does not depend on what "stays" says of them); a scope that covers a point
        # or a zone (``valued``) rules that out, but a part of space near points (of
        # ``near_points``: "except the part near x 5, y 5") is no place the gate can tell
        known: list[int] | None = None
        words = reading.words
        for scope in reading.scopes:
            parts = scope.cue in _LEAVING_OUT and _leaves_out(reading, scope.at) \
                and not SPACE_PARTS.isdisjoint(words[scope.start:scope.end])
            if scope.start < start or (scope.at in valued and not (
                    parts and scope.at in near_points)):
                continue
            if not (scope.opens and scope.cue in _PROHIBITIONS) and not parts:
                continue
            if known is None:
                known = sorted([m.start for m in reading.mentions(self.robots, stays=True)]
                               + self._known(reading))
            first = bisect_left(known, scope.start)  # the first thing named in the scope
            if not (first < len(known) and known[first] < scope.end) and (
                    reading.nothing_moves is None) and not _anything_else(reading, scope):
                return f"{scope.cue} {reading.said(scope.start, scope.end)}".strip(), parts
        part = _part_only(reading, start)
        return None if part is None else (part, True)

    def _returns(self, reading: Reading, start: int, places: Sequence[Mention]) -> list[str]:
        """A way back asked with no place after it in its sentence ("... to x 2, y 3 and back",
        "... and come back", "... then return to base"; not "... and come back home", a
        destination of the crew's, nor "... and come back down", a landing): the sayings."""
        found = reading.find(RETURNS)
        if not found:
            return []
        words, seps, n = reading.words, reading.seps, len(reading.words)
        named = {m.start for m in places}
        # whether a place or a number follows word k in its sentence (one pass back: linear
        # however many ways back one sentence asks)
        ahead = [False] * (n + 1)
        for k in range(n - 1, 0, -1):
            ahead[k] = not _SENTENCE_MARKS.intersection(seps[k - 1]) and (
                k in named or words[k][0].isdigit() or ahead[k + 1])
        out = []
        last = -1  # where the last way back found ends (one saying for overlapping ones)
        for a, b in found:
            if a < max(start, last) or reading.negating(a) is not None or (
                    words[b:b + 1] == ("down",)):
                continue  # ("... and come back down": the landing)
            last = b
            if not ahead[b]:
                out.append(reading.said(a, b))
        return out

    def _undone(self, reading: Reading, objects: Sequence[Mention]) -> list[str]:
        """The things a verb the crew has no skill for is said of, right before them ("smash the
        bottle", "throw me the cube"; not negated: "don't drop the cube"): the sayings."""
        words = reading.words
        out = []
        for m in objects:
            if m.negated is not None:
                continue
            k = m.start - 1
            while k >= 0 and m.start - k <= 3 and (words[k] in ARTICLES or words[k] in
                                                   _BEFORE_THINGS):
                k -= 1  # "throw me the cube", "smash your bottle"
            if k >= 0 and words[k] in self._foreign_acts and not (
                    k and (words[k - 1] in ARTICLES or words[k - 1] in _BEFORE_THINGS)
            ) and words[m.end:m.end + 1] != ("off",) and reading.negating(k) is None:
                # (not "the empty bottle", said of it, nor "drop the block off at ...", a
                # delivery)
                out.append(reading.said(k, m.end))
        return out

    def _other_binding(self, reading: Reading, start: int) -> str | None:
        """A runtime binding said as another of its kind, or as what belongs to it ("the
        second victim", "the other victim", "the victim's car"): no value the binding holds,
        and no place the gate can tell. The saying, or None."""
        words, n = reading.words, len(reading.words)
        for m in reading.mentions(self.bindings):
            if m.start < start or m.negated is not None:
                continue
            at = m.start  # past what comes before it: "(to) (the) (second) victim"
            other = at and words[at - 1] in _OTHER_ONES
            at -= other
            at -= at > 0 and words[at - 1] in ARTICLES
            if not (at and words[at - 1] in _TO_WHERE):
                continue  # said as where to go only ("the victim's family is at x 2, y 3")
            if other:
                return reading.said(at, m.end)
            if m.end + 1 < n and words[m.end] == "s" and words[m.end + 1] not in _ITS_PLACE:
                return reading.said(at, m.end + 2)  # (not "the victim's position")
        return None

    def _relative(self, reading: Reading, start: int, brief: Brief) -> str | None:
        """A place said from a point or a place by a distance ("2 m north of x 2, y 3", "to 10
        feet from room_b"; a distance "from" one that is no value of a step's: "take off to 5 m
        from x 2, y 3" states the altitude): where that is, the gate cannot tell. The saying,
        through the point or the place, or None."""
        words, seps, n = reading.words, reading.seps, len(reading.words)
        stated = {s.quantity.start for s in brief.stated}
        for q in reading.quantities:
            k = q.end
            if q.start < start or q.unit != "m" or q.bound:
                continue
            if q.start > 1 and words[q.start - 1] == "for":
                # "toward x 2, y 3 for 1 m": a part of the way
                toward = next((j for j in range(q.start - 2, max(start, q.start - WINDOW) - 1,
                                                -1) if words[j] in _TOWARD), None)
                if toward is not None and reading.clause_of[toward] == q.clause:
                    return reading.said(toward, q.end)
            if k >= n:
                continue
            while k < n and words[k] in _DIRECTIONS:
                k += 1  # "2 m north-east of"
            if k == q.end + 1 and words[q.end] in _TOWARD:
                k -= 1  # "1 m toward x 2, y 3" (no "of")
            elif not ((k > q.end and words[k:k + 1] == ("of",)) or (
                    k == q.end and words[k:k + 1] == ("from",) and q.start not in stated)):
                continue
            at = k + 1 + (k + 1 < n and words[k + 1] in ARTICLES)
            end = at
            while end < n and (words[end] in _AXES or words[end][0].isdigit()) and (
                    end == at or not _SENTENCE_MARKS.intersection(seps[end - 1])):
                end += 1  # a point ("x 2, y 3", "(2, 3)")
            if end == at:  # ... else a place or a binding ("room_b", "the victim")
                m = next((m for table in (self.places, self.bindings, self.objects)
                          if (m := reading.mention_at(table, at, left=True)) is not None), None)
                if m is None:
                    continue
                end = m.end
            said = reading.said(q.start, end)
            return said + (")" if "(" in said and ")" not in said else "")
        return None


# the cues that rule out what follows them, said of nothing the gate knows, leave the request
# unclear ("don't go there")
_PROHIBITIONS = frozenset({"do not", "don't", "dont", "never", "must not", "should not"})
# ... and those that leave out part of what is asked, where what they leave out is a part of
# space the gate cannot place ("search x 0 to 5, y 0 to 5 except the northern half", "...
# avoiding the lake"; not "without delay", "except if it rains")
_LEAVING_OUT = frozenset({"except", "excluding", "not", "without", "apart from", "aside from",
                          "other than", "skip", "skipping", "avoid", "avoiding", "minus the"})
SPACE_PARTS = frozenset({
    "half", "halves", "part", "parts", "side", "sides", "corner", "corners", "strip", "strips",
    "edge", "edges", "quarter", "quarters", "third", "section", "sections",
    "sector", "sectors", "portion", "area", "areas", "region", "regions", "perimeter", "border",
    "boundary", "middle", "centre", "center", "north", "south", "east", "west", "northern",
    "southern", "eastern", "western", "northeast", "northwest", "southeast", "southwest",
    "lake", "river", "pond", "water", "tree", "trees", "forest", "woods", "building",
    "buildings", "road", "fence", "wall", "field", "cliff", "hill", "slope", "ridge", "house",
    "houses", "crowd", "marsh", "swamp", "shore", "beach", "parking", "yard"})


def _part_only(reading: Reading, start: int) -> str | None:
    """A part of space the request keeps to, which the gate cannot place: said after
    "only" or "just" ("search x 0 to 5, y 0 to 5; only the western half"), or of a zone
    ("the western half of x 0 to 5, y 0 to 5"); the saying, or None."""
    words = reading.words
    end = 0
    reckoned: list[int] | None = None  # where each quantity begins (looked up by bisection)
    for j in reading.where(_PART_WORDS):
        if j < max(start, end):
            continue  # (inside a run of part words read already: each word read once)
        k, end = j - 1, j + 1  # over what qualifies the part ("only the western half")
        while k >= max(start, j - 3) and (words[k] in ARTICLES or words[k] in _PART_WORDS):
            k -= 1
        while end < len(words) and words[end] in _PART_WORDS:
            end += 1
        if k >= start and words[k] in _ONLY_PART and reading.clause_of[k] == reading.clause_of[j]:
            return reading.said(k, end)
        if words[end:end + 1] == ("of",) and end + 1 < len(words) and (
                words[end + 1] in ("x", "y") or words[end + 1][0].isdigit()):
            if reckoned is None:
                reckoned = [q.start for q in reading.quantities]
            q = bisect_right(reckoned, j) - 1
            if q < 0 or j >= reading.quantities[q].end:
                return reading.said(k + 1, end + 1)  # "the western half of" (not "half of
                # 6 m": a quantity's words)
    return None


# the directions a place is said in from another ("2 m north of x 2, y 3": Intent._relative)
_DIRECTIONS = frozenset({"north", "south", "east", "west", "northeast", "northwest",
                         "southeast", "southwest", "left", "right", "ahead", "behind",
                         "toward", "towards"})
_AXES = frozenset({"x", "y"})
_TOWARD = frozenset({"toward", "towards"})
# what may be done to a thing, of which a crew has skills for some ("smash the bottle", "throw
# the cube to room_b": Intent._undone); a thing said after one the crew has none for is asked
# an action no step does
THING_ACTIONS = frozenset({
    "throw", "toss", "fling", "hurl", "drop", "smash", "break", "crush", "open", "close", "shake",
    "pour", "spill", "empty", "fill", "kick", "hit", "squeeze", "wash", "clean", "hide", "bury",
    "cut", "bend", "twist", "spin", "flip", "stack", "weigh", "paint", "heat", "push", "pull",
    "drag", "roll", "slide", "unscrew", "recycle", "discard", "destroy"})
_BEFORE_THINGS = frozenset({"me", "us", "him", "her", "them", "my", "your", "its", "our",
                            "their", "this", "that", "these", "those"})
# in a negation's scope before a point, what passes over it ("don't fly over x 2, y 2", "no
# overflight of x 2, y 2"): a zone searched over the point is ruled out too
_PASSING = frozenset({"over", "overfly", "overflight", "overflights", "above", "across",
                      "through", "overhead"})
_GROUNDING = frozenset({"ground"})  # a verb that keeps an air robot down ("ground the drone")
# a way back asked ("... and back", "... and come back", "... then return to base"), where no
# skill of the crew's is named by its words (Intent._returns)
RETURNS: tuple[tuple[str, ...], ...] = (
    *((*join, *back) for join in (("and",), ("then",), ("and", "then"))
      for back in (("back",), ("back", "again"), ("come", "back"), ("return",), ("go", "back"),
                   ("head", "back"), ("drive", "back"), ("walk", "back"), ("fly", "back"))),
    ("there", "and", "back"), ("round", "trip"), ("return", "to", "base"), ("back", "to", "base"))
_BACK_WORDS = frozenset({"back", "return", "trip"})
# before a binding, where to go and another of its kind ("to the second victim"); after it and
# "'s", where it is ("the victim's position"), not what is its ("the victim's car")
_TO_WHERE = frozenset({"to", "toward", "towards", "reach", "approach", "at"})
_OTHER_ONES = frozenset({"second", "third", "other", "another", "next", "different", "new"})
_ITS_PLACE = frozenset({"position", "location", "spot", "coordinates", "place", "side",
                        "whereabouts", "fix", "last", "current", "exact", "reported",
                        "estimated", "approximate", "pose", "point"})
# the parts of space said by a word (of SPACE_PARTS) that a request may keep to
_PART_WORDS = frozenset({
    "half", "halves", "part", "side", "corner", "strip", "edge", "quarter", "third", "section",
    "sector", "portion", "middle", "centre", "center", "perimeter", "border", "north", "south",
    "east", "west", "northern", "southern", "eastern", "western", "northeast", "northwest",
    "southeast", "southwest"})
_ONLY_PART = frozenset({"only", "just", "solely", "exclusively"})


def _leaves_out(reading: Reading, at: int) -> bool:
    """Whether the cue at word ``at`` leaves out a part of what is asked: any of
    ``_LEAVING_OUT`` but "not", which does only set off ("..., not the northern half", "but not
    the corner"; not "the rover is not part of this", said of the rover)."""
    if reading.words[at] != "not":
        return True
    return bool(at) and (reading.words[at - 1] == "but" or any(
        c in reading.seps[at - 1] for c in ",;(\u2014\u2013"))


_PRONOUNS = (("it",), ("them",))  # right after a verb: the robot named before, named again
_HOVER = frozenset({"hover", "hovers"})  # said last: the drone stays up (Intent._hovers)
# the verbs that give a thing to whom follows it ("hand the bottle to the dog")
GIVING = frozenset({f"{verb}{end}" for verb in ("hand", "pass", "deliver", "send", "bring")
                    for end in ("", "s", "ing")} | {
    "give", "gives", "giving", "take", "takes", "taking", "carry", "carries", "carrying",
    "get", "gets", "getting"})
# ... and of putting a thing in or on a robot ("put the cube in the dog's bin")
PUTTING = frozenset({"put", "puts", "putting", "place", "places", "placing", "drop", "drops",
                     "dropping", "load", "loads", "loading", "set", "sets", "setting"})
_INTO_ROBOT = frozenset({"in", "into", "on", "onto"})
_TO_ROBOT = frozenset({"to"}) | _INTO_ROBOT
# a robot told to stop ("stop the dog", "stop it", "make it stop", "dog, stop!")
_HALTS = frozenset({"stop", "halt", "freeze"})
_MAKING = frozenset({"make", "let", "have", "get"})
# after the stop or the robot: where or when it stops, not a halt now ("stop it there")
_WHERE_TO_STOP = frozenset({(w,) for w in ("at", "there", "in", "when", "once", "after", "on",
                                           "outside", "inside", "near", "beside", "if",
                                           "unless", "should", "from", "whenever")})
_SET_APART = frozenset(".!;,:\u2014\u2013-")  # before a last "stop!" said on its own
# "replace the rover with the drone": the robot after these is ruled out
_REPLACING = frozenset({"replace", "replacing", "swap", "substitute", "relieve"})
_THE_ONE = ("the", "one")  # "the drone should be the one going ..."
_ANY = frozenset({"anything", "anyone", "anybody", "anywhere", *UNIVERSAL})


def _of_foreign(reading: Reading, end: int) -> bool:
    """Whether a robot the crew does not have is what the action ending at word ``end`` acts
    on ("don't send the boat; drive the rover": the boat is ruled out, not sending)."""
    words = reading.words
    while end < len(words) and words[end] in ARTICLES:
        end += 1
    return end < len(words) and words[end] in reading.foreign


def _anything_else(reading: Reading, scope: Scope) -> bool:
    """Whether the scope covers "anything else" ("don't touch anything else"): what the request
    does not ask, which request containment holds a plan to; no unclear negation."""
    words = reading.words
    return any(words[i] in _ANY and reading.else_follows(i + 1)
               for i in range(scope.start, min(scope.end, len(words))))


def _by_scope(reading: Reading, mentions: Iterable[Mention],
              robots: bool = False) -> dict[int, list[Mention]]:
    """The mentions a negation's scope covers, by where the scope's cue begins (``robots``: of
    the robots' table, see :meth:`Reading.negating`)."""
    found: dict[int, list[Mention]] = {}
    for m in mentions:
        scope = reading.negating(m.start, robots)
        if scope is not None:
            found.setdefault(scope.at, []).append(m)
    return found


_EITHER = frozenset({"or", "either", *ARTICLES})  # between two things named as alternatives


def _either(reading: Reading, first: Mention, then: Mention) -> bool:
    """Whether ``then`` is named as an alternative to ``first``, right after it in its clause:
    "the cube or the bottle", "room_a or room_b" (either one is asked)."""
    between = reading.words[first.end:then.start]
    return first.clause == then.clause and "or" in between and _EITHER.issuperset(between) \
        and "," not in "".join(reading.seps[first.end - 1:then.start - 1])


def _first_of(steps: Sequence[PlannedStep], refs: frozenset[str]) -> int | None:
    """Where the first step of one of these skills stands in the plan."""
    return next((i for i, s in enumerate(steps) if s.ref in refs), None)


def _said_to(reading: Reading, start: int, end: int) -> str:
    """The words [start, end) as the request wrote them, those past ``WINDOW`` words left out
    in the middle (each of many things taken back is quoted in constant length)."""
    if end - start <= WINDOW:
        return reading.said(start, end)
    return f"{reading.said(start, start + 3)} ... {reading.said(end - 3, end)}"


def _enters(value: object, zone: Zone) -> bool:
    """Whether a point lies in the zone, or a zone overlaps it (by more than an edge)."""
    if not isinstance(value, tuple) or len(value) not in (2, 4):
        return False
    (zx0, zx1), (zy0, zy1) = sorted(zone[:2]), sorted(zone[2:])
    v = [float(c) for c in value]
    if len(v) == 2:
        x, y = v
        return (zx0 - TOLERANCE <= x <= zx1 + TOLERANCE
                and zy0 - TOLERANCE <= y <= zy1 + TOLERANCE)
    (x0, x1), (y0, y1) = sorted(v[:2]), sorted(v[2:])
    return min(x1, zx1) - max(x0, zx0) > TOLERANCE and min(y1, zy1) - max(y0, zy0) > TOLERANCE


def _less_left_out(facts: RequestFacts, brief: Brief) -> RequestFacts:
    """The request's facts with, for each zone it states that a zone left out (or kept away
    from) cuts into a rectangle ("search x 0 to 10, y 0 to 10 except x 0 to 2": x 2 to 10, y 0
    to 10), what is left of it stated too, first: the zone a step may search (the stated zone
    is owed as that). Each zone, and each zone left out, is looked at once however often it is
    said (a request of many zones, each said again, is read in linear work)."""
    left: list[Zone] = []
    outs = dict.fromkeys(out for out, _ in (*brief.left_out_zones, *brief.avoided_zones))
    for zone in dict.fromkeys(facts.zones):
        rest = zone
        for out in outs:
            cut = _less(rest, out)
            if cut is not None:
                rest = cut
        if rest != zone:
            left.append(rest)
            brief.zones = [rest if _same(z, zone) else z for z in brief.zones]
    if not left:
        return facts
    return RequestFacts(facts.text, facts.tokens, facts.breaks, facts.numbers, facts.points,
                        (*left, *facts.zones))  # (what is left first: the zone to fill in)


def _less(zone: Zone, out: Zone) -> Zone | None:
    """What is left of the zone without ``out``, when that is a smaller rectangle: ``out``
    spans the zone along one axis and covers one end of it along the other."""
    (x0, x1), (y0, y1) = sorted(zone[:2]), sorted(zone[2:])
    (ox0, ox1), (oy0, oy1) = sorted(out[:2]), sorted(out[2:])
    spans_y = oy0 <= y0 + TOLERANCE and oy1 >= y1 - TOLERANCE
    spans_x = ox0 <= x0 + TOLERANCE and ox1 >= x1 - TOLERANCE
    if spans_y and not spans_x:
        if ox0 <= x0 + TOLERANCE and x0 < ox1 < x1 - TOLERANCE:
            return (ox1, x1, y0, y1)
        if ox1 >= x1 - TOLERANCE and x0 + TOLERANCE < ox0 < x1:
            return (x0, ox0, y0, y1)
    if spans_x and not spans_y:
        if oy0 <= y0 + TOLERANCE and y0 < oy1 < y1 - TOLERANCE:
            return (x0, x1, oy1, y1)
        if oy1 >= y1 - TOLERANCE and y0 + TOLERANCE < oy0 < y1:
            return (x0, x1, y0, oy0)
    return None


def _same(value: object, stated: tuple[float, ...]) -> bool:
    return isinstance(value, tuple) and len(value) == len(stated) and all(
        _close(a, b) for a, b in zip(value, stated, strict=True))


NEAR_ACTIONS = 16  # actions on each side of a quantity that it may be for, at most
# words that say the action after them comes after the one before ("..., then ...")
THEN = frozenset({"then", "afterwards", "afterward", "subsequently", "thereafter"})
# after the actions of a clause: each comes before the next ("stop the rover and land the drone,
# in that order"; not "in order to")
IN_ORDER = (("in", "that", "order"), ("in", "this", "order"), ("in", "the", "order", "given"),
            ("in", "the", "order", "i", "said"), ("one", "after", "the", "other"))
BEFORE_AFTER = frozenset({"before", "after"})  # ... and the action right after them
_BY = frozenset({"by"})  # after "followed": as "before" ("land, followed by stopping ...")
MARKER_REACH = 3  # words from "before"/"after" to its action, at most ("before you stop")
# the measures said for one another ("height 4" gives an altitude parameter)
_HEIGHT = frozenset({"altitude", "height", "elevation"})
_MEASURE_FAMILIES = dict.fromkeys(_HEIGHT, _HEIGHT)
# the negations that keep away from what they cover (a hazard), not only leave it out
AVOIDING = frozenset({"avoid", "avoiding", "stay out of", "stay away from", "stay clear of",
                      "keep out of", "keep away from", "keep clear of", "steer clear of",
                      "away from", "clear of", "outside", "outside of", *HAZARD_CUES})
# the negations that say what replaces what they cover ("search x 0 to 10, y 0 to 10 instead of
# x 0 to 5, y 0 to 5"): that alone is ruled out, not what overlaps it
REPLACING = frozenset({"instead of", "rather than", "in place of", "in lieu of"})
# where a clause ends in the text (a stop and a space; not the point of "2.5")
CLAUSE_BREAK = re.compile(r"[.!?;:](?:\s+|$)|\s[-\u2013\u2014]+\s")
# the parts of a request values are given in: its clauses, but that a colon addresses what
# follows to what comes before it ("Drone: x 2, y 3"), and the parts of a clause a comma and a
# joining word begin (", then drive the rover")
PART_BREAK = re.compile(r"[.!?;](?:\s+|$)|\s[-\u2013\u2014]+\s|,\s*(?=(?:"
                        + "|".join(sorted(CLAUSE_JOINS)) + r")\b)", re.IGNORECASE)
DIGIT = re.compile(r"\d")


def _uncarried(mentions: Sequence[Mention], steps: Sequence[PlannedStep]) -> list[Mention]:
    """The mentions no step's arguments carry."""
    if not mentions:
        return []
    values = _NO_NAMES.union(*[s.names for s in steps])
    return [m for m in mentions if not values & m.referents]


def _times(steps: Sequence[PlannedStep], ref: str) -> str:
    n = sum(s.ref == ref for s in steps)
    return "once" if n == 1 else f"{n} times"


def _names(names: Iterable[str]) -> str:
    return ", ".join(sorted(names))


def _rng(r: tuple[float, float]) -> str:
    return f"[{r[0]:g}, {r[1]:g}]"
