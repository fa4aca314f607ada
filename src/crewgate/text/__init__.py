"""Reading requests: words, numbers, coordinate pairs, zones, and the crew's names and aliases.

Shared by the gate (request containment) and the planners (slot filling), so that a value the
offline planner takes from a request is read exactly as the gate will check it.
"""

from crewgate.text.request import RequestFacts, words
from crewgate.text.vocabulary import Vocabulary, phrase_key

__all__ = ["RequestFacts", "Vocabulary", "phrase_key", "words"]
