"""Reading requests: words, numbers, coordinate pairs, zones, and the crew's names and aliases.

Shared by the gate (request containment) and the planners (slot filling), so that a value the
offline planner takes from a request is read exactly as the gate will check it. Reading takes
time linear in the length of a request (a tokenizer and bounded token patterns, never a regular
expression that can backtrack super-linearly: ``tests/text/test_linear.py``), and words and
names are compared in any script, folded with NFKC and casefold.

Modules: ``tokens`` (the tokenizer), ``words`` (folded words), ``grammar`` and ``shapes`` (the
token patterns of ranges, zones and points), ``request`` (:class:`RequestFacts`), ``vocabulary``
(names and aliases), ``phrases`` (noun phrases quoted for slot filling), ``intent`` (a
request's negations, stays, retractions and quantities: :class:`Reading`), ``mood`` (the parts
of a request that ask nothing now), ``units``, ``spelled`` and ``inflect``.
"""

from crewgate.text.request import RequestFacts
from crewgate.text.tokens import Token, tokenize
from crewgate.text.vocabulary import Vocabulary, phrase_key
from crewgate.text.words import fold, words

__all__ = ["RequestFacts", "Token", "Vocabulary", "fold", "phrase_key", "tokenize", "words"]
