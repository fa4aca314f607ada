"""Whether a request asks for anything to be done now, sentence by sentence.

A request can name robots, actions and values without asking for any of it. It asks a question
("how long would it take the rover to drive to x 2, y 3?", "is the drone able to ...?", "did
the drone search ...?"), asks to be told ("explain how the drone would search ..."), supposes
("what if the rover drove to ..."), only weighs it ("I'm considering sending the rover ..."),
tells what happened ("the rover drove to x 2, y 3 yesterday") or what is under way ("the rover
is on its way to x 2, y 3"), keeps it for a contingency ("Plan B: ...", "in case of emergency,
..."), or asks for later ("tomorrow", "at 3 pm", "in 10 minutes", "on my mark", "wait for my
go", "pending approval", "every hour", "not now"); or it asks for a plan only ("don't execute
it", "dry run", "read back: ..."), which holds for the whole request. Within a sentence, it
can leave the work to someone else: the speaker ("I'll drive there myself") or people ("tell
the medics to go to x 2, y 3", "the visitors are walking to room_a"), from there to the
sentence's end or an imperative after it (:mod:`crewgate.text.actors`).

:func:`idle_parts` reads each sentence's opening words and cues and gives the parts that ask
nothing now, with the words that say so. It is crew-agnostic: which of the request's robots,
actions and values lie in those parts is for :mod:`crewgate.spec.intent` to say (a request
asks nothing only when everything it names lies in them).

What a question that is a polite request looks like is kept: "can you ...", "could the rover
...", "will you ...", "would you mind ...", "why don't you ...", "how about ...", "shall we
...", and an imperative with a tag ("send the rover, will you?") ask what they name. "Can"
and "could" open a request whoever follows ("can the rover drive to x 2, y 3?"); a question
of ability in other words does not ("is the rover able to ...", "would the rover be able to
..."). A question needs its mark where its first word can also open a command or a condition
("do", "have", "will", "should", "when", "where": "do a sweep", "have the rover drive",
"should the victim be found, send the rover"), or an exclamation ("what a day, now send the
rover ..."); the others ("how", "what", "why", "which", "who", "is", "are", "did", "does",
"has", "was") open a question with or without it. With its mark, a sentence is a question too
when a tag ends it ("rover to x 2, y 3, correct?"), a word of ability opens it with its "is it"
left off ("possible to drive ...?"), or its first words offer a choice ("rover or drone to
...?").

Reading is linear: sentences end where the reading's clauses do at a ".", "!" or "?", each sentence
is looked at by its first few words, and the cues are found by :meth:`Reading.find` (a time
said with a number, "at 3 pm", by the few words after each "at" and "in"; a delay, a
recurrence, by the few words after each "wait", "every", "each").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import NamedTuple

from crewgate.text.actors import ACTOR_WORDS, FOREIGN, PEOPLE, left_to_others
from crewgate.text.spelled import FIRST as SPELLED_FIRST
from crewgate.text.units import TIMES

SENTENCE_ENDS = frozenset(".!?")  # (a line break is no end: "x 2,\ny 3" is how it was typed)
# words before a sentence's first word that say nothing of its mood ("ok, so is the rover ...")
FILLERS = frozenset({"ok", "okay", "so", "hey", "hi", "hello", "well", "now", "and", "but",
                     "also", "then", "oh", "please", "um", "uh", "alright", "right", "quick",
                     "question", "just", "yes", "yeah", "sorry"})
VOCATIVE_WORDS = 3  # "rover, can you ...", "hey drone, are you ...": words before the comma
# first words that open a question, marked or not ("how long would it take ...")
QUESTION_WORDS = frozenset({"how", "what", "why", "which", "who", "whom", "whose"})
# ... only when the sentence ends with "?" ("when the victim is found, send the rover")
MARKED_QUESTION_WORDS = frozenset({"where", "when", "maybe", "perhaps"})  # "maybe send ...?"
# auxiliaries that open only a question ("is the rover able to ...", "did the drone land")
BARE_AUXILIARIES = frozenset({"is", "isn", "are", "aren", "am", "was", "wasn", "does",
                              "doesn", "did", "didn", "has", "hasn"})
# ... and those that open a question only with its mark ("do a sweep", "have the rover drive",
# "should the victim be found, send the rover", "will you ...": see the polite forms)
MARKED_AUXILIARIES = frozenset({"were", "weren", "do", "don", "have", "haven", "had", "hadn",
                                "will", "won", "would", "wouldn", "should", "shouldn",
                                "shall", "may", "might", "must"})
# ... and words of ability or leave that open a question whose "is it" is left off, only with
# its mark ("Possible to drive the rover to x 2, y 3?", "Safe to land?")
ELIDED = frozenset({"possible", "feasible", "doable", "able", "safe", "allowed", "permitted",
                    "reachable"})
# ending a sentence with its mark, after a comma: a tag that asks whether it is so ("Rover to
# x 2, y 3, correct?", "..., right?", "..., is that right?"); not one that asks for it ("...,
# will you?", "..., ok?", "..., please?")
TAGS: tuple[tuple[str, ...], ...] = (
    ("correct",), ("right",), ("true",), ("is", "that", "right"), ("is", "that", "correct"),
    ("is", "that", "so"), ("am", "i", "right"))
_TAG_MARKS = frozenset(",—–-")  # (what sets a tag off: "..., correct?", "... - right?")
_QUOTES = frozenset("'\"‘’“”«»")  # after "translate": what is said over
# a sentence with its mark whose first words, no action among them, offer a choice: a question
# ("Rover or drone to x 2, y 3?", "The rover or the drone?"; not "send the rover or the drone
# ...?")
CHOICE_REACH = 3  # words after the first before its "or", at most
YOU = frozenset({"you", "u", "ya"})
_ASKING = frozenset({"will", "won", "would", "wouldn", "can", "could", "couldn"})  # + you
# ... and these before "it" or a gerund, a question with its mark or without ("would it be
# safe to drive ...", "will driving there take long"; not "should it rain, land": a condition)
_WOULD = frozenset({"would", "wouldn", "will", "won"})
_IMPERSONAL = frozenset({"it", "that", "this", "there"})
_POLITE = frozenset({("be", w) for w in ("possible", "ok", "okay", "alright", "fine")})
_ABOUT = frozenset({"how", "what"})  # + "about": "how about sending the rover"
_WHY_NOT = frozenset({"don", "dont", "not"})  # after "why": "why don't you send ..."
# opening a sentence, or after a polite "can you": what asks to be told, not done
TELL: tuple[tuple[str, ...], ...] = (
    ("explain",), ("describe",), ("tell", "me"), ("tell", "us"), ("show", "me"),
    ("show", "us"), ("let", "me", "know"), ("let", "us", "know"), ("remind", "me"),
    ("walk", "me", "through"), ("estimate",), ("calculate",), ("compute",),
    # ... or the words said back in other words ("Translate to French: search ...",
    # "Rephrase: ..."; not "translate the rover": a motion, were it one; nor "outline the
    # search area as ...", which defines it)
    ("summarize",), ("summarise",), ("rephrase",), ("paraphrase",), ("reword",),
    *(("translate", w) for w in ("to", "into", "this", "that")))
# opening a sentence, then whether the crew is able to ("check whether the rover can reach
# x 2, y 3", "I'd like to know if the drone is able to ..."): what asks to be told; not what
# is to be found out by acting ("check whether anyone is in x 0 to 5, y 0 to 5": the search)
CHECKING: tuple[tuple[str, ...], ...] = (
    *((verb, w) for verb in ("check", "verify", "confirm", "see") for w in ("whether", "if")),
    *((verb, "that") for verb in ("check", "verify", "confirm")),
    *((*verb, w) for verb in (("find", "out"), ("figure", "out"), ("work", "out"))
      for w in ("whether", "if")),
    *((who, *want, "to", "know") for who in ("i", "we")
      for want in (("d", "like"), ("would", "like"), ("want",))))
ABILITY = frozenset({"can", "could", "able", "reachable", "possible", "feasible", "capable"})
ABILITY_REACH = 8  # words from the check to the word of ability, at most
# ... or a word of ability or of leave that ends the sentence after "is", "be" ("I want to know
# whether driving the rover to x 2, y 3 is safe"; not "check that the rover is ok, then ...")
JUDGED = frozenset({*ABILITY, "safe", "ok", "okay", "allowed", "permitted", "wise",
                    "advisable"})
_JUDGING = frozenset({"is", "be", "s", "are", "was", "were"})
# opening a sentence: what supposes
SUPPOSE: tuple[tuple[str, ...], ...] = (
    ("what", "if"), ("suppose",), ("supposing",), ("imagine",), ("hypothetically",),
    ("in", "theory"), ("theoretically",), ("let", "s", "say"), ("let", "us", "say"),
    ("pretend",), ("let", "s", "pretend"), ("let", "us", "pretend"),
    # "if I asked you to drive the rover to x 2, y 3, would you?"
    *(("if", who, did) for who in ("i", "we") for did in ("asked", "told", "wanted")),
    ("if", "i", "were", "to"), ("if", "we", "were", "to"))
# opening a sentence: what the speaker only weighs ("I'm considering sending the rover to
# x 2, y 3", "we're thinking about driving ..."), not asks
CONSIDERING: tuple[tuple[str, ...], ...] = tuple(
    (*who, *weighs) for who in (("i", "m"), ("i", "am"), ("we", "re"), ("we", "are"))
    for weighs in (("considering",), ("contemplating",), ("debating",), ("weighing",),
                   ("thinking", "of"), ("thinking", "about"), ("toying", "with")))
# opening a sentence: what is kept for a contingency, not done now ("Plan B: drive the rover
# ...", "In case of emergency, drive ...", "In the event of a fire, ..."); not a plan switched
# to ("go with plan B: ...", "execute plan B"), nor a precaution ("in case the victim is there,
# send the rover": now)
CONTINGENCIES: tuple[tuple[str, ...], ...] = (
    ("plan", "b"), ("plan", "c"), ("backup", "plan"), ("fallback",), ("contingency",),
    ("in", "case", "of"), ("in", "the", "event", "of"), ("in", "the", "event", "that"))
# (not "in an emergency": "in an emergency like this, land the drone" asks it now; nor a
# contingency said to be now: "Plan B, now: ...", "Plan A failed. Plan B: ... now")
_NOW_IN_EFFECT = frozenset({"now", "immediately", "effect", "failed", "asap"})
# ... a label (not "in ...") only before one of these ("Fallback: ...", "Plan B - ..."; not
# "fallback iris.land: succeeded")
_LABEL_MARKS = frozenset(":,—–-")
# opening a sentence: an intention of the speaker's that was not carried out, told ("I was
# going to send the rover to x 2, y 3, but ..."): what happened
INTENDED: tuple[tuple[str, ...], ...] = tuple(
    (who, *was) for who, be in (("i", "was"), ("we", "were"))
    for was in ((be, "going", "to"), (be, "about", "to"), (be, "planning", "to"),
                ("wanted", "to"), ("meant", "to"), ("had", "planned", "to"),
                ("intended", "to")))
# anywhere in a sentence that names no action of the crew: what tells what happened
PAST: tuple[tuple[str, ...], ...] = (
    ("yesterday",), ("ago",), ("last", "night"), ("last", "week"), ("last", "month"),
    ("last", "year"), ("last", "time"), ("earlier",), ("earlier", "today"), ("previously",),
    ("this", "morning"), ("already",))
# anywhere in a sentence that names no action of the crew: what tells what is under way ("The
# rover is on its way to x 2, y 3", "... en route to x 2, y 3"; "pick up the bottle on the
# way" asks)
UNDER_WAY: tuple[tuple[str, ...], ...] = (
    *(("on", w, "way") for w in ("its", "his", "her", "their", "the", "my", "our")),
    ("en", "route"))
# anywhere in a sentence, not after "not": what supposes ("Drive the rover to x 2, y 3
# (hypothetically).", "..., for the sake of argument"); opening one, SUPPOSE
SUPPOSED: tuple[tuple[str, ...], ...] = (
    ("hypothetically",), ("for", "the", "sake", "of", "argument"),
    ("as", "a", "thought", "experiment"), ("as", "a", "hypothetical"))
# ... and a verb of the crew's kind of action in the past ("The rover went to x 2, y 3."), when
# no sentence of the request may ask: beside one that does, it tells where things are ("The
# drone landed at x 2, y 3; send the rover there")
PAST_VERBS: tuple[tuple[str, ...], ...] = tuple((w,) for w in (
    "went", "gone", "drove", "driven", "flew", "flown", "walked", "travelled", "traveled",
    "landed", "arrived", "returned", "headed", "navigated", "searched", "stopped", "waved",
    "grabbed", "delivered", "carried", "brought", "moved", "sent", "handed", "gave", "took",
    "taken"))
_PAST_VERBS = frozenset(PAST_VERBS)
# ... not a participle asked for ("have the bottle carried to room_b", "I need it moved", "it
# must be delivered"): after one of these in its sentence, unless right after what makes it
# told ("I have sent the rover", "it should have gone", "the bottle was handed over")
_CAUSATIVES = frozenset({"get", "have", "need", "needs", "want", "wants", "like", "let", "make",
                         "keep", "please", "see", "be"})
CAUSATIVE_REACH = 8  # words before the participle, at most ("have the red cube carried")
_TOLD_AFTER = frozenset({"has", "have", "had", "ve", "d", "already", "just", "was", "were",
                         "been"})
# what the operator gives for it to be done ("wait for my confirmation", "after my go")
_CONSENTS = ("go", "signal", "command", "order", "word", "confirmation", "approval",
             "permission", "cue", "clearance", "authorization", "authorisation")
_CONSENTS_GIVEN = (*_CONSENTS, "ok", "okay")  # ... and what it is given as ("get my ok")
# ... said without "my" ("pending approval", "once clearance is given", "wait for permission")
_APPROVALS = ("approval", "permission", "clearance", "authorization", "authorisation")
# consent still to come, said only where it opens its sentence ("Wait for clearance, then
# search ...", "Confirm before starting."; not a later step, "drive ... and check in with me",
# "... then wait for clearance before going further", nor another's, "the drone must wait for
# clearance; drive the rover ...")
_WAITS_FOR = tuple(
    (*wait, *whose, c) for wait in (("wait", "for"), ("waits", "for"), ("waiting", "for"),
                                    ("await",), ("awaits",), ("awaiting",))
    for whose, cs in (((), (*_APPROVALS, "confirmation")), (("the",), _CONSENTS))
    for c in cs)
_ASK_FIRST = (("confirm", "before"), ("confirm", "first"), ("confirm", "with", "me"),
              ("ask", "before"), ("ask", "first"), ("check", "in", "before"),
              ("check", "in", "first"), ("check", "in", "with", "me"),
              *(("ask", "for", c) for c in _APPROVALS))
_OPENING_ONLY = frozenset((*_WAITS_FOR, *_ASK_FIRST))
# ... of them, what "now" or "in the meantime" beside it overrides ("pending approval of the
# flight, drive the rover now")
_APPROVED = frozenset({*_APPROVALS, "approved", "authorized", "authorised", "confirmation",
                       "review"})
_MEANWHILE = frozenset({"now", "immediately", "meantime", "meanwhile"})
# before "on its way", "en route": what says it is under way ("the rover is on its way")
_IS_ON = frozenset({"is", "s", "are", "re", "was", "were", "already", "now", "still"})
# the plan judged or said back: plan only where it opens its sentence before a colon ("Read
# back: ...", "Validate this plan: ...")
_JUDGING_FIRST = frozenset({"read", "repeat", "check", "validate", "review", "verify",
                            "evaluate", "assess", "critique"})
# ... and what the operator says it on ("on my cue", "on my call", "on my count", "on my say-so")
_ON_MY = ("mark", "signal", "command", "go", "order", "word", "cue", "call", "count", "say")
# before what the operator says ("when I say so", "once I confirm", "after I give the word")
_UNTIL = ("when", "until", "till", "if", "once", "after")
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_BACK = (*((who, *be, state) for who, bes in (("i", (("m",), ("am",))), ("we", (("re",), ("are",))))
           for be in bes for state in ("back", "done", "ready")),
         # the speaker in place ("once I'm seated", "when I'm there")
         *(("i", *be, state) for be in (("m",), ("am",))
           for state in ("seated", "there", "here", "in", "set")),
         *((who, *did) for who in ("i", "we") for did in (
             ("get", "back"), ("come", "back"), ("return",), ("arrive",), ("finish",))))
# anywhere in a sentence, not after "not" ("now, not tomorrow"): what asks for later
LATER: tuple[tuple[str, ...], ...] = (
    ("tomorrow",), ("tonight",), ("next", "week"), ("next", "month"), ("next", "year"),
    ("later", "today"), ("later", "tonight"), ("not", "now"), ("not", "yet"), ("not", "today"),
    *(("later", "this", w) for w in ("morning", "afternoon", "evening", "week", "month")),
    ("this", "week"), ("this", "weekend"), ("next", "weekend"), ("on", "the", "weekend"),
    *((w, day) for w in ("on", "next", "this", "by", "until", "till") for day in _DAYS),
    ("schedule",),
    # the speaker back or done ("after I'm back", "once we return", "when I'm done")
    *((w, *back) for w in _UNTIL for back in _BACK),
    ("this", "afternoon"),
    ("this", "evening"), ("after", "lunch"), ("after", "dinner"), ("at", "noon"),
    ("at", "midnight"), ("in", "an", "hour"), ("in", "half", "an", "hour"),
    ("in", "a", "few", "minutes"), ("in", "a", "minute"), ("in", "the", "morning"),
    ("in", "the", "afternoon"), ("in", "the", "evening"), ("next", "time"),
    ("another", "time"), ("some", "other", "time"), ("next", "mission"),
    ("at", "some", "point"), ("some", "day"), ("someday",), ("one", "of", "these", "days"),
    ("eventually",), ("sometime",), ("later", "on"), ("in", "the", "future"),
    ("in", "a", "while"), ("in", "a", "bit"), ("at", "a", "later", "time"),
    ("at", "a", "later", "date"), ("down", "the", "line"), ("in", "due", "course"),
    ("when", "convenient"), ("whenever", "convenient"), ("at", "your", "convenience"),
    # a pause first ("give it a minute, then ...", "count to ten, then ...")
    *(("give", "it", *a) for a in (("a", "minute"), ("a", "few", "minutes"), ("an", "hour"),
                                   ("a", "while"), ("some", "time"))),
    ("count", "to"),
    ("when", "you", "get", "a", "chance"), ("when", "you", "have", "time"),
    *(("on", "my", w) for w in _ON_MY),
    *((wait, *for_, "my", w) for wait, for_ in (
        ("wait", ("for",)), ("waits", ("for",)), ("waiting", ("for",)), ("await", ()),
        ("awaits", ()), ("awaiting", ())) for w in _CONSENTS_GIVEN),
    *(("after", "my", w) for w in _CONSENTS),
    *((w, "i", "say", s) for w in _UNTIL for s in ("so", "go")),
    *((w, "i", v) for w in _UNTIL for v in ("confirm", "approve", "agree", "check", "verify",
                                             "review", "decide", "know", "see", "look", "ask")),
    *((w, "i", give, "the", s) for w in _UNTIL for give in ("give", "say")
      for s in ("word", "signal", "order", "command", "go")),
    *((w, "i", "tell", "you") for w in _UNTIL),
    *(("at", "my", w) for w in ("mark", "signal", "command", "word", "cue", "call", "count")),
    # the operator's consent still to come, without "my" ("..., pending approval", "subject
    # to confirmation", "upon approval", "if approved", "once clearance is given", "wait for
    # permission", "wait for the signal")
    *((*w, *whose, c) for w in (("pending",), ("subject", "to"))
      for whose in ((), ("my",), ("the",), ("final",)) for c in (*_APPROVALS, "confirmation",
                                                                 "review")),
    *(("upon", c) for c in _APPROVALS),
    *((w, c) for w in _UNTIL for c in (*_APPROVALS, "approved", "authorized", "authorised")),
    *_WAITS_FOR,
    # the operator asked first ("check with me before driving ...", "... but ask me first",
    # "get my permission before ...", "once you have my go-ahead, ..."; "Before you drive
    # ..., ask me.": _ask_me)
    ("check", "with", "me"), ("ask", "me", "first"), ("ask", "me", "before"),
    # ... in other words ("Confirm before starting.", "confirm with me first", "ask first",
    # "ask for approval", "check in before you start"; a sentence of its own, a tail "before
    # starting" beside it, is said of the sentence before: _BEFORE_ANY)
    *_ASK_FIRST,
    *((get, "my", w) for get in ("get", "need", "needs") for w in _CONSENTS_GIVEN),
    *(("ask", "for", "my", w) for w in _CONSENTS_GIVEN),
    *((w, "you", have, "my", c) for w in _UNTIL
      for have in ("have", "get", "got", "receive", "hear", "see") for c in _CONSENTS),
    # made ready for, not done ("prepare to drive the rover ...", "stand by to land")
    ("prepare", "to"), ("prepare", "for"), ("get", "ready", "to"), ("get", "ready", "for"),
    ("be", "ready", "to"), ("stand", "by", "to"), ("stand", "by", "for"), ("standby", "to"))
# anywhere in the request: a plan to look at, nothing run
PLAN_ONLY: tuple[tuple[str, ...], ...] = (
    *((*dont, w) for dont in (("don", "t"), ("do", "not"), ("dont",))
      for w in ("execute", "actually")),
    *((*dont, "run", "it") for dont in (("don", "t"), ("do", "not"), ("dont",))),
    ("without", "executing"), ("without", "execution"), ("without", "running", "it"),
    ("dry", "run"), ("just", "plan"), ("only", "plan"), ("plan", "only"),
    ("simulate",), ("in", "simulation", "only"), ("simulation", "only"),
    ("only", "in", "simulation"),
    ("just", "the", "plan"), *(DRAFTING := (
        ("prepare", "a", "plan"), ("draft", "a", "plan"), ("propose", "a", "plan"),
        *(("plan", a, way) for a in ("a", "the") for way in ("route", "path", "trajectory",
                                                             # "plan a drive of the rover to ..."
                                                             "drive", "flight", "search", "walk",
                                                             "mission", "trip", "delivery")),
        *(("give", "me", a, "plan") for a in ("a", "the")),
        ("make", "a", "plan"), ("for", "review"), ("for", "my", "review"), ("for", "approval"),
        ("for", "my", "approval"),
        # the request said back, or the plan judged, first ("Read back: search ...",
        # "Validate this plan: ...", "review the plan")
        ("read", "back"), *(("read", w, "back") for w in ("it", "this", "that")),
        ("repeat", "back"), ("repeat", "it", "back"),
        # (not "we'll check the plan later": only "check this plan")
        ("check", "this", "plan"),
        *((judge, a, what) for judge in ("validate", "review", "verify", "evaluate", "assess",
                                         "critique") for a in ("this", "the")
          # ... or the way there ("verify the route to x 2, y 3")
          for what in ("plan", "route", "path", "trajectory")))))
# ... but a plan asked for (DRAFTING) and then to be run is run ("prepare a plan to ..., then
# execute it"), unless a negation comes right before ("don't execute it")
EXECUTING: tuple[tuple[str, ...], ...] = (
    ("execute", "it"), ("execute", "the", "plan"), ("run", "it"), ("run", "the", "plan"),
    ("carry", "it", "out"), ("carry", "out", "the", "plan"), ("and", "execute"),
    ("then", "execute"), ("go", "ahead"), ("execute", "immediately"), ("and", "go"))
_NOT_BEFORE = frozenset({"not", "t", "dont", "never", "without"})
# a sentence of these words only, one of NO among them, answers the question before it no
# (after a sentence that asks none, it takes back what came before: Reading._no_after)
NO = frozenset({"no", "nope", "nah", "not", "never", "negative", "forbidden", "denied",
                "prohibited", "vetoed"})
_NO_ANSWER = NO | {"really", "absolutely", "definitely", "certainly", "of", "course", "at", "all",
                   "hell", "heck",
                   "way", "sorry", "thanks", "thank", "you", "please", "oh", "um", "well", "hmm",
                   "i", "said", "say", "again", "just", "that"}  # "I said no.", "Not that."
# opening a sentence: a question said as a statement ("I wonder whether the rover can ..."),
# unless it asks what "you" could do ("I wonder if you could send the rover ...")
WONDER: tuple[tuple[str, ...], ...] = (
    ("i", "wonder"), ("we", "wonder"), ("i", "m", "wondering"), ("i", "am", "wondering"),
    ("i", "was", "wondering"), ("we", "were", "wondering"), ("i", "m", "curious"),
    ("i", "am", "curious"), ("just", "curious"), ("curious",))
# ("I need to know if anyone is in x 0 to 5, y 0 to 5" asks for the search: no such opening)
# a modal then "have" and a participle asks what may have been ("could the rover have reached
# x 2, y 3?"), not "could you have the rover drive ..."
PERFECT_REACH = 4  # words from the modal to "have", at most
PARTICIPLES = frozenset({"been", "gone", "driven", "flown", "done", "seen", "taken", "found",
                         "begun", "made", "gotten", "got", "come", "left", "run"})
_NOT = frozenset({"not", "no"})
# the words around a cue for later that make a sentence of it alone (it is said of the one
# before: "But not yet.", "Tomorrow, though.", "Yes, tomorrow.", "Do it later, please.")
_ASIDE = frozenset({"but", "though", "please", "yes", "yeah", "sure", "ok", "okay", "do", "it",
                    "that", "this", "then", "so", "well", "just", "and", "however", "thanks",
                    "alright", "oh", "um", "hmm", "anyway", "actually", "maybe", "perhaps",
                    "instead", "rather", "only"})
SAID_WORDS = 8  # a question is quoted by its first words, at most this many


class Idle(NamedTuple):
    """Words of the request that ask nothing now: ``kind`` says how (a phrase that follows
    "the request ..."), ``said`` with which words; [start, end) the words of its sentence (the
    whole request for a plan only)."""

    kind: str
    said: str
    start: int
    end: int

    def says(self) -> str:
        """What it says, for a refusal."""
        return f"the request {self.kind} ({self.said!r}) and asks nothing to move now"

    def fix(self) -> str:
        """What to ask instead, for a refusal."""
        if self.kind == LATER_KIND:
            return f"to have it done now, ask without {self.said!r}"
        if self.kind == PLAN_KIND:
            return f"to run it, ask without {self.said!r}"
        if self.kind == OTHERS_KIND:
            return "to have the crew do it, ask it of the crew"
        if self.kind == FOREIGN_KIND:
            return ("to have the crew do it, name a robot of the crew (or give the word to one "
                    "as an alias in the crew spec)")
        return "to have it done now, ask for it"


ASKS = "asks a question"
TOLD = "asks to be told"
SUPPOSES = "supposes"
TELLS = "tells what happened"
LATER_KIND = "asks for it later"
PLAN_KIND = "asks for a plan only"
OTHERS_KIND = "leaves it to someone else"
FOREIGN_KIND = "asks it of a robot the crew does not have"
CONTINGENT = "keeps it for a contingency"
UNDER_WAY_KIND = "tells what is under way"
WEIGHS = "only weighs it"

Find = Callable[[tuple[tuple[str, ...], ...]], list[tuple[int, int]]]
Said = Callable[[int, int], str]


def sentences(seps: Sequence[str], clause_starts: Sequence[int], n: int
              ) -> list[tuple[int, int, bool]]:
    """Each sentence's words [start, end) and whether it ends with "?": the clause ends (the
    reading's ``clause_starts``: a decimal point ends none, "x 2.5") that a ".", "!" or "?"
    makes, of a request of ``n`` words."""
    out: list[tuple[int, int, bool]] = []
    start = 0
    for end in clause_starts[1:]:
        sep = seps[end - 1]
        if not SENTENCE_ENDS.isdisjoint(sep):
            out.append((start, end, "?" in sep))
            start = end
    if start < n:
        out.append((start, n, False))
    return out


# the cues found anywhere, in one lookup, with the kind each says
_SUPPOSED = frozenset(SUPPOSED)
_CUES = (*PLAN_ONLY, *PAST, *PAST_VERBS, *LATER, *UNDER_WAY, *SUPPOSED)
_KIND = {**dict.fromkeys(PLAN_ONLY, PLAN_KIND), **dict.fromkeys((*PAST, *PAST_VERBS), TELLS),
         **dict.fromkeys(LATER, LATER_KIND), **dict.fromkeys(UNDER_WAY, UNDER_WAY_KIND),
         **dict.fromkeys(SUPPOSED, SUPPOSES)}
_TOLD_KINDS = (TELLS, UNDER_WAY_KIND)  # (told only where the sentence names no action)



def _by_first(cues: tuple[tuple[str, ...], ...]) -> dict[str, tuple[tuple[str, ...], ...]]:
    out: dict[str, list[tuple[str, ...]]] = {}
    for cue in cues:
        out.setdefault(cue[0], []).append(cue)
    return {k: tuple(v) for k, v in out.items()}


_SUPPOSE = _by_first(SUPPOSE)
_TELL = _by_first(TELL)
_CHECKING = _by_first(CHECKING)
_YOU = tuple((w,) for w in YOU)
_WONDER = _by_first(WONDER)
_INTENDED = _by_first(INTENDED)
_CONSIDERING = _by_first(CONSIDERING)
_CONTINGENCIES = _by_first(CONTINGENCIES)
_TAGGED = frozenset({*(tag[-1] for tag in TAGS), "or"})  # (a tag's last word, a choice's "or")
# what opens a condition before the sentence's main clause ("if ..., would it fit?")
_CONDITIONS = frozenset({"if", "when", "once", "unless", "whenever", "after", "before"})
_MODALS = frozenset({"can", "could", "couldn", "would", "wouldn", "will", "won", "should",
                     "shouldn", "might", "may", "must"})
# the first words (after fillers and an address) that can say a sentence's mood: any other
# opens what may ask ("drive", "search", "take off, ..."), looked at no further
OPENINGS = frozenset({*QUESTION_WORDS, *MARKED_QUESTION_WORDS, *BARE_AUXILIARIES,
                      *MARKED_AUXILIARIES, *_ASKING, "shall", *_SUPPOSE, *_TELL, *_WONDER,
                      *_INTENDED, *_CHECKING, *ELIDED, *_CONSIDERING, *_CONTINGENCIES})


def answers_no(sentence: Sequence[str]) -> bool:
    """Whether a sentence is a bare no ("No.", "Absolutely not.", "Of course not.")."""
    return bool(sentence) and _NO_ANSWER.issuperset(sentence) and not NO.isdisjoint(sentence)


def _answered_no(words: Sequence[str], seps: Sequence[str], start: int, end: int) -> bool:
    """Whether the sentence [start, end) answers the question before it no: a bare no, or one
    that opens with a no and a comma ("No, it is needed here.", "No, walk it to room_b": what
    follows is read as any sentence is)."""
    return answers_no(words[start:end]) or (
        end - start > 1 and words[start] in NO and "," in seps[start])


# after a negation, what need not be done is not asked either ("no need to wait for my go",
# "you don't have to confirm first")
_NEED_TO = frozenset({("need", "to"), ("have", "to")})
_NEED_NOT = _NOT_BEFORE | {"no"}
_UNTIL_ONLY = frozenset({"until", "till"})  # after "not": for later ("Not until I say so.")


def _negated(words: Sequence[str], start: int, end: int) -> bool:
    """Whether a negation right before the cue [start, end) takes it back ("now, not
    tomorrow", "don't wait for my signal", "no need to confirm first"; not "not until I say
    so")."""
    if not start:
        return False
    before = words[start - 1]
    if before == "not" and words[start] in _UNTIL_ONLY:
        return False
    return before in _NOT_BEFORE or (end - start == 1 and before in _NOT) or (
        start >= 3 and (words[start - 2], before) in _NEED_TO and words[start - 3] in _NEED_NOT)


# after a cue for later, a tail that says only "before it starts" keeps its sentence one of its
# own, said of the sentence before ("Search ... and land. Confirm before starting.", "... Wait
# for my go before you start.")
_BEFORE_ANY = frozenset({"you", "we", "i", "it", "start", "starting", "begin", "beginning",
                         "proceed", "proceeding", "execute", "executing", "move", "moving",
                         "go", "going", "act", "acting", "do", "doing", "anything", "so",
                         "that", "this", "the", "mission"})
BEFORE_REACH = 3  # words of such a tail after "before", at most


def _aside_after(words: Sequence[str], end: int, e: int) -> bool:
    """Whether the words [end, e) after a cue are asides, "first" ("Confirm with me first."),
    or a tail "before starting" (its "before" the cue's last word or the first after it)."""
    if _ASIDE.issuperset(words[end + (end < e and words[end] == "first"):e]):
        return True
    if end < e and words[end] == "before":
        end += 1
    elif words[end - 1] != "before":
        return False
    return e - end <= BEFORE_REACH and _BEFORE_ANY.issuperset(words[end:e])


def _executes(words: Sequence[str], find: Find) -> bool:
    """Whether the request asks for its plan to be run ("..., then execute it"), not
    "don't execute it"."""
    return any(not (start and words[start - 1] in _NOT_BEFORE) for start, _ in find(EXECUTING))


def idle_parts(words: Sequence[str], seps: Sequence[str], clause_starts: Sequence[int],
               verbs: frozenset[str], find: Find, said: Said, vocabulary: frozenset[str],
               text: str, robots: frozenset[str] = frozenset()) -> tuple[Idle, ...]:
    """The parts of the request that ask nothing now (see the module's doc), in order; a plan
    only is one part, the whole request. ``verbs``: the first words of the crew's actions
    ("the rover drove there yesterday" tells; "send the rover where it was yesterday" asks);
    ``clause_starts``, ``find``, ``said``, ``vocabulary`` (its distinct words) and ``text``:
    the request's reading's (:class:`crewgate.text.intent.Reading`); ``robots``: the nouns of
    robots the crew does not have (:mod:`crewgate.text.actors`)."""
    n = len(words)
    cues = [(a, b, _KIND[tuple(words[a:b])]) for a, b in find(_CUES)]
    if not _CLOCK.isdisjoint(vocabulary) and (not _CLOCK_HINTS.isdisjoint(vocabulary)
                                              or ":" in text or _GLUED_HOUR.search(text)
                                              or any(map(_four_digits, vocabulary))):
        cues = sorted([*cues, *_clock_times(words, seps, find, verbs)])
    if not _DELAY_WORDS.isdisjoint(vocabulary) and not TIMES.isdisjoint(vocabulary):
        cues = sorted([*cues, *_delays(words, seps, find, verbs)])
    if not _RECURRING_WORDS.isdisjoint(vocabulary) and (
            not _PERIODS.isdisjoint(vocabulary) or not _EVERY_SO_OFTEN.isdisjoint(vocabulary)):
        cues = sorted([*cues, *_recurring(words, seps, find, verbs)])
    if "say" in vocabulary and "i" in vocabulary:
        cues = sorted([*cues, *_say_when(words, seps, find)])
    if not EVENTS.isdisjoint(vocabulary) or not PEOPLE.isdisjoint(vocabulary):
        cues = sorted([*cues, *_events(words, find)])
    if "later" in vocabulary:
        cues = sorted([*cues, *_laters(words, seps, verbs, find)])
    if "ask" in vocabulary and "me" in vocabulary:
        cues = sorted([*cues, *_ask_me(words, seps, find)])
    if "might" in vocabulary or "mightn" in vocabulary:
        cues = sorted([*cues, *_mights(words, find)])
    others = not ACTOR_WORDS.isdisjoint(vocabulary) or not robots.isdisjoint(vocabulary)
    answered = "?" in text and not _NO_ANSWER.isdisjoint(vocabulary)
    tagged = "?" in text and not _TAGGED.isdisjoint(vocabulary)  # (_tag, _choice)
    if not cues and not others and not answered and not tagged \
            and OPENINGS.isdisjoint(vocabulary):
        return ()  # no sentence can open as anything but what may ask (most requests)
    drafts = {(a, b) for a, b, kind in cues if tuple(words[a:b]) in DRAFTING}
    if drafts and _executes(words, find):  # "prepare a plan ..., then execute it": asked
        cues = [c for c in cues if c[:2] not in drafts]
    # ("read back: ...", not "then read back its position", "no need to review the plan, just
    # drive ...", "Read back when done.")
    cues = [(a, b, kind) for a, b, kind in cues if not (
        kind is PLAN_KIND and words[a] in _JUDGING_FIRST and (
            _negated(words, a, b) or not _opens(words, seps, a) or b >= n
            or ":" not in seps[b - 1]))]
    plan_only = next(((a, b) for a, b, kind in cues if kind is PLAN_KIND), None)
    if plan_only is not None:
        return (Idle(PLAN_KIND, said(*plan_only), 0, n),)
    spans = sentences(seps, clause_starts, n)
    marked: dict[int, tuple[str, str]] = {}  # a sentence (its index) -> its kind and saying
    alone: set[int] = set()  # ... of them, those told only by a verb in the past (PAST_VERBS)
    if cues:
        starts = [s for s, _, _ in spans]
        acts: set[int] = set()  # sentences found to name an action (each looked at once)
        for start, end, kind in cues:
            k = bisect_right(starts, start) - 1
            verb = tuple(words[start:end]) in _PAST_VERBS
            if verb and start > starts[k] and words[start - 1] not in _TOLD_AFTER \
                    and not _CAUSATIVES.isdisjoint(
                        words[max(starts[k], start - CAUSATIVE_REACH):start]):
                continue  # "have the bottle carried to room_b": asked
            if k in alone and kind is TELLS and not verb:
                alone.discard(k)  # "the rover went there yesterday": told, saying "yesterday"
                del marked[k]
            if k in marked or _negated(words, start, end):
                continue  # "now, not tomorrow", "you don't need my permission", "without
                # waiting for my go"
            if start > starts[k] and words[start] in _UNTIL_ONLY and words[start - 1] == "not":
                start -= 1  # "not until I say so": quoted with its "not"
            s, e, _ = spans[k]
            if kind is UNDER_WAY_KIND and not (start and words[start - 1] in _IS_ON):
                continue  # "get the dog on its way to room_b now": sent (not "the rover is
                # on its way to x 2, y 3", "... 's en route")
            if tuple(words[start:end]) in _OPENING_ONLY and not _ASIDE.issuperset(words[s:start]):
                continue  # "drive ... and check in with me", "..., then wait for clearance
                # before going further": a later step, or another's ("the drone must wait
                # for clearance; drive the rover ..."), not the request's condition
            if not _APPROVED.isdisjoint(words[start:end]) and (
                    not _MEANWHILE.isdisjoint(words[s:e]) or (end < e and words[end] in _WENT)):
                continue  # "pending approval of the flight, drive the rover now", "after
                # approval came in, ...": asked now
            if kind in _TOLD_KINDS and (k in acts or not verbs.isdisjoint(words[s:e])):
                acts.add(k)  # "send the rover where it was yesterday": asked
                continue
            if words[end - 1] == "before":  # "confirm before starting": quoted with its tail
                stop = min(e, end + BEFORE_REACH)
                while end < stop and words[end] in _BEFORE_ANY:
                    end += 1
            marked[k] = (kind, said(start, end))
            if verb:
                alone.add(k)
            if (kind is LATER_KIND or tuple(words[start:end]) in _SUPPOSED) and k \
                    and _ASIDE.issuperset(words[s:start]) and _aside_after(words, end, e):
                # "Land the drone. Not yet.", "Walk the dog to room_b? Sure, but not now.",
                # "... Do it tomorrow.", "... Not until I say so.", "... Confirm before
                # starting.", "... Hypothetically.": said of the sentence before
                marked.setdefault(k - 1, marked[k])
    out = []
    told_alone: list[Idle] = []  # the parts told only by a verb in the past
    asks = False  # some sentence may ask
    for k, (start, end, question) in enumerate(spans):
        opening = _opening(words, seps, start, end, question, verbs, said)
        found = opening or marked.get(k)
        if found is None and question and answered and k + 1 < len(spans) and _answered_no(
                words, seps, *spans[k + 1][:2]):
            # "Rover to x 2, y 3? Absolutely not.", "Walk the dog to room_a? No, it is needed
            # here.": a question the request answers no
            found = (ASKS, said(start, min(end, start + SAID_WORDS)) + (
                " ..." if end - start > SAID_WORDS else ""))
        if found is not None:
            out.append(Idle(*found, start, end))
            if opening is None and k in alone:
                told_alone.append(out[-1])
            continue
        asks = True
        if others:
            out += [Idle(FOREIGN_KIND if who == FOREIGN else OTHERS_KIND, said(
                a, min(b, a + SAID_WORDS)) + (" ..." if b - a > SAID_WORDS else ""), a, b)
                for a, b, who in left_to_others(words, seps, start, end, verbs, robots)]
    if asks and told_alone:
        out = [p for p in out if p not in told_alone]
    return tuple(out)


# an event the crew cannot see, after or upon which something is asked: for later ("after the
# meeting", "once the storm passes", "when the briefing is over")
EVENTS = frozenset({"meeting", "meetings", "briefing", "break", "lunch", "dinner", "breakfast",
                    "shift", "call", "storm", "rain", "inspection", "tour", "presentation",
                    "demo", "visit", "lecture", "class", "ceremony", "party", "weekend",
                    "holidays", "holiday",
                    # ... or a signal the crew does not give ("when the alarm goes off")
                    "alarm", "alarms", "siren", "sirens", "bell", "whistle", "horn", "buzzer",
                    "timer", "countdown",
                    # ... or what the weather or a fire does ("when the smoke clears", "once
                    # the fire is out")
                    "smoke", "fire", "flames", "wind", "fog", "flood", "flooding", "dust"})
_UPON = (("after",), ("once",), ("when",), ("as", "soon", "as"))
_MIGHT = (("might",), ("mightn", "t"))  # (see _mights)
# opening a sentence, a delay before what follows ("Wait 10 minutes, then search ...", "wait
# for two hours, ..."; not "wait a second, ...": a pause in speech), or anywhere a time from
# now ("10 minutes from now"): for later (_delays)
_DELAYS = (("wait",), ("from", "now"))
_DELAY_WORDS = frozenset({"wait", "from"})
_MOMENTS = frozenset({"second", "seconds", "sec", "secs", "s"})  # a pause, not a delay
_SENTENCE_ENDS_AT = frozenset(".!?;")
_FEW = frozenset({"few", "couple"})  # counts said in words besides numbers ("a few minutes")
# recurring, not once now ("Search ... and land every hour.", "Every 10 minutes, ...", "...
# daily."), where it ends a clause (not "every minute counts") and is not said of what is told
# while it is done ("..., reporting every 10 seconds", "send me updates every minute")
_EVERY_SO_OFTEN = frozenset({"hourly", "daily", "nightly", "weekly", "monthly"})
RECURRING: tuple[tuple[str, ...], ...] = (
    ("every",), ("each",), *((w,) for w in sorted(_EVERY_SO_OFTEN)), ("once", "a"),
    ("once", "an"), ("twice", "a"), ("twice", "an"), ("on", "the", "hour"))
_RECURRING_WORDS = frozenset(cue[0] for cue in RECURRING)
# ... each of these after "every", "each", "once a", "twice a" ("every hour", "once a day")
_PERIODS = frozenset({*TIMES, "day", "days", "night", "nights", "morning", "mornings",
                      "evening", "evenings", "afternoon", "afternoons", "week", "weeks", "month",
                      "months", "shift", "shifts", "weekday", "weekdays", "weekend", "weekends",
                      *_DAYS})
_REPORTS = frozenset({"report", "reports", "reporting", "update", "updates", "updating",
                      "ping", "pinging", "status", "check", "checking", "in", "me", "us",
                      "position", "location", "photo", "photos", "picture", "pictures",
                      "message", "messages", "beep", "beeping", "call", "calling"})
REPORT_REACH = 3  # words before the cue looked at for what is told, at most
# "I say" after "when", "once", "if", "after" ending a clause ("Drive the rover to x 2, y 3
# when I say."; not "if I say stop, stop": "stop" is asked), or after "not until" ("Not until
# I say."; not "stay there until I say": where it stays): for later (_say_when)
_SAY = tuple((w, "i", "say") for w in ("when", "whenever", "once", "if", "after", "until",
                                       "till"))
_OPENS_CLAUSE = frozenset(".!?;:,")  # before a cue that opens its clause ("Every morning, ...")
# what ends a clause after a cue ("every hour.", "when I say, not before")
_ENDS_CLAUSE = frozenset(".!?;:,)—–")
# the phrase tables idle_parts looks for with the reading's ``find`` (crewgate.text.intent's
# PhraseIndex finds them with the reading's other cues, in one pass)
FOUND_TABLES = (_CUES, EXECUTING, _UPON, _MIGHT)
# (_DELAYS, RECURRING and _SAY are looked up alone, each only when its words are in the request)
_OF_EVENT = frozenset({"the", "my", "our", "this", "today", "s", "your", "their", "next"})
# ... or what people do that the crew cannot see ("when the visitors leave", "once the medics
# arrive")
_PEOPLE_DO = frozenset({"leave", "leaves", "arrive", "arrives", "finish", "finishes", "return",
                        "returns", "are", "is", "get", "gets", "come", "comes"})
# ... not one that happened ("when the alarm went off, someone was in ...")
_WENT = frozenset({"went", "began", "begun", "started", "ended", "was", "were", "sounded",
                   "rang", "came", "happened", "hit"})
# ... not a place named after it ("the meeting room", "the break area")
_PLACE_NOUNS = frozenset({"room", "rooms", "area", "point", "table", "hall", "spot", "zone",
                          "desk"})


def _events(words: Sequence[str], find: Find) -> list[tuple[int, int, str]]:
    """An event the crew cannot see, after or upon which something is asked (``EVENTS``)."""
    out = []
    n = len(words)
    for k, j in find(_UPON):
        if k and words[k - 1] == "at":
            continue  # "land the drone at once, the alarm is on": now
        while j < n and j - k < 5 and words[j] in _OF_EVENT:
            j += 1
        if j + 1 < n and words[j] in EVENTS and not _WENT.isdisjoint(words[j + 1:j + 3]):
            continue  # "when the alarm went off, ...": what happened
        if j < n and words[j] in EVENTS and (j + 1 == n or words[j + 1] not in _PLACE_NOUNS):
            out.append((k, j + 1, LATER_KIND))
        elif j + 1 < n and words[j] in PEOPLE and words[j + 1] in _PEOPLE_DO:
            out.append((k, j + 2, LATER_KIND))  # "when the visitors leave"
    return out


# in a sentence that ends with "later", these say what is asked now ("send the rover now and
# the drone later", "search first and land later")
_NOW = frozenset({"now", "immediately", "first", "asap", "right", "straight"})
_CLAUSE_MARKS = frozenset(".!?;:")


def _laters(words: Sequence[str], seps: Sequence[str], verbs: frozenset[str],
            find: Find) -> list[tuple[int, int, str]]:
    """"Later" opening a sentence before a comma ("Later, send the rover"), or ending one whose
    last clause names one action and nothing for now ("Send the rover to x 2, y 3 later."; not
    "drive there; we will talk later", nor "search and land later"): for later."""
    out = []
    n = len(words)
    for k, _ in find((("later",),)):
        if (k == 0 or not SENTENCE_ENDS.isdisjoint(seps[k - 1])) and "," in seps[k]:
            out.append((k, k + 1, LATER_KIND))
        elif k + 1 == n or not SENTENCE_ENDS.isdisjoint(seps[k]):
            start = k  # its clause's first word (one clause looked at per "later")
            while start and _CLAUSE_MARKS.isdisjoint(seps[start - 1]):
                start -= 1
            said = words[start:k]
            if _NOW.isdisjoint(said) and sum(w in verbs for w in said) == 1 and not \
                    _later_of_another(words, seps, start, k, verbs):
                out.append((k, k + 1, LATER_KIND))
    return out


# after "and", "then" or a comma, the verbs of telling that open a part said to be done later
# and that is no action of the crew's: its "later" is its own ("drive the rover to x 2, y 3
# and report back later", "..., call me later"; not "... and do it later", which is the drive,
# nor "..., I want it there later")
_LATER_OTHERS = frozenset({"report", "check", "call", "radio", "update", "confirm", "ping",
                           "message", "text", "email", "debrief", "follow", "talk", "chat"})


def _later_of_another(words: Sequence[str], seps: Sequence[str], start: int, k: int,
                      verbs: frozenset[str]) -> bool:
    """Whether the "later" at word ``k`` ends a part of its own, begun after "and", "then" or a
    comma (past ``start``) by one of ``_LATER_OTHERS``, that names no action of the crew's."""
    j = k - 1
    while j > start and words[j] not in _LATER_JOINS and "," not in seps[j - 1]:
        j -= 1
    first = j + (words[j] in _LATER_JOINS)
    return j > start and first < k and words[first] in _LATER_OTHERS and all(
        w not in verbs for w in words[first:k])


_LATER_JOINS = frozenset({"and", "then"})


# after "might", a polite request ("might I suggest ...", "might you ...", "... might as well
# ..."); so is "you might ..." and "we might want to ..."
_POLITE_AFTER_MIGHT = frozenset({"i", "we", "you", "u", "as"})
_POLITE_MIGHT = frozenset({"want", "wanna", "like", "wish"})


def _mights(words: Sequence[str], find: Find) -> list[tuple[int, int, str]]:
    """"Might" said of what a robot or anyone may do: a supposition, not a request ("the dog
    might go to room_b", "it might need to land", "the dog might want to go"); not a polite
    request ("you might want to send ...", "we might want to ...", "might I suggest ...",
    "... might as well ...")."""
    out = []
    for k, end in find(_MIGHT):
        after = words[end] if end < len(words) else ""
        before = words[k - 1] if k else ""
        if after in _POLITE_AFTER_MIGHT or before in YOU or (
                before == "we" and after in _POLITE_MIGHT):
            continue
        out.append((k, min(end + 1, len(words)), SUPPOSES))
    return out


def _opens(words: Sequence[str], seps: Sequence[str], k: int) -> bool:
    """Whether word ``k`` opens its sentence, past a few fillers ("Ok, wait 10 minutes, ...")."""
    j = k
    for _ in range(VOCATIVE_WORDS):
        if not j or not SENTENCE_ENDS.isdisjoint(seps[j - 1]):
            return True
        if words[j - 1] not in FILLERS:
            return False
        j -= 1
    return not j or not SENTENCE_ENDS.isdisjoint(seps[j - 1])


def _ends_clause(seps: Sequence[str], end: int, n: int) -> bool:
    """Whether the words [.., end) end a clause (of a request of ``n`` words)."""
    return end == n or not _ENDS_CLAUSE.isdisjoint(seps[end - 1])


def _after_action(words: Sequence[str], k: int, verbs: frozenset[str]) -> bool:
    """Whether word ``k`` is an action of the crew's or ends a value ("land", "3" of "x 2, y
    3"): what a time, delay or recurrence right after it is said of ("... and land every hour",
    "... to x 2, y 3 at 1400"; not "the victim's condition worsens every minute")."""
    return words[k] in verbs or words[k][-1].isdigit()


def _count(word: str) -> bool:
    """Whether a word says how many ("10", "two", "half", "few", "couple")."""
    return word[:1].isdigit() or word in SPELLED_FIRST or word in _FEW


def _delays(words: Sequence[str], seps: Sequence[str], find: Find, verbs: frozenset[str]
            ) -> list[tuple[int, int, str]]:
    """A delay of minutes or more opening a sentence ("Wait 10 minutes, then search ...", "wait
    a few minutes", "wait half an hour"; not "wait a second, ...", "wait 2 seconds for the gate
    to open": a pause in the work), or a time from now ending a sentence right after the action
    or its value ("... to x 2, y 3 10 minutes from now."; not "ten minutes from now is too
    late", "the medics arrive 10 minutes from now"): for later."""
    out = []
    n = len(words)
    for k, end in find(_DELAYS):
        if words[k] == "from":  # "10 minutes from now"
            if k >= 2 and words[k - 1] in TIMES and words[k - 1] not in _MOMENTS and (
                    _count(words[k - 2]) or words[k - 2] in ("a", "an")) and (
                    end == n or not _SENTENCE_ENDS_AT.isdisjoint(seps[end - 1])) and k >= 3 \
                    and _after_action(words, k - 3, verbs):
                out.append((k - 2, end, LATER_KIND))
            continue
        if not _opens(words, seps, k):
            continue
        j = k + 1
        for skip in (("for",), ("a", "an")):  # "wait for two hours", "wait a few minutes"
            if j < n and words[j] in skip:
                j += 1
        if not (j < n and _count(words[j])):
            continue
        j += 1
        if j < n and words[j] in ("of", "a", "an"):  # "a couple of hours", "half an hour"
            j += 1
        if j < n and words[j] in TIMES and words[j] not in _MOMENTS:
            out.append((k, j + 1, LATER_KIND))
    return out


def _recurring(words: Sequence[str], seps: Sequence[str], find: Find, verbs: frozenset[str]
               ) -> list[tuple[int, int, str]]:
    """What recurs ("every hour", "every 10 minutes", "every other day", "once a day",
    "daily", "on the hour") ending a clause, not said of what is told (``RECURRING``), said of
    an action of the crew's: opening its clause ("Every morning, search ..."), or right after
    the action or its value ("... and land every hour", "... to x 2, y 3 daily"); not of what
    else happens ("the victim's condition worsens every minute", "like we do every day"): for
    later."""
    out = []
    n = len(words)
    for k, end in find(RECURRING):
        if words[k] in ("every", "each"):
            j = k + 1
            if j < n and words[j] in ("other", "single"):
                j += 1
            if j < n and _count(words[j]):  # "every 10 minutes", "every couple of hours"
                j += 1
                if j < n and words[j] == "of":
                    j += 1
            if not (j < n and words[j] in _PERIODS):
                continue  # "every robot", "every 2 m"
            end = j + 1
        elif end - k == 2:  # "once a day", "twice an hour"
            if not (end < n and words[end] in _PERIODS):
                continue  # "once a victim is found"
            end += 1
        said_of = k == 0 or not _OPENS_CLAUSE.isdisjoint(seps[k - 1]) or _after_action(
            words, k - 1, verbs)
        if said_of and _ends_clause(seps, end, n) and _REPORTS.isdisjoint(
                words[max(0, k - REPORT_REACH):k]):
            out.append((k, end, LATER_KIND))
    return out


def _say_when(words: Sequence[str], seps: Sequence[str], find: Find
              ) -> list[tuple[int, int, str]]:
    """"When I say" ending a clause, "not until I say" (``_SAY``): for later."""
    n = len(words)
    return [(k, end, LATER_KIND) for k, end in find(_SAY) if _ends_clause(seps, end, n)
            and (words[k] not in _UNTIL_ONLY or (k and words[k - 1] == "not"))]


def _four_digits(word: str) -> bool:
    """Whether a word is a time of day said as four digits ("1400", "0930")."""
    return len(word) == 4 and word.isdigit() and int(word[:2]) < 24 and int(word[2:]) < 60


def _ask_me(words: Sequence[str], seps: Sequence[str], find: Find
            ) -> list[tuple[int, int, str]]:
    """"Ask me" ending its sentence ("Before you drive the rover to x 2, y 3, ask me."): the
    operator's consent comes first, for later (not "... and ask me if anything goes wrong")."""
    n = len(words)
    return [(k, k + 2, LATER_KIND) for k, _ in find((("ask", "me"),))
            if (k + 2 == n or not SENTENCE_ENDS.isdisjoint(seps[k + 1]))
            and not (k and words[k - 1] == "to")]  # not "no need to ask me"


_CLOCK = frozenset({"in", "at"})
_HOURS = frozenset({"am", "pm", "oclock", "o"})
# what a time said with a number has besides "in" and "at" (else none is looked for)
_CLOCK_HINTS = TIMES | _HOURS
_GLUED_HOUR = re.compile(r"\d[ap]m\b", re.IGNORECASE)
# what may follow a time of day said as four digits, besides a unit of time or a clause's end
_AFTER_HOUR = frozenset({"sharp", "local", "zulu", "and", "then"})
_DONE = frozenset({"it", "them", "there", "here", "off", "up", "down", "back", "out"})


def _clock_times(words: Sequence[str], seps: Sequence[str], find: Find, verbs: frozenset[str]
                 ) -> list[tuple[int, int, str]]:
    """A time of day or a delay said with a number: for later ("in 10 minutes", "in two
    hours", "at 3 pm", "at 3pm", "at 15:00", "at 1400")."""
    out = []
    n = len(words)
    for k, _ in find((("in",), ("at",))):
        if k + 2 > n:
            continue
        number = words[k + 1]
        after = words[k + 2] if k + 2 < n else ""
        if words[k] == "in":  # "in 10 minutes", "in two hours"
            if (number[0].isdigit() or number in SPELLED_FIRST) and after in TIMES:
                out.append((k, k + 3, LATER_KIND))
        elif not number[0].isdigit():
            continue
        elif number[-2:] in ("am", "pm") and number[:-2].isdigit():  # "at 3pm"
            out.append((k, k + 2, LATER_KIND))
        elif after in _HOURS or (seps[k + 1] == ":" and after.isdigit()):  # "at 3 pm", "15:00"
            out.append((k, k + 3, LATER_KIND))
        elif _four_digits(number) and (after in TIMES or after in _AFTER_HOUR or (
                _ends_clause(seps, k + 2, n) and not after[:1].isdigit())) and k and (
                _after_action(words, k - 1, verbs) or words[k - 1] in _DONE):
            # "at 1400", "at 1400 hours", "at 0930 sharp", right after the action, its value or
            # what it is done to (not "at 1400 m", "at 1024 tokens", "at 1400, 2000", nor "the
            # hiker was last seen at 1400")
            out.append((k, k + 2 + (after in TIMES), LATER_KIND))
    return out


def _cue_at(words: Sequence[str], k: int, end: int,
            cues: dict[str, tuple[tuple[str, ...], ...]]) -> int:
    """The length of the cue (by their first word) that begins at word ``k``, or 0 (none
    begins there)."""
    return next((len(c) for c in cues.get(words[k], ())
                 if tuple(words[k:min(end, k + len(c))]) == c), 0)


def _opening(words: Sequence[str], seps: Sequence[str], start: int, end: int, question: bool,
             verbs: frozenset[str], said: Said) -> tuple[str, str] | None:
    """The mood of a sentence by its first words: a question, a supposition, or None (it may
    ask)."""
    k = _past_fillers(words, start, end)
    if k >= end:
        return None
    kind = None
    if words[k] in OPENINGS:
        if _cue_at(words, k, end, _SUPPOSE):
            kind = SUPPOSES
        elif (n := _cue_at(words, k, end, _CONTINGENCIES)) and (
                words[k] == "in" or not _LABEL_MARKS.isdisjoint(seps[k + n - 1])) \
                and _NOW_IN_EFFECT.isdisjoint(words[k:end]):
            kind = CONTINGENT  # "Plan B: drive the rover ...", "In case of emergency, ..."
        elif words[k] == "translate" and k + 1 < end and not _QUOTES.isdisjoint(seps[k]):
            kind = TOLD  # "translate 'help is on the way' into Spanish": a quote said over
        elif (n := _cue_at(words, k, end, _CONSIDERING)) and k + n < end and (
                words[k + n].endswith("ing") or words[k + n] in ("whether", "if")):
            kind = WEIGHS  # "I'm considering sending the rover ..." (not "I'm considering all
            # options; for now drive ...")
        elif (n := _cue_at(words, k, end, _INTENDED)) and words[k + n:k + n + 1] not in (
                ("ask",), ("request",), ("check",)):
            kind = TELLS  # "I was going to send the rover ...": what was meant, not asked (not
            # "I wanted to ask you to send ...", a request)
        else:
            kind = _kind(words, k, end, question, verbs)
    if kind is None:  # "rover, can you ...", "hey drone, are you ...": past a short address
        comma = next((j for j in range(k, min(end - 1, k + VOCATIVE_WORDS)) if "," in seps[j]),
                     None)
        if comma is not None and (k := _past_fillers(words, comma + 1, end)) < end \
                and words[k] in OPENINGS:
            kind = _kind(words, k, end, question, verbs)
    if kind is None and question and words[k] in _CONDITIONS:
        # "if the dog walks to room_b, will it fit?": the question past the condition's comma
        # (not "if you can, could you walk the dog ...?": a polite request all the same)
        # (the first comma that a word of OPENINGS follows: not the one inside "x 2, y 3")
        main = next((m for j in range(k + 1, end - 1) if "," in seps[j] and (
            m := _past_fillers(words, j + 1, end)) < end and words[m] in OPENINGS), None)
        if main is not None:
            kind = _kind(words, main, end, question, verbs)
    if kind is None and question:
        first = _past_fillers(words, start, end)
        if words[first] not in verbs and end == len(words) and (
                tag := _tag(words, seps, first, end)) is not None:
            # "Rover to x 2, y 3, correct?": quoted with its tag (not "Land the drone now,
            # right?", an order said with a tag, nor "That's x 2, y 3, correct? Drive the rover
            # there.", a value confirmed before the order)
            return ASKS, (said(start, end) if end - start <= SAID_WORDS else said(
                start, start + SAID_WORDS - (end - tag)) + " ... " + said(tag, end)) + "?"
        if _choice(words, first, end, verbs):
            kind = ASKS  # "Rover or drone to x 2, y 3?"
    if not kind:
        return None
    return kind, said(start, min(end, start + SAID_WORDS)) + (
        " ..." if end - start > SAID_WORDS else "?" if question else "")


def _tag(words: Sequence[str], seps: Sequence[str], start: int, end: int) -> int | None:
    """Where a tag of ``TAGS`` that ends the sentence [start, end) after a comma or a dash
    begins, if one does."""
    for tag in TAGS:
        t = end - len(tag)
        if t > start and tuple(words[t:end]) == tag and not _TAG_MARKS.isdisjoint(seps[t - 1]):
            return t
    return None


def _choice(words: Sequence[str], k: int, end: int, verbs: frozenset[str]) -> bool:
    """Whether the sentence's first words from word ``k`` offer a choice, no action among them
    (``CHOICE_REACH``)."""
    for j in range(k + 1, min(end - 1, k + 1 + CHOICE_REACH)):
        if words[j] == "or":  # (no action anywhere: "rover or drone, drive to x 2, y 3?" asks)
            return verbs.isdisjoint(words[k:end])
    return False


def _kind(words: Sequence[str], k: int, end: int, question: bool,
          verbs: frozenset[str]) -> str | None:
    """How a sentence whose first word is ``words[k]`` asks nothing: ASKS, TOLD; "" when it
    opens a polite request ("can you ...", "how about ..."); None when its first words say
    neither."""
    first = words[k]
    after = words[k + 1] if k + 1 < end else ""
    if first in _MODALS and _perfect(words, k + 1, end):
        return ASKS  # "could the rover have reached x 2, y 3 by now?"
    if n := _cue_at(words, k, end, _WONDER):
        j = k + n  # "I wonder if you could send ...": a request
        polite = words[j:j + 1] in (("if",), ("whether",)) and j + 2 < end \
            and words[j + 1] in YOU and words[j + 2] in _ASKING
        return "" if polite else ASKS
    if first in _ASKING and after in YOU:  # "can you ...": a request, unless to be told
        k += 2
        if k < end and words[k] == "please":
            k += 1
        told = k < end and words[k] not in verbs and _cue_at(words, k, end, _TELL)
        return TOLD if told else ""
    if first in ("can", "could", "couldn") or (first == "shall" and after in ("we", "i")) or (
            first in _ABOUT and after == "about") or (first == "why" and after in _WHY_NOT) or (
            first in ("do", "does") and after == "you" and k + 2 < end
            and words[k + 2] == "mind"):
        return ""
    if first not in verbs and _cue_at(words, k, end, _TELL):
        return TOLD
    if (n := _cue_at(words, k, end, _CHECKING)) and words[k + n:k + n + 1] not in _YOU and (
            not ABILITY.isdisjoint(words[k + n:min(end, k + n + ABILITY_REACH)])
            or (words[end - 1] in JUDGED and words[end - 2] in _JUDGING)):
        return TOLD  # "check whether the rover can reach x 2, y 3" (not "see if you can ...":
        # a request to try)
    if first == "what" and after in ("a", "an") and not question:
        return None  # "what a day, now send the rover": an exclamation
    if first in QUESTION_WORDS or first in BARE_AUXILIARIES or (question and (
            first in MARKED_QUESTION_WORDS or first in MARKED_AUXILIARIES
            or first in ELIDED)):
        return ASKS
    if first in _WOULD and (after in _IMPERSONAL or (after.endswith("ing") and len(after) > 4)) \
            and "please" not in words[k:end] and words[k + 2:k + 4] not in _POLITE:
        # (not "would it be possible to ...", "would it be ok to ...": a polite request)
        return ASKS  # "would it be safe to drive ...", "would driving ... be safe": asked
        # with its mark left off
    return None


def _perfect(words: Sequence[str], k: int, end: int) -> bool:
    """Whether "have" (or "'ve") and a participle follow within ``PERFECT_REACH`` words of
    word ``k`` ("the rover have reached", "you have been"; not "you have the rover drive")."""
    for j in range(k, min(end - 1, k + PERFECT_REACH)):
        if words[j] in ("have", "ve"):
            nxt = words[j + 1]
            return nxt in PARTICIPLES or (nxt.endswith("ed") and len(nxt) > 3)
    return False


def _past_fillers(words: Sequence[str], k: int, end: int) -> int:
    while k < end and words[k] in FILLERS:
        k += 1
    return k
