"""The Robot Orchestrator: the mission loop and the dispatcher (the only caller of adapters)."""

from crewgate.orchestrator.mission import MissionOptions, Orchestrator, new_mission_id
from crewgate.orchestrator.result import Attempt, Dispatched, MissionResult, Refusal

__all__ = ["Attempt", "Dispatched", "MissionOptions", "MissionResult", "Orchestrator", "Refusal",
           "new_mission_id"]
