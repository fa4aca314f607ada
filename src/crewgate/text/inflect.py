"""The -ing form of an English verb ("search" -> "searching", "take" -> "taking", "stop" ->
"stopping"), for reading an action named as a gerund ("skip searching", "landing is not
needed"). Regular spelling rules only: a crew's aliases are plain verbs; a word that is no verb
gets a form no request writes, which matches nothing."""

from __future__ import annotations

_VOWELS = frozenset("aeiou")


def gerund(verb: str) -> str:
    """The -ing form of a lower-case verb by the regular rules: a silent final "e" dropped
    ("take"), "ie" made "y" ("lie"), the last consonant of a one-vowel word that ends
    vowel-consonant doubled ("stop", "scan"; not "w", "x", "y")."""
    if len(verb) < 2 or not verb.isalpha():
        return verb + "ing"
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and verb[-2] not in "eoy":
        return verb[:-1] + "ing"
    vowels = [i for i, c in enumerate(verb) if c in _VOWELS]
    if len(vowels) == 1 and vowels[0] == len(verb) - 2 and verb[-1] not in "wxy" \
            and len(verb) > 2:
        return verb + verb[-1] + "ing"
    return verb + "ing"
