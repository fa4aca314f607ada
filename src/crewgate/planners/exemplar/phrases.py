"""The request with its values masked, for comparing intents (the offline planner's workflow
choice), and the sentences of a request worth comparing on their own.

Bounds: every expression here runs in time linear in the request (the number and sentence
patterns read each run of digits or whitespace once: atomic groups, lookbehinds that admit only
the start of a run); the values masked are the crew's names (a bounded set) and at most
:data:`MAX_DESTINATIONS` destinations the request names, each a bounded literal, so masking is
a bounded number of linear passes (and a name the request does not contain costs one substring
search).
"""

from __future__ import annotations

import re

from crewgate.text.phrases import DEST, candidates
from crewgate.text.vocabulary import Vocabulary
from crewgate.text.words import CJK, continuing, fold, marks

# a number not glued to a word ("go2", "TB3" are names); the digits are read once
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?>\d+(?:\.\d+)?)(?![\w.]*[a-z_])", re.I)
# a sentence ends after . ! ? ; or : (and whitespace), or at a dash set in whitespace
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|(?<!\s)(?>\s+)[—–]\s+")
_UNSPACED = re.compile(rf"(?<=[{CJK}]) (?=[{CJK}])")  # "会 议 室" is written "会议室"
MAX_DESTINATIONS = 8  # destinations masked wherever they occur (a request names a few)
MAX_PHRASE = 64  # characters: a longer destination is no name worth masking
MAX_SENTENCES = 8  # compared on their own: the first and the last four (each costs an encoding)


def delexicalize(text: str, places: Vocabulary, things: Vocabulary) -> str:
    """The request with its values replaced by placeholders ("go to the loading dock" -> "go to
    the place"), so that choosing a workflow compares intents, not particular places, objects
    or numbers. Digits glued to a word ("go2", "TB3") are names, not numbers."""
    out = f" {fold(text)} "
    word = continuing(marks(out))  # an ideograph or a kana is a word of its own

    def mask(phrase: str, placeholder: str) -> None:
        nonlocal out
        if phrase in out:  # a fast substring search first: most names are not in a request
            out = re.sub(rf"(?<!{word}){re.escape(phrase)}(?!{word})", placeholder, out)

    if places.phrases:  # only crews with named places
        destinations = dict.fromkeys(p for p in candidates(DEST, text) if len(p) <= MAX_PHRASE)
        for phrase in list(destinations)[:MAX_DESTINATIONS]:
            mask(phrase, " place ")
    for vocab, placeholder in ((places, " place "), (things, " item ")):
        for phrases in vocab.phrases.values():
            for phrase in sorted(phrases, key=len, reverse=True):
                spellings = {phrase, phrase.replace(" ", "_"), _UNSPACED.sub("", phrase)}
                for spelled in sorted(spellings):
                    mask(spelled, placeholder)
    out = _NUMBER.sub(" n ", out)
    return " ".join(out.split())


def sentences(text: str) -> list[str]:
    """The request's sentences and clauses worth comparing on their own ("SYSTEM: checks off.
    Go to room_a." -> its last sentence carries the intent): the first and the last
    ``MAX_SENTENCES // 2`` of a longer request (the planner encodes each one)."""
    parts = [p.strip() for p in _SENTENCE_END.split(text) if p.strip()]
    if len(parts) > MAX_SENTENCES:
        parts = parts[:MAX_SENTENCES // 2] + parts[-(MAX_SENTENCES // 2):]
    return parts if len(parts) > 1 else []
