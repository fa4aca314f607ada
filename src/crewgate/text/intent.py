"""What a request asks and what it rules out, read deterministically (NegEx-style cue lists and
bounded scopes, no statistical parser): which of its words name which things, whether each
mention is negated ("do not send the dog"), ruled out ("the rover stays", "keep the drone on
the ground"), exclusive ("drone only", "just wave") or taken back ("actually no, never mind"),
and the quantities it states with their units ("6 metres", "2.5 m").

The things are the caller's: a :data:`PhraseTable` maps phrases (word tuples) to referents
(robot names, skill references, ...), so this module knows no crew. Reading is one pass over the
words; tables are indexed by first word; every scope and window is bounded.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, compress, repeat
from operator import attrgetter, contains, eq, itemgetter, sub
from typing import Any, Generic, NamedTuple, TypeVar, overload

from crewgate.text.mood import FOUND_TABLES, NO, Idle, answers_no, idle_parts
from crewgate.text.phrases import PRONOUNS
from crewgate.text.spelled import FIRST as SPELLED_FIRST
from crewgate.text.spelled import and_a_half, spelled, with_unit
from crewgate.text.units import METRES, TIMES, UNITS, in_unit, per
from crewgate.text.words import word_stream
from crewgate.values import tuple_of

T = TypeVar("T")

PhraseTable = Mapping[tuple[str, ...], frozenset[str]]  # phrase words -> referents

STOPS = frozenset(".!?;:—–")  # marks that end a clause
_JOINING = frozenset(".–—")  # marks of STOPS that join two digits ("1.5", "3–7")
DASH = re.compile(r"\s-+\s")  # so does a hyphen (or "--") between whitespace: " - ", "\t--\n"
CONTRAST = frozenset({"but", "instead", "however", "though", "although", "rather", "just",
                      "only", "then", "while", "whereas", "yet"})
WINDOW = 10  # words a negation reaches, at most
# a request of more words has every word's positions listed at once (Reading._at)
SCAN_WORDS = 64
# where something is said to be from a place or thing (_NARROW_CUES); not "near", "by",
# "close to", "towards", "around": going there is going near it
_BESIDE = (("next", "to"), ("next", "door", "to"), ("beside",),
           ("adjacent", "to"), ("in", "front", "of"), ("behind",), ("beyond",), ("past",),
           ("across", "from"), ("opposite",), ("opposite", "of"), ("left", "of"),
           ("right", "of"), ("neighbour", "of"), ("neighbor", "of"), ("out", "of"))
# ... and a place left ("dog, exit room_b", "rover, leave x 2, y 3"): not where to go either
# ("leave" only before a point: "leave the rover running", "leave the bottle where it is" keep
# what they name; a place after it is the crew's to tell, crewgate.spec.intent)
_LEFT = tuple((w,) for w in ("leave", "leaves", "exit", "exits", "vacate", "vacates",
                             "evacuate", "evacuates", "depart", "departs"))
BESIDE = frozenset((*_BESIDE, *_LEFT))
_LEAVE_WORDS = frozenset(w for (w,) in _LEFT)
LEAVES = frozenset({"leave", "leaves", "leaving"})
_BOUND_FOR = frozenset({("for",), ("to",), ("towards",), ("toward",)})
# ... and after it ("room_b's neighbour")
_NEIGHBOURS = frozenset({("s", w) for w in ("neighbour", "neighbor", "neighbours", "neighbors")})
# ... whose scope ends before where to go ("walk the dog past the charger to room_b")
ONWARD = frozenset({"to", "into", "onto", "towards", "toward", "then"})
# before an action, these call it off ("abort the drive to x 2, y 3", "abandon the search of ...",
# "pause the search", "postpone the drive"); not before anything else ("abort the mission")
# (not "end": "end the drive there", "end the walk at room_b" say where it ends)
_ABORTS = frozenset({"abort", "aborting", "abandon", "abandoning", "pause", "pausing",
                     "suspend", "suspending", "terminate", "terminating", "postpone",
                     "postponing", "defer", "deferring", "discontinue"})
# cues that negate one thing, not what follows it ("skip the search and send the rover": the
# rover is asked): their scope also ends at a word that joins (CLAUSE_JOINS)
_NARROW_CUES = (("skip",), ("skipping",), ("instead", "of"), ("rather", "than"),
                ("in", "place", "of"), ("in", "lieu", "of"), ("cancel",),
                # an action aborted ("abort the drive to x 2, y 3"; not "abort the mission")
                *((w,) for w in sorted(_ABORTS)),
                # the speaker's to decide ("search ...; I'll decide about the rover")
                *((*who, "decide", on) for who in (("i", "ll"), ("i", "will"), ("we", "ll"),
                                                   ("we", "will"), ("let", "me"), ("let", "us"))
                  for on in ("about", "on")),
                ("cancelling",), ("canceling",), ("call", "off"), ("calling", "off"),
                ("forget",),  # "forget the rover; search ...", "forget landing"
                ("hold", "off"),  # "hold off on the drone and send the rover ..."
                # a place kept away from ("stay out of the charger and walk to room_a")
                ("stay", "out", "of"), ("stay", "away", "from"), ("stay", "clear", "of"),
                ("keep", "out", "of"), ("keep", "away", "from"), ("keep", "clear", "of"),
                ("steer", "clear", "of"), ("nobody",),
                # ... or said to be left ("search outside x 0 to 5, y 0 to 5"; before anything
                # but a value, where: "wait outside room_a", _BEFORE_VALUES)
                ("outside",), ("outside", "of"),
                # "send nothing to x 2, y 3", "none of the robots may go there" (not "nothing
                # else", "nothing but the drone", "do nothing": _NOTHING_BEFORE, _NOTHING_AFTER)
                ("nothing",), ("none",),
                # ... with the robot between ("keep the rover away from x 2, y 3")
                ("away", "from"), ("clear", "of"),
                # "never mind the rover" (before a thing: no retraction, Reading._minds)
                ("never", "mind"),
                # a part of the way there only ("walk the dog halfway to room_b"): the place
                # is not where to go
                *((*part, to) for part in (("halfway",), ("half", "way"), ("partway",),
                                           ("part", "way"), ("part", "of", "the", "way"),
                                           ("most", "of", "the", "way"))
                  for to in ("to", "towards", "toward")),
                ("short", "of"),  # "drive the rover 1 m short of x 2, y 3"
                # a place said as where another is ("walk the dog next to room_b", "the room
                # beside room_b", "walk past the charger", "hand me the cube beside the
                # bottle"): it is not where to go, nor what to take
                *_BESIDE, *_LEFT)
NEGATIONS: tuple[tuple[str, ...], ...] = (
    ("do", "not"), ("don", "t"), ("dont",), ("does", "not"), ("doesn", "t"), ("must", "not"),
    ("mustn", "t"), ("should", "not"), ("shouldn", "t"), ("never",), ("not",), ("no",),
    ("without",), ("except",), ("excluding",), ("other", "than"), ("nor",), ("neither",),
    ("avoid",), ("avoiding",), ("won", "t"), ("cannot",), ("can", "t"), ("shan", "t"),
    ("needn", "t"), ("isn", "t", "going"), ("aren", "t", "going"),
    # "I'd rather the rover didn't go ...", as "did not" ("not")
    ("didn", "t"), ("didnt",),
    # "anywhere but the charger", "everything but the drone", "apart from the cube" (and
    # "besides" after these: "anywhere besides x 2, y 3"; alone it adds, "besides the cube")
    *((whole, but) for whole in ("anywhere", "anything", "everywhere", "everything",
                                 "everyone", "everybody", "anyone", "anybody")
      for but in ("but", "besides")),
    # "send any robot but the rover", "every robot but the drone"
    *((whole, robot, but) for whole in ("any", "every", "all") for robot in ("robot", "robots")
      for but in ("but", "besides")),
    # "take off to any altitude but 6 m", "walk the dog to any room but room_b"
    *(("any", what, but) for what in ("altitude", "height", "value", "speed", "place",
                                      "point", "room", "location", "spot", "object",
                                      "thing") for but in ("but", "besides")),
    # "in no case should the rover ...", "the rover oughtn't go ...", "you aren't allowed to
    # drive ..."
    ("in", "no", "case"), ("oughtn", "t"), ("ought", "not"), ("not", "allowed", "to"),
    # "I'd advise against driving the rover to x 2, y 3"
    ("advise", "against"), ("recommend", "against"), ("warn", "against"),
    ("advised", "against"), ("recommended", "against"),
    ("not", "permitted", "to"), ("aren", "t", "allowed", "to"), ("isn", "t", "allowed", "to"),
    ("apart", "from"), ("aside", "from"),
    ("minus", "the"),  # "minus the dog, ..." (not "minus 3", a number)
    ("forbid",), ("forbids",), ("prohibit",), ("prohibits",),  # "I forbid you to ..."
    # "it is forbidden to drive ...", "I'd hate for the rover to ...", "... hate it if ..."
    ("forbidden", "to"), ("prohibited", "to"), ("hate", "for"), ("hate", "it", "if"),
    # "it would be a mistake to drive ...", "it is dangerous to ..."
    ("a", "mistake", "to"), ("a", "bad", "idea", "to"), ("dangerous", "to"), ("unsafe", "to"),
    ("hazardous", "to"),
    # "it's too windy to fly", "too far to walk"
    *(("too", w, "to") for w in ("windy", "stormy", "foggy", "dark", "bad", "wet", "risky",
                                 "far", "late", "hot", "cold", "icy", "smoky")),
    # "refrain from ...", "forget about the rover"
    ("refrain", "from"), ("forget", "about"),
    # "I'd rather you didn't send the rover", "negative on the rover"
    *((w, "you", *did) for w in ("rather", "prefer")
      for did in (("didn", "t"), ("did", "not"), ("didnt",))),
    ("negative", "on"),
    # "the last thing I want is the rover at x 2, y 3"
    *(("last", "thing", who, want) for who in ("i", "we") for want in ("want", "need")),
    # "send the robot that isn't the rover", "whichever robot isn't the rover", "hand me
    # whatever isn't the bottle"
    *((who, be, "t") for who in ("that", "which", "robot", "one", "whatever", "whichever",
                                 "whoever", "thing", "object", "anything", "something",
                                 # "to whichever room isn't room_b"
                                 "room", "place", "location", "spot", "table", "wherever")
      for be in ("isn", "aren")),
    # "skip the search and ...", "instead of searching", "call off the search"
    *_NARROW_CUES,
)
NARROW = frozenset(_NARROW_CUES)
_BEFORE_VALUES = frozenset({"outside"})  # cues that keep away from a value, else say where
# "nothing", "none" negate nothing before these ("nothing else", "none but the drone", "nothing
# for it to carry": it carries nothing) or after these ("the rover does nothing", "there is
# none")
_NOTHING = frozenset({"nothing", "none"})
_NOTHING_BEFORE = frozenset({"else", "more", "but", "less", "other", "further", "left", "for"})
_NOTHING_AFTER = frozenset({"do", "does", "did", "doing", "done", "is", "are", "was", "were"})
# what a bound before a quantity says a value may be ("below 4 metres": "<", "no higher than 4
# m": "<=", "above 2 m": ">", "at least 2 m": ">="): not what it is
_UPPER = ("more", "higher", "further", "farther")
_AXIS_LABELS = frozenset({"x", "y"})  # a point's first label after a bound ("... than x 2")
_UPPER_POINT = frozenset({"further", "farther"})  # how far to go, before a point
# a bound said of a measure before its number ("max altitude 4 m", "minimum height of 2 m")
_MEASURES = frozenset({"altitude", "height", "speed", "distance", "elevation", "depth"})
_MEASURE_BOUNDS = frozenset({"max", "maximum", "min", "minimum"})
# between a measure and its number said without a unit ("altitude of 4", "altitude limit 4")
_MEASURE_LIMITS = {"limit": "<=", "cap": "<=", "ceiling": "<=", "floor": ">="}
_MEASURE_LINKS = frozenset({"of", "is", "at", "to", *_MEASURE_LIMITS})
# arithmetic said around a quantity (Reading._reckoned): a multiple before it, an operation after
_MULTIPLES = {"twice": 2.0, "double": 2.0, "triple": 3.0, "thrice": 3.0, "quadruple": 4.0,
              "half": 0.5}
_OPERATIONS = frozenset({"plus", "minus", "times"})
_LOWER = ("less", "lower", "fewer")
BOUNDS: dict[tuple[str, ...], str] = {
    **dict.fromkeys([("below",), ("under",), ("beneath",), ("less", "than"), ("lower", "than"),
                     ("fewer", "than")], "<"),
    **dict.fromkeys([("at", "most"), ("maximum",), ("max",), ("maximum", "of"),
                     ("a", "maximum", "of"), ("not", "exceeding"),
                     *((*no, "exceed") for no in (("not",), ("never",), ("do", "not"),
                                                  ("don", "t"), ("dont",), ("must", "not"),
                                                  ("mustn", "t"), ("should", "not"),
                                                  ("shouldn", "t"))),
                     *((no, w, "than") for no in ("no", "not", "never") for w in _UPPER),
                     *((no, w) for no in ("not", "never") for w in ("above", "over")),
                     # a limit named ("with a ceiling of 2 m", "capped at 2 m")
                     *((*a, w, "of") for a in ((), ("a",)) for w in ("ceiling", "cap", "limit")),
                     ("capped", "at"), ("limited", "to")], "<="),
    **dict.fromkeys([("above",), ("over",), ("exceed",), ("exceeding",), ("past",),
                     ("beyond",),  # ("don't go past 2 m": the opposite, "<="; _NUMBER_BOUNDS)
                     *((w, "than") for w in _UPPER),
                     ("greater", "than")], ">"),
    **dict.fromkeys([("at", "least"), ("minimum",), ("min",), ("minimum", "of"),
                     ("a", "minimum", "of"),
                     *((no, w, "than") for no in ("no", "not", "never") for w in _LOWER),
                     *((no, w) for no in ("not", "never") for w in ("below", "under",
                                                                   "beneath")),
                     *((*a, "floor", "of") for a in ((), ("a",)))], ">="),
}
_NUMBER_BOUNDS = frozenset({("past",), ("beyond",)})  # not of a point: "drive past x 2, y 3"
_BOUND_REACH = max(map(len, BOUNDS))
_BOUND_FIRSTS = frozenset(p[0] for p in BOUNDS)
_NEGATING = frozenset(p[0] for p, b in BOUNDS.items() if len(p) > 1 and p[0] in (
    "no", "not", "never", "do", "don", "dont", "must", "mustn", "should", "shouldn"))
# a bound said inside a negation's scope says the opposite ("do not fly above 4 m": "<=")
_OPPOSITE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}
# right after a negation, these negate again: what follows is asked ("don't forget to land",
# "don't hesitate to send the rover", "don't wait, send the rover")
UNDOING = frozenset({"forget", "forgetting", "hesitate", "fail", "neglect", "omit", "wait",
                     "delay", "miss", "missing", "omitting", "neglecting", "failing", "waiting",
                     "delaying", "hesitating"})
# the cues that can open a prohibition ("don't send the dog, the rover or the drone"); the rest
# negate a detail ("the bottle, not the cube", "without the rover")
PROHIBITIONS = frozenset({("do", "not"), ("don", "t"), ("dont",), ("must", "not"),
                          ("mustn", "t"), ("should", "not"), ("shouldn", "t"), ("never",),
                          ("avoid",)})
RETRACTIONS: tuple[tuple[str, ...], ...] = (
    ("actually", "no"), ("no", "wait"), ("never", "mind"), ("nevermind",), ("cancel", "that"),
    ("cancel", "this"), ("cancel", "it"), ("cancel", "everything"), ("cancel", "the", "request"),
    ("forget", "it"), ("forget", "that"), ("forget", "about", "it"), ("scratch", "that"),
    ("disregard", "that"), ("disregard", "this"), ("disregard", "the", "above"),
    ("ignore", "that"), ("ignore", "the", "above"), ("scrap", "that"), ("scrap", "it"),
    ("scrap", "this"), ("belay", "that"), ("on", "second", "thought"),
    ("don", "t", "do", "that"), ("don", "t", "do", "it"), ("do", "not", "do", "that"),
    ("just", "kidding"), ("just", "joking"), ("only", "kidding"), ("only", "joking"), ("jk",),
    ("when", "pigs", "fly"),
    # sent by mistake ("... Sorry, wrong window.", "... That was a test.", "... (ignore this)")
    ("ignore", "this"), *(("wrong", w) for w in ("window", "crew", "chat", "channel", "tab")),
    *((that, "was", "a", "test") for that in ("that", "this")),
    *((that, "was", "for", "someone", "else") for that in ("that", "this")),
    ("not", "meant", "for", "you"), ("wasn", "t", "meant", "for", "you"),
    ("i", "m", "kidding"), ("i", "m", "joking"), ("said", "no", "one", "ever"),
    ("said", "nobody", "ever"), ("said", "no", "one"), ("said", "nobody"),
    *(("forget", *said) for said in (("i", "said", "that"), ("i", "said", "anything"),
                                     ("i", "asked"), ("what", "i", "said"), ("i", "said", "it"))),
    # the robot named was the wrong one, and which is right goes unsaid
    ("wrong", "robot"), ("wrong", "one"), ("not", "that", "one"), ("no", "the", "other", "one"),

    *((*meant, "the", "other", one) for meant in (("i", "meant"), ("i", "mean"))
      for one in ("one", "robot")),
    # a correction: what follows replaces what came before ("room_a, correction: room_b")
    ("i", "meant"), ("correction",), ("or", "rather"), ("change", "of", "plan"),
    ("wait", "no"), ("hold", "that", "thought"), ("on", "reflection"),
    ("on", "second", "thoughts"), ("second", "thoughts"), ("undo", "that"), ("strike", "that"),
    # "... Ignore what I just said.", "... Request withdrawn.", "I withdraw the request"
    *((w, "what", "i", *just, "said") for w in ("ignore", "disregard")
      for just in ((), ("just",))), ("forget", "what", "i", "just", "said"),
    ("request", "withdrawn"), ("i", "withdraw", "that"), ("i", "withdraw", "the", "request"),
    ("withdraw", "that"), ("withdraw", "the", "request"), ("scrub", "that"),
    # "belay my last", "disregard my last message", "ignore my previous instruction"
    *((w, my, last) for w in ("belay", "disregard", "ignore", "cancel", "scratch")
      for my in ("my", "the") for last in ("last", "previous")),
    # what was just asked, said to be wrong ("...; that's too far", "that would be a mistake")
    *(("that", *be, *wrong) for be in (("s",), ("is",), ("would", "be"))
      for wrong in (("too", "far"), ("too", "high"), ("too", "low"), ("too", "dangerous"),
                    ("too", "risky"), ("a", "bad", "idea"), ("a", "mistake"), ("a", "no"))),
)
# "don't move anything": every motion ruled out (a retraction of everything)
NOTHING_MOVES: tuple[tuple[str, ...], ...] = (
    ("don", "t", "move", "anything"), ("do", "not", "move", "anything"),
    ("don", "t", "do", "anything"), ("do", "not", "do", "anything"), ("nothing", "moves"),
    ("nothing", "should", "move"), ("nobody", "moves"), ("no", "one", "moves"),
    ("stay", "put", "everyone"), ("everyone", "stays", "put"),
)
TAKING_BACK = RETRACTIONS + NOTHING_MOVES  # what takes back what came before
# a prohibition with nothing after it in its sentence, opening it past these words, takes back
# what came before too ("Drive the rover to x 2, y 3. Wait, no, don't."; Reading._bare)
BARE_PROHIBITIONS: tuple[tuple[str, ...], ...] = (
    ("don", "t"), ("do", "not"), ("dont",),
    # "..., or actually don't bother.", "... Don't do it."
    *((*dont, *it) for dont in (("don", "t"), ("do", "not"), ("dont",))
      for it in (("bother",), ("do", "it"), ("do", "that"))))
_INTERJECTIONS = frozenset({"no", "nope", "nah", "wait", "actually", "oh", "um", "uh", "hmm",
                            "ok", "okay", "please", "sorry", "hold", "on", "so", "well", "oops",
                            "typo"})
_SENTENCE_ENDS = frozenset(".!")
_HEDGES = frozenset({"maybe", "perhaps", "probably", "possibly"})  # before a bare prohibition
# ... or a part's (what a correction names ends there: "the rover — I mean the drone — to ...")
_PART_ENDS = frozenset(".!,;\u2014\u2013")
_ENDS = frozenset(".!?")  # ... or a question's
# a sentence of just one of these (interjections before it) after another calls off what came
# before ("Drive the rover to x 2, y 3. Cancel!", "... Abort.", "... No, scrap.", "... Actually,
# hold on.", "... Wait.")
_CALLING_OFF: tuple[tuple[str, ...], ...] = (
    *((w,) for w in ("cancel", "abort", "scrap", "scratch", "belay", "disregard", "cancelled",
                     "canceled", "aborted", "wait")),
    ("hold", "on"), ("hang", "on"), ("hold", "up"), ("hold", "it"), ("not", "so", "fast"),
    ("hold", "your", "horses"), ("or", "not"), ("kidding",), ("joking",), ("psych",),
    ("let", "s", "not"), ("let", "us", "not"), ("stand", "down"), ("hold", "off"),
    ("hold", "fire"), ("stand", "by"), ("standby",), ("undo",), ("pause",), ("better", "not"),
    ("permission", "denied"), ("request", "denied"), ("denied",), ("vetoed",), ("veto",),
    ("not", "authorised"), ("not", "authorized"), ("unauthorised",), ("unauthorized",),
    *((*i, "changed", "my", "mind") for i in ((), ("i",), ("i", "ve"), ("i", "have"))),
    *((*w, t) for w in (("one",), ("just", "a"), ("wait", "a"), ("hold", "on", "a"),
                        ("hang", "on", "a")) for t in ("moment", "second", "sec", "minute")),
    # a word to drop it ("... As you were.", "... Typo, ignore.", "... Hmm, leave it.")
    ("ignore",), ("revert",), ("rollback",), ("roll", "back"), ("as", "you", "were"),
    ("leave", "it"),
    # the thing or place named was wrong, and which is right goes unsaid ("... Wrong cube.")
    *(("wrong", w) for w in ("cube", "object", "thing", "item", "room", "place", "location",
                             "spot", "table", "point", "zone", "area", "destination")))
# a stop said to all, a sentence after the request ("... Stop everything.", "... All stop.", "...
# Freeze!"): no robot may move on, but to its safe fallback (crewgate.spec.intent)
_STOPS_ALL: tuple[tuple[str, ...], ...] = (
    ("stop",), ("halt",), ("freeze",), ("stop", "everything"), ("halt", "everything"),
    ("hold", "everything"), ("all", "stop"), ("full", "stop"), ("stop", "all"),
    ("nobody", "move"), ("no", "one", "move"),
    *((who, *do) for who in ("everyone", "everybody") for do in (("stay", "put"), ("freeze",),
                                                                ("stop",), ("halt",))))
_BARE_NO_WORDS = 4  # a bare no ("Of course not.") is a sentence of at most these many words
# a bare refusal said of a robot right before it ("Rover: no.", "the rover? Not today.")
_BARE_NO = frozenset({"no", "nope", "nah", "not", "negative"})
# ... and a jest set off at the end ("... (kidding)", "... (sarcasm)")
_JEST = frozenset({"kidding", "joking", "sarcasm", "sarcastic"})
_SET_OFF_NO = frozenset(",(-\u2013\u2014:")  # before a bare no that ends the request
_ENDING_NO = _BARE_NO | {"never"}  # ... and what ends it so ("... y 3 never")
_NOT_NOW = frozenset({"today", "now", "yet", "needed", "required"})
# ... and a bare dismissal set off by more than a comma ("and the rover? Leave it.", "Rover:
# skip."; "park the rover, leave it" is no dismissal of the rover)
_DISMISSALS = frozenset({("leave", "it"), ("forget", "it"), ("skip", "it"), ("skip",),
                         ("pass",), ("forget", "about", "it"), ("off",), ("hold",),
                         ("later",), ("maybe", "later"), ("not", "yet"), ("not", "now"),
                         ("let", "it", "be"), ("leave", "it", "be"), ("leave", "it", "alone")})
_LONGEST_DISMISSAL = max(map(len, _DISMISSALS))
# "give the rover a rest"
_RESTING = frozenset({("a", "rest"), ("a", "break"), ("the", "day"), ("a", "breather")})
# "..., actually, room_b.": a correction names what replaces, in a few words and no action;
# these say it set off by a comma ("sorry, x 3, y 2"), those after them with or without one
# ("I mean x 3, y 2", "make that room_b", "let me rephrase: x 3, y 2")
_CORRECTING = ("actually", "no", "nope", "sorry", "oops", "er", "err", "uh", "um")
_CORRECTING_PHRASES = (*((w,) for w in _CORRECTING), ("my", "bad"), ("i", "mean"),
                       ("make", "that"), ("make", "it"), ("change", "that", "to"),
                       ("or", "better"), ("let", "me", "rephrase"))
_COMMA_AFTER = frozenset({*_CORRECTING, "bad"})  # (the cue's last word)
_ANSWERING = frozenset({"no", "nope"})  # after a question: an answer, no correction
_CORRECTION_WORDS = 4
# a direction a correction gives a quantity instead of a value ("5 m, no, higher": above 5 m),
# and the words it may say before it ("no, a bit higher", "actually, make it lower")
_COMPARATIVES = {"higher": ">", "lower": "<", "more": ">", "less": "<", "further": ">",
                 "farther": ">", "closer": "<", "nearer": "<", "faster": ">", "slower": "<"}
_THAN_THAT = (("than", "that"), ("than", "this"), ("than", "it"))
_COMPARING = frozenset({"no", "nope", "wait", "sorry", "actually", "a", "bit", "little",
                        "lot", "much", "even", "slightly", "make", "it", "go"})
# the words between a quantity and a number said without a unit that correct the one with the
# other ("5 m... no, 6", "5 m; actually make it 6"), of which one of _RESTATES
_RESTATING = frozenset({*_CORRECTING, "wait", "i", "mean", "meant", "make", "it", "that",
                        "scratch", "rather", "or", "correction", "change", "to", "let", "me",
                        "rephrase", "better", "hmm", "well", "my", "bad", "sorry"})
_RESTATES = frozenset({*_CORRECTING, "mean", "meant", "make", "scratch", "rather",
                       "correction", "change", "rephrase", "bad"})
_RESTATING_WORDS = 5
_NOT_A_CORRECTION = frozenset({"not", "no", "too", "also", "as", "well", "and", "please"})
_SET_OFF = frozenset(",.;:!?-—…([")  # what sets "actually" off from what came before
_LONGEST_NEGATION = max(map(len, NEGATIONS))
_NEVER_MIND = ("never", "mind")
_LONGEST_TAKING_BACK = max(map(len, TAKING_BACK))
# the words a subject that is dropped may have: as many as a negation's scope reaches from its
# cue's first word (Reading.negating looks that far back for the scope of a word)
_SUBJECT_REACH = WINDOW + _LONGEST_NEGATION
EXCLUSIVE_BEFORE = frozenset({"only", "just", "solely", "exclusively"})
EXCLUSIVE_AFTER = frozenset({"only", "alone", "exclusively", "solely", "unaided"})
# ... and said in more words ("the dog on its own", "the dog, by itself")
_ON_ITS_OWN = frozenset({("on", w, "own") for w in ("its", "your", "their", "his", "her")} | {
    (*all_, "by", w) for all_ in ((), ("all",))
    for w in ("itself", "yourself", "themselves", "himself", "herself")})
_ON_ITS_OWN_SIZES = sorted({len(p) for p in _ON_ITS_OWN})
_NOT_ONLY = frozenset({"only", "just", "merely", "simply"})  # after a negation: no negation
# "withdraw the rover from x 2, y 3", "evacuate the dog from room_b": the place after "from"
# is left (up to where to go: "... from room_b to room_a")
_LEAVING = frozenset({"withdraw", "withdraws", "evacuate", "evacuates", "retreat", "retreats",
                      "remove", "removes", "extract", "extracts", "pull", "pulls", "recall",
                      "recalls"})
# "prevent the rover from reaching x 2, y 3": what follows "from" (a few words on) is ruled out
_PREVENTING = frozenset({"prevent", "prevents", "keep", "keeps", "stop", "stops", *_LEAVING})
_PREVENTED_REACH = 5
ARTICLES = frozenset({"the", "a", "an", "our", "my", "your", "that", "this"})
# no verb follows these: a word after them that is a verb and a noun too is the noun ("keep
# your hands empty", "wait for my go", "its place"; "read me her coordinates" still asks)
POSSESSIVES = frozenset({"my", "your", "its", "his", "her", "our", "their"})
HOMOGRAPHS = frozenset({
    "go", "hand", "hands", "place", "places", "wave", "waves", "stop", "stops", "land", "lands",
    "search", "drive", "walk", "walks", "move", "moves", "head", "heads", "hold", "holds",
    "pick", "lift", "pass", "scan", "sweep", "find", "launch", "take", "load", "loads", "put",
    "survey", "greeting", "return", "run", "runs", "turn", "turns", "release", "drop", "grip"})
# what drops the subject before it, in its clause ("searching x 0 to 5, y 0 to 5 is not
# needed", "the search is cancelled", "going to the charger is not allowed"): a negation's scope
# that covers the subject (Reading.scopes); right after a robot or a thing, a stay cue too
_UNWANTED = ("needed", "required", "necessary", "wanted", "allowed", "permitted")
# a hazard where it is ("x 2, y 3 is dangerous", "room_a is flooded"): kept away from, a point
# in a zone said so as well as the zone (crewgate.spec.intent)
_HAZARDS = (("off", "limits"), ("dangerous",), ("unsafe",), ("not", "safe"), ("hazardous",),
            ("a", "hazard"), ("blocked",), ("closed",), ("flooded",), ("on", "fire"),
            ("impassable",), ("contaminated",), ("a", "no", "go", "zone"),
            ("a", "no", "go", "area"), ("no", "go"), ("mined",), ("out", "of", "bounds"),
            ("off", "bounds"), ("a", "restricted", "area"), ("a", "restricted", "zone"),
            ("a", "danger", "zone"))
_DROPPED = (("unnecessary",), ("forbidden",), ("prohibited",), ("cancelled",), ("canceled",),
            ("called", "off"), ("off", "the", "table"), ("out", "of", "the", "question"),
            ("not", "an", "option"), ("not", "authorised"), ("not", "authorized"),
            ("unauthorised",), ("unauthorized",), ("not", "approved"), ("denied",),
            ("vetoed",), *_HAZARDS,
            # "driving the rover there is a no(-go)", "... a hard no"
            ("a", "no", "go"), ("a", "no"), ("a", "hard", "no"))
_BE = (("is",), ("are",), ("would", "be"))  # before what drops its subject
# the cues (as a negation's scope says them) that say their subject is a hazard
HAZARD_CUES = frozenset(" ".join((*be, *h)) for be in _BE for h in _HAZARDS)
DROPS: tuple[tuple[str, ...], ...] = (
    # given to no one ("hand the red cube to nobody")
    ("to", "nobody"), ("to", "no", "one"), ("to", "noone"),
    *((be, "not", a) for be in ("is", "are") for a in _UNWANTED),
    *((be, "no", "longer", a) for be in ("is", "are") for a in _UNWANTED),
    *((be, "t", a) for be in ("isn", "aren") for a in _UNWANTED),
    *((*will, "be", a) for will in (("won", "t"), ("will", "not")) for a in _UNWANTED),
    *((*be, *s) for be in _BE for s in _DROPPED),
    # "driving the rover to x 2, y 3 would be a mistake", "... is a bad idea"
    *((*be, *s) for be in (("is",), ("are",), ("would", "be"), ("will", "be"))
      for s in (("a", "mistake"), ("a", "bad", "idea"), ("not", "a", "good", "idea"),
                ("too", "dangerous"), ("too", "risky"), ("risky",),
                # a value said to be too much or too little ("6 m is too high")
                *(("too", w) for w in ("high", "low", "far", "close", "fast", "slow")))),
)
# a robot or a place that cannot act or be gone to now: of them, first, a fault or a closure,
# which rules out all but the robot's safe fallback ("the drone is broken; land it", "the
# airspace is closed; land the drone"), where the request asks it as ever (FAULTS)
_FAULT_STATES = (("broken",), ("damaged",), ("disabled",), ("out", "of", "order"),
                 ("out", "of", "battery"), ("out", "of", "power"), ("out", "of", "charge"),
                 ("out", "of", "commission"), ("closed",), ("grounded",), ("halted",),
                 ("suspended",), ("injured",), ("overheating",), ("overheated",), ("limping",),
                 ("faulty",), ("malfunctioning",), ("dead",), ("jammed",), ("stuck",),
                 ("unresponsive",), ("failing",), ("banned",))
# ... then the rest ("the rover is busy", "is offline", "isn't available")
_UNABLE = (*_FAULT_STATES,
           ("busy",), ("unavailable",), ("offline",),
           ("charging",), ("reserved",), ("down", "for"), ("on", "standby"),
           ("on", "another", "job"), ("on", "another", "task"), ("to", "stay"), ("off", "duty"),
           ("on", "hold"), ("on", "a", "break"), ("on", "break"),
           ("needed", "elsewhere"), ("busy", "elsewhere"), ("sick",),
           # a place that cannot be gone to, said so ("room_b is locked", "is full")
           ("locked",), ("full",), ("inaccessible",), ("unreachable",),
           ("under", "construction"),
           # ... or not the crew's to use now ("the drone is spoken for", "is in the hangar")
           ("spoken", "for"), ("in", "the", "hangar"), ("in", "maintenance"),
           ("asleep",), ("sleeping",),
           # a thing that cannot be taken ("the cube is glued down", "is too heavy")
           ("glued", "down"), ("bolted", "down"), ("fixed", "in", "place"), ("too", "heavy"),
           ("too", "hot"),
           # ... or a place or thing said to be wrong ("room_b is the wrong room")
           *(("the", "wrong", w) for w in ("room", "place", "location", "one", "table", "spot",
                                          "destination", "object", "cube", "thing")),
           # a place that cannot be gone to ("the charger is closed", "is being serviced")
           ("blocked",), ("occupied",), ("in", "use"), ("out", "of", "bounds"),
           ("being", "serviced"), ("under", "maintenance"), ("under", "repair"),
           ("being", "repaired"), ("in", "for", "repair"))
# ... or a part of it said so ("the dog's leg is broken", "the drone's battery is dead"), or a
# fault it has or had ("the dog has a fault", "the drone lost GPS", "the drone has no
# propellers", "the drone failed its preflight check", "the drone was recalled")
_PARTS = ("leg", "legs", "battery", "motor", "motors", "arm", "arms", "gripper", "hand",
          "wheel", "wheels", "propeller", "propellers", "rotor", "rotors", "sensor", "sensors",
          "camera", "lidar", "engine", "joint", "joints")
_FAULTED_PARTS = tuple(("s", part, be, *state) for part in _PARTS for be in ("is", "are")
                       for state in _FAULT_STATES)
_LINKS = ("gps", "signal", "link", "connection", "power", "comms", "contact", "communication",
          "communications")
_HAS_FAULT = (("has", "a", "fault"), ("has", "failed"), ("has", "a", "malfunction"),
              ("has", "an", "error"),
              *(("lost", *its, w) for its in ((), ("its",)) for w in _LINKS),
              *(("has", "no", w) for w in ("propellers", "battery", "power", "signal", "gps",
                                           "link", "connection")),
              *(("failed", *its, w, *check) for its in ((), ("its",), ("the",))
                # (the longest first: the saying runs to its end, "failed its preflight check")
                for w in ("preflight", "pre", "self") for check in (("check",), ("test",), ())),
              *((*was, gone) for was in (("was",), ("were",), ("has", "been"), ("have", "been"),
                                         ("got",))
                # (taken away; not "was damaged", which may be mended: "... but is fixed now")
                for gone in ("recalled", "reassigned", "grounded", "banned", "destroyed",
                             "lost", "stolen", "decommissioned")))
FAULTS = (*_FAULT_STATES, *_HAS_FAULT)
# a robot that must charge first ("the dog needs to recharge", "must charge first")
_CHARGING = (*((*need, charge) for need in (("needs", "to"), ("has", "to"), ("must",))
                for charge in ("charge", "recharge")), ("needs", "charging"),
             ("needs", "a", "charge"))
# (not "low on battery": "the drone is low on battery, land it" asks the landing)
_UNREADY = ("available", "working", "involved", "operational", "part", "ready")
# stay cues only where they end their clause ("let the rover be.", "the rover continues.";
# not "the rover will be at x 2, y 3", "the drone continues searching")
_FINAL_STAYS = frozenset({("continue",), ("continues",), ("be",), ("finish",), ("finishes",),
                          # for later, or kept back ("drone to x 2, y 3; rover later", "room_b
                          # later", "rover parked"; not "the UGV parked at x 6.5, y 0.5")
                          ("later",), ("parked",),
                          # said shortly ("airspace closed;", "all flights grounded.")
                          ("closed",), ("grounded",)})
# a robot or thing mention followed by these is ruled out ("the rover stays", "the dog is not
# needed", "the charger is closed")
STAYS: tuple[tuple[str, ...], ...] = tuple(dict.fromkeys((
    ("stays",), ("stay",), ("remains",), ("remain",), ("is", "not", "needed"),
    ("isn", "t", "needed"), ("not", "needed"), ("stays", "put"),
    ("sits", "this", "one", "out"), ("sits", "out"), ("is", "off", "limits"),
    ("excluded",), ("is", "excluded"), ("out", "of", "service"), ("is", "out", "of", "service"),
    ("hold", "position"), ("holds", "position"), ("hold", "your", "position"),
    ("is", "not", "to"), ("are", "not", "to"), ("isn", "t", "to"), ("aren", "t", "to"),
    ("is", "not", "required"), ("not", "required"),
    ("is", "forbidden"), ("is", "not", "allowed"), ("not", "allowed"), ("do", "nothing"),
    ("does", "nothing"), ("sit", "this", "one", "out"), ("sit", "out"), ("stand", "by"),
    ("stands", "by"), ("sit", "tight"), ("sits", "tight"), ("on", "standby"),
    ("sit", "this", "out"), ("sits", "this", "out"), ("rest",), ("rests",),
    ("has", "nothing"), ("gets", "a", "day", "off"), ("has", "the", "day", "off"),
    ("takes", "the", "day", "off"), ("on", "hold"),
    # kept back ("keep the rover in reserve")
    ("in", "reserve"), ("on", "reserve"), ("stays", "parked"),
    # what it does now goes on: no step changes it ("the rover keeps going", "let the rover
    # carry on", "the rover can continue")
    ("keeps", "going"), ("keep", "going"), ("carries", "on"), ("carry", "on"),
    *((keep, w) for keep in ("keep", "keeps") for w in ("running", "moving", "driving")),
    ("continues", "as", "it", "is"), ("continue", "as", "it", "is"),
    *sorted(_FINAL_STAYS),  # ... ending the clause ("let the rover be.", "... finish.")
    *((be, "staying") for be in ("is", "are", "s", "re")),  # "the rover is staying put"
    *((be, "remaining") for be in ("is", "are", "s", "re")),
    *((be, *state) for be in ("is", "are") for state in _UNABLE),
    *_FAULTED_PARTS, *_HAS_FAULT, *_CHARGING, ("sleep",), ("sleeps",),
    *((be, "not", state) for be in ("is", "are") for state in _UNREADY),
    *((be, "t", state) for be in ("isn", "aren") for state in _UNREADY),
    *DROPS,
)))
# before what drops it, a subject begins after these ("the search where the rover is not
# needed": the rover), after a comma or a word that joins, or where its clause does
RELATIVES = frozenset({"where", "which", "that", "who", "whom", "whose", "when", "while", "if",
                       "unless", "until", "because", "since", "as", "so", "once", "whether"})
# "the dog should stay", "the drone shouldn't be used": a robot mention then modals (at most
# MODAL_REACH words, in its clause) and a stay cue or a negation (Reading.modal_negation)
MODALS = frozenset({"must", "should", "shall", "will", "can", "may", "might", "would", "could",
                    "need", "needs", "ought", "has", "have", "to"})
NEGATED_MODALS = frozenset({"mustn", "shouldn", "shan", "won", "can", "wouldn", "couldn",
                            "needn", "mightn"})  # before "t" ("shouldn't")
MODAL_REACH = 3
# the words a stated value is written with besides its numbers ("x 2, y 3 m", "y from 1 to 2"):
# those that join its parts, and the axes and units
_VALUE_LINKS = frozenset({"from", "to", "in", "between", "and", "through"})
VALUE_WORDS = frozenset({"x", "y", *METRES, *_VALUE_LINKS})
VALUE_REACH = 6  # words a negated value is read past its scope's end, at most
# what can follow a mention right away ("to" only after another modal: "the rover to the
# victim" is no modal)
_FIRST_MODALS = (MODALS - {"to"}) | NEGATED_MODALS
_BEFORE_NEGATION = _FIRST_MODALS | {"not", "never", "cannot"}
_STAYS_AFTER: dict[str, list[tuple[str, ...]]] = {}  # the cues by their first word, in order
for _cue in STAYS:
    _STAYS_AFTER.setdefault(_cue[0], []).append(_cue)
# verbs that keep a robot in a state ("stay airborne", "keep the drone in the air", "remain
# aloft"): what would end the state is ruled out (the states are the crew's: Reading.kept)
KEEPING = frozenset({"stay", "stays", "staying", "remain", "remains", "remaining", "keep",
                     "keeps", "keeping", "continue", "continues"})
# after a mention in a wish ("best if the rover stayed put": PREFERRING), what it does now
# goes on; elsewhere these tell what happened
_WISHED_STAYS = frozenset({"stayed", "remained"})
KEEP_REACH = 4  # words from such a verb to the state, at most ("keep the drone in the air")
# a pronoun after a comma that says the mention again ("as for the rover, it stays")
_RESUMING = frozenset({"it", "they"})
# a word set off by commas after a mention, said of it in passing ("the rover, however, stays")
ASIDES = frozenset({"however", "though", "meanwhile", "too", "also", "again", "instead",
                    "likewise", "therefore", "then"})
# "keep the drone on the ground", "leave the rover out of it", "keep the dog parked"
KEEP = frozenset({"keep", "leave", "hold"})
LEAVE = frozenset({"leave"})  # of KEEP, what rules a thing out ("hold the bottle" takes it)
# ... and "keep" a thing where it is ("keep the bottle here", "keep the cube where it is", "keep
# the cube on the table"; "keep the bottle" alone, or "keep it in your hand", is holding it)
_KEEP_THING = frozenset({"keep"})
_THING_KEPT = frozenset({"here", "where", "put", "behind", "still", "there", "on",
                         # a place kept clear ("keep room_b clear"): nothing goes there
                         "clear", "free", "empty", "vacant", "unoccupied", "closed"})
KEPT = frozenset({"ground", "grounded", "parked", "docked", "here", "home", "out", "behind",
                  "alone", "idle", "put", "back", "where", "off", "be", "still", "stationary",
                  "base", "running", "going"})
_LEADING = frozenset({"just", "please", "then", "instead", "now", "simply"})  # before a verb
_STAY_PUT = KEPT - {"out", "off"}  # after "stay": where it stays ("stay put"), not "stay out of"
_WAIT_PLACES = frozenset({"here", "there", "behind"})  # after "wait": where it waits
# after "stay": a place kept away from ("stay out of room_a"), unless what is kept away from is
# the matter itself ("stay out of it", "out of this", "out of the way")
KEEPING_AWAY = frozenset({("out", "of"), ("away", "from"), ("clear", "of")})
_INVOLVEMENT = frozenset({("it",), ("this",), ("that",)})
_NOTHING_FOR = ("nothing", "for")  # right before a robot: "nothing for the rover"
UNIVERSAL = frozenset({"everything", "everyone", "everybody"})
_LEFT_ALONE = frozenset({"leave", "keep", "let", "touch"})  # before "everything else"
# a whole and the cues that except from it ("all robots except the drone", "everyone but ...")
WHOLES = frozenset({"all", "every", "everyone", "everybody", "everything", "anyone"})
EXCEPT_CUES = frozenset({("except",), ("excluding",), ("other", "than"), ("apart", "from"),
                         ("aside", "from"), ("everything", "but"), ("anything", "but"),
                         ("everyone", "but"), ("everybody", "but")})
CONDITIONAL = frozenset({"if", "unless", "when", "whether", "until", "once", "in", "case"})
# an "if" after these (or after them and "it") says what is wanted, not when ("it would be
# better if the rover did not go ...", "I'd appreciate it if ...": a prohibition); not "fine
# if", "okay if": what is allowed
PREFERRING = frozenset({"better", "best", "prefer", "preferable", "preferred", "rather",
                        "good", "nice", "great", "ideal", "wiser", "safer", "happier", "happy",
                        "glad", "grateful", "appreciate", "like", "love"})
# after a comma, these begin a new clause: a negation does not reach past ", and the drone ..."
CLAUSE_JOINS = frozenset({"and", "but", "or", "then", "while", "so", "whereas", "yet"})
# a negation that opens its clause (after these at most) forbids; one inside a clause
# ("a hiker who never made it back") tells
OPENERS = frozenset({"please", "and", "but", "also", "so", "then", "just", "now", "oh",
                     "however", "i", "we", "you"})
# verbs that lend their action to the noun after them ("give a wave", "take a look"): alone they
# are too vague to say which action was asked
# after "keep up": what is kept going, not a robot up (Reading.kept)
_KEPT_UP_WITH = frozenset({(w,) for w in ("the", "a", "an", "with", "your", "this", "that",
                                           "our", "my", "its", "their")})
LIGHT_VERBS = frozenset({"give", "put", "take", "do", "make", "have", "get", "keep", "hold",
                         "let", "perform"})
LIGHT_REACH = 5  # words after a light verb in which the action it lends to may stand
# "put" with a thing and where it goes ("put the cube on the table"): asked of its own
_PUT_INTO = frozenset({"on", "onto", "in", "into", "inside", "upon"})
# ... unless that is a person's hands ("put the cube in my hand": a hand-over)
_PERSONS = frozenset({"my", "our", "me", "us", "hand", "hands", "palm", "palms", "arms", "lap"})
# "in my hand", "a wave of the hand": after these a word is a thing, not an action
DETERMINERS = frozenset({"the", "my", "your", "his", "her", "our", "their", "its"})
# after "never mind", what begins a thing it is said of ("never mind the mud"; "never mind that"
# takes back)
_MINDED = (ARTICLES | DETERMINERS | {"about"}) - {"that", "this"}
PLACE_PREPOSITIONS = frozenset({"in", "into", "on", "onto", "to", "from", "at", "by", "with",
                                "of"})
COLLECTIVES = ("robot", "unit", "asset", "vehicle", "machine", "motion", "movement", "crew",
               "fleet", "team")
QUANTIFIERS = frozenset({"all", "every", "both", "entire", "whole", "each"})
_GLUED = re.compile(r"^(\d+)([a-z]+)$")


class Mention(NamedTuple):
    """Words of the request that name a referent of a phrase table. A named tuple: a reading
    builds one per mention, in a fraction of a frozen dataclass's time."""

    start: int  # word indices [start, end)
    end: int
    phrase: str
    referents: frozenset[str]
    clause: int
    negated: str | None = None  # the words that rule it out ("do not send the dog"), if any
    exclusive: bool = False  # "only", "just", "alone" is attached to it
    light: bool = False  # a light verb standing alone ("hold it"): asked, but not owed


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number the request states with its unit ("6 metres"), outside ranges and points, in
    the reader's unit ("10 feet": 3.048, "m"; ``text`` says it as written)."""

    start: int
    end: int
    value: float
    unit: str | None
    clause: int
    text: str
    bound: str = ""  # "<", "<=", ">", ">=": a bound on the value ("below 4 metres"), not it
    # a number said without a unit after the measure it gives ("altitude 4", "max altitude 4",
    # "altitude at most 4"): the measure, for the parameters it names, in their own unit
    measure: str = ""
    # a bound a correction gives right after it ("take off to 5 m, no, higher"): the one
    # action's, not every parameter's of its robot in its unit as a bound said before is
    corrected: bool = False


@dataclass(frozen=True, slots=True)
class Scope:
    cue: str
    at: int  # where the cue begins
    start: int  # the first word it covers
    end: int  # past the last
    opens: bool  # the cue opens its clause (a prohibition, not a narrative "who never ...")
    said_to: int = 0  # what rules out a mention is said up to its end, or to here if further
    # (a subject, then what drops it: "searching x 0 to 5 is not needed")
    # the cue says where something is from what follows it (BESIDE: "next to room_b"): the
    # place or thing is not where to go nor what to take; a robot there is not ruled out ("I'm
    # in front of the humanoid, ...")
    where: bool = False


Phrases = PhraseTable | tuple[tuple[str, ...], ...]


class _once(Generic[T]):
    """A property computed on first use and kept in the instance: functools.cached_property
    without its lock (a reading is built and read by one thread; Python 3.11's lock costs
    more than most of the properties it guards)."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, instance: None, owner: type) -> _once[T]: ...
    @overload
    def __get__(self, instance: object, owner: type) -> T: ...
    def __get__(self, instance: object | None, owner: type) -> T | _once[T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


class PhraseIndex:
    """Several phrase tables' phrases by their first word, each with its table's place: a
    reading finds every table's phrases in one pass over the words the request shares with them
    (one look-up of a dozen tables, where looking up each alone costs a set intersection and a
    loop of its own). A table not indexed is looked up alone."""

    def __init__(self, tables: Iterable[Phrases]) -> None:
        self.tables = tuple(tables)  # (kept: their ids name them while the index lives)
        self.place = {id(table): k for k, table in enumerate(self.tables)}
        # by first word: the one-word phrases, and the longer ones by their second word (a
        # word such as "once" begins some ninety cues: only those that go on as the request
        # does are compared)
        self.by_first: dict[str, tuple[list[tuple[int, tuple[str, ...]]],
                                       dict[str, list[tuple[int, tuple[str, ...]]]]]] = {}
        for k, table in enumerate(self.tables):
            for phrase in table:
                if phrase:
                    single, longer = self.by_first.setdefault(phrase[0], ([], {}))
                    if len(phrase) == 1:
                        single.append((k, phrase))
                    else:
                        longer.setdefault(phrase[1], []).append((k, phrase))

    def extended(self, tables: Iterable[Phrases]) -> PhraseIndex:
        """This index and these tables (a crew's names beside the cues)."""
        return PhraseIndex((*self.tables, *tables))


# The index of each table looked up alone, for the last tables read (a crew's tables live as
# long as the crew, cue lists as the module; the index keeps its table, so that the table's id
# names it while it is here).
_ALONE: dict[int, PhraseIndex] = {}
_KEPT_TABLES = 64


def _alone(table: Phrases) -> PhraseIndex:
    kept = _ALONE.get(id(table))
    if kept is not None and kept.tables[0] is table:
        return kept
    if len(_ALONE) >= _KEPT_TABLES:
        _ALONE.clear()
    index = _ALONE[id(table)] = PhraseIndex((table,))
    return index


# the cues every reading looks for, looked up together
CUES = PhraseIndex((NEGATIONS, DROPS, TAKING_BACK, BARE_PROHIBITIONS, _CORRECTING_PHRASES,
                    _CALLING_OFF, _STOPS_ALL, NOTHING_MOVES, *FOUND_TABLES))


class Reading:
    """One request, read once; mentions of any phrase table are found on demand."""

    def __init__(self, text: str, verbs: frozenset[str] = frozenset(),
                 foreign: frozenset[str] = frozenset(), index: PhraseIndex | None = None
                 ) -> None:
        """``verbs``: the words an action the caller knows begins with ("drive", "send"): a
        prohibition's list ends at a comma before one ("do not send the drone, drive the rover
        ...": the rover is asked), unless "or" or "nor" follows in its clause ("do not send
        the dog, walk the humanoid or wave": a list of what is not to be done). ``foreign``:
        the nouns of robots the caller's crew does not have ("boat"), whose parts ask nothing
        of it (:attr:`idle`). ``index``: the tables looked up together (``CUES``: the cues'
        alone; a crew's :class:`~crewgate.spec.intent.Intent` adds its names)."""
        self.text = text
        self._index = CUES if index is None else index
        self._found: list[list[tuple[int, tuple[str, ...]]]] | None = None
        self.verbs = verbs
        self.foreign = foreign
        self.words, self.seps = word_stream(text)
        words, seps = self.words, self.seps
        n = len(words)
        # whether a separator ends a clause, judged once per distinct one
        ends = {sep: not STOPS.isdisjoint(sep) or ("-" in sep and DASH.search(sep) is not None)
                for sep in set(seps)}
        ended = list(map(ends.__getitem__, seps))
        # a decimal point ("1.5": words "1" and "5") or a range's dash ("3–7") ends no clause
        for mark in _JOINING.intersection(ends):
            for i in compress(range(n - 1), map(eq, seps[:n - 1], repeat(mark))):
                if words[i][-1].isdigit() and words[i + 1][0].isdigit():
                    ended[i] = False
        # clause_of[i]: the clauses ended before word i
        self.clause_of: list[int] = list(accumulate(ended[:n - 1], initial=0)) if n else []
        self.clause_starts = [0, *compress(range(1, n + 1), ended)]
        # where each word's part of its clause begins: a clause, and ", and the drone ..."
        # (a joining word after a comma); each word's is the last begun at or before it
        begins = {i for i in self.clause_starts if i < n}
        begins.update(i for i in compress(range(1, n), map(contains, seps[:n - 1], repeat(",")))
                      if words[i] in CLAUSE_JOINS)
        ordered = sorted(begins)  # each begin repeated up to the next (a few runs, in C)
        self.part_start: list[int] = list(chain.from_iterable(
            map(repeat, ordered, map(sub, [*ordered[1:], n], ordered))))
        self._mentions: dict[tuple[int, bool, bool], tuple[Mention, ...]] = {}
        self._mention_starts: dict[tuple[int, bool], dict[int, Mention]] = {}
        self._vocabulary = frozenset(words)
        self._positions: dict[str, list[int]] = {}  # of the words looked up, where each stands

    def _at(self, word: str) -> list[int]:
        """Where a word of the request stands. In a short request, found in C for the words
        looked up (most occur once); in a long one, every word's positions listed in one pass,
        so that looking up many distinct words stays linear."""
        found = self._positions.get(word)
        if found is None:
            words = self.words
            if len(words) > SCAN_WORDS:
                for i, w in enumerate(words):
                    self._positions.setdefault(w, []).append(i)
                return self._positions[word]
            found = [words.index(word)]
            if words.count(word) > 1:
                found = [i for i, w in enumerate(words) if w == word]
            self._positions[word] = found
        return found

    def where(self, these: frozenset[str]) -> list[int]:
        """Where any of these words stands, in order."""
        return sorted(i for w in these.intersection(self._vocabulary) for i in self._at(w))

    def _starts(self, table: Phrases) -> list[tuple[int, tuple[str, ...]]]:
        """Where a phrase of the table starts, with it (an indexed table's found with every
        other's, once; not in any order)."""
        index = self._index
        k = index.place.get(id(table))
        if k is None or index.tables[k] is not table:
            return self._match(_alone(table))[0]
        found = self._found
        if found is None:
            found = self._found = self._match(index)
        return found[k]

    def _match(self, index: PhraseIndex) -> list[list[tuple[int, tuple[str, ...]]]]:
        """Per table of the index, where its phrases start, with each."""
        found: list[list[tuple[int, tuple[str, ...]]]] = [[] for _ in index.tables]
        words = self.words
        last = len(words) - 1
        by_first = index.by_first
        # the words in both (in C, walking the smaller: a request's words are few, a crew's
        # names may be many)
        for word in by_first.keys() & self._vocabulary:
            single, longer = by_first[word]
            for i in self._at(word):
                for at, phrase in single:
                    found[at].append((i, phrase))
                if i < last and (phrases := longer.get(words[i + 1])) is not None:
                    for at, phrase in phrases:
                        if words[i:i + len(phrase)] == phrase:
                            found[at].append((i, phrase))
        return found

    # -- cues ---------------------------------------------------------------------------------

    def find(self, phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, int]]:
        """Where each phrase occurs as whole words, (start, end), in order."""
        return sorted({(i, i + len(phrase)) for i, phrase in self._starts(phrases)})

    def through_values(self, scope: Scope) -> int:
        """Past the values that continue at the scope's end (numbers, axis labels, units: a
        negation's scope can stop at the comma inside "not x 2, y 3"), in its clause, a few
        words at most; not past where to go after a cue of where ("past x 2, y 3 to x 5, y
        5": ``ONWARD``)."""
        end = scope.end
        words, clause = self.words, self.clause_of[end - 1] if end else 0
        stop = min(len(words), end + VALUE_REACH)
        while end < stop and self.clause_of[end] == clause and (
                words[end][0].isdigit() or words[end] in VALUE_WORDS) and not (
                scope.where and words[end] in ONWARD):
            end += 1
        while end > scope.end and words[end - 1] in _VALUE_LINKS:
            end -= 1  # "... y 3 and land": what joins no further value is none of it
        return end

    def span_text(self, start: int, end: int) -> str:
        """The words [start, end) as the request wrote them (folded), with what separates them
        and what stands right before and after them ("(2, 3)" keeps its brackets)."""
        if start >= end:
            return ""
        seps = self.seps
        inner = "".join(w + s for w, s in zip(self.words[start:end], seps[start:end],
                                              strict=True))
        return (seps[start - 1] if start else "") + inner

    def said(self, start: int, end: int) -> str:
        """Words as the request wrote them between (folded: "Don't" is "don't")."""
        if start >= end:
            return ""
        joined = "".join(w + s for w, s in zip(self.words[start:end - 1], self.seps[start:end - 1],
                                                strict=True))
        return joined + self.words[end - 1]

    @_once
    def scopes(self) -> list[Scope]:
        """The reach of each negation cue: to the end of its clause, a contrast word ("but",
        "just", "then"), or ``WINDOW`` words, whichever comes first."""
        out = []
        # ("abort" negates only an action after it: "abort the drive", not "abort the mission")
        cues = [(start, end) for start, end in self.find(NEGATIONS)
                if self.words[start] not in _ABORTS or (self._action_at(end) and not (
                    start and self.words[start - 1] in DETERMINERS))]  # (not "the end")
        if not _LEAVE_WORDS.isdisjoint(self._vocabulary):  # "must not leave room_a": the
            # negation's, as before a word it does not take back (a robot kept where it is)
            ends, words = {end for _, end in cues}, self.words
            cues = [(start, end) for start, end in cues
                    if not (words[start] in _LEAVE_WORDS and (
                        start in ends or (words[start] in LEAVES and not self._point_at(end))
                        or (start and words[start - 1] in DETERMINERS)  # "the exit at ..."
                        or words[end:end + 1] in _BOUND_FOR))]  # "depart for x 2, y 3"
        begins = {start for start, _ in cues}
        undone: set[int] = set()  # cues a negation before them takes back
        words = self.words
        for start, end in cues:
            if start in undone:
                continue
            if self._bound_at(start) or (self._after_quantity(start)
                                         and self._corrected_to(start) is not None):
                continue  # "no higher than 4 m", "never above 4 m", "4 m, no, higher": a bound
                # (Reading.quantities)
            if end < len(words) and (words[end] in UNDOING or end in begins) \
                    and not self.seps[end - 1].strip():
                # "don't forget to land", "never fail to ...", "don't skip the landing",
                # "don't forget about the rover": two negations, nothing ruled out (not "no,
                # don't land": an answer, then the prohibition)
                undone.add(end)
                continue
            if self._in_taking_back(start):
                continue  # "actually no" takes back; it does not negate what follows
            if words[start:end] == ("never",) and words[end:end + 1] == ("mind",):
                continue  # "never mind ...": its own cue
            if end < len(words) and words[end] in _NOT_ONLY and not self.seps[end - 1].strip():
                continue  # "not only land but also stop", "don't just stand there": more asked
            if words[start:end + 1] == ("no", "go") and (self.seps[start] == "-" or words[
                    end + 1:end + 2] in (("zone",), ("area",))):
                continue  # "a no-go zone": what it is said of is ruled out (DROPS), not going
            # "send nothing (there)", "move nothing", "send nothing to x 4, y 4": the verb's
            # action is not asked, as far as the cue reaches (not "send nothing but the drone")
            verb = words[start] in _NOTHING and start > 0 and words[start - 1] in self.verbs \
                and words[end:end + 1] != ("but",)
            if words[start] in _NOTHING and (
                    (end < len(words) and words[end] in _NOTHING_BEFORE)
                    or (start > 0 and words[start - 1] in _NOTHING_AFTER)):
                if verb:  # "send nothing else": the send alone
                    out.append(Scope(self.said(start - 1, end), start - 1, start - 1, start,
                                     False, end))
                continue  # "nothing else", "nothing but the drone", "the rover does nothing"
            if self._conditioned(start):
                continue  # "if you don't find them": a condition, not a prohibition
            if start and self.words[start - 1] == "why":
                continue  # "why don't you send the rover", "why not ...": a suggestion
            if self._lets_go(end) is not None:
                continue  # "do not stay airborne, land": the state let go, nothing ruled out
            if self._bounds_a_point(end):
                continue  # "do not drive the rover further than x 2, y 3": a bound, no negation
            cue = self.words[start:end]
            opens = cue in PROHIBITIONS and self._opens(start)
            narrow = cue in NARROW
            # ("outside" before a value keeps away from it; before anything else it says where:
            # "wait outside room_a")
            where = cue in BESIDE or (cue[0] in _BEFORE_VALUES and not self._point_at(end))
            if where and end < len(words) and words[end] in PRONOUNS:
                continue  # "give the person beside you the bottle": where someone is
            stop = end
            # a prohibition reaches over a list ("don't send the dog, the rover or ..."); a
            # negated detail ends at its comma ("the bottle, not the cube, to table_b")
            while (stop < len(self.words) and stop - end < WINDOW
                   and self.clause_of[stop] == self.clause_of[start]
                   and self.words[stop] not in CONTRAST
                   and not ("," in self.seps[stop - 1]
                            and (self.words[stop] in CLAUSE_JOINS or not opens
                                 or self._turns_to(end, stop)))
                   and not (narrow and self.words[stop] in CLAUSE_JOINS
                            and not self._value_goes_on(stop - 1, stop + 1))
                   and not (where and self.words[stop] in ONWARD)):
                stop += 1
            at, first = (start - 1, start - 1) if verb else (start, end)  # (from the verb)
            out.append(Scope(self.said(at, end), at, first, stop, opens, end if verb else 0,
                             where))
        # (of the predicates that begin at one word, the longest: "is a no-go zone", not "is
        # a no")
        dropped = [scope for at, end in dict(self.find(DROPS)).items()
                   if (scope := self._dropped(at, end)) is not None]
        dropped += self._prevented()
        if dropped:  # (in the order of where each begins)
            out = sorted([*out, *dropped], key=attrgetter("at"))
        return out

    def _point_at(self, k: int) -> bool:
        """Whether a point begins at word ``k`` ("x 2, y 3", "(2, 3)", "2, 3")."""
        words = self.words
        return 0 < k < len(words) and (words[k] in ("x", "y") or words[k][0].isdigit()
                                       or "(" in self.seps[k - 1])

    def _action_at(self, k: int) -> bool:
        """Whether an action of the crew's is named at word ``k``, past an article ("the
        drive", "searching")."""
        words = self.words
        if k < len(words) and words[k] in ARTICLES:
            k += 1
        return k < len(words) and words[k] in self.verbs

    def _prevented(self) -> list[Scope]:
        """What "prevent", "keep" or "stop" someone "from" rules out: what follows "from", to
        the end of its clause, a word that joins or ``WINDOW`` words ("prevent the rover from
        reaching x 2, y 3": the point, not the rover); not in a condition."""
        out = []
        words, clause_of = self.words, self.clause_of
        for at in self.where(_PREVENTING):
            for k in range(at + 1, min(len(words), at + _PREVENTED_REACH + 1)):
                if clause_of[k] != clause_of[at] or words[k] in CLAUSE_JOINS:
                    break
                if words[k] == "from":
                    if words[k - 1] == "away":
                        break  # "keep the rover away from ...": that cue's own
                    stop = k + 1
                    onward = words[at] in _LEAVING
                    while (stop < len(words) and stop - k <= WINDOW
                           and clause_of[stop] == clause_of[at]
                           and not (words[stop] in CLAUSE_JOINS
                                    and not self._value_goes_on(stop - 1, stop + 1))
                           and not (onward and (words[stop] in ONWARD
                                                or "," in self.seps[stop - 1]))):
                        stop += 1
                    if not self._conditioned(at):
                        out.append(Scope(self.said(at, k + 1), at, k + 1, stop, False, 0,
                                         onward))
                    break
        return out

    @_once
    def _let_go(self) -> frozenset[int]:
        """Where the keeping verbs that a negation lets go stand ("don't stay airborne")."""
        return frozenset(k for _, end in self.find(NEGATIONS)
                         if (k := self._lets_go(end)) is not None)

    def _lets_go(self, cue_end: int) -> int | None:
        """Where the keeping verb stands, if a negation whose cue ends at word ``cue_end``
        negates only the keeping of a state ("do not stay airborne", "don't keep the drone in
        the air", "don't remain up there"): a verb of ``KEEPING`` follows it, and no action
        nor value follows that in ``KEEP_REACH`` words of its clause ("don't keep searching",
        "don't stay at x 2, y 3" rule out as before). What ends the state is asked or not as
        the rest of the request says; the robot is not ruled out."""
        words, n = self.words, len(self.words)
        k = cue_end
        while k < n - 1 and words[k] in _LEADING:
            k += 1
        if k >= n or words[k] not in KEEPING:
            return None
        for j in range(k + 1, min(n, k + 1 + KEEP_REACH)):
            if self.clause_of[j] != self.clause_of[k] or "," in self.seps[j - 1]:
                break
            if words[j] in self.verbs or words[j][0].isdigit():
                return None
        return k

    def _turns_to(self, cue_end: int, word: int) -> bool:
        """Whether, past a comma, word ``word`` turns from what the prohibition (its cue ends at
        ``cue_end``) forbids to an action asked ("do not send the drone, drive the rover"): the
        prohibition has a verb of ``verbs`` already ("do not, under any circumstances, search"
        forbids the search), and this is one too (after "just", "please" or "then" at most),
        with no "or" nor "nor" after it in its clause, within ``WINDOW`` words."""
        words = self.words
        if self.verbs.isdisjoint(words[cue_end:word]):
            return False
        while word < len(words) - 1 and words[word] in _LEADING:
            word += 1
        if words[word] not in self.verbs:
            return False
        clause, stop = self.clause_of[word], min(len(words), word + WINDOW)
        return not any(words[k] in ("or", "nor") and self.clause_of[k] == clause
                       for k in range(word, stop))

    def _dropped(self, at: int, end: int) -> Scope | None:
        """The scope of what drops the subject before it (the predicate [at, end): "searching x
        0 to 5, y 0 to 5 is not needed"): the subject's words, back to the clause's start, a
        comma or a word that joins (not those inside a value: "x 0 to 5, y 0 to 5"), or a
        relative word ("the search where the rover is not needed"), ``_SUBJECT_REACH`` words at
        most; None in a condition ("if landing is not needed") or with no subject."""
        words, seps, clause = self.words, self.seps, self.clause_of[at]
        first = at
        while first > 0 and self.clause_of[first - 1] == clause:
            word = words[first - 1]
            if word in RELATIVES:
                if word in CONDITIONAL and not self._preferred_if(first - 1):
                    return None
                break
            if word in CLAUSE_JOINS and not self._value_goes_on(first - 2, first):
                break
            if "," in seps[first - 1] and not self._value_goes_on(first - 1, first):
                break
            if at - first == _SUBJECT_REACH:
                return None  # too far back to tell where the subject begins
            first -= 1
        if first == at or self._conditioned(first):
            return None
        return Scope(self.said(at, end), first, first, at, False, end)

    def _conditioned(self, word: int) -> bool:
        """Whether a word of a condition stands in the four words before word ``word`` ("if
        you don't find them", "if landing is not needed"): what follows is no prohibition."""
        start = max(0, word - 4)
        if CONDITIONAL.isdisjoint(self.words[start:word]):
            return False
        return any(w in CONDITIONAL and not self._preferred_if(k)
                   for k, w in enumerate(self.words[start:word], start))

    def _preferred_if(self, word: int) -> bool:
        """Whether word ``word`` is an "if" that says what is wanted ("better if", "I'd
        appreciate it if": ``PREFERRING``), not when."""
        words = self.words
        if words[word] != "if" or word == 0:
            return False
        before = word - 1 if words[word - 1] not in ("it", "this") else word - 2
        return before >= 0 and words[before] in PREFERRING

    def _between_values(self, start: int, end: int) -> bool:
        """Whether the words [start, end) stand right between two values ("y 3 no x 4", "3 m
        no 4 m", "(2, 3) sorry (4, 5)")."""
        words, before = self.words, start - 1
        if before > 0 and words[before] in UNITS and words[before - 1][-1].isdigit():
            before -= 1
        return self._value_goes_on(before, end)

    def _value_goes_on(self, before: int, after: int) -> bool:
        """Whether a value that a number at word ``before`` ends goes on at word ``after``, past
        a comma or a word that joins ("x 0 to 5, y 0 to 5", "between 0 and 5")."""
        words = self.words
        return before >= 0 and after < len(words) and words[before][0].isdigit() and (
            words[after][0].isdigit() or words[after] in VALUE_WORDS)

    def all_but(self) -> list[tuple[Scope, int, int]]:
        """The exceptions to a whole that stays ("all robots except the drone stay", "everyone
        but the drone stays put"): each exception's scope, where the whole is first named and
        where the stay cue after the exception ends, in its clause. What the scope covers is
        what acts; the rest of the whole stays."""
        words, out = self.words, []
        for scope in self.scopes:
            if words[scope.at:scope.start] not in EXCEPT_CUES:
                continue
            whole = next((k for k in range(max(0, scope.at - 3), scope.start)
                          if words[k] in WHOLES), None)
            if whole is None:
                continue
            clause = self.clause_of[scope.at]
            for k in range(scope.start, min(len(words), scope.start + WINDOW)):
                if self.clause_of[k] != clause:
                    break
                cue_end = next(self._stay_cues_at(k), None)
                if cue_end is not None:
                    out.append((scope, whole, cue_end))
                    break
        return out

    def _in_taking_back(self, word: int) -> bool:
        """Whether the word stands in a cue that takes back (only the cues that begin at most
        the longest cue's length before it are looked at: linear however many there are)."""
        found = self._taking_back
        for k in range(bisect_left(found, (word - _LONGEST_TAKING_BACK,)), len(found)):
            start, end = found[k]
            if start > word:
                break
            if word < end:
                return True
        return False

    @_once
    def _taking_back(self) -> list[tuple[int, int]]:
        """Where the cues that take back what came before stand (read by two rules); "never
        mind" before a thing ("never mind the mud", "never mind the rover") takes nothing
        back: it is a negation of that thing (``NEGATIONS``)."""
        found = [(start, end) for start, end in self.find(TAKING_BACK)
                 if not self._minds(start, end) and not self.else_follows(end)]
        bare = self._bare() + self._correcting + self._no_after + self._called_off()
        trailing = self._trailing_no()
        if trailing is not None and not any(end >= trailing[0] - 1 for _, end in found + bare):
            bare.append(trailing)  # (unless a cue right before says it: "on reflection, no")
        return sorted(found + bare) if bare else found

    def _called_off(self) -> list[tuple[int, int]]:
        """A sentence after another that is just a word that calls off (``_CALLING_OFF``;
        interjections before it): it takes back what came before ("Drive the rover to x 2,
        y 3. Cancel!"); "cancel the search" is a negation of the search, and "the rover? Leave
        it." dismisses the rover."""
        return [(k, end) for k, start, end in self._sentences_of(_CALLING_OFF) if not (
            "?" in self.seps[k - 1] and self.words[start:end] in _DISMISSALS)]

    def _sentences_of(self, table: tuple[tuple[str, ...], ...]) -> list[tuple[int, int, int]]:
        """The sentences after another that are just a phrase of the table, interjections
        before it ("... Cancel!", "... Okay, all stop."): where each begins, and where the
        phrase begins and ends."""
        seps = self.seps
        out = []
        for start, end in self.find(table):
            k = self._interjected(start, end, _ENDS)
            if k and not _ENDS.isdisjoint(seps[k - 1]):
                out.append((k, start, end))
        return out

    def _interjected(self, start: int, end: int, ends: frozenset[str]) -> int | None:
        """Where the interjections right before the words [start, end) begin, in their
        sentence (marked by ``ends``), when those words end it ("okay, scrap.", "wait, no,
        don't."); None when more follows them in it."""
        words, seps = self.words, self.seps
        if end < len(words) and ends.isdisjoint(seps[end - 1]):
            return None
        k = start
        while k and words[k - 1] in _INTERJECTIONS and ends.isdisjoint(seps[k - 1]):
            k -= 1
        return k

    @_once
    def _no_after(self) -> list[tuple[int, int]]:
        """A sentence that is a bare no ("No.", "Not really.") after one that asks no question:
        it takes back what came before ("Hand me the bottle. Not really."); after a question it
        answers it (crewgate.text.mood)."""
        words, seps, n = self.words, self.seps, len(self.words)
        out = set()
        for word in NO.intersection(self._vocabulary):
            for i in self._at(word):  # its sentence, looked at only a few words each way
                start = i
                while start and start > i - _BARE_NO_WORDS and _ENDS.isdisjoint(seps[start - 1]):
                    start -= 1
                end = i + 1
                while end < n and end < i + _BARE_NO_WORDS and _ENDS.isdisjoint(seps[end - 1]):
                    end += 1
                if start and "?" not in seps[start - 1] and not _ENDS.isdisjoint(
                        seps[start - 1]) and (end == n or not _ENDS.isdisjoint(seps[end - 1])) \
                        and answers_no(words[start:end]):
                    out.add((start, end))
        return sorted(out)

    def _trailing_no(self) -> tuple[int, int] | None:
        """A bare no that ends the request, set off by a comma, a dash or a bracket ("... to x
        2, y 3, no.", "... \u2014 NOT!", "... (not!)", "... \u2014 or not.", "... (not
        really)", "... y 3 NOT"), or a jest ending it ("... (kidding)", "... /s"): it takes
        back what came before."""
        words, seps, n = self.words, self.seps, len(self.words)
        if n > 1 and words[-1] == "s" and seps[-2][-2:-1].isspace() and seps[-2][-1] == "/":
            return n - 1, n  # "... /s": said in jest (not "2 m/s")
        if n > 1 and words[-1] in _JEST and not _SET_OFF_NO.isdisjoint(seps[-2]):
            return n - 1, n  # "... (kidding)"
        # the no itself: the last word, or "not" before a last "really" ("... (not really)")
        last = n - 2 if n > 2 and words[-2:] == ("not", "really") else n - 1
        if last < 1 or words[last] not in _ENDING_NO:
            return None
        k = last - 1 if last > 1 and words[last - 1] == "or" else last
        after_value = words[k - 1][-1].isdigit()  # ("y 3", "y3")
        if _SET_OFF_NO.isdisjoint(seps[k - 1]) and not (k == last and after_value):
            return None  # (a no right after a value needs nothing to set it off: "... y 3
            # NOT", "... y3 no", "... y 3 never")
        # a "no" after a thing or a robot is said of it ("the rover, no": Reading._said_no); a
        # "not" set off by a dash or a bracket, or "or not", takes all back
        if k == last and not (after_value or (words[k] == "not" and "," not in seps[k - 1])):
            return None
        return k, n

    @_once
    def corrections(self) -> frozenset[int]:
        """Where what each correction (:meth:`_corrections`) is followed by begins: a cue that
        takes back only what what follows it names again, and no cue where that names nothing
        (the caller knows what is named)."""
        return frozenset(end for _, end in self._correcting)

    @_once
    def _correcting(self) -> list[tuple[int, int]]:
        """Where the corrections' cues stand, but a bare no ("... No, thanks.")."""
        bare_no = {start for start, _ in self._no_after}
        return [(start, end) for start, end in self._corrections() if start not in bare_no]

    def _corrections(self) -> list[tuple[int, int]]:
        """"Actually," or "no," set off before a few words up to a comma or the sentence's end
        that name no action: a correction of what came before ("send the dog to room_a...
        actually, room_b.", "take off to 3 m, no, 4 m, then search ..."); not "actually, land
        the drone too", which asks more, nor "no," after a question, which answers it."""
        words, seps, n = self.words, self.seps, len(self.words)
        out = []
        for start, end in self.find(_CORRECTING_PHRASES):
            if self._after_quantity(start) and self._corrected_to(start) is not None:
                continue  # "5 m, no, higher": a bound of the quantity (Reading.quantities)
            k = end - 1  # the cue's last word
            # between two values it needs nothing to set it off, as a correction spoken and
            # written down is ("x 2, y 3 no x 4, y 5", "3 m no sorry 4 m")
            lead = start - 1 if start > 1 and words[start - 1] in _CORRECTING else start
            between = end < n and self._between_values(lead, end)
            if end >= n or (words[k] in _COMMA_AFTER and "," not in seps[k] and not between) or (
                    start and _SET_OFF.isdisjoint(seps[start - 1]) and not between and not (
                        # "...; actually make it 6": set off before the word that leads it
                        start > 1 and words[start - 1] in _CORRECTING
                        and not _SET_OFF.isdisjoint(seps[start - 2]))) or (
                    words[k] in _ANSWERING and start and "?" in seps[start - 1]):
                continue
            last = end  # the last word of what follows, up to a comma or a sentence end
            while last < n - 1 and last - k < _CORRECTION_WORDS and _PART_ENDS.isdisjoint(
                    seps[last]):
                last += 1
            said = words[end:last + 1]
            if (last == n - 1 or not _PART_ENDS.isdisjoint(seps[last])) and \
                    self.verbs.isdisjoint(said) and _NOT_A_CORRECTION.isdisjoint(said):
                out.append((start, end))
        return out

    def _bare(self) -> list[tuple[int, int]]:
        """The prohibitions with nothing after them in their sentence that open it, or follow
        a comma past interjections ("..., wait, no, don't."; not "the rover, don't", which is
        said of the rover): they take back what came before."""
        words, seps = self.words, self.seps
        out = []
        for start, end in self.find(BARE_PROHIBITIONS):
            k = self._interjected(start, end, _SENTENCE_ENDS)
            if k is None:
                continue  # something follows it in its sentence: a prohibition of that
            while k and words[k - 1] in _HEDGES and _SENTENCE_ENDS.isdisjoint(seps[k - 1]):
                k -= 1  # "... Or maybe don't.", "... Perhaps don't."
            if k == 0 or not _SENTENCE_ENDS.isdisjoint(seps[k - 1]) or (
                    k < start and "," in seps[k - 1]) or words[k - 1] == "or":
                # ("..., or don't.", "... or actually don't bother.": the choice left open)
                out.append((start, end))
        return out

    def _minds(self, start: int, end: int) -> bool:
        """Whether the cue [start, end) is "never mind" before a thing it is said of."""
        words = self.words
        return words[start:end] == _NEVER_MIND and end < len(words) and words[end] in _MINDED \
            and self.clause_of[end] == self.clause_of[start] and "," not in self.seps[end - 1]

    @_once
    def retractions(self) -> list[tuple[str, int]]:
        """The cues that take back what came before ("never mind"), in order, each with where
        what follows it begins (a correction's: :attr:`corrections`)."""
        words, seps = self.words, self.seps
        return [("/s" if start and words[start] == "s" and seps[start - 1].endswith("/")
                 else self.said(start, end), end)  # ("/s" said with its slash)
                for start, end in self._taking_back]

    @_once
    def stops_all(self) -> list[tuple[int, int]]:
        """The sentences after another that are a stop said to all, interjections before it
        ("Drive the rover to x 2, y 3. Stop!", "... Okay, all stop."): where each begins and
        ends."""
        return [(k, end) for k, _, end in self._sentences_of(_STOPS_ALL)]

    @_once
    def instead_from(self) -> int | None:
        """Where the last sentence begins that ends with "instead" after an action of the
        crew's, past another sentence ("Land the drone. Drive the rover to x 2, y 3 instead."):
        what it asks replaces what came before (the word before "instead" is the caller's to
        judge: a robot said so replaces robots, "... Use the drone instead.")."""
        words, seps, n = self.words, self.seps, len(self.words)
        found = self._at("instead") if "instead" in self._vocabulary else []
        for k in reversed(found):
            if k + 1 < n and _ENDS.isdisjoint(seps[k]):
                continue  # "instead of ...", "... instead, then ..."
            start = k
            while start and _ENDS.isdisjoint(seps[start - 1]):
                start -= 1
            if start and not self.verbs.isdisjoint(words[start:k]):
                return start
            return None  # (the last such sentence only)
        return None

    @_once
    def idle(self) -> tuple[Idle, ...]:
        """The parts of the request that ask nothing now: questions, suppositions, what
        happened, what is asked for later, what someone else does, or the whole request when it
        asks for a plan only (:mod:`crewgate.text.mood`)."""
        return idle_parts(self.words, self.seps, self.clause_starts, self.verbs, self.find,
                          self.said, self._vocabulary, self.text, self.foreign)

    @_once
    def nothing_moves(self) -> str | None:
        """A cue that rules out every motion ("don't move anything"), if the request has one."""
        found = [(a, b) for a, b in self.find(NOTHING_MOVES) if not self.else_follows(b)]
        return self.said(*found[-1]) if found else None

    def else_follows(self, end: int) -> bool:
        """Whether "else" follows word ``end - 1`` ("don't move anything else": what is not
        asked, not every motion)."""
        return end < len(self.words) and self.words[end] == "else"

    @_once
    def universal(self) -> bool:
        """The request addresses the whole crew ("stop everything", "all robots")."""
        words, vocabulary = self.words, self._vocabulary
        if "else" in vocabulary:  # "leave everything else as is": the others are left alone
            whole = any(not (self.else_follows(i + 1) and i and words[i - 1] in _LEFT_ALONE)
                        for w in UNIVERSAL.intersection(vocabulary) for i in self._at(w))
        else:
            whole = not UNIVERSAL.isdisjoint(vocabulary)
        return whole or any(
            i + 1 < len(words) and words[i + 1].startswith(COLLECTIVES)
            for q in QUANTIFIERS.intersection(vocabulary) for i in self._at(q))

    # -- mentions -----------------------------------------------------------------------------

    def mentions(self, table: PhraseTable, *, stays: bool = False,
                 left: bool = False) -> tuple[Mention, ...]:
        """Every mention of the table's phrases, the longest where they overlap, each with its
        negation and exclusivity. ``stays``: also rule out what "stays", "keep X on the
        ground" and the like say of it (robots); ``left``: what "stays", "is off limits",
        "leave X where it is" say of it (things: places, objects; "keep" and "hold" a thing
        are no such cue). Read once per table (the same table object for the reading's
        life)."""
        key = (id(table), stays, left)
        found = self._mentions.get(key)
        if found is None:
            found = self._mentions[key] = tuple(self._find_mentions(table, stays, left))
        return found

    def mention_at(self, table: PhraseTable, start: int, *, left: bool = False
                   ) -> Mention | None:
        """The mention of the table's phrases that begins at word ``start``, if one does
        (mentions do not overlap; the table's are indexed by where they begin, once)."""
        key = (id(table), left)
        index = self._mention_starts.get(key)
        if index is None:
            index = self._mention_starts[key] = {m.start: m for m in self.mentions(
                table, left=left)}
        return index.get(start)

    def _find_mentions(self, table: PhraseTable, stays: bool, left: bool) -> list[Mention]:
        # by start, the longest first (one phrase per start and length)
        spans = sorted([(i, -len(phrase), phrase) for i, phrase in self._starts(table)])
        out: list[Mention] = []
        taken_until = -1
        for start, size, phrase in spans:
            end = start - size
            if start < taken_until:
                continue  # inside a longer mention
            taken_until = end
            negated = self._negation(start, end, stays)  # (stays: the robots' table)
            if negated is None and start and self.words[start - 1] == "non":
                negated = self.said(start - 1, end)  # "the non-red block": not the red block
            if negated is None and left and (to := self._unlike(end, table[phrase])):
                negated = self.said(start, to)  # "the cube that isn't red": not the red cube
            if negated is None and (stays or left):
                negated = self._stays(start, end, robot=stays)
            out.append(tuple_of(Mention, (start, end, " ".join(phrase), table[phrase],
                                          self.clause_of[start], negated,
                                          self._exclusive(start, end, stays), False)))
        return out

    def _unlike(self, end: int, referents: frozenset[str]) -> int:
        """Where a relative clause after a thing's mention ends that denies it a word of its own
        name ("the cube that isn't red", "which is not red": red_cube), or 0."""
        words = self.words
        if end + 3 >= len(words) or words[end] not in ("that", "which") or words[
                end + 1:end + 3] not in (("is", "not"), ("isn", "t")):
            return 0
        return end + 4 if any(words[end + 3] in name.split("_") for name in referents) else 0

    def kept(self, table: PhraseTable) -> list[tuple[Mention, int]]:
        """The mentions of a table of states that a verb keeping them (``KEEPING``) comes
        before in their clause, at most ``KEEP_REACH`` words before and no comma between,
        with where that verb stands; not a negated one ("don't stay airborne"), nor "up" with
        a thing or "with" after it: what is kept going ("keep up the good work", "keep up
        with the rover"), not the robot up."""
        out = []
        words, seps = self.words, self.seps
        for m in self.mentions(table):
            if m.negated is not None or (m.end - m.start == 1 and words[m.start] == "up"
                                         and words[m.end:m.end + 1] in _KEPT_UP_WITH):
                continue
            for k in range(m.start - 1, max(-1, m.start - 1 - KEEP_REACH), -1):
                if self.clause_of[k] != m.clause or "," in seps[k]:
                    break
                if words[k] in KEEPING:
                    if k not in self._let_go:
                        out.append((m, k))
                    break
        return out

    def actions(self, table: PhraseTable, things: Sequence[Mention]) -> list[Mention]:
        """Mentions of a table of actions that are actions here: not inside a mention of a
        thing ("the pick-up point"), not a thing ("in my hand", "a wave of the hand"), and
        not a light verb that lends itself to the action after it ("give a wave")."""
        mentions = self.mentions(table)
        if not mentions:
            return []
        taken = {i for m in things for i in range(m.start, m.end)}  # the things' words
        words = self.words
        found = [m for m in mentions
                 if taken.isdisjoint(range(m.start, m.end))
                 and not (m.start > 1 and words[m.start - 1] in DETERMINERS
                          and words[m.start - 2] in PLACE_PREPOSITIONS)
                 and not (m.start and words[m.start - 1] in POSSESSIVES
                          and words[m.start] in HOMOGRAPHS)]  # "your hands", "my go"
        out = []
        starts = {t.start: t for t in things} if "put" in self._vocabulary else {}
        for k, m in enumerate(found):
            if m.end - m.start == 1 and self.words[m.start] in LIGHT_VERBS:
                if any(n.clause == m.clause and n.start - m.end < LIGHT_REACH
                       for n in found[k + 1:k + 2]):
                    continue  # "give a wave": the wave is the action
                if not self._put_somewhere(m, starts):
                    m = m._replace(light=True)
            out.append(m)
        return out

    def _put_somewhere(self, m: Mention, things: Mapping[int, Mention]) -> bool:
        """"put" with a thing after it and a place it goes on or in ("put the red cube on the
        table", "... into the bin"): the putting is asked of its own, owed like any action;
        not into a person's hands ("put the red cube in my hand": a hand-over)."""
        words = self.words
        if words[m.start] != "put":
            return False
        at = m.end + (m.end < len(words) and words[m.end] in ARTICLES)
        thing = things.get(at)
        if thing is None or thing.end + 1 >= len(words) or words[thing.end] not in _PUT_INTO:
            return False
        place = words[thing.end + 1:thing.end + 4]  # ("in my hand", "in front of me")
        return _PERSONS.isdisjoint(place)

    def _opens(self, cue: int) -> bool:
        """Whether the cue opens its clause or a part of it (", but don't ..."), after at most
        three openers: a prohibition, not a negated detail ("a box that is not red")."""
        first = self.clause_starts[self.clause_of[cue]]
        i = cue
        while i > first and cue - i < 3 and "," not in self.seps[i - 1] \
                and self.words[i - 1] in OPENERS:
            i -= 1
        return i == first or "," in self.seps[i - 1] or self.words[i] in CLAUSE_JOINS

    @_once
    def _scope_cues(self) -> list[int]:
        """Where each scope's cue begins, in the scopes' order (ascending)."""
        return [scope.at for scope in self.scopes]

    def _cues_from(self, first: int, word: int) -> Iterator[Scope]:
        """The scopes whose cue begins at ``first`` or later and at ``word`` or before, in
        order (found by bisection: linear however many negations)."""
        scopes = self.scopes
        for k in range(bisect_left(self._scope_cues, first), len(scopes)):
            if scopes[k].at > word:
                return
            yield scopes[k]

    def scope_of(self, word: int) -> Scope | None:
        """The scope of the negation cue that holds the word, if one does."""
        return next((s for s in self._cues_from(word - _LONGEST_NEGATION + 1, word)
                     if word < s.start), None)

    def negating(self, start: int, robot: bool = False) -> Scope | None:
        """The first scope (in the scopes' order) that covers the word (``robot``: a robot's
        name, which a cue of where rules out nothing of: :attr:`Scope.where`). A scope reaches
        at most ``WINDOW`` words past its cue: only the scopes whose cue begins that near
        before the word are looked at."""
        return next((s for s in self._cues_from(start - WINDOW - _LONGEST_NEGATION, start)
                     if s.start <= start < s.end and not (robot and s.where)), None)

    def _negation(self, start: int, end: int, robot: bool = False) -> str | None:
        """What negates the mention [start, end): its scope's cue said up to it."""
        if not self.scopes:
            return None
        scope = self.negating(start, robot)
        return None if scope is None else self.said(scope.at, max(end, scope.said_to))

    def _stays(self, start: int, end: int, robot: bool = True) -> str | None:
        words = self.words
        before = start - 1 if start and words[start - 1] not in ARTICLES else start - 2
        wished = before >= 0 and self._preferred_if(before)
        if before >= 0 and words[before] in CONDITIONAL and words[before] != "in" \
                and not wished:
            return None  # "once the drone is down", "if the rover is busy": a condition
        if wished and robot and end < len(words) and words[end] in _WISHED_STAYS:
            return self.said(start, end + 1)  # "it would be best if the rover stayed put"
        aside = end + 1 < len(words) and words[end] in ASIDES and "," in self.seps[end - 1] \
            and "," in self.seps[end]
        if aside:
            end += 1  # "the rover, however, stays": what it says past the aside
        elif robot and end + 1 < len(words) and words[end] in _RESUMING and "," in self.seps[
                end - 1]:
            end += 1  # "as for the rover, it stays": what is said of it again
        if end < len(words):
            if not robot and words[end:end + 2] in _NEIGHBOURS and self.seps[end - 1] == "'":
                return self.said(start, end + 2)  # "room_b's neighbour": not room_b (BESIDE)
            for cue_end in self._stay_cues_at(end):
                if self._stays_here(start, cue_end):
                    return self.said(start, cue_end)
            if self._waits(end):
                return self.said(start, end + 1)
            if (no := self._said_no(end)) is not None:
                return self.said(start, no)  # "Rover: no.", "the rover? Not today.", "Room_a? No."
            if robot and words[end:end + 2] in _RESTING and start and words[
                    start - 1 if words[start - 1] not in ARTICLES else start - 2] == "give":
                return self.said(start, end + 2)  # "give the rover a rest"
            if words[end] in _FIRST_MODALS:
                found = self._after_modals(start, end, aside)
                if found is not None and found[0] == "stays":  # "the dog should stay"
                    return self.said(start, found[1])
        if robot and (words[max(0, start - 2):start] == _NOTHING_FOR or (
                start > 2 and words[start - 1] in ARTICLES
                and words[start - 3:start - 1] == _NOTHING_FOR)):
            return self.said(start - 2 if words[start - 1] == "for" else start - 3, end)
        first = max(0, start - 3)
        keeping, kept_words = (KEEP if robot else LEAVE), KEPT
        if keeping.isdisjoint(words[first:start]):
            if robot or _KEEP_THING.isdisjoint(words[first:start]):
                return None
            keeping, kept_words = _KEEP_THING, _THING_KEPT  # "keep the bottle here"
        keep = max(i for i in range(first, start) if words[i] in keeping)  # the nearest
        if (words[keep] == "leave" or (robot and words[keep] == "hold")) and (
                end == len(words) or self.clause_of[end] != self.clause_of[start]
                or "," in self.seps[end - 1]):
            return self.said(keep, end)  # "leave the rover.", "hold the rover." (nothing after)
        for kept in range(end, min(len(words), end + 4)):
            if words[kept] in kept_words:
                return self.said(keep, kept + 1)
        return None

    def _said_no(self, k: int) -> int | None:
        """Where a bare "no" said of what comes right before word ``k`` ends: set off from it
        by ":", "?", "," or a dash, and ending its sentence ("Rover: no.", "the rover? Not
        today.", "rover - nope"); not "the rover no further than ...". So does a bare
        dismissal set off by ":", "?" or a dash ("and the rover? Leave it.")."""
        words, seps, n = self.words, self.seps, len(self.words)
        if words[k] not in _BARE_NO:
            if not any(c in seps[k - 1] for c in ":?-—"):
                return None
            size = next((size for size in range(min(_LONGEST_DISMISSAL, n - k), 0, -1)
                         if tuple(words[k:k + size]) in _DISMISSALS), 0)
            end = k + size
            return end if size and (end == n or not _SENTENCE_ENDS.isdisjoint(
                seps[end - 1])) else None
        if not any(c in seps[k - 1] for c in ":?,-—"):
            return None
        end = k + 1
        if words[k] == "not":
            if end >= n or words[end] not in _NOT_NOW:
                return None
            end += 1
        elif words[k] == "no" and words[end:end + 1] == ("way",):
            end += 1  # "the rover? No way."
        return end if end == n or not _SENTENCE_ENDS.isdisjoint(seps[end - 1]) else None

    def answered_no(self, k: int) -> int | None:
        """Where a bare no said of what ends right before word ``k`` ends (``_said_no``):
        "6 m? No.", "6 m? No way."; None if there is none."""
        return self._said_no(k) if k < len(self.words) else None

    def _waits(self, k: int) -> bool:
        """Whether word ``k`` is a wait that keeps its subject where it is: "the rover waits.",
        "the rover should wait here"; not "waits for the fix, then drives" (a wait before an
        action)."""
        return self.words[k] in ("wait", "waits") and self._ends_or(k + 1, _WAIT_PLACES)

    def _stays_here(self, start: int, end: int) -> bool:
        """Whether a stay cue that ends at word ``end`` says it of the mention at ``start``: in
        its clause, or past a clause's end only where the cue ends that clause or a word of
        ``_STAY_PUT`` follows ("Rover: stay.", "Rover: stay put"; not "Walk the dog; stay away
        from the charger", nor "stay out of the charger", which keep away from a place); never
        where it keeps away from a place ("rover, stay out of room_a and go to ...")."""
        words = self.words
        if words[end:end + 2] in KEEPING_AWAY and words[end + 2:end + 3] not in _INVOLVEMENT \
                and words[end + 2:end + 4] != ("the", "way"):
            return False  # "rover, stay out of room_a": a place kept away from, not a stay
        return self.clause_of[end - 1] == self.clause_of[start] or self._ends_or(end, _STAY_PUT)

    def _ends_or(self, end: int, where: frozenset[str]) -> bool:
        """Whether the words before ``end`` end their clause (or the request), or a word of
        ``where`` follows them ("stay.", "stay put", "wait here")."""
        return end == len(self.words) or self.clause_of[end] != self.clause_of[end - 1] or (
            self.words[end] in where)

    def _stay_cues_at(self, k: int) -> Iterator[int]:
        """Where each stay cue that begins at word ``k`` ends, in STAYS's order."""
        words = self.words
        for cue in _STAYS_AFTER.get(words[k], ()):
            if words[k:k + len(cue)] == cue and not self._bound_at(k + len(cue)) and (
                    cue not in _FINAL_STAYS or self._ends_or(k + 1, frozenset())):
                yield k + len(cue)  # (not "stay below 4 m": a bound, Reading.quantities)

    def _after_modals(self, start: int, end: int, aside: bool = False
                      ) -> tuple[str, int] | None:
        """What follows modals after a mention, in its clause and before any comma, at most
        ``MODAL_REACH`` words on: ("stays", the end of the stay cue: "should stay", "must
        remain") or ("not", where the negation word stands: "must not", "shouldn't",
        "cannot", "will never"); None for anything else."""
        words, seps, clause = self.words, self.seps, self.clause_of[start]
        for k in range(end, min(len(words), end + MODAL_REACH + 1)):
            if self.clause_of[k] != clause or ("," in seps[k - 1] and not (aside and k == end)):
                return None  # (past an aside set off by commas: "the rover, however, must")
            word = words[k]
            if word in ("not", "never", "cannot") or (
                    word == "t" and k > end and words[k - 1] in NEGATED_MODALS):
                return "not", k
            if k > end:
                cue_end = next(self._stay_cues_at(k), None)
                if cue_end is not None:
                    return "stays", cue_end
                if self._waits(k):
                    return "stays", k + 1
            if word not in MODALS and word not in NEGATED_MODALS:
                return None
        return None

    def modal_negation(self, start: int, end: int) -> int | None:
        """Where a negation stands after modals that follow the mention [start, end) ("the
        rover should not be used": the index of "not"), or None. Whether it rules the robot
        out depends on what else it covers (the caller's tables know)."""
        if end >= len(self.words) or self.words[end] not in _BEFORE_NEGATION:
            return None
        found = self._after_modals(start, end)
        return found[1] if found is not None and found[0] == "not" else None

    def _exclusive(self, start: int, end: int, robot: bool = False) -> bool:
        """Whether "only", "just", "alone" is attached to the mention [start, end) (a robot's:
        "on its own", "by itself" too)."""
        words = self.words
        if end < len(words) and words[end] in EXCLUSIVE_AFTER:
            return True
        if robot and any(words[end:end + k] in _ON_ITS_OWN for k in _ON_ITS_OWN_SIZES):
            return True
        window = words[max(0, start - 3):start]
        if window[-2:] == ("nothing", "but"):
            return True
        if EXCLUSIVE_BEFORE.isdisjoint(window):
            return False
        before = [w for w in window if w not in ARTICLES]
        # (a word of EXCLUSIVE_BEFORE is no article); "not only", "don't just": more is asked
        return before[-1] in EXCLUSIVE_BEFORE and (len(before) < 2
                                                   or before[-2] not in ("not", "t"))

    # -- quantities ---------------------------------------------------------------------------

    @_once
    def quantities(self) -> list[Quantity]:
        """Numbers stated with a unit, outside ranges ("from 0 to 5 m") and labelled points
        ("x 3 m"): "6 metres", "6 m", "6m", "2.5 m", "six metres", "two point five m"."""
        words, seps, out = self.words, self.seps, []
        taken = 0  # the words of the last number read end here
        # the words that begin with a digit (words are never empty), and those a number
        # written in words begins with ("six metres"), in order
        starts = list(compress(range(len(words)), map(str.isdigit, map(itemgetter(0), words))))
        spelled_at = sorted(i for w in SPELLED_FIRST.intersection(self._vocabulary)
                            for i in self._at(w))
        if spelled_at:
            starts = sorted({*starts, *spelled_at})
        measured = not _MEASURES.isdisjoint(self._vocabulary)  # a number's measure may be said
        last_unit: str | None = None  # the unit of the last quantity read, as written
        for i in starts:
            if i < taken:
                continue
            value, unit, end = self._number_at(i)
            if value is None and measured and words[i] in SPELLED_FIRST and (
                    found_ := spelled(words, i)) is not None:
                value, end = found_  # "an altitude of four": a measure's, without a unit
            if value is None:
                continue
            if unit is None and end < len(words) and words[end] in UNITS:
                unit, end = words[end], end + 1
            if unit is not None and self._per_time(end) is None \
                    and (low := self._range_low(i)) is not None:
                # "between 3 and 5 metres": at least the one, at most the other
                at, least = low
                least, value = min(least, value), max(least, value)  # "between 5 and 3 m"
                high, unit_of = in_unit(value, unit)
                said = self.said(at, end)
                out.append(Quantity(at, end, in_unit(least, unit)[0], unit_of,
                                    self.clause_of[i], said, ">="))
                out.append(Quantity(at, end, high, unit_of, self.clause_of[i], said, "<="))
            elif unit is None:
                found = self._measured(i, end, value) if measured else None
                if found is None and last_unit is not None and self._restates(taken, i):
                    # "take off to 5 m... no, 6": the number the correction gives, in the unit
                    # of the one it corrects
                    amount, unit_of = in_unit(value, last_unit)
                    found = Quantity(i, end, amount, unit_of, self.clause_of[i],
                                     self.said(i, end))
                if found is not None:
                    out.append(found)
            elif not self._in_range(i, end):
                # a minus sign, not a range's dash between two numbers ("5-6 m")
                negative = i > 0 and seps[i - 1].endswith("-") and not (
                    seps[i - 1] == "-" and words[i - 1][-1].isdigit())
                signed = -value if negative else value
                written = unit
                time = self._per_time(end) if UNITS[unit] == "m" else None
                first = i  # where the quantity's words begin
                if time is not None:  # "2 m/s", "5 km/h", "3 metres per second": a speed
                    (amount, unit), end = per(signed, unit, words[time]), time + 1
                else:
                    amount, unit = in_unit(signed, unit)  # "10 feet": 3.048 m
                    # "twice 5 m", "5 m plus 1", "3 m times 2": the value the words make
                    amount, first, end = self._reckoned(i, end, amount, unit, written)
                bound, at = self._bound_before(first)
                corrected = None if bound else self._corrected_to(end)
                if corrected is not None:
                    bound, end = corrected  # "5 m, no, higher": above 5 m
                out.append(Quantity(at, end, amount, unit, self.clause_of[i],
                                    self.said(at, first) + (" " if at < first else "")
                                    + ("-" if negative and first == i else "")
                                    + self.said(first, end), bound,  # (past "twice", the
                                    corrected=corrected is not None))  # sign is said)
                last_unit = written
            taken = end
        return out

    def _reckoned(self, i: int, end: int, amount: float, unit: str, written: str
                  ) -> tuple[float, int, int]:
        """A quantity [i, end) of ``amount`` in ``unit`` (written ``written``) with what the
        words around it make of it: a multiple said before it ("twice", "double", "triple",
        "half (of)", "3 times"), then a number added, taken away or multiplied by after it
        ("plus 1", "minus 1 m", "+ 50 cm", "times 2"; a number without a unit is in the
        quantity's); the value, and where its words begin and end. A word of arithmetic with no
        number to take is left alone."""
        words, seps = self.words, self.seps
        first = i
        if i and words[i - 1] in _MULTIPLES:  # "twice 5 m"
            amount, first = amount * _MULTIPLES[words[i - 1]], i - 1
        elif i > 1 and words[i - 1] == "of" and words[i - 2] in _MULTIPLES:  # "half of 6 m"
            amount, first = amount * _MULTIPLES[words[i - 2]], i - 2
        elif i > 1 and words[i - 1] == "times" and words[i - 2].isdigit() and not (
                i > 2 and seps[i - 3] == "."):  # "3 times 2 m" (not "1.5 times": no reading)
            amount, first = amount * float(words[i - 2]), i - 2
        n = len(words)
        if end < n and (words[end] in _OPERATIONS or seps[end - 1].strip() == "+"):
            op = words[end] if words[end] in _OPERATIONS else "plus"
            j = end + 1 if words[end] in _OPERATIONS else end
            if j < n and words[j][0].isdigit():
                value, said_unit, after = self._number_at(j)
                if value is not None:
                    if said_unit is None and after < n and words[after] in UNITS:
                        said_unit, after = words[after], after + 1
                    if op == "times":
                        if said_unit is None:
                            return amount * value, first, after
                    else:
                        other, other_unit = in_unit(value, said_unit or written)
                        if other_unit == unit:
                            return amount + (other if op == "plus" else -other), first, after
        return amount, first, end

    def _corrected_to(self, k: int) -> tuple[str, int] | None:
        """A correction at word ``k``, right after a quantity, that gives no value but a
        direction ("take off to 5 m, no, higher", "5 m... actually, a bit lower"): the bound
        it makes of the quantity (past it: "5 m, no, higher" is above 5 m), and where its
        words end; None when it says more ("no, higher than the rover") or is no correction."""
        words, seps, n = self.words, self.seps, len(self.words)
        if not (0 < k < n and words[k] in _CORRECTING and not _SET_OFF.isdisjoint(seps[k - 1])
                and (words[k] not in _ANSWERING or not _SET_OFF.isdisjoint(seps[k]))):
            return None  # (a no set off from what follows: "5 m, no higher" is at most 5 m)
        j = k + 1
        while j < n and j - k <= _CORRECTION_WORDS and words[j] in _COMPARING:
            j += 1  # "no, a bit higher", "actually, make it lower"
        if j >= n or words[j] not in _COMPARATIVES:
            return None
        end = j + 1 + 2 * (words[j + 1:j + 3] in _THAN_THAT)  # "no, higher than that"
        if end < n and _PART_ENDS.isdisjoint(seps[end - 1]):
            return None
        return _COMPARATIVES[words[j]], end

    def _after_quantity(self, k: int) -> bool:
        """Whether a quantity with its unit ends right before word ``k`` ("5 m", "5m")."""
        words = self.words
        return k > 1 and ((words[k - 1] in UNITS and words[k - 2][-1].isdigit())
                          or (words[k - 1][0].isdigit() and not words[k - 1].isdigit()))

    def _restates(self, after: int, i: int) -> bool:
        """Whether the words from ``after`` (the end of the last quantity) to word ``i`` (a
        number said without a unit) are a correction of that quantity, and only that: "5 m...
        no, 6", "5 m, sorry, 6", "5 m (I mean 6)", "5 m; actually make it 6"."""
        said = self.words[after:i]
        return 0 < len(said) <= _RESTATING_WORDS and _RESTATING.issuperset(said) \
            and not _RESTATES.isdisjoint(said)

    def _measured(self, i: int, end: int, value: float) -> Quantity | None:
        """The number ``value`` at [i, end), said without a unit, as the quantity of the measure
        said right before it ("altitude 4", "at altitude 4", "altitude of 4", "max altitude 4",
        "altitude limit 4"), or before the bound said before it ("altitude at most 4"); None for
        any other number without a unit (a count, an axis's, a range's bound)."""
        words, clause = self.words, self.clause_of[i]
        bound, at = self._bound_before(i)
        for p in (i - 1, at - 1) if at < i else (i - 1,):
            if p > 0 and words[p] in _MEASURE_LINKS:
                p -= 1  # "altitude of 4", "altitude limit 4", "altitude is 4"
            if p >= 0 and words[p] in _MEASURES and (self.clause_of[p] == clause or (
                    p == i - 1 and self.seps[p].strip() in (":", "="))):  # "altitude: 4"
                break
        else:
            return None
        if self._in_range(i, end):
            return None
        if not bound and words[p + 1] in _MEASURE_LIMITS:
            bound = _MEASURE_LIMITS[words[p + 1]]  # "altitude limit 4": at most 4
        first = min(at, p)  # "max altitude 4": from "max"
        return Quantity(first, end, value, None, clause, self.said(first, end), bound,
                        words[p])

    def _per_time(self, end: int) -> int | None:
        """Where the time a length is per stands, right after it ("m/s", "metres per
        second"), or None."""
        words = self.words
        if end < len(words) and "/" in self.seps[end - 1] and words[end] in TIMES:
            return end
        if end + 1 < len(words) and words[end] == "per" and words[end + 1] in TIMES:
            return end + 1
        return None

    def _bounds_a_point(self, cue_end: int) -> bool:
        """Whether the negation whose cue ends at word ``cue_end`` says only how far to go: an
        upper bound before a point follows in its clause, within ``WINDOW`` words and before any
        other number ("do not drive the rover further than x 2, y 3" is "no further than x 2,
        y 3")."""
        words, n = self.words, len(self.words)
        if _UPPER_POINT.isdisjoint(words[cue_end:cue_end + WINDOW]):
            return False
        clause = self.clause_of[cue_end - 1]
        for k in range(cue_end, min(n - 3, cue_end + WINDOW)):
            if self.clause_of[k] != clause or words[k][0].isdigit():
                return False  # (a value before the bound: "not to x 4, y 3 or further than")
            if words[k] in _UPPER_POINT and words[k + 1] == "than" and \
                    words[k + 2] in _AXIS_LABELS and words[k + 3][0].isdigit():
                return True
        return False

    def _bound_at(self, k: int) -> bool:
        """Whether a bound begins at word ``k`` and a number follows it ("no higher than 4
        m"), or a point ("no further than x 2, y 3"); not "not under any circumstances",
        "stays under the shelter"."""
        words, n = self.words, len(self.words)
        if k >= n or (words[k] not in _BOUND_FIRSTS):
            return False
        for size in range(min(_BOUND_REACH, n - k - 1), 0, -1):
            after, bound = words[k + size], tuple(words[k:k + size])
            if bound in _NUMBER_BOUNDS and "(" in self.seps[k + size - 1]:
                continue  # "past (2, 3)": a point
            if bound in BOUNDS and (
                    after[0].isdigit() or after in SPELLED_FIRST or (
                        after in _AXIS_LABELS and k + size + 1 < n and bound not in
                        _NUMBER_BOUNDS and words[k + size + 1][0].isdigit())):
                return True
        return False

    def _bound_before(self, i: int) -> tuple[str, int]:
        """The bound said right before the number at word ``i`` ("below", "no higher than",
        "at least": ``BOUNDS``; the opposite inside a negation's scope, "do not fly above"), and
        where it begins; ("", i) when none is."""
        words, clause = self.words, self.clause_of[i]
        k = i - (i > 0 and words[i - 1] == "of")  # "max altitude (of) 4 m": past the measure
        if k > 1 and words[k - 1] in _MEASURES and words[k - 2] in _MEASURE_BOUNDS:
            i = k - 1
        for size in range(min(_BOUND_REACH, i), 0, -1):
            bound = BOUNDS.get(tuple(words[i - size:i]))
            if bound is not None and self.clause_of[i - size] == clause:
                scope = self.negating(i - size) if words[i - size] not in _NEGATING \
                    and self.scopes else None
                if scope is not None:  # said from its negation: "do not fly above 4 m"
                    return _OPPOSITE[bound], scope.at
                return bound, i - size
        return "", i

    def _number_at(self, i: int) -> tuple[float | None, str | None, int]:
        """The number that begins at word ``i``, its unit's name as written when glued to it
        or spelled with it ("6m", "six metres"), and the index past it."""
        word = self.words[i]
        if word in SPELLED_FIRST:  # a number written in words counts only with its unit
            return with_unit(self.words, i) or (None, None, i)
        if word.isdigit():
            if i + 1 < len(self.words) and self.seps[i] == "." and self.words[i + 1].isdigit():
                return float(f"{word}.{self.words[i + 1]}"), None, i + 2
            value, end = and_a_half(self.words, float(word), i + 1)  # "2 and a half m"
            return value, None, end
        glued = _GLUED.match(word)
        if glued and glued[2] in UNITS:
            return float(glued[1]), glued[2], i + 1
        return None, None, i + 1

    def _range_low(self, i: int) -> tuple[int, float] | None:
        """Where a range of a quantity begins and its low end, when the number at word ``i``
        (said with a unit) is its high end: "between 3 and 5 metres", "from 2.5 to 4 m"; not a
        range of an axis ("x from 0 to 5 m") nor one inside a negation's scope."""
        words = self.words
        if i < 3 or words[i - 1] not in ("and", "to"):
            return None
        for j in range(i - 2, max(0, i - 4), -1):
            if words[j - 1] in ("between", "from") and (
                    j < 2 or words[j - 2] not in ("x", "y")):
                low, unit, end = self._number_at(j)
                if low is None or unit is not None or end != i - 1 or (
                        self.scopes and self.negating(j - 1) is not None):
                    return None
                return j - 1, low
        return None

    def bare_number(self, i: int) -> tuple[float, int] | None:
        """The number said without a unit at word ``i``, and where it ends ("take off to 6"); None
        for any other word, a number with a unit, or a range's, point's or quantity's."""
        words = self.words
        if i >= len(words) or not words[i][0].isdigit():
            return None
        value, unit, end = self._number_at(i)
        if value is None or unit is not None or self._in_range(i, end) or (
                end < len(words) and (words[end] in UNITS or words[end][0].isdigit())):
            return None  # "6 m", "0 to 5", "6, 3", "6 3"
        return value, end

    def _in_range(self, start: int, end: int) -> bool:
        """A bound of a range or a coordinate of a labelled point, not a quantity of its own."""
        before = self.words[max(0, start - 2):start]
        if before[-1:] in (("x",), ("y",), ("from",), ("between",)):
            return True
        if before[-1:] in (("to",), ("and",)) and len(before) == 2 and (
                before[0].isdigit() or before[0] in SPELLED_FIRST or _GLUED.match(before[0])):
            return True
        return end < len(self.words) and self.words[end] in ("to", "and") and (
            end + 1 < len(self.words) and (self.words[end + 1].isdigit()
                                           or self.words[end + 1] in SPELLED_FIRST))
