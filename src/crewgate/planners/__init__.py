"""Mission Planners: the Planner protocol and its backends (plugins; the scripted test double
ships in the package)."""

from crewgate.planners.base import Planner, PlannerOutput, PlanningRequest, feedback_text
from crewgate.planners.scripted import ScriptedPlanner

__all__ = ["Planner", "PlannerOutput", "PlanningRequest", "ScriptedPlanner", "feedback_text"]
