"""Noun phrases quoted from a request: a destination ("to the loading dock"), a source ("from
table_b"), an object ("bring the bottle"), a number attached to a parameter ("altitude of 5").
Parameter kinds fill themselves from a request with these (the offline planner's slot filling).

A phrase is quoted whole, up to the word that ends it. It resolves to a crew name only when the
whole phrase is a name or alias: "the charging bay" stays "charging bay" (the gate refuses it),
it never becomes ``charging``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from crewgate.text.vocabulary import BOUNDARY, Vocabulary

ARTICLES = frozenset({"the", "a", "an", "my", "our", "your", "this", "that"})
PRONOUNS = frozenset({"me", "us", "you", "him", "her", "them", "it", "everyone", "everybody"})
_ENDS = frozenset({"for", "please", "and", "then", "so", "now", "using", "with", "by", "at",
                   "on", "from", "to", "when", "once", "before", "after", "immediately"})

DEST = re.compile(r"\b(?:to|into|towards|toward)\s+(?:the\s+)?([a-z0-9_][a-z0-9_ \-']*)", re.I)
SOURCE = re.compile(r"\bfrom\s+(?:the\s+)?([a-z0-9_][a-z0-9_ \-']*)", re.I)
OBJECT = re.compile(
    r"\b(?:bring|take|carry|deliver|hand|pass|give|fetch|grab|get|load|move|lift|pick(?:\s+up)?"
    r"|ship|transport)\s+(?:me\s+|us\s+)?(?:the\s+|a\s+|an\s+)?([a-z0-9_][a-z0-9_ \-']*)", re.I)


def candidates(pattern: re.Pattern[str], text: str) -> Iterator[str]:
    """Per match, the noun phrase it starts: articles dropped, cut at a function word."""
    for m in pattern.finditer(text):
        kept: list[str] = []
        for word in re.split(r"[\s,.;:!?]+", m.group(1).strip()):
            bare = word.strip("'-").lower()
            if not bare or bare in _ENDS or (bare in BOUNDARY and kept) or re.fullmatch(
                    r"[-+]?\d+(\.\d+)?", bare):
                break
            if not kept and bare in PRONOUNS:
                break
            if not kept and bare in ARTICLES:
                continue
            kept.append(bare)
            if len(kept) == 4:
                break
        if kept:
            yield " ".join(kept)


def quote(pattern: re.Pattern[str], text: str, vocab: Vocabulary, *,
          known_only: bool = False, not_ending_in: frozenset[str] = frozenset()) -> str | None:
    """The first phrase the pattern captures: the canonical name when the whole phrase denotes
    one, else the phrase as written (unless ``known_only``). A phrase ending in one of
    ``not_ending_in`` (an action word: "give a friendly wave") is not quoted."""
    for candidate in candidates(pattern, text):
        resolved = vocab.resolve(candidate)
        if resolved is not None:
            return resolved
        if not known_only and candidate.split()[-1] not in not_ending_in:
            return candidate
    return None


def attached_number(name: str, text: str) -> float | None:
    """A number stated for this parameter: "altitude of 5", "5 m altitude"."""
    label = re.escape(name.replace("_", " "))
    m = re.search(rf"\b{label}\b\D{{0,12}}?([-+]?\d+(?:\.\d+)?)", text, re.I) or re.search(
        rf"([-+]?\d+(?:\.\d+)?)\s*(?:m|meters|metres)?\s+{label}\b", text, re.I)
    return float(m.group(1)) if m else None
