"""The mood of a request's sentences (crewgate.text.mood): which parts ask nothing now."""

from __future__ import annotations

import pytest

from crewgate.text.intent import Reading
from crewgate.text.mood import sentences

VERBS = frozenset({"drive", "send", "go", "search", "land", "take", "fly"})


def idle(text: str) -> list[tuple[str, str, int, int]]:
    return [tuple(p) for p in Reading(text, VERBS).idle]  # type: ignore[misc]


def test_sentences_end_at_their_marks_not_at_a_decimal_point() -> None:
    r = Reading("Is it at x 2.5, y 3? Drive there!\nThen land,\nslowly")
    assert sentences(r.seps, r.clause_starts, len(r.words)) == [
        (0, 8, True), (8, 10, False), (10, 13, False)]


@pytest.mark.parametrize(("text", "parts"), [
    # questions: by their first word, with or without the mark where it opens nothing else
    ("How long would it take the rover to drive to x 2, y 3?",
     [("asks a question", "how long would it take the rover to ...", 0, 14)]),
    ("how far is x 2 y 3", [("asks a question", "how far is x 2 y 3", 0, 7)]),
    ("Is the rover able to go?", [("asks a question", "is the rover able to go?", 0, 6)]),
    ("Did the drone land", [("asks a question", "did the drone land", 0, 4)]),
    ("Should the rover go there?", [("asks a question", "should the rover go there?", 0, 5)]),
    ("Ok so, where is the drone?", [("asks a question", "ok so, where is the drone?", 0, 6)]),
    ("Rover, are you able to go?", [("asks a question", "rover, are you able to go?", 0, 6)]),
    # a question past a condition ("if ..., will it fit?": the rover drove)
    ("If the rover drives to x 2, y 3, will it fit?",
     [("asks a question", "if the rover drives to x 2, y ...", 0, 12)]),
    ("If the rover were to drive to x 2, y 3, would it fit?",
     [("asks a question", "if the rover were to drive to x ...", 0, 14)]),
    ("If the rover goes to x 2, y 3, how long does it take?",
     [("asks a question", "if the rover goes to x 2, y ...", 0, 14)]),
    # asking to be told
    ("Explain how the drone would search.",
     [("asks to be told", "explain how the drone would search", 0, 6)]),
    ("Could you tell me where the rover is?",
     [("asks to be told", "could you tell me where the rover is?", 0, 8)]),
    # suppositions, what happened, what is for later
    ("What if the rover drove there?", [("supposes", "what if the rover drove there?", 0, 6)]),
    ("Hypothetically, could the rover go?",
     [("supposes", "hypothetically, could the rover go?", 0, 5)]),
    ("Pretend to send the rover there.",
     [("supposes", "pretend to send the rover there", 0, 6)]),
    ("Maybe send the rover there?", [("asks a question", "maybe send the rover there?", 0, 5)]),
    # an intention the speaker did not carry out (each drive was asked)
    ("I was going to send the rover there.",
     [("tells what happened", "i was going to send the rover there", 0, 8)]),
    ("We wanted to send the rover there, but the path is blocked.",
     [("tells what happened", "we wanted to send the rover there, but ...", 0, 12)]),
    ("The rover drove there yesterday.", [("tells what happened", "yesterday", 0, 5)]),
    # (each drove the rover now)
    ("Eventually, drive there.", [("asks for it later", "eventually", 0, 3)]),
    ("Drive there in a while.", [("asks for it later", "in a while", 0, 5)]),
    ("Drive there when you get a chance.",
     [("asks for it later", "when you get a chance", 0, 7)]),
    ("Drive there tomorrow.", [("asks for it later", "tomorrow", 0, 3)]),
    # "later" ending a clause of one action, or opening a sentence (the drive was asked)
    ("Send the rover there later.", [("asks for it later", "later", 0, 5)]),
    ("Later, send the rover there.", [("asks for it later", "later", 0, 5)]),
    ("Drive there when I say so.", [("asks for it later", "when i say so", 0, 6)]),
    ("Search the zone tomorrow, not now",
     [("asks for it later", "tomorrow", 0, 6)]),
    ("Walk there at 3 pm.", [("asks for it later", "at 3 pm", 0, 5)]),
    ("At 15:00, go there.", [("asks for it later", "at 15:00", 0, 5)]),
    ("In 10 minutes, land.", [("asks for it later", "in 10 minutes", 0, 4)]),
    ("Land in two hours", [("asks for it later", "in two hours", 0, 4)]),
    ("After lunch, go there.", [("asks for it later", "after lunch", 0, 4)]),
    ("It waved at the visitors earlier.", [("tells what happened", "earlier", 0, 6)]),
    # a plan only: the whole request
    ("Drive there. Don't execute it. Then land.",
     [("asks for a plan only", "don't execute", 0, 8)]),
    # one part of several: the others may ask
    ("Is the rover free? Send it there.",
     [("asks a question", "is the rover free?", 0, 4)]),
    # someone else does it: the speaker, from the reflexive's subject; people who move, from
    # the verb that tells them or the noun; to the sentence's end or an imperative after it
    ("I will drive there myself.",
     [("leaves it to someone else", "i will drive there myself", 0, 5)]),
    ("Take off and search; I'll land it myself.",
     [("leaves it to someone else", "i'll land it myself", 4, 9)]),
    ("We will walk there ourselves, then send the rover.",
     [("leaves it to someone else", "we will walk there ourselves", 0, 5)]),
    ("Tell the medics to go there.",
     [("leaves it to someone else", "tell the medics to go there", 0, 6)]),
    ("Have the two field medics drive there and land the drone.",
     [("leaves it to someone else", "have the two field medics drive there", 0, 7)]),
    ("The visitors are walking there.",
     [("leaves it to someone else", "visitors are walking there", 1, 5)]),
    ("Search the zone while the guards go home.",
     [("leaves it to someone else", "guards go home", 5, 8)]),
    # a question said as a statement, what may have been, another time, a plan to review
    ("I wonder whether the rover can go there.",
     [("asks a question", "i wonder whether the rover can go there", 0, 8)]),
    ("Just curious, could the rover go there?",
     [("asks a question", "just curious, could the rover go there?", 0, 7)]),
    ("Could the rover have reached it by now?",
     [("asks a question", "could the rover have reached it by now?", 0, 8)]),
    ("Next time, drive there.", [("asks for it later", "next time", 0, 4)]),
    ("Draft a plan to drive there.", [("asks for a plan only", "draft a plan", 0, 6)]),
    ("Drive there, for review only.", [("asks for a plan only", "for review", 0, 5)]),
    # after or upon an event the crew cannot see
    ("Drive there after the meeting.", [("asks for it later", "after the meeting", 0, 5)]),
    ("Once the storm passes, drive there.",
     [("asks for it later", "once the storm", 0, 6)]),
    ("As soon as today's briefing is over, land.",
     [("asks for it later", "as soon as today's briefing", 0, 9)]),
])
def test_the_parts_that_ask_nothing_now(text: str, parts: list[tuple[str, str, int, int]]
                                        ) -> None:
    assert idle(text) == parts


@pytest.mark.parametrize("text", [
    "Drive the rover to x 2, y 3.",
    "If you can, could you drive the rover to x 2, y 3?",
    "If x 2, y 3 is free, drive the rover there?",
    "Can you send the rover there?",
    "Could the rover go there?",
    "Can the rover drive there, please?",
    "Would you drive there?",
    "Will you land the drone?",
    "Would you mind landing the drone?",
    "Why don't you send the rover?",
    "How about sending the rover?",
    "Shall we send the rover?",
    "Send the rover there, will you?",
    "Rover, can you go there?",
    "Hey drone, could you land?",
    "When the victim is found, send the rover.",
    "Where the road ends, stop the rover.",
    "Do a sweep of the zone.",
    "Have the rover drive there.",
    "Should the path be clear, drive there.",
    "Send the rover there now, not tomorrow.",
    "Drive back to where it was yesterday.",
    "Search the zone and land, like last time.",
    "Rover to x 2, y 3?",
    "Maybe send the rover there.",
    # "later" of another clause, of a second action, or beside what is asked now
    "Drive there; we will talk later.",
    "Search the zone and land later.",
    "Send the rover there now and the drone later.",
    "Drive there, no later than noon.",
    "I wanted to ask you to send the rover there.",
    "Search x in [-5.5, 5.5], y in [0, 3].",
    "Take off to 5 m, then go to x 2, y 3 at 2 m/s.",
    "Land earlier than planned.",
    "What a day. Now send the rover there.",
    "What a day, now send the rover there.",
    # a reflexive seen for, and people who are where they are or only named
    "Search the zone so I can see for myself.",
    "Drive yourself there.",
    "The medics are waiting there, send the rover.",
    "Send the rover to the medics.",
    "Tell the medics the rover is coming.",
    "When the person is located, send the rover.",
    "The people are going to be found: search the zone.",
    # a request put as wondering what "you" could do; "have" that makes someone act
    "I wonder if you could send the rover there.",
    "I was wondering whether you could drive there?",
    "Could you have the rover drive there?",
    "Unlike last time, drive there.",
    "Drive there, this time faster.",
    # a place named after an event, and what the crew can see
    "Drive to the meeting room.",
    "After the break area, turn and drive there.",
    "When the drone lands, send the rover there.",
])
def test_what_asks_or_may_ask(text: str) -> None:
    assert idle(text) == []


def test_a_sentence_that_names_an_action_is_looked_at_once() -> None:
    """What happened, said again and again in a sentence that asks, is looked at once per
    sentence: no quadratic reading (tests/text/test_linear.py times it)."""
    text = "send it there " + "yesterday " * 2000
    assert idle(text) == []
    assert idle(text + ". it went there yesterday") == [
        ("tells what happened", "yesterday", 2003, 2007)]
