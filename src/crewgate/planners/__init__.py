"""Mission Planners: the ``Planner`` base class (the framework owns ``plan``: timing, usage,
error translation, option parsing; a backend implements ``_propose``), the plugin registry and
the backends. Top level: ``base``, ``options``, ``registry``, and the two backends without a
model, ``scripted`` (the test double that ships in the package) and ``replay``. Subpackages:
``exemplar`` (the offline default) and ``llm`` (openai, anthropic, llamacpp)."""

from crewgate.planners.base import (
    Planner,
    PlannerOutput,
    PlanningRequest,
    Proposal,
    feedback_text,
)
from crewgate.planners.options import PlannerOptions
from crewgate.planners.scripted import ScriptedPlanner

__all__ = ["Planner", "PlannerOptions", "PlannerOutput", "PlanningRequest", "Proposal",
           "ScriptedPlanner", "feedback_text"]
