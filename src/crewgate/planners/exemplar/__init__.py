"""The offline planner ``exemplar``: no network, no GPU, deterministic.

``planner`` chooses the workflow and scores the candidates; ``embedding`` compares sentences
(MiniLM in numpy, or a lexical fallback); ``phrases`` masks a request's values so that the choice
compares intents; ``cues`` reads which robots and actions a request names; ``slots`` fills a
contract's step template from what the request states.
"""

from crewgate.planners.exemplar.planner import ExemplarOptions, ExemplarPlanner

__all__ = ["ExemplarOptions", "ExemplarPlanner"]
