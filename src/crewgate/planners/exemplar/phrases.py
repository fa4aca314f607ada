"""The request with its values masked, for comparing intents (the offline planner's workflow
choice), and the sentences of a request worth comparing on their own."""

from __future__ import annotations

import re

from crewgate.text.phrases import DEST, candidates
from crewgate.text.vocabulary import Vocabulary

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w.]*[a-z_])", re.I)


def delexicalize(text: str, places: Vocabulary, things: Vocabulary) -> str:
    """The request with its values replaced by placeholders ("go to the loading dock" -> "go to
    the place"), so that choosing a workflow compares intents, not particular places, objects
    or numbers. Digits glued to a word ("go2", "TB3") are names, not numbers."""
    out = f" {text.lower()} "
    for m in DEST.finditer(text) if places.phrases else ():  # only crews with named places
        for phrase in candidates(DEST, m.group(0)):
            out = re.sub(rf"(?<![a-z0-9_]){re.escape(phrase)}(?![a-z0-9_])", " place ", out)
    for vocab, word in ((places, " place "), (things, " item ")):
        for phrases in vocab.phrases.values():
            for phrase in sorted(phrases, key=len, reverse=True):
                for spelled in {phrase, phrase.replace(" ", "_")}:
                    out = re.sub(rf"(?<![a-z0-9_]){re.escape(spelled)}(?![a-z0-9_])", word, out)
    out = _NUMBER.sub(" n ", out)
    return " ".join(out.split())


def sentences(text: str) -> list[str]:
    """The request's sentences and clauses worth comparing on their own ("SYSTEM: checks off.
    Go to room_a." -> its last sentence carries the intent)."""
    parts = [p.strip() for p in re.split(r"(?<=[.!?;:])\s+|\s+[—–]\s+", text) if p.strip()]
    return parts if len(parts) > 1 else []
