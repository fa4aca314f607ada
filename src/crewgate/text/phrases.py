"""Noun phrases quoted from a request: a destination ("to the loading dock"), a source ("from
table_b"), an object ("bring the bottle"), a number attached to a parameter ("altitude of 5").
Parameter kinds fill themselves from a request with these (the offline planner's slot filling).

A phrase is quoted whole, up to the word that ends it. It resolves to a crew name only when the
whole phrase is a name or alias: "the charging bay" stays "charging bay" (the gate refuses it),
it never becomes ``charging``. Phrases are read in any script, from the folded request
(:func:`crewgate.text.words.fold`): "to the 会议室" quotes "会议室".

Bounds: every expression here runs in time linear in the request. A trigger is matched only
at the start of a word; the whitespace after it is read once (atomic groups, so a failed match
never tries the run again); an optional word ("the", "me") is taken only when a phrase can start
after it, so nothing backtracks; the phrase itself is one run of one character class, the last
element of the expression. Matches do not overlap, so each character is read a bounded number of
times.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from crewgate.text.vocabulary import BOUNDARY, Vocabulary
from crewgate.text.words import fold, marks

ARTICLES = frozenset({"the", "a", "an", "my", "our", "your", "this", "that"})
PRONOUNS = frozenset({"me", "us", "you", "him", "her", "them", "it", "everyone", "everybody"})
_ENDS = frozenset({"for", "please", "and", "then", "so", "now", "using", "with", "by", "at",
                   "on", "from", "to", "when", "once", "before", "after", "immediately"})
_NUMBER = re.compile(r"[-+]?\d+(\.\d+)?")
_MAX_WORDS = 4


@dataclass(frozen=True, slots=True)
class Trigger:
    """The words that introduce a noun phrase ("to", "bring"), and the optional words that may
    stand between them and the phrase, in order ("me", then "the")."""

    words: tuple[str, ...]
    skips: tuple[tuple[str, ...], ...] = ()


DEST = Trigger(("to", "into", "towards", "toward"), (("the",),))
SOURCE = Trigger(("from",), (("the",),))
OBJECT = Trigger(("bring", "take", "carry", "deliver", "hand", "pass", "give", "fetch", "grab",
                  "get", "load", "move", "lift", "pick up", "pick", "ship", "transport"),
                 (("me", "us"), ("the", "a", "an")))


def _word_first(body: str, word: str) -> str:
    """A pattern for words (``body``, escaped) that starts a word: its first letter, then a check
    that no word character precedes it. An expression that starts with a literal lets the engine
    skip to the next occurrence of that letter instead of trying every position."""
    if not re.match(r"\w", body):  # not a plain letter first: check first
        return rf"(?<!{word}){body}"
    return rf"{body[0]}(?<!{word}.){body[1:]}"


@lru_cache(maxsize=64)
def _pattern(trigger: Trigger, mark_chars: str) -> re.Pattern[str]:
    word = rf"[\w{re.escape(mark_chars)}]"  # a word character ("_" included)
    start = rf"(?=(?>\s+){word})"  # whitespace, then a phrase (or a skipped word) can start
    words = "|".join(_word_first(r"(?>\s+)".join(map(re.escape, w.split())), word) + start
                     for w in trigger.words)
    skips = "".join(rf"(?:(?:{'|'.join(map(re.escape, s))})(?>\s+)(?={word}))?"
                    for s in trigger.skips)
    return re.compile(rf"(?:{words})(?>\s+){skips}({word}[\w{re.escape(mark_chars)} \-']*)")


def candidates(trigger: Trigger, text: str) -> Iterator[str]:
    """Per phrase the trigger introduces, the noun phrase: articles dropped, cut at a function
    word or a number, at most four words; words keep their "_", "-" and "'" ("room_b")."""
    folded = fold(text)
    for m in _pattern(trigger, marks(folded)).finditer(folded):
        kept: list[str] = []
        for word in m.group(1).split():
            bare = word.strip("'-")
            if not bare or bare in _ENDS or (bare in BOUNDARY and kept) or _NUMBER.fullmatch(
                    bare):
                break
            if not kept and bare in PRONOUNS:
                break
            if not kept and bare in ARTICLES:
                continue
            kept.append(bare)
            if len(kept) == _MAX_WORDS:
                break
        if kept:
            yield " ".join(kept)


def quote(trigger: Trigger, text: str, vocab: Vocabulary, *,
          known_only: bool = False, not_ending_in: frozenset[str] = frozenset()) -> str | None:
    """The first phrase the trigger introduces: the canonical name when the whole phrase denotes
    one, else the phrase as written (unless ``known_only``). A phrase ending in one of
    ``not_ending_in`` (an action word: "give a friendly wave") is not quoted."""
    for candidate in candidates(trigger, text):
        resolved = vocab.resolve(candidate)
        if resolved is not None:
            return resolved
        if not known_only and candidate.split()[-1] not in not_ending_in:
            return candidate
    return None


@lru_cache(maxsize=256)
def _attached(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    label = re.escape(fold(name.replace("_", " ")))
    return (
        # "altitude of 5": the label, at most 12 other characters, the number
        re.compile(_word_first(label, r"\w") + r"\b\D{0,12}?([-+]?\d+(?:\.\d+)?)"),
        # "5 m altitude": the number, read whole (from a sign, or a digit no digit precedes),
        # a unit, the label
        re.compile(r"([-+\d](?:(?<=[-+])(?>\d+(?:\.\d+)?)|(?<=\d)(?<!\d\d)(?>\d*(?:\.\d+)?)))"
                   rf"(?:(?>\s*)(?:m|meters|metres)(?>\s+)|(?>\s+)){label}\b"),
    )


def attached_number(name: str, text: str) -> float | None:
    """A number stated for this parameter: "altitude of 5", "5 m altitude"."""
    after, before = _attached(name)
    folded = fold(text)
    m = after.search(folded) or before.search(folded)
    return float(m.group(1)) if m else None
