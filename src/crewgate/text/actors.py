"""Who does what a request names, when it is not the crew: the speaker ("I'll drive there
myself"), people ("tell the medics to go to x 2, y 3", "the visitors are walking to
room_a") or a robot the crew does not have ("send the boat to x 2, y 3", "search x 0 to 5, y
0 to 5 with the helicopter" to a crew of a humanoid and a dog). What lies in such a part asks
nothing of the crew (:mod:`crewgate.text.mood` makes it a part that asks nothing now): no robot
of the crew takes the place of the one named.

Crew-agnostic and linear: each word is looked at once, with a bounded look back from a
reflexive to its subject and from a person to a verb that tells them.
"""

from __future__ import annotations

from collections.abc import Sequence

from crewgate.text.phrases import ARTICLES

# who does it, when not the crew: the speaker ("I'll land it myself", "we will walk there
# ourselves": a reflexive, from its subject on) and people ("tell the medics to go to x 2, y 3",
# "the visitors are walking to room_a": people named as who moves, from there on). Only nouns
# of roles: "the team", "the crew", "everyone" may be the robots, and "the person", "people",
# "the children" the ones to be found ("when the person is located, send the rover")
REFLEXIVE = frozenset({"myself", "ourselves"})
SPEAKER = frozenset({"i", "we"})
SPEAKER_REACH = 16  # words from a reflexive back to its subject, at most (else: the sentence's)
PEOPLE = frozenset({
    "visitor", "visitors", "guest", "guests", "staff", "operator", "operators", "guard",
    "guards", "firefighter", "firefighters", "rescuer", "rescuers", "medic", "medics",
    "paramedic", "paramedics", "police", "officer", "officers", "soldier", "soldiers",
    "worker", "workers", "volunteer", "volunteers", "colleague", "colleagues", "responder",
    "responders", "technician", "technicians", "nurse", "nurses", "doctor", "doctors",
    "employee", "employees"})
# ... and "someone else" ("someone else will drive ..."; "someone" alone may be the one to find:
# "someone went missing")
SOMEONE = frozenset({"someone", "somebody"})
# ... they move when told to ("tell the medics to go", "have the medics drive ..."), or when a
# verb of moving (or of the crew's actions) follows them, after an auxiliary or not ("the
# visitors are walking", "the medics will search room_b"); "the staff are at x 2" says where
RELAY = frozenset({"tell", "ask", "have", "instruct", "order", "radio", "let"})
RELAY_REACH = 4  # "tell the two field medics to ...": words from the relaying verb to the noun
# ... or sent somewhere ("send the medics to x 2, y 3", "dispatch the paramedics to ..."): people
# the crew cannot send ("send the rover to the medics" sends the rover)
SENDING = frozenset({"send", "dispatch", "deploy", "get"})
AUXILIARIES = frozenset({"will", "ll", "would", "can", "could", "should", "shall", "must",
                         "may", "might", "are", "is", "re", "am", "was", "were"})
MOVING = frozenset({
    "go", "goes", "going", "went", "walk", "walks", "walking", "walked", "drive", "drives",
    "driving", "drove", "head", "heads", "heading", "headed", "come", "comes", "coming",
    "came", "move", "moves", "moving", "moved", "run", "runs", "running", "travel", "travels",
    "travelling", "traveling", "proceed", "proceeds", "proceeding", "fly", "flies", "flying",
    "return", "returns", "returning"})
# ... of them, the words that say only a type of robot (not "truck" or "plane", which may be
# things in the scene): a crew's robots of the family are named by them ("send the copter"
# names a crew's drone)
ROBOT_TYPES: dict[str, frozenset[str]] = {family: frozenset(
    w for noun in nouns.split() for w in (noun, noun + "s")) for family, nouns in {
    "air": "quadcopter quadrotor multicopter multirotor hexacopter octocopter copter uav",
    "wheeled": "ugv agv amr",
    "legged": "quadruped hexapod",
    "humanoid": "humanoid android biped"}.items()}
# kinds of robot by family: a noun of a family no robot of the crew belongs to names a robot
# the crew does not have (crewgate.spec.intent makes the crew's list, less its own words)
ROBOT_FAMILIES: dict[str, frozenset[str]] = {family: frozenset(
    w for noun in nouns.split() for w in (noun, noun + "s")) for family, nouns in {
    "air": "drone quadcopter quadrotor multicopter multirotor hexacopter octocopter copter "
           "helicopter uav aircraft airplane plane blimp",
    "wheeled": "rover ugv agv amr car truck van jeep buggy",
    "legged": "quadruped dog hexapod",
    "humanoid": "humanoid android biped",
    "water": "boat ship vessel usv auv submarine",
    "industrial": "forklift crane excavator tractor bulldozer tank",
    "arm": "manipulator cobot"}.items()}
# ... it acts when sent or used ("send the boat", "use the crane to ..."), when a verb of
# moving follows it (as people do), or as the instrument of the action before it ("with the
# helicopter"); not where it is a place or a thing ("drive to the boat", "search for the
# truck")
DISPATCH = RELAY | frozenset({"send", "use", "get", "make", "dispatch", "deploy", "fly",
                              "drive", "launch", "move", "steer", "pilot", "operate", "task",
                              "employ", "bring", "take", "command"})
INSTRUMENT = frozenset({"with", "using", "via", "by"})
_DETERMINERS = ARTICLES | {"their", "its", "these", "those", "any", "some", "one"}
_PLACED = frozenset({"to", "toward", "towards", "at", "near", "beside", "behind", "past",
                     "around", "into", "onto", "from", "of", "in", "on", "over", "under",
                     "across", "through", "along", "inside", "outside", "for", "about", "than",
                     "like", "as", "after", "before", "until", "between", "against", "off"})
_NOT_ONE = frozenset({"no", "not", "without", "never", "nor", "neither"})
OTHERS = "people"  # what a part found leaves it to: people, or a robot not the crew's
FOREIGN = "robot"
# a part that leaves it to others ends before an imperative after a comma ("the medics are
# waiting at x 2, y 3, send the rover there"), or after "and" or "then"
_JOINS = frozenset({"and", "then", "now", "please"})
ACTOR_WORDS = REFLEXIVE | PEOPLE | SOMEONE  # a request without any leaves nothing to others


def left_to_others(words: Sequence[str], seps: Sequence[str], start: int, end: int,
                   verbs: frozenset[str], robots: frozenset[str] = frozenset()
                   ) -> list[tuple[int, int, str]]:
    """The parts [start, end) of the sentence of words [start, end) that say someone other than
    the crew does it: each from its speaker, relaying verb, person or robot to the sentence's
    end, or to an imperative that follows (:func:`_part_end`), with whom (``OTHERS``, or
    ``FOREIGN``: a robot). ``verbs``: the first words of the crew's actions; ``robots``: the
    nouns of robots the crew does not have."""
    out: list[tuple[int, int, str]] = []
    k = start
    while k < end:
        word = words[k]
        begin = None
        who = OTHERS
        if word in REFLEXIVE and not (k > start and words[k - 1] == "for"):  # "see for myself"
            first = max(start, out[-1][1] if out else start)
            begin = next((j for j in range(k - 1, max(first, k - SPEAKER_REACH) - 1, -1)
                          if words[j] in SPEAKER), first)
        elif word in robots:
            begin, who = _robot_acts(words, start, end, k, verbs, out), FOREIGN
        elif k + 1 < end and (word in PEOPLE or (word in SOMEONE and words[k + 1] == "else")):
            relay = _relay(words, start, k, RELAY)
            nxt = k + 2 if words[k + 1] == "else" and k + 2 < end else k + 1  # "someone else"
            moves = _moves(words, nxt, end, verbs)
            sent = _relay(words, start, k, SENDING) if relay is None and words[nxt] == "to" \
                else None
            if relay is not None and (words[nxt] == "to" or moves):
                begin = relay  # "tell the medics to go ...", "have the medics drive ..."
            elif sent is not None:
                begin = sent  # "send the medics to x 2, y 3"
            elif relay is None and moves:
                begin = k  # "the visitors are walking ...", "while the medics go ..."
        if begin is None:
            k += 1
            continue
        stop = _part_end(words, seps, max(begin, k) + 1, end, verbs)
        out.append((begin, stop, who))
        k = stop
    return out


def _robot_acts(words: Sequence[str], start: int, end: int, k: int, verbs: frozenset[str],
                found: Sequence[tuple[int, int, str]]) -> int | None:
    """Where the part begins in which the robot named at word ``k`` acts (see ``DISPATCH``),
    or None where it is a place or a thing."""
    j = k - 1
    while j >= start and words[j] in _DETERMINERS:
        j -= 1
    before = words[j] if j >= start else ""
    if before in _PLACED or before in _NOT_ONE:
        return None  # "to the boat", "for the truck"; "no boats", "not the helicopter"
    if before in INSTRUMENT:  # "search ... with the helicopter": the action before it too
        return max(start, found[-1][1] if found else start)
    relay = _relay(words, start, k, DISPATCH)
    if relay is not None:
        return relay  # "send the boat to x 2, y 3", "launch the helicopter"
    return k if _moves(words, k + 1, end, verbs) else None  # "the boat should go to ..."


def _relay(words: Sequence[str], start: int, k: int, among: frozenset[str]) -> int | None:
    """Where a verb of ``among`` that tells or sends the one named at word ``k`` stands, in the
    few words before it ("tell the two field medics to ...", "send the boat")."""
    return next((j for j in range(k - 1, max(start, k - RELAY_REACH) - 1, -1)
                 if words[j] in among), None)


def _moves(words: Sequence[str], k: int, end: int, verbs: frozenset[str]) -> bool:
    """Whether a verb of moving or of the crew's actions stands at word ``k``, or past an
    auxiliary there ("the visitors are walking", "the boat should go")."""
    after = k + 1 if k + 1 < end and words[k] in AUXILIARIES else k
    return after < end and (words[after] in MOVING or words[after] in verbs)


def _part_end(words: Sequence[str], seps: Sequence[str], k: int, end: int,
              verbs: frozenset[str]) -> int:
    """Where a part that leaves it to others, from before word ``k``, ends: at the sentence's
    end, or before an imperative that follows a comma, "and" or "then" ("..., send the rover
    there", "... and then search x 0 to 5")."""
    for j in range(k, end):
        joined = "," in seps[j - 1] or ";" in seps[j - 1] or words[j - 1] in _JOINS
        if joined and words[j] in verbs:
            while j > k and words[j - 1] in _JOINS:
                j -= 1
            return j
    return end
